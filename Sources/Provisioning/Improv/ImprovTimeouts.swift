public import Improv

/// Per-step waits of the Improv flow; the whole operation is bounded separately by a deadline.
public struct ImprovTimeouts: Sendable, Equatable {
    /// One characteristic read (capabilities, state).
    public var read: Duration
    /// One ATT write with response of an RPC piece.
    public var write: Duration
    /// The person pressing the device's button; announced on the terminal.
    public var authorization: Duration
    /// The join after send Wi-Fi settings: the device tries the network before it answers.
    public var wifiJoin: Duration
    /// The device's Wi-Fi scan, up to its first result.
    public var scan: Duration
    /// The quiet after a scan result that ends a scan sent without a terminating empty result.
    public var scanQuiet: Duration
    /// Any other command's result (device info, hostname, device name).
    public var result: Duration

    /// The defaults suit a real device; tests pass milliseconds.
    public init(
        read: Duration = .seconds(10),
        write: Duration = .seconds(10),
        authorization: Duration = .seconds(60),
        wifiJoin: Duration = .seconds(60),
        scan: Duration = .seconds(20),
        scanQuiet: Duration = .seconds(2),
        result: Duration = .seconds(10)
    ) {
        self.read = read
        self.write = write
        self.authorization = authorization
        self.wifiJoin = wifiJoin
        self.scan = scan
        self.scanQuiet = scanQuiet
        self.result = result
    }

    /// The wait for `reply`.
    public func timeout(for reply: ImprovAwaitedReply) -> Duration {
        switch reply {
        case .authorization: authorization
        case .result(.sendWiFiSettings): wifiJoin
        case .result(.scanWiFiNetworks): scan
        case .result: result
        case .moreNetworks: scanQuiet
        }
    }
}
