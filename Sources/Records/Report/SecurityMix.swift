/// How the provisioned units of a report were secured, for the security team: units per security, and the
/// units whose credentials went in plaintext or to a device that never proved it was the one meant.
///
/// It counts units (one device key within one batch) by their final successful attempt; a unit recorded
/// before the security was kept counts as unrecorded, neither flagged nor cleared.
public struct SecurityMix: Sendable, Equatable {
    /// Provisioned units that ran one security.
    public struct Row: Sendable, Equatable {
        /// The security as stored (`blufi-v2`); nil for units recorded without it.
        public var security: ProvisioningSecurity?
        public var units: Int
    }

    /// A provisioned unit the audit flags.
    public struct FlaggedUnit: Sendable, Equatable {
        public var deviceKey: String
        public var station: String
        public var security: ProvisioningSecurity
    }

    /// Most units first.
    public var rows: [Row]
    /// Units whose credentials travelled in plaintext (BluFi without security, protocomm security 0, Improv
    /// on a plain link).
    public var plaintext: [FlaggedUnit]
    /// Units whose credentials were encrypted but that proved no possession (BluFi, protocomm security 1
    /// without a PoP).
    public var withoutProof: [FlaggedUnit]

    public init(_ records: [ProvisioningRecord]) {
        let provisioned = records.filter { $0.isFinal && $0.succeeded }
        rows = Dictionary(grouping: provisioned, by: \.securedWith).map { Row(security: $0, units: $1.count) }
            .sorted { ($0.units, $1.security?.text ?? "") > ($1.units, $0.security?.text ?? "") }
        let flagged = provisioned.compactMap { record in
            record.securedWith.map { FlaggedUnit(deviceKey: record.deviceKey, station: record.station, security: $0) }
        }.sorted { ($0.station, $0.deviceKey) < ($1.station, $1.deviceKey) }
        plaintext = flagged.filter { $0.security.level == .none }
        withoutProof = flagged.filter { $0.security.level == .encrypted }
    }
}
