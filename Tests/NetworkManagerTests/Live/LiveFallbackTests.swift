import NetworkManager
import TestSupport
import Testing
import Transports

/// NetworkManager before 1.16 has no AddAndActivateConnection2: the profile it keeps must be deleted.
@Suite(.enabled(if: LiveTools.hasNMMock, .init(rawValue: LiveNM.skipMessage)))
struct LiveFallbackTests {
    @Test(arguments: [
        ["version": "1.14.0"] as [String: any Sendable],
        ["version": "1.42.4", "add_and_activate2": false],
    ])
    func deletesTheProfileItAddedWithThePlainCall(overrides: [String: any Sendable]) async throws {
        try await NMSoftAPMock.with(LiveNM.parameters(overrides)) { mock in
            try await LiveNM.joiner(mock).withJoinedNetwork(LiveNM.request()) { _ in
                let joined = try mock.state()
                #expect(joined.temporaryProfiles.map(\.persist) == ["disk"])
            }
            let state = try mock.state()
            #expect(state.methods.contains("AddAndActivateConnection"))
            #expect(state.methods.contains("Delete"))
            try LiveNM.expectRestored(mock)
        }
    }

    @Test func deletesTheProfileAfterAWrongPassphrase() async throws {
        try await NMSoftAPMock.with(LiveNM.parameters(["version": "1.14.0"])) { mock in
            await #expect(throws: NetworkManagerError.activationFailed(NMStateReason(device: 7))) {
                try await LiveNM.joiner(mock).join(LiveNM.request(passphrase: "wrong-pass"))
            }
            try LiveNM.expectRestored(mock)
        }
    }

    @Test func asksForIPv6IgnoreBefore1_20() async throws {
        try await NMSoftAPMock.with(LiveNM.parameters(["version": "1.14.0"])) { mock in
            try await LiveNM.joiner(mock).withJoinedNetwork(LiveNM.request()) { _ in }
            let profile = try #require(try mock.state().arguments(of: "AddAndActivateConnection")?[0])
            #expect(profile["ipv6"]?["method"] == .string("ignore"))
        }
    }
}
