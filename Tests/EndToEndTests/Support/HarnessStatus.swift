/// What `harness.py status` reports: whether every component still runs and what is still present.
struct HarnessStatus: Sendable, Decodable {
    /// One recorded component.
    struct Component: Sendable, Decodable {
        /// Its PID as recorded at start.
        let pid: Int32
        /// True while that very process (PID and start time) is alive.
        let running: Bool
    }

    /// True when components were started and all of them still run.
    let up: Bool
    /// True while the bus socket exists.
    let busSocket: Bool
    /// Component name → its state.
    let processes: [String: Component]
    /// Namespace name → whether it exists.
    let netns: [String: Bool]

    private enum CodingKeys: String, CodingKey {
        case up, processes, netns
        case busSocket = "bus_socket"
    }

    /// Decodes the report; a run directory without state (never up, or removed) reports only `up`.
    init(from decoder: any Decoder) throws {
        let report = try decoder.container(keyedBy: CodingKeys.self)
        up = try report.decode(Bool.self, forKey: .up)
        busSocket = try report.decodeIfPresent(Bool.self, forKey: .busSocket) ?? false
        processes = try report.decodeIfPresent([String: Component].self, forKey: .processes) ?? [:]
        netns = try report.decodeIfPresent([String: Bool].self, forKey: .netns) ?? [:]
    }
}
