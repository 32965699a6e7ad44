import Logging
import Transports
import ZhitingLAN

/// Sends hellos with growing pauses until a deadline and hands every acceptable reply to the caller.
///
/// A single broadcast is easily lost on Wi-Fi, and a device that has only just joined the network
/// misses the first one, so hellos repeat: after 0.5 s, 1 s, then every 2 s by default.
struct LANHelloBeacon {
    let channel: LANChannel
    let target: LANTarget
    let timeouts: LANTimeouts
    let progress: LANProgressSink

    /// Runs until `deadline`, or until `onReply` returns true; says whether `onReply` stopped it.
    func run(until deadline: ContinuousClock.Instant, onReply: (LANDevice) -> Bool) async throws(ProvisioningError)
        -> Bool
    {
        var attempt = 0
        var interval = timeouts.helloInitialInterval
        var nextHello = ContinuousClock.now
        while ContinuousClock.now < deadline {
            if ContinuousClock.now >= nextHello {
                attempt += 1
                try await channel.send(ZhitingHello.request, to: target.helloDestination, what: "hello")
                progress(.helloSent(to: target.helloDestination, attempt: attempt))
                nextHello = ContinuousClock.now + interval
                interval = min(interval * 2, timeouts.helloMaximumInterval)
            }
            guard let datagram = try await channel.receive(until: min(nextHello, deadline)),
                let device = helloReply(in: datagram)
            else { continue }
            if onReply(device) { return true }
        }
        return false
    }

    private func helloReply(in datagram: Datagram) -> LANDevice? {
        guard target.acceptsReply(from: datagram.source) else {
            channel.logger.debug("ignored a datagram from \(datagram.source): not the device port")
            return nil
        }
        do {
            guard let reply = try ZhitingHello.reply(from: datagram.bytes) else { return nil }
            return LANDevice(id: reply.deviceID, endpoint: datagram.source, helloModel: reply.model)
        } catch {
            channel.logger.debug("ignored a datagram from \(datagram.source): \(error)")
            return nil
        }
    }
}
