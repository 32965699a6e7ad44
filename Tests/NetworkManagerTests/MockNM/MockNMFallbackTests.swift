import NetworkManager
import TestSupport
import Testing
import Transports

/// NetworkManager before 1.16 has no AddAndActivateConnection2: the profile it keeps must be deleted.
@Suite(.enabled(if: MockNMTools.hasNMMock, .init(rawValue: MockNM.skipMessage)))
struct MockNMFallbackTests {
    @Test(arguments: [
        ["version": "1.14.0"] as [String: any Sendable],
        ["version": "1.42.4", "add_and_activate2": false],
    ])
    func deletesTheProfileItAddedWithThePlainCall(overrides: [String: any Sendable]) async throws {
        try await NMSoftAPMock.with(MockNM.parameters(overrides)) { mock in
            try await MockNM.joiner(mock).withJoinedNetwork(MockNM.request()) { _ in
                let joined = try await mock.state()
                #expect(joined.temporaryProfiles.map(\.persist) == ["disk"])
            }
            let state = try await mock.state()
            #expect(state.methods.contains("AddAndActivateConnection"))
            #expect(state.methods.contains("Delete"))
            try await MockNM.expectRestored(mock)
        }
    }

    @Test func deletesTheProfileAfterAWrongPassphrase() async throws {
        try await NMSoftAPMock.with(MockNM.parameters(["version": "1.14.0"])) { mock in
            await #expect(throws: NetworkManagerError.activationFailed(NMStateReason(device: 7))) {
                try await MockNM.joiner(mock).join(MockNM.request(passphrase: "wrong-pass"))
            }
            try await MockNM.expectRestored(mock)
        }
    }

    @Test func asksForIPv6IgnoreBefore1_20() async throws {
        try await NMSoftAPMock.with(MockNM.parameters(["version": "1.14.0"])) { mock in
            try await MockNM.joiner(mock).withJoinedNetwork(MockNM.request()) { _ in }
            let profile = try #require(try await mock.state().arguments(of: "AddAndActivateConnection")?[0])
            #expect(profile["ipv6"]?["method"] == .string("ignore"))
        }
    }
}
