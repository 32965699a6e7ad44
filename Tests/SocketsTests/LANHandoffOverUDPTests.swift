import CryptoPrimitives
import Logging
import Provisioning
import Sockets
import Testing
import Transports
import ZhitingLAN

/// The real flow over real UDP sockets on loopback, against the core's device responder.
@Suite struct LANHandoffOverUDPTests {
    static let deviceID = ZhitingDeviceID("a1b2c3d4e5f6")!

    /// Serves `responder` on a loopback socket until the task is cancelled.
    static func serve(_ responder: ZhitingDeviceResponder, on link: UDPDatagramLink) async throws {
        var device = responder
        while !Task.isCancelled {
            guard let datagram = try await link.receive(until: .now + .milliseconds(100)) else { continue }
            if let reply = device.receivedDatagram(datagram.bytes) {
                try await link.send(reply, to: .unicast(datagram.source))
            }
        }
    }

    @Test func handsOffOverLoopbackUDP() async throws {
        let info = ZhitingDeviceInfo(model: "ZTSW3SLW001W", softwareVersion: "1.0.0")
        let token = ZhitingToken(bytes: Array(repeating: 0x42, count: 16))!
        let responder = ZhitingDeviceResponder(profile: .init(deviceID: Self.deviceID, token: token, info: info))
        try await UDPDatagramLink.withLink(.init(localPort: 0)) { deviceLink in
            let deviceAddress = loopback(try deviceLink.localEndpoint().port)
            let device = Task { try await Self.serve(responder, on: deviceLink) }
            defer { device.cancel() }
            try await UDPDatagramLink.withLink(.init(localPort: 0)) { clientLink in
                // Generous waits: parallel suites may stall this process, device and client alike.
                let timeouts = LANTimeouts(locate: .seconds(60), replyWait: .milliseconds(500), attempts: 100)
                let flow = LANHandoff(LANFlowSetup(link: clientLink, timeouts: timeouts, logger: Logger(label: "test")))
                let request = LANHandoffRequest(
                    target: LANTarget(deviceID: Self.deviceID, address: deviceAddress),
                    accessToken: Secret("AT"),
                    areaID: "1"
                )
                let result = try await flow.run(request, deadline: .now + .seconds(60)) { _ in }
                #expect(result.device.endpoint == deviceAddress)
                #expect(result.echo == ZhitingServerEcho(server: "gz.sc.zhitingtech.com", port: 54321))
            }
        }
    }
}
