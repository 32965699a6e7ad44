import BluFi
import Improv
import Protocomm
import Provisioning
import Testing

/// The reasoning that turns a device's scan into the reason a join failed or would fail: not heard, heard
/// with another security, heard weakly, or heard well (no explanation from the scan).
@Suite struct JoinExplanationTests {
    static let home = HeardNetwork(ssid: "HomeNet".utf8, rssi: -48, security: .secured, channel: 6)
    static let guest = HeardNetwork(ssid: "Guest".utf8, rssi: -60, security: .open, channel: 11)
    static let failure = ProvisioningError(
        .bluFiWiFiNotFound, "The device could not find \"Office\" (no access point answered, reason 201).",
        hint: "Check the SSID.")

    @Test func aNetworkMissingFromTheScanIsNotHeard() {
        #expect(NetworkJoin(ssid: "Office", passwordGiven: true).explanation(from: [Self.home]) == .notHeard)
        #expect(NetworkJoin(ssid: "homenet", passwordGiven: true).explanation(from: [Self.home]) == .notHeard)
        #expect(NetworkJoin(ssid: "Office", passwordGiven: true).explanation(from: []) == .notHeard)
    }

    @Test func aPasswordForAnOpenNetworkAndNoneForASecuredOneAreMismatches() {
        #expect(NetworkJoin(ssid: "Guest", passwordGiven: true).explanation(from: [Self.guest]) == .heardOpen)
        #expect(NetworkJoin(ssid: "HomeNet", passwordGiven: false).explanation(from: [Self.home]) == .heardSecured)
        #expect(
            NetworkJoin(ssid: "Guest", passwordGiven: false).explanation(from: [Self.guest]) == .heardWell(rssi: -60))
        let enterprise = HeardNetwork(ssid: "Corp".utf8, rssi: -50, security: .enterprise)
        #expect(NetworkJoin(ssid: "Corp", passwordGiven: true).explanation(from: [enterprise]) == .heardEnterprise)
    }

    /// One name on access points with different security, or a protocol that does not say: no mismatch.
    @Test func aMismatchNeedsEveryAccessPointOfTheNameToAgree() {
        let openTwin = HeardNetwork(ssid: "HomeNet".utf8, rssi: -70, security: .open)
        #expect(
            NetworkJoin(ssid: "HomeNet", passwordGiven: false).explanation(from: [Self.home, openTwin])
                == .heardWell(rssi: -48))
        let unsaid = HeardNetwork(ssid: "HomeNet".utf8, rssi: -45)
        #expect(NetworkJoin(ssid: "HomeNet", passwordGiven: false).explanation(from: [unsaid]) == .heardWell(rssi: -45))
    }

    @Test(arguments: [-81, -90, -100])
    func belowMinus80DBmTheStrongestAccessPointIsWeak(rssi: Int) {
        let weak = HeardNetwork(ssid: "HomeNet".utf8, rssi: rssi, security: .secured)
        let weaker = HeardNetwork(ssid: "HomeNet".utf8, rssi: rssi - 5, security: .secured)
        #expect(
            NetworkJoin(ssid: "HomeNet", passwordGiven: true).explanation(from: [weaker, weak, Self.guest])
                == .heardWeakly(rssi: rssi))
        #expect(
            NetworkJoin(ssid: "HomeNet", passwordGiven: true).explanation(from: [Self.home]) == .heardWell(rssi: -48))
    }

    @Test func aPinnedAccessPointCountsAloneWhenTheScanNamesAccessPoints() {
        let near = HeardNetwork(ssid: "HomeNet".utf8, rssi: -40, security: .secured, bssid: [1, 2, 3, 4, 5, 6])
        let far = HeardNetwork(ssid: "HomeNet".utf8, rssi: -88, security: .secured, bssid: [1, 2, 3, 4, 5, 7])
        let pinned = NetworkJoin(ssid: "HomeNet", passwordGiven: true, bssid: [1, 2, 3, 4, 5, 7])
        #expect(pinned.explanation(from: [near, far]) == .heardWeakly(rssi: -88))
        #expect(pinned.explanation(from: [near]) == .notHeard)
    }

    @Test func theCheckBeforeSendingRefusesWithNamedCodesAndExit7() {
        let cases: [(NetworkJoin, [HeardNetwork], ErrorCode)] = [
            (NetworkJoin(ssid: "Office", passwordGiven: true), [Self.home], .networkNotHeard),
            (NetworkJoin(ssid: "Guest", passwordGiven: true), [Self.guest], .networkIsOpen),
            (NetworkJoin(ssid: "HomeNet", passwordGiven: false), [Self.home], .networkPasswordRequired),
            (
                NetworkJoin(ssid: "Corp", passwordGiven: true),
                [HeardNetwork(ssid: "Corp".utf8, rssi: -50, security: .enterprise)], .networkEnterprise
            ),
        ]
        for (join, heard, code) in cases {
            #expect {
                try join.check(heard)
            } throws: { error in
                guard let error = error as? ProvisioningError else { return false }
                return error.code == code && error.exitStatus == .wifiJoinFailed && error.heardNetworks == heard
                    && error.message.hasSuffix("Nothing was sent.")
            }
        }
    }

    @Test func theCheckLetsAHiddenNetworkAndAWeakOneThrough() throws {
        try NetworkJoin(ssid: "Office", passwordGiven: true, hidden: true).check([Self.home])
        try NetworkJoin(ssid: "HomeNet", passwordGiven: true).check([
            HeardNetwork(ssid: "HomeNet".utf8, rssi: -90, security: .secured)
        ])
        try NetworkJoin(ssid: "HomeNet", passwordGiven: true).check([Self.home])
    }

    @Test func anExplainedFailureKeepsItsCodeAndSaysWhatTheScanShows() {
        let explained = NetworkJoin(ssid: "Office", passwordGiven: true).explain(Self.failure, by: [Self.home])
        #expect(explained.code == .bluFiWiFiNotFound)
        #expect(explained.message.hasPrefix(Self.failure.message))
        #expect(explained.message.contains("does not hear \"Office\""), "\(explained.message)")
        #expect(explained.hint.contains("2.4 GHz") && explained.hint.contains("--hidden"), "\(explained.hint)")
        #expect(explained.heardNetworks == [Self.home])

        let weak = HeardNetwork(ssid: "Office".utf8, rssi: -86, security: .secured)
        let weakly = NetworkJoin(ssid: "Office", passwordGiven: true).explain(Self.failure, by: [weak])
        #expect(weakly.message.contains("only weakly (-86 dBm)"), "\(weakly.message)")
        #expect(weakly.hint.contains("closer"))

        let well = NetworkJoin(ssid: "HomeNet", passwordGiven: true).explain(Self.failure, by: [Self.home])
        #expect(well.message.contains("hears \"HomeNet\" well (-48 dBm)") && well.hint == Self.failure.hint)

        let hidden = NetworkJoin(ssid: "Office", passwordGiven: true, hidden: true).explain(Self.failure, by: [])
        #expect(hidden.message.contains("hides its name") && hidden.hint == Self.failure.hint)
    }

    @Test func eachProtocolsScanEntryReadsAsAHeardNetwork() {
        let fiveGHz = HeardNetwork(
            ProtocommWiFiNetwork(
                ssid: Array("Lab".utf8), channel: 36, rssi: -60, bssid: [0xAA, 0xBB, 0xCC, 0, 0, 1], authMode: .wpa3PSK)
        )
        #expect(fiveGHz.band == .ghz5 && fiveGHz.security == .secured && fiveGHz.bssidText == "aa:bb:cc:00:00:01")
        #expect(fiveGHz.authentication == "WPA3-PSK")
        let twoGHz = HeardNetwork(
            ProtocommWiFiNetwork(ssid: Array("Cafe".utf8), channel: 6, rssi: -50, bssid: [], authMode: .open))
        #expect(twoGHz.band == .ghz2_4 && twoGHz.security == .open && twoGHz.bssid == nil)
        let corporate = HeardNetwork(
            ProtocommWiFiNetwork(ssid: Array("Corp".utf8), channel: 1, rssi: -50, bssid: [], authMode: .wpa2Enterprise))
        #expect(corporate.security == .enterprise)
        #expect(HeardNetwork(ImprovWiFiNetwork(ssid: "Guest", rssi: -71, authentication: ["NO"])).security == .open)
        #expect(HeardNetwork(ImprovWiFiNetwork(ssid: "Home", rssi: -48, authentication: ["WPA2"])).security == .secured)
        #expect(HeardNetwork(ImprovWiFiNetwork(ssid: "Home", rssi: -48, authentication: [])).security == nil)
        let bluFi = HeardNetwork(BluFiAccessPoint(ssid: Array("HomeNet".utf8), rssi: -45))
        #expect(bluFi.security == nil && bluFi.channel == nil && bluFi.band == nil && bluFi.rssi == -45)
    }

    /// A device's names are unchecked bytes: generated ones of every length keep at most 32 bytes, and a name
    /// cut there still matches nothing longer than the join asked for.
    @Test func generatedOverlongNamesAreCutToWhatWiFiCarries() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 31, 32, 33, 64, 200, 254] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let heard = HeardNetwork(BluFiAccessPoint(ssid: bytes, rssi: -50))
            #expect(heard.ssid == Array(bytes.prefix(32)))
            #expect(NetworkJoin(ssid: "HomeNet", passwordGiven: true).explanation(from: [heard]) == .notHeard)
        }
    }

    /// The host's own cached scan: heard only outside 2.4 GHz or as WPA3-only warns, 802.1X refuses, a
    /// network the host does not hear (it may stand elsewhere) or hears on 2.4 GHz says nothing.
    @Test func theHostsScanWarnsOrRefusesByBandAndSecurity() throws {
        let join = NetworkJoin(ssid: "HomeNet", passwordGiven: true)
        func heard(_ frequency: Int, _ security: HeardNetwork.Security = .secured, wpa3Only: Bool = false)
            -> HeardNetwork
        {
            HeardNetwork(ssid: "HomeNet".utf8, rssi: -50, security: security, frequency: frequency, wpa3Only: wpa3Only)
        }
        #expect(try join.hostAdvice([]) == [])
        #expect(try join.hostAdvice([Self.guest]) == [])
        #expect(try join.hostAdvice([heard(2437)]) == [])
        #expect(try join.hostAdvice([heard(5180)]).map(\.code) == [.outside2_4GHz])
        #expect(try join.hostAdvice([heard(5955)]).first?.message.contains("6 GHz") == true)
        #expect(try join.hostAdvice([heard(5180), heard(2412)]) == [])
        #expect(try join.hostAdvice([heard(2412, wpa3Only: true)]).map(\.code) == [.wpa3Only])
        #expect(try join.hostAdvice([heard(2412, wpa3Only: true), heard(2437)]) == [])
        #expect {
            try join.hostAdvice([heard(2412, .enterprise)])
        } throws: { error in
            (error as? ProvisioningError)?.code == .networkEnterprise
        }
    }
}
