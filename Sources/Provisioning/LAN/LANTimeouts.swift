/// Per-step waits of the LAN flows; the whole operation is bounded separately by a deadline.
///
/// The apps send everything once and wait up to 15 s; on a lossy Wi-Fi a
/// resent hello or request recovers much faster, so the defaults retry instead.
public struct LANTimeouts: Sendable, Equatable {
    /// How long discovery listens for hello replies.
    public var listenWindow: Duration
    /// How long the hand-off looks for its device before giving up.
    public var locate: Duration
    /// How long to wait for one reply before sending the request again.
    public var replyWait: Duration
    /// How many times a request is sent in all.
    public var attempts: Int
    /// The pause after the first hello; it doubles after each one, up to ``helloMaximumInterval``.
    public var helloInitialInterval: Duration
    public var helloMaximumInterval: Duration

    public init(
        listenWindow: Duration = .seconds(3),
        locate: Duration = .seconds(10),
        replyWait: Duration = .seconds(2),
        attempts: Int = 3,
        helloInitialInterval: Duration = .milliseconds(500),
        helloMaximumInterval: Duration = .seconds(2)
    ) {
        self.listenWindow = listenWindow
        self.locate = locate
        self.replyWait = replyWait
        self.attempts = attempts
        self.helloInitialInterval = helloInitialInterval
        self.helloMaximumInterval = helloMaximumInterval
    }
}
