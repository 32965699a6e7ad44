import DeviceEmulator
import Provisioning
import Synchronization
import Testing
import Transports
import ZhitingLAN

@Suite struct LANHandoffTests {
    @Test(arguments: ZhitingReservedVariant.allCases, ZhitingChecksumConvention.allCases)
    func handsTheDeviceToTheServer(reserved: ZhitingReservedVariant, checksum: ZhitingChecksumConvention) async throws {
        let lan = EmulatedLAN()
        await lan.link.attach(.zhiting(EmulatedLAN.switchResponder()), at: EmulatedLAN.switchAddress)
        let result = try await lan.runHandoff(framing: ZhitingRequestFraming(reserved: reserved, checksum: checksum))
        #expect(
            result.device
                == LANDevice(id: EmulatedLAN.switchID, endpoint: EmulatedLAN.switchAddress, helloModel: "ZTSW3SLW001W")
        )
        #expect(result.info.model == "ZTSW3SLW001W")
        #expect(result.echo == ZhitingServerEcho(server: "gz.sc.zhitingtech.com", port: 54321))
        let stored = await lan.link.responder(at: EmulatedLAN.switchAddress)?.assignment
        #expect(
            stored
                == ZhitingServerAssignment(
                    server: "gz.sc.zhitingtech.com",
                    port: 54321,
                    accessToken: EmulatedLAN.accessToken,
                    areaID: "123"
                )
        )
        // A stalled test process may send a second hello before reading the first reply; ignore repeats.
        let progress = lan.recorder.progress.filter { event in
            if case .helloSent(_, let attempt) = event { attempt == 1 } else { true }
        }
        #expect(
            progress == [
                .helloSent(to: .broadcast(port: 54321), attempt: 1),
                .deviceAnswered(result.device),
                .tokenReceived(EmulatedLAN.switchID),
                .infoReceived(EmulatedLAN.switchID, result.info),
                .serverRequested(EmulatedLAN.switchID, server: "gz.sc.zhitingtech.com", port: 54321),
                .serverConfirmed(EmulatedLAN.switchID, result.echo),
            ]
        )
    }

    @Test func aUnicastTargetNeedsNoDeviceID() async throws {
        let lan = EmulatedLAN()
        await lan.link.attach(.zhiting(EmulatedLAN.switchResponder()), at: EmulatedLAN.switchAddress)
        let result = try await lan.runHandoff(EmulatedLAN.request(LANTarget(address: EmulatedLAN.switchAddress)))
        #expect(result.device.id == EmulatedLAN.switchID)
        let destinations = await lan.link.sent.map(\.destination)
        #expect(destinations.allSatisfy { $0 == .unicast(EmulatedLAN.switchAddress) })
    }

    @Test func aBroadcastWithoutDeviceIDIsAUsageError() async {
        let lan = EmulatedLAN()
        let error = await failure { () async throws(ProvisioningError) in
            try await lan.runHandoff(EmulatedLAN.request(LANTarget()))
        }
        #expect(error?.code == .invalidOption)
    }

    @Test func lostRepliesAreRecoveredByResending() async throws {
        let lan = EmulatedLAN()
        let device = LossyDevice(EmulatedLAN.switchResponder())
        await lan.link.attach(.scripted(device.reply), at: EmulatedLAN.switchAddress)
        let target = LANTarget(deviceID: EmulatedLAN.switchID, address: EmulatedLAN.switchAddress)
        _ = try await lan.runHandoff(EmulatedLAN.request(target))
        let progress = lan.recorder.progress
        #expect(progress.contains(.helloSent(to: .unicast(EmulatedLAN.switchAddress), attempt: 2)))
        let resent = progress.filter { $0 == .requestResent(EmulatedLAN.switchID, attempt: 2) }
        #expect(resent.count == 2, "the token request and get_prop.info were each sent twice")
        #expect(device.assignment?.accessToken == EmulatedLAN.accessToken)
    }

    @Test func strayAndSpoofedDatagramsDoNotDisturbTheHandOff() async throws {
        let lan = EmulatedLAN()
        let switchAddress = EmulatedLAN.switchAddress
        await lan.link.attach(.zhiting(EmulatedLAN.switchResponder()), at: switchAddress)
        // A peer on the same host but another port answers every datagram with the device's own ID.
        let spoofAddress = DatagramEndpoint(address: switchAddress.address, port: 40000)!
        let spoofer = Spoofer(deviceID: EmulatedLAN.switchID)
        await lan.link.attach(.scripted(spoofer.reply), at: spoofAddress)
        await lan.link.inject(Datagram(bytes: spoofer.garbage, source: spoofAddress))
        await lan.link.inject(Datagram(bytes: Array(repeating: 0x21, count: 5000), source: switchAddress))
        await lan.link.inject(Datagram(bytes: [0x21, 0x31, 0x00], source: switchAddress))
        let result = try await lan.runHandoff()
        #expect(result.echo.server == "gz.sc.zhitingtech.com")
        #expect(lan.recorder.logs.contains { $0.contains("ignored a datagram from 127.0.0.2:40000") })
    }
}

/// A device on a bad radio link: the first reply to each kind of request (hello, token request,
/// encrypted request) is lost.
final class LossyDevice: Sendable {
    private let state: Mutex<(responder: ZhitingDeviceResponder, lostKinds: Set<UInt16>)>

    init(_ responder: ZhitingDeviceResponder) {
        state = Mutex((responder, []))
    }

    var assignment: ZhitingServerAssignment? { state.withLock { $0.responder.assignment } }

    @Sendable func reply(to datagram: [UInt8]) -> [[UInt8]] {
        state.withLock { state in
            guard let reply = state.responder.receivedDatagram(datagram) else { return [] }
            let kind = UInt16(datagram[4]) << 8 | UInt16(datagram[5])
            return state.lostKinds.insert(kind).inserted ? [] : [reply]
        }
    }
}

/// Forges packets in the target device's name from somewhere else.
struct Spoofer {
    let deviceID: ZhitingDeviceID

    var garbage: [UInt8] {
        ZhitingPacket(reserved: 0, deviceID: deviceID, checksumField: [], payload: Array(repeating: 0x55, count: 32))
            .encoded()
    }

    @Sendable func reply(to datagram: [UInt8]) -> [[UInt8]] {
        [garbage]
    }
}

/// The error `body` throws, or nil when it succeeds.
func failure<Result>(_ body: () async throws(ProvisioningError) -> Result) async -> ProvisioningError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
