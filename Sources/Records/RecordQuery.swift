public import FoundationEssentials

/// Which records `ztprov report` exports.
public struct RecordQuery: Sendable, Equatable {
    /// Only attempts that started at or after this instant.
    public var since: Date?
    /// Only attempts made by this station.
    public var station: String?

    public init(since: Date? = nil, station: String? = nil) {
        self.since = since
        self.station = station
    }
}
