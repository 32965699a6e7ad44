public import CryptoPrimitives
public import Logging
public import Transports
public import ZhitingLAN

/// What every LAN flow (discovery, hand-off) works with: the channel over one datagram link, the
/// timeouts, how requests are framed, and where session keys come from.
public struct LANFlowSetup: Sendable {
    let channel: LANChannel
    let timeouts: LANTimeouts
    let framing: ZhitingRequestFraming
    let random: any RandomSource

    /// A setup over `link`; `random` supplies the session keys (inject a seeded source in tests).
    public init(
        link: any DatagramLink,
        timeouts: LANTimeouts = LANTimeouts(),
        framing: ZhitingRequestFraming = ZhitingRequestFraming(),
        random: any RandomSource = SystemRandomSource(),
        logger: Logger
    ) {
        channel = LANChannel(link: link, logger: logger)
        self.timeouts = timeouts
        self.framing = framing
        self.random = random
    }
}
