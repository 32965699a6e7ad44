internal import CLibNM

/// An `NMRemoteConnection`: a profile stored in NetworkManager.
final class LibNMRemoteConnection {
    let object: GObjectRef

    init(_ object: GObjectRef) {
        self.object = object
    }

    /// The profile's name, such as `HomeWiFi`.
    var id: String { nm_connection_get_id(object.opaque).map { String(cString: $0) } ?? "" }

    /// Whether both are the same stored profile.
    func isSameProfile(as other: LibNMRemoteConnection?) -> Bool {
        object.isSameObject(as: other?.object)
    }

    /// Deletes the profile; used for the profile a pre-1.16 NetworkManager keeps after deactivation.
    nonisolated(nonsending) func delete() async throws {
        do {
            try await gAsyncCall("Settings.Connection.Delete") { callback, data in
                nm_remote_connection_delete_async(object.opaque, nil, callback, data)
            } finish: { [object] _, result in
                var error: UnsafeMutablePointer<GError>?
                guard nm_remote_connection_delete_finish(object.opaque, result, &error) != 0 else {
                    throw GLibError(taking: error)
                }
            }
        } catch let error as GLibError {
            throw error.reported(during: "deleting profile \(id)")
        }
    }
}
