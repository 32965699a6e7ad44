import Provisioning
import Testing

/// The rule that settles which device `ble` provisions: exactly one goes ahead, several are asked about on
/// a terminal and refused elsewhere, unless a policy chose.
@Suite struct BLEDeviceChoiceTests {
    static let near = BLECandidate(
        address: "24:0A:C4:00:00:02", name: "MH-D4E5F7", rssi: -41, advertisedProtocol: .bluFi)
    static let far = BLECandidate(
        address: "24:0A:C4:00:00:01", name: "MH-D4E5F6", rssi: -70, advertisedProtocol: .bluFi)
    static let silent = BLECandidate(address: "24:0A:C4:00:00:03", name: nil, rssi: nil)
    /// In the order the scan first heard them.
    static let heard = [far, silent, near]

    static let policies: [BLEDevicePolicy] = [.unchosen, .named, .strongest, .first]

    @Test(arguments: policies, [true, false])
    func nothingHeardKeepsScanning(policy: BLEDevicePolicy, interactive: Bool) {
        #expect(BLEDeviceChoice.decide([], policy: policy, interactive: interactive) == .keepScanning)
    }

    @Test(arguments: policies, [true, false])
    func exactlyOneGoesAheadUnderEveryPolicy(policy: BLEDevicePolicy, interactive: Bool) {
        #expect(BLEDeviceChoice.decide([Self.far], policy: policy, interactive: interactive) == .connect(Self.far))
    }

    @Test func severalOnATerminalAreListedStrongestFirst() {
        #expect(
            BLEDeviceChoice.decide(Self.heard, policy: .unchosen, interactive: true)
                == .ask([Self.near, Self.far, Self.silent]))
    }

    @Test func severalWithNobodyToAskAreRefusedWithEveryCandidateNamed() throws {
        let decision = BLEDeviceChoice.decide(Self.heard, policy: .unchosen, interactive: false)
        guard case .refuse(let error) = decision else {
            Issue.record("\(decision)")
            return
        }
        #expect(error.code == .bleSeveralDevices)
        #expect(error.exitStatus.rawValue == 2)
        for candidate in Self.heard { #expect(error.message.contains(candidate.address), "\(error.message)") }
        #expect(error.message.contains("MH-D4E5F7 (24:0A:C4:00:00:02, -41 dBm, blufi)"), "\(error.message)")
        #expect(error.hint.contains("--pick"))
    }

    @Test(arguments: [true, false])
    func aPolicyChoosesWithoutAsking(interactive: Bool) {
        #expect(BLEDeviceChoice.decide(Self.heard, policy: .strongest, interactive: interactive) == .connect(Self.near))
        #expect(BLEDeviceChoice.decide(Self.heard, policy: .first, interactive: interactive) == .connect(Self.far))
        #expect(BLEDeviceChoice.decide(Self.heard, policy: .named, interactive: interactive) == .connect(Self.far))
    }

    @Test func onlyANamedDeviceOrFirstDecideOnTheFirstSighting() {
        #expect(Self.policies.filter(\.decidesOnFirstSighting) == [.named, .first])
    }

    /// Equal signals are ordered by address, so every run lists them the same way.
    @Test func rankingIsStableForEqualSignals() {
        let a = BLECandidate(address: "24:0A:C4:00:00:0A", name: "A", rssi: -50)
        let b = BLECandidate(address: "24:0A:C4:00:00:0B", name: "B", rssi: -50)
        #expect(BLEDeviceChoice.ranked([b, a]) == [a, b])
        #expect(BLEDeviceChoice.ranked([a, b]) == [a, b])
    }

    @Test func aVeryLongNameIsCutInTheLabel() {
        let long = BLECandidate(address: "24:0A:C4:00:00:0C", name: String(repeating: "N", count: 248), rssi: -60)
        let label = long.label()
        #expect(label.hasPrefix(String(repeating: "N", count: 31) + "… (24:0A:C4:00:00:0C"), "\(label)")
    }
}
