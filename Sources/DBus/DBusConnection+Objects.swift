/// Objects this connection serves with fixed answers, such as a BlueZ pairing agent that accepts
/// "Just Works" and refuses anything that needs a person.
extension DBusConnection {
    /// How one incoming method call is answered.
    public enum CannedAnswer: Sendable, Equatable {
        /// An empty method return.
        case empty
        /// An error reply with this name and message.
        case error(name: String, message: String)
    }

    /// Answers every method call to `path` on the loop thread with what `answer` says for its interface
    /// and member; calls to other paths are left to libdbus (which answers `UnknownMethod`).
    public func serve(
        _ path: DBusObjectPath, answer: @escaping @Sendable (_ interface: String, _ member: String) -> CannedAnswer
    ) {
        servedObjects[path.rawValue] = answer
    }

    /// Stops serving `path`.
    public func stopServing(_ path: DBusObjectPath) {
        servedObjects[path.rawValue] = nil
    }

    /// The answer for a method call to a served object, nil when the path is not served; runs on the loop
    /// thread from the filter.
    func cannedAnswer(path: String, interface: String, member: String) -> CannedAnswer? {
        servedObjects[path].map { $0(interface, member) }
    }
}
