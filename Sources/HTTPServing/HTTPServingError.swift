/// Why the server could not listen: the address is not this host's, the port is taken or not allowed.
public struct HTTPServingError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
