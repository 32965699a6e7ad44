import Protocomm
import TestSupport
import Testing

/// Plaintext Thread messages as network_provisioning's `network_config.proto` and `network_scan.proto`
/// encode them (field numbers 16–21 inside the same envelopes as Wi-Fi), worked out by hand.
@Suite struct ThreadMessageVectorTests {
    static let channel15 = try! ThreadDataset(tlvs: [0x00, 0x03, 0x00, 0x00, 0x0F])

    @Test(arguments: [
        (ProtocommThreadConfigRequest.getStatus, "0806820100"),
        (.setDataset(channel15), "08089201070a05000300000f"),
        (.applyConfig, "080aa20100"),
    ])
    func configRequests(_ request: ProtocommThreadConfigRequest, hex: String) {
        #expect(request.serializedBytes() == [UInt8](hex: hex))
    }

    static let attachment = ProtocommThreadAttachment(
        networkName: "OT", panID: 0x1234, extendedPANID: [UInt8](hex: "dead00beef00cafe"), channel: 15)

    @Test(arguments: [
        (ProtocommThreadConfigRequest.getStatus, "08078a01021001", ProtocommThreadConfigResponse.status(.attaching)),
        (
            .getStatus, "08078a01155a1308b4241208dead00beef00cafe180f22024f54",
            .status(.attached(ThreadMessageVectorTests.attachment))
        ),
        (.getStatus, "08078a010410035001", .status(.failed(.networkNotFound))),
        (.getStatus, "08078a010410035000", .status(.failed(.datasetInvalid))),
        (.getStatus, "08078a01021003", .status(.failed(.datasetInvalid))),
        (.getStatus, "08078a01021002", .status(.detached)),
        (.getStatus, "08078a01021009", .status(.unrecognized(state: 9))),
        (.setDataset(channel15), "08099a0100", .datasetSet),
        (.applyConfig, "080baa0100", .configApplied),
    ])
    func configResponses(
        _ request: ProtocommThreadConfigRequest, hex: String, expected: ProtocommThreadConfigResponse
    ) throws {
        #expect(try request.response(from: [UInt8](hex: hex)) == expected)
    }

    @Test func aRefusedDatasetThrowsItsStatus() {
        #expect(throws: ProtocommError.failureStatus(.invalidArgument)) {
            try ProtocommThreadConfigRequest.setDataset(Self.channel15).response(from: [UInt8](hex: "08099a01020804"))
        }
        #expect(throws: ProtocommError.failureStatus(.internalError)) {
            try ProtocommThreadConfigRequest.applyConfig.response(from: [UInt8](hex: "080baa01020805"))
        }
    }

    @Test func anAnswerToAnotherRequestIsRefused() {
        #expect(
            throws: ProtocommError.unexpectedMessage(
                expected: "typeRespGetThreadStatus", received: "typeRespSetThreadConfig")
        ) {
            try ProtocommThreadConfigRequest.getStatus.response(from: [UInt8](hex: "08099a0100"))
        }
        #expect(
            throws: ProtocommError.unexpectedMessage(
                expected: "a Thread NetworkConfigPayload response", received: "typeRespGetWifiStatus")
        ) {
            try ProtocommThreadConfigRequest.getStatus.response(from: [UInt8](hex: "08015a021001"))
        }
    }

    @Test(arguments: [
        (ProtocommThreadScanRequest.start(blocking: true, channelMask: 0), "08068201020801"),
        (.status, "0808920100"),
        (.results(startIndex: 0, count: 4), "080aa201021004"),
    ])
    func scanRequests(_ request: ProtocommThreadScanRequest, hex: String) {
        #expect(request.serializedBytes() == [UInt8](hex: hex))
    }

    static let network = ProtocommThreadNetwork(
        networkName: "OT", panID: 0x1234, extendedPANID: [UInt8](hex: "dead00beef00cafe"), channel: 15, rssi: -40,
        lqi: 200, extendedAddress: [UInt8](hex: "a2b3c4d5e6f70811"))

    @Test func scanResponses() throws {
        #expect(
            try ProtocommThreadScanRequest.start(blocking: true, channelMask: 0).response(
                from: [UInt8](hex: "08078a0100"))
                == .started)
        #expect(
            try ProtocommThreadScanRequest.status.response(from: [UInt8](hex: "08099a010408011001"))
                == .status(finished: true, resultCount: 1))
        let page =
            "080baa012d0a2b08b424100f18d8ffffffffffffffff0120c8012a08a2b3c4d5e6f7081132024f543a08dead00beef00cafe"
        #expect(
            try ProtocommThreadScanRequest.results(startIndex: 0, count: 1).response(from: [UInt8](hex: page))
                == .results([Self.network]))
        #expect(throws: ProtocommError.failureStatus(.internalError)) {
            try ProtocommThreadScanRequest.status.response(from: [UInt8](hex: "080910059a0100"))
        }
    }
}
