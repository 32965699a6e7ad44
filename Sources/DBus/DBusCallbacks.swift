import CDBus

/// What a libdbus callback needs to find its way back: the connection (weakly, so libdbus never keeps it
/// alive) and, for a pending call, which call it was. Retained into C and released by libdbus's free function.
final class DBusCallbackContext: Sendable {
    weak let connection: DBusConnection?
    let token: UInt64

    init(connection: DBusConnection, token: UInt64) {
        self.connection = connection
        self.token = token
    }
}

/// The C entry points handed to libdbus. They run on the loop thread, inside `dbus_connection_dispatch`.
enum DBusCallbacks {
    static let releaseContext: DBusFreeFunction = { context in
        guard let context else { return }
        Unmanaged<DBusCallbackContext>.fromOpaque(context).release()
    }

    static let replyArrived: DBusPendingCallNotifyFunction = { pending, context in
        guard let pending, let context, let reply = dbus_pending_call_steal_reply(pending) else { return }
        defer { dbus_message_unref(reply) }
        let callback = Unmanaged<DBusCallbackContext>.fromOpaque(context).takeUnretainedValue()
        let result = decodeReply(reply)
        callback.connection?.assumeIsolated { $0.replyArrived(callback.token, result) }
    }

    static let filter: DBusHandleMessageFunction = { bus, message, context in
        if let bus, let message, let context, dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL {
            let callback = Unmanaged<DBusCallbackContext>.fromOpaque(context).takeUnretainedValue()
            return answer(message, on: bus, callback: callback)
        }
        guard let message, let context, dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL,
            let signal = decodeSignal(message)
        else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let callback = Unmanaged<DBusCallbackContext>.fromOpaque(context).takeUnretainedValue()
        callback.connection?.assumeIsolated { $0.signalArrived(signal) }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }

    /// Answers a method call to an object the connection serves; others are left to libdbus.
    private static func answer(_ message: OpaquePointer, on bus: OpaquePointer, callback: DBusCallbackContext)
        -> DBusHandlerResult
    {
        let text = { (pointer: UnsafePointer<CChar>?) in pointer.map { String(cString: $0) } ?? "" }
        let (path, interface, member) = (
            text(dbus_message_get_path(message)), text(dbus_message_get_interface(message)),
            text(dbus_message_get_member(message))
        )
        guard
            let answer = callback.connection?.assumeIsolated({
                $0.cannedAnswer(path: path, interface: interface, member: member)
            }) ?? nil
        else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let reply: OpaquePointer? =
            switch answer {
            case .empty: dbus_message_new_method_return(message)
            case .error(let name, let description): dbus_message_new_error(message, name, description)
            }
        if let reply {
            if dbus_message_get_no_reply(message) == 0 { _ = dbus_connection_send(bus, reply, nil) }
            dbus_message_unref(reply)
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    private static func decodeReply(_ reply: OpaquePointer) -> Result<[DBusValue], DBusError> {
        let arguments: [DBusValue]
        do {
            arguments = try DBusMessageReader.arguments(of: reply)
        } catch {
            return .failure(error)
        }
        guard dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR else { return .success(arguments) }
        let name = dbus_message_get_error_name(reply).map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        return .failure(DBusError(name: name, message: arguments.first?.string ?? ""))
    }

    private static func decodeSignal(_ message: OpaquePointer) -> DBusSignal? {
        guard let path = dbus_message_get_path(message), let interface = dbus_message_get_interface(message),
            let member = dbus_message_get_member(message),
            let arguments = try? DBusMessageReader.arguments(of: message)
        else { return nil }
        return DBusSignal(
            sender: dbus_message_get_sender(message).map { String(cString: $0) },
            path: DBusObjectPath(unchecked: String(cString: path)), interface: String(cString: interface),
            member: String(cString: member), arguments: arguments)
    }
}

/// libdbus's watches on the connection's socket: during the handshake only they say whether the transport
/// has bytes to write (the queue of messages waits for the handshake), so the loop polls for writing only then
/// and never spins on a writable socket while it waits for the bus to answer. Touched on the loop thread only,
/// inside libdbus calls made there.
final class DBusSocketWatches: @unchecked Sendable {
    private(set) var watches: [OpaquePointer] = []

    /// Whether an enabled watch wants to write.
    var wantsToWrite: Bool {
        watches.contains {
            dbus_watch_get_enabled($0) != 0 && dbus_watch_get_flags($0) & DBUS_WATCH_WRITABLE.rawValue != 0
        }
    }

    static let add: DBusAddWatchFunction = { watch, context in
        guard let watch, let context else { return 0 }
        Unmanaged<DBusSocketWatches>.fromOpaque(context).takeUnretainedValue().watches.append(watch)
        return 1
    }

    static let remove: DBusRemoveWatchFunction = { watch, context in
        guard let watch, let context else { return }
        Unmanaged<DBusSocketWatches>.fromOpaque(context).takeUnretainedValue().watches.removeAll { $0 == watch }
    }

    static let release: DBusFreeFunction = { context in
        guard let context else { return }
        Unmanaged<DBusSocketWatches>.fromOpaque(context).release()
    }
}
