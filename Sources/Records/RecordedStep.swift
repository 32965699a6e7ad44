/// One step of an attempt and its duration, e.g. `connect` 412 ms.
public struct RecordedStep: Sendable, Equatable, Codable {
    /// The step's stable name: scan, connect, negotiate, configure, join, join-hotspot, session, handoff.
    public var name: String
    public var milliseconds: Int

    public init(name: String, milliseconds: Int) {
        self.name = name
        self.milliseconds = milliseconds
    }

    public init(name: String, duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(name: name, milliseconds: Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}
