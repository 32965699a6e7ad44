import DeviceEmulator
import Testing
import Transports
import ZhitingLAN

@testable import Provisioning

/// Every way the hand-off can fail, with the code, exit status and a hint — and never the token.
@Suite struct LANHandoffFailureTests {
    func expectFailure(
        _ lan: EmulatedLAN,
        _ request: LANHandoffRequest = EmulatedLAN.request(),
        code: ErrorCode,
        status: Provisioning.ExitStatus,
        mentioning phrase: String
    ) async {
        let error = await failure { () async throws(ProvisioningError) in try await lan.runHandoff(request) }
        #expect(error?.code == code)
        #expect(error?.exitStatus == status)
        #expect(error?.message.contains(phrase) == true, "\(String(describing: error))")
        #expect(error?.hint.isEmpty == false)
        let everything = [error.map { "\($0) \($0.hint) \($0.detail ?? "")" } ?? ""] + lan.recorder.logs
        #expect(!everything.joined().contains(EmulatedLAN.accessToken))
    }

    @Test func nobodyAnswersTheHello() async {
        await expectFailure(
            EmulatedLAN(timeouts: EmulatedLAN.fastTimeouts),
            code: .lanNoReply,
            status: .deviceNotFound,
            mentioning: "No Zhiting device answered"
        )
    }

    @Test func onlyOtherDevicesAnswer() async {
        let lan = await EmulatedLAN.fast(with: .zhiting(EmulatedLAN.hubResponder()), at: EmulatedLAN.hubAddress)
        await expectFailure(
            lan,
            code: .lanDeviceNotFound,
            status: .deviceNotFound,
            mentioning: "0a0b0c0d0e0f at 127.0.0.3"
        )
    }

    @Test func theDeviceIgnoresTheTokenRequest() async {
        let helloOnly = EmulatedLAN.switchResponder()
        let lan = await EmulatedLAN.fast(
            with: .scripted { datagram in
                var device = helloOnly
                return datagram == ZhitingHello.request ? [device.receivedDatagram(datagram)!] : []
            })
        await expectFailure(lan, code: .handoffNoToken, status: .handoffFailed, mentioning: "not the token request")
        let resent = lan.recorder.progress.filter { if case .requestResent = $0 { true } else { false } }
        #expect(resent.count == EmulatedLAN.fastTimeouts.attempts - 1)
    }

    @Test func theDeviceIgnoresTheInfoRequest() async {
        let tokenOnly = EmulatedLAN.switchResponder()
        let lan = await EmulatedLAN.fast(
            with: .scripted { datagram in
                var device = tokenOnly
                let isToken = (try? ZhitingPacket(decoding: datagram))?.reserved == ZhitingPacket.tokenRequestReserved
                let answered = datagram == ZhitingHello.request || isToken
                return answered ? device.receivedDatagram(datagram).map { [$0] } ?? [] : []
            })
        await expectFailure(
            lan, code: .handoffNoInfo, status: .handoffFailed, mentioning: "did not answer get_prop.info")
    }

    @Test func theDeviceNeverConfirms() async {
        let lan = await EmulatedLAN.fast(with: .zhiting(EmulatedLAN.switchResponder(.silent)))
        await expectFailure(lan, code: .handoffNotConfirmed, status: .handoffFailed, mentioning: "did not confirm")
    }

    @Test func theDeviceEchoesAnotherServer() async {
        let lan = await EmulatedLAN.fast(with: .zhiting(EmulatedLAN.switchResponder(.echoServer("sc.example"))))
        await expectFailure(lan, code: .handoffServerMismatch, status: .handoffFailed, mentioning: "sc.example:54321")
    }

    @Test func theDeviceAnswersWithAnError() async {
        let responder = EmulatedLAN.switchResponder(.error(code: -2, message: "token expired"))
        let lan = await EmulatedLAN.fast(with: .zhiting(responder))
        await expectFailure(lan, code: .handoffRejected, status: .handoffFailed, mentioning: "code -2: token expired")
    }

