internal import CLibNM

/// A `GError` copied into Swift, with the few distinctions the joiner acts on.
struct GLibError: Error {
    let domain: GQuark
    let code: Int32
    let message: String

    /// Copies and frees the error a failed GLib call left behind.
    init(taking error: UnsafeMutablePointer<GError>?) {
        guard let error else {
            // A failed call that sets no error breaks GLib's contract; keep going with a plain message.
            self.init(domain: 0, code: 0, message: "failed without an error message")
            return
        }
        self.init(
            domain: error.pointee.domain, code: error.pointee.code, message: String(cString: error.pointee.message))
        g_error_free(error)
    }

    private init(domain: GQuark, code: Int32, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// The call was stopped through its `GCancellable`.
    var isCancellation: Bool {
        matches(g_io_error_quark(), CLibNM_IO_ERROR_CANCELLED.rawValue)
    }

    /// NetworkManager (polkit) or the bus policy refused the caller.
    var isPermissionDenied: Bool {
        matches(nm_manager_error_quark(), CLibNM_MANAGER_ERROR_PERMISSION_DENIED.rawValue)
            || matches(nm_settings_error_quark(), CLibNM_SETTINGS_ERROR_PERMISSION_DENIED.rawValue)
            || matches(g_dbus_error_quark(), CLibNM_DBUS_ERROR_ACCESS_DENIED.rawValue)
    }

    /// The service lacks the method, such as `AddAndActivateConnection2` before NetworkManager 1.16.
    var isUnknownMethod: Bool {
        matches(g_dbus_error_quark(), CLibNM_DBUS_ERROR_UNKNOWN_METHOD.rawValue)
    }

    /// The request was refused because of the object's state, such as a scan while one is running.
    var isNotAllowed: Bool {
        matches(nm_device_error_quark(), CLibNM_DEVICE_ERROR_NOT_ALLOWED.rawValue)
    }

    /// NetworkManager started the work, but the object it returned was gone before libnm could load
    /// it: an activation that failed at once.
    var isVanishedObject: Bool {
        matches(nm_client_error_quark(), CLibNM_CLIENT_ERROR_OBJECT_CREATION_FAILED.rawValue)
    }

    /// The deactivation target had already gone inactive.
    var isConnectionNotActive: Bool {
        matches(nm_manager_error_quark(), CLibNM_MANAGER_ERROR_CONNECTION_NOT_ACTIVE.rawValue)
    }

    /// The error as the joiner reports it: cancellation stays `CancellationError`.
    func reported(during operation: String) -> any Error {
        if isCancellation { return CancellationError() }
        if isPermissionDenied { return NetworkManagerError.permissionDenied(operation: operation, message: message) }
        return NetworkManagerError.operationFailed(operation: operation, message: message)
    }

    private func matches(_ domain: GQuark, _ code: UInt32) -> Bool {
        self.domain == domain && self.code == Int32(bitPattern: code)
    }
}
