internal import CLibNM

/// libnm, which ztprov loads when it first needs it rather than links: only the commands that join a
/// hotspot map libnm, GLib, GObject and GIO (Sources/CLibNM).
enum LibNMLibrary {
    /// Loads libnm unless it is loaded already; throws when this host cannot load it.
    static func load() throws(NetworkManagerError) {
        if let failure = CLibNM_load() { throw .libraryUnavailable(message: String(cString: failure)) }
    }
}
