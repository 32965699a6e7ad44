import CryptoPrimitives
import DeviceEmulator
import Provisioning
import TestSupport
import Transports
import ZhitingLAN

/// A small emulated LAN: one link, devices on it, and fast timeouts so failures take milliseconds.
struct EmulatedLAN {
    static let switchID = ZhitingDeviceID("a1b2c3d4e5f6")!
    static let switchAddress = DatagramEndpoint(address: [127, 0, 0, 2], port: 54321)!
    static let hubID = ZhitingDeviceID("0a0b0c0d0e0f")!
    static let hubAddress = DatagramEndpoint(address: [127, 0, 0, 3], port: 54321)!
    static let token = ZhitingToken(bytes: Array(0x40..<0x50))!
    static let accessToken = "AT-supersecret-42"

    /// For tests where a wait running out is the point: failures take milliseconds.
    static let fastTimeouts = LANTimeouts(
        listenWindow: .milliseconds(150),
        locate: .milliseconds(300),
        replyWait: .milliseconds(60),
        attempts: 3,
        helloInitialInterval: .milliseconds(40),
        helloMaximumInterval: .milliseconds(80)
    )

    /// For tests that must succeed: resends stay quick, but a test process stalled by its
    /// neighbours (the whole suite runs in parallel on two cores) never runs out of time.
    static let patientTimeouts = LANTimeouts(
        listenWindow: .milliseconds(300),
        locate: .seconds(30),
        replyWait: .milliseconds(150),
        attempts: 100,
        helloInitialInterval: .milliseconds(40),
        helloMaximumInterval: .milliseconds(80)
    )

    let link = InMemoryDatagramLink()
    let recorder = Recorder()
    let timeouts: LANTimeouts

    init(timeouts: LANTimeouts = patientTimeouts) {
        self.timeouts = timeouts
    }

    /// A LAN where failures take milliseconds, with `peer` answering at `address`.
    static func fast(with peer: InMemoryDatagramLink.Peer, at address: DatagramEndpoint = switchAddress) async
        -> EmulatedLAN
    {
        let lan = EmulatedLAN(timeouts: fastTimeouts)
        await lan.link.attach(peer, at: address)
        return lan
    }

    static func switchResponder(_ serverReply: ZhitingDeviceResponder.ServerReply = .echo) -> ZhitingDeviceResponder {
        let info = ZhitingDeviceInfo(model: "ZTSW3SLW001W", softwareVersion: "1.0.0", hardwareVersion: "esp32c3")
        return ZhitingDeviceResponder(
            profile: .init(deviceID: switchID, token: token, info: info),
            serverReply: serverReply
        )
    }

    static func hubResponder() -> ZhitingDeviceResponder {
        let info = ZhitingDeviceInfo(
            model: "MH-SA00DCLB001W",
            softwareVersion: "2.4.1",
            smartAssistantID: "sa-1",
            port: 37965
        )
        return ZhitingDeviceResponder(profile: .init(deviceID: hubID, token: token, info: info))
    }

    func handoff(framing: ZhitingRequestFraming = ZhitingRequestFraming()) -> LANHandoff {
        LANHandoff(
            LANFlowSetup(
                link: link, timeouts: timeouts, framing: framing, random: SeededRandomSource(seed: [7]),
                logger: recorder.logger()))
    }

    func discovery() -> LANDiscovery {
        LANDiscovery(
            LANFlowSetup(
                link: link, timeouts: timeouts, random: SeededRandomSource(seed: [8]), logger: recorder.logger()))
    }

    static func request(_ target: LANTarget = LANTarget(deviceID: switchID)) -> LANHandoffRequest {
        LANHandoffRequest(target: target, accessToken: Secret(accessToken), areaID: "123")
    }

    func runHandoff(
        _ request: LANHandoffRequest = Self.request(),
        framing: ZhitingRequestFraming = ZhitingRequestFraming(),
        within budget: Duration = .seconds(60)
    ) async throws(ProvisioningError) -> LANHandoffResult {
        try await handoff(framing: framing).run(request, deadline: .now + budget, progress: recorder.sink)
    }
}
