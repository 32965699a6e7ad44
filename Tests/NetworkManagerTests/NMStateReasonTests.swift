import Testing
import Transports

@testable import NetworkManager

@Suite struct NMStateReasonTests {
    @Test(arguments: [
        (UInt32(7), "NO_SECRETS", NMStateReason.Meaning.wrongPassword),
        (53, "SSID_NOT_FOUND", .networkNotFound),
        (11, "SUPPLICANT_TIMEOUT", .associationTimedOut),
        (8, "SUPPLICANT_DISCONNECT", .associationDropped),
        (10, "SUPPLICANT_FAILED", .supplicantFailed),
        (5, "IP_CONFIG_UNAVAILABLE", .noAddress),
        (17, "DHCP_FAILED", .noAddress),
        (60, "NEW_ACTIVATION", .interrupted),
        (39, "USER_REQUESTED", .interrupted),
        (36, "REMOVED", .deviceGone),
        (0, "NONE", .other),
        (999, "UNKNOWN_999", .other),
    ])
    func namesAndInterpretsDeviceReasons(code: UInt32, name: String, meaning: NMStateReason.Meaning) {
        let reason = NMStateReason(device: code)
        #expect(reason.name == name)
        #expect(reason.meaning == meaning)
    }

    @Test(arguments: [
        (UInt32(9), "NO_SECRETS", NMStateReason.Meaning.wrongPassword),
        (6, "CONNECT_TIMEOUT", .associationTimedOut),
        (5, "IP_CONFIG_INVALID", .noAddress),
        (3, "DEVICE_DISCONNECTED", .other),
        (14, "DEVICE_REMOVED", .deviceGone),
    ])
    func namesAndInterpretsActiveConnectionReasons(code: UInt32, name: String, meaning: NMStateReason.Meaning) {
        let reason = NMStateReason(activeConnection: code)
        #expect(reason.name == name)
        #expect(reason.meaning == meaning)
    }

    @Test func theSameNumberMeansDifferentThingsInTheTwoTables() {
        #expect(NMStateReason(device: 9).meaning == .supplicantFailed)
        #expect(NMStateReason(activeConnection: 9).meaning == .wrongPassword)
        #expect(NMStateReason(device: 7).description == "device reason NO_SECRETS (7)")
        #expect(NMStateReason(activeConnection: 9).description == "connection reason NO_SECRETS (9)")
    }

    @Test func prefersAMeaningfulDeviceReason() {
        let device = NMStateReason(device: 7)
        let connection = NMStateReason(activeConnection: 3)
        #expect(NMStateReason.mostTelling(device: device, activeConnection: connection) == device)
    }

    @Test func fallsBackToAMeaningfulConnectionReason() {
        let device = NMStateReason(device: 0)
        let connection = NMStateReason(activeConnection: 9)
        #expect(NMStateReason.mostTelling(device: device, activeConnection: connection) == connection)
    }

    @Test func keepsTheDeviceReasonWhenNeitherSaysMore() {
        let device = NMStateReason(device: 1)
        #expect(
            NMStateReason.mostTelling(device: device, activeConnection: NMStateReason(activeConnection: 0)) == device)
        #expect(NMStateReason.mostTelling(device: nil, activeConnection: nil) == nil)
    }
}
