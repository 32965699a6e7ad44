import Foundation
import NetworkManager
import Testing
import Transports

/// The joiner against the real NetworkManager 1.42 in a network namespace, over a veth with the
/// wired test link: the daemon's own activation, DHCP, volatile profile
/// removal and restore, which the mock can only imitate. Slow (seconds per test), so opt-in.
@Suite(.serialized, .enabled(if: RealNM.isEnabled, .init(rawValue: RealNM.skipMessage)))
struct RealNMJoinTests {
    @Test func joinsOverDHCPWithAVolatileNeverDefaultProfileThatLeavingRemoves() async throws {
        try await RealNMLab.with(dhcp: true) { lab in
            let joiner = try RealNM.joiner(lab)
            let network = try await joiner.join(RealNM.request())
            let address = try #require(network.localAddress)
            #expect(network.interfaceName == lab.topology.interface)
            #expect(RealNM.isFromDHCPPool(address) && network.prefixLength == 24)
            let joined = try await lab.state()
            #expect(joined.activatedIDs == [RealNM.profileID])
            #expect(joined.ztprovProfiles == [.init(id: RealNM.profileID, type: "802-3-ethernet", volatile: true)])
            #expect(joined.addresses == ["\(address)/24"])
            #expect(joined.defaultRoutes.isEmpty, "never-default: the device's gateway must not become the default")
            try await joiner.leave(network)
            let left = try await lab.state { $0.ztprovProfiles.isEmpty && $0.addresses.isEmpty }
            #expect(left.ztprovProfiles.isEmpty)
            #expect(left.activatedIDs.isEmpty)
            #expect(left.addresses.isEmpty)
        }
    }

    @Test func leavingReactivatesThePreviousConnection() async throws {
        try await RealNMLab.with(dhcp: true) { lab in
            try await lab.activateStaticProfile(named: RealNM.previousID, address: RealNM.previousAddress)
            let joiner = try RealNM.joiner(lab)
            let network = try await joiner.join(RealNM.request())
            let joined = try await lab.state()
            #expect(joined.activatedIDs == [RealNM.profileID])
            #expect(!joined.addresses.contains(RealNM.previousAddress))
            try await joiner.leave(network)
            try await RealNM.expectRestored(lab)
        }
    }

    @Test func aJoinWithoutDHCPTimesOutByItsDeadlineAndRestoresThePreviousConnection() async throws {
        try await RealNMLab.with(dhcp: false) { lab in
            try await lab.activateStaticProfile(named: RealNM.previousID, address: RealNM.previousAddress)
            let activation = Duration.seconds(4)
            let started = ContinuousClock.now
            let error = await #expect(throws: NetworkManagerError.self) {
                try await RealNM.joiner(lab).join(RealNM.request(activation: activation))
            }
            let elapsed = ContinuousClock.now - started
            guard case .activationTimedOut(let network, _)? = error else {
                Issue.record("expected activationTimedOut, got \(String(describing: error))")
                return
            }
            #expect(network == RealNM.ssid)
            // Not before the deadline; and, as a guard against a hang only, long before NetworkManager's
            // own 45 s DHCP timeout would have ended the activation.
            #expect(elapsed >= activation && elapsed < .seconds(45))
            try await RealNM.expectRestored(lab)
        }
    }
}

/// Settings of the real-daemon suite, and how it is switched on.
enum RealNM {
    static let ssid = "ZT_REALNM"
    static let profileID = "ztprov-\(ssid)"
    static let previousID = "home-lan"
    static let previousAddress = "192.168.4.50/24"

    static let isEnabled = ProcessInfo.processInfo.environment["ZTPROV_REAL_NM"] == "1" && geteuid() == 0
    static let skipMessage =
        "starts the real NetworkManager in network namespaces: run as root with ZTPROV_REAL_NM=1 "
        + "(needs network-manager, dnsmasq-base, iproute2, dbus, python3-dbus)"

    static func joiner(_ lab: RealNMLab) throws -> NMSoftAPJoiner {
        try NMSoftAPJoiner(
            configuration: .init(
                interfaceName: lab.topology.interface, busAddress: lab.topology.busAddress, link: .ethernetForTesting))
    }

    static func request(activation: Duration = .seconds(20)) -> WiFiJoinRequest {
        WiFiJoinRequest(
            ssid: ssid, passphrase: nil,
            timeouts: .init(scan: .seconds(1), activation: activation, restore: .seconds(15)))
    }

    /// Whether `address` is one dnsmasq hands out (real_nm.py's range 192.168.4.10–20).
    static func isFromDHCPPool(_ address: String) -> Bool {
        guard address.hasPrefix("192.168.4."), let host = Int(address.dropFirst("192.168.4.".count)) else {
            return false
        }
        return (10...20).contains(host)
    }

    /// The previous connection is active again with its address, and no ztprov profile is left.
    static func expectRestored(_ lab: RealNMLab, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let state = try await lab.state { $0.ztprovProfiles.isEmpty && $0.activatedIDs == [previousID] }
        #expect(state.activatedIDs == [previousID], sourceLocation: sourceLocation)
        #expect(state.addresses == [previousAddress], sourceLocation: sourceLocation)
        #expect(state.ztprovProfiles.isEmpty, sourceLocation: sourceLocation)
        #expect(state.profiles.contains { $0.id == previousID && !$0.volatile }, sourceLocation: sourceLocation)
    }
}