    @Test func theTargetIsASmartAssistant() async {
        let lan = await EmulatedLAN.fast(with: .zhiting(EmulatedLAN.hubResponder()), at: EmulatedLAN.hubAddress)
        let request = EmulatedLAN.request(LANTarget(deviceID: EmulatedLAN.hubID))
        await expectFailure(
            lan,
            request,
            code: .handoffTargetIsHub,
            status: .handoffFailed,
            mentioning: "Smart Assistant"
        )
    }

    @Test func theDeviceSpeaksAnotherDialect() async {
        let hello = EmulatedLAN.switchResponder()
        let spoofer = Spoofer(deviceID: EmulatedLAN.switchID)
        let lan = await EmulatedLAN.fast(
            with: .scripted { datagram in
                var device = hello
                return [datagram == ZhitingHello.request ? device.receivedDatagram(datagram)! : spoofer.garbage]
            })
        await expectFailure(lan, code: .lanBadReply, status: .handoffFailed, mentioning: "could not be used")
    }

    @Test func repliesFromAnotherPortDoNotCount() async {
        let lan = EmulatedLAN(timeouts: EmulatedLAN.fastTimeouts)
        let device = EmulatedLAN.switchResponder()
        let target = LANTarget(deviceID: EmulatedLAN.switchID, address: EmulatedLAN.switchAddress)
        let otherPort = DatagramEndpoint(address: EmulatedLAN.switchAddress.address, port: 50000)!
        // Answers the hello properly, then sends its token reply from the wrong port.
        let link = lan.link
        await link.attach(
            .scripted { datagram in
                var responder = device
                if datagram != ZhitingHello.request, let reply = responder.receivedDatagram(datagram) {
                    Task { await link.inject(Datagram(bytes: reply, source: otherPort)) }
                    return []
                }
                return [responder.receivedDatagram(datagram)].compactMap { $0 }
            },
            at: EmulatedLAN.switchAddress
        )
        let error = await failure { () async throws(ProvisioningError) in
            try await lan.runHandoff(EmulatedLAN.request(target))
        }
        #expect(error?.code == .handoffNoToken)
        #expect(error?.detail?.contains("127.0.0.2:50000") == true)
    }

    @Test func cancellationEndsTheFlowAsInterrupted() async {
        // Patient waits: the cancellation, not a deadline, must be what ends this flow.
        let lan = EmulatedLAN(timeouts: EmulatedLAN.patientTimeouts)
        let task = Task { () async throws(ProvisioningError) in
            try await lan.runHandoff(within: .seconds(30))
        }
        try? await Task.sleep(for: .milliseconds(30))
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("a cancelled hand-off succeeded")
            return
        }
        #expect((error as? ProvisioningError)?.code == .interrupted)
        #expect((error as? ProvisioningError)?.exitStatus == .interrupted)
    }
}

/// The socket-level failures, as the LAN flows map what the Sockets adapter throws.
@Suite struct LANSocketFailureTests {
    struct SocketFailure: TransportFailure {
        var kind: TransportFailureKind
        var detail: String { "errno 19 (No such device)" }
    }

    @Test func anUnclassifiedSocketFailureIsLANSocketFailed() {
        let error = ProvisioningError.lanSocketUnavailable(
            SocketFailure(kind: .other), interface: "wlan0", port: 54321)
        #expect(error.code == .lanSocketFailed)
        #expect(error.exitStatus == .hostPrecondition)
        #expect(error.detail == "errno 19 (No such device)")
    }

    @Test func aFailedSendIsLANSendFailed() {
        let error = ProvisioningError.lanTransport(SocketFailure(kind: .other), while: "sending the hello")
        #expect(error.code == .lanSendFailed)
        #expect(error.exitStatus == .linkFailure)
        #expect(error.message == "The LAN socket failed while sending the hello.")
    }
}
