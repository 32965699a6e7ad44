internal import CLibNM

/// One strong reference to a GObject (an `NMClient`, `NMDevice`, …), released when this goes away.
///
/// Never leaves the libnm thread: the actor holding it runs there, so the final unref does too.
final class GObjectRef {
    let raw: UnsafeMutableRawPointer

    /// Takes over a reference the caller owns (a `transfer full` return value).
    init(adopting raw: UnsafeMutableRawPointer) {
        self.raw = raw
    }

    /// Adds a reference of its own to an object borrowed from libnm (a `transfer none` return value).
    convenience init(retaining raw: UnsafeMutableRawPointer) {
        self.init(adopting: g_object_ref(raw))
    }

    /// The same object as libnm's function signatures want it.
    var opaque: OpaquePointer { OpaquePointer(raw) }

    /// Whether both refer to the same object; libnm keeps one object per D-Bus path.
    func isSameObject(as other: GObjectRef?) -> Bool {
        raw == other?.raw
    }

    deinit {
        g_object_unref(raw)
    }
}

extension GObjectRef {
    /// Wraps a borrowed pointer that may be NULL.
    convenience init?(retaining opaque: OpaquePointer?) {
        guard let opaque else { return nil }
        self.init(retaining: UnsafeMutableRawPointer(opaque))
    }
}
