import TestSupport
import Testing
import Transports

@testable import BlueZ
@testable import DBus

/// bluetoothd's answers to ReadValue and WriteValue, sorted into the kinds a GATT user reacts to.
@Suite struct BlueZGATTFailureTests {
    static func error(_ name: String, _ message: String) -> BlueZError {
        BlueZError(DBusError(name: name, message: message))
    }

    @Test(
        arguments: [
            ("org.bluez.Error.NotPermitted", "Not paired", GATTFailureKind.insufficientSecurity),
            ("org.bluez.Error.NotPermitted", "Write not permitted", .notPermitted),
            ("org.bluez.Error.NotPermitted", "Read not permitted", .notPermitted),
            ("org.bluez.Error.NotAuthorized", "Operation Not Authorized", .insufficientSecurity),
            ("org.bluez.Error.AuthenticationFailed", "Authentication Failed", .insufficientSecurity),
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x05", .insufficientSecurity),
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x0f", .insufficientSecurity),
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x04", .rejectedByPeer),
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x80", .rejectedByPeer),
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x0d", .invalidValue),
            ("org.bluez.Error.Failed", "Operation failed", .other),
            ("org.bluez.Error.InvalidArguments", "Invalid offset", .invalidValue),
            ("org.bluez.Error.NotConnected", "Not Connected", .linkLost),
            ("org.freedesktop.DBus.Error.UnknownObject", "gone", .linkLost),
            ("org.freedesktop.DBus.Error.NoReply", "Did not receive a reply", .timedOut),
        ] as [(String, String, GATTFailureKind)])
    func bluetoothdsAnswersHaveKinds(name: String, message: String, kind: GATTFailureKind) {
        #expect(Self.error(name, message).gattFailureKind == kind)
    }

    @Test func attErrorCodesAreReadOnlyFromTheirExactForm() {
        #expect(BlueZQuirks.attError(in: "Operation failed with ATT error: 0x0e") == 0x0E)
        #expect(BlueZQuirks.attError(in: "operation failed with att error: 0xFF trailing") == 0xFF)
        #expect(BlueZQuirks.attError(in: "ATT error: 0x5") == nil)
        #expect(BlueZQuirks.attError(in: "ATT error: 0x") == nil)
        #expect(BlueZQuirks.attError(in: "no code here") == nil)
        #expect(BlueZQuirks.attError(in: "") == nil)
    }

    @Test func arbitraryReasonsNeverTrap() {
        var random = SplitMix64(seed: 16)
        for _ in 0..<2000 {
            let scalars = (0..<random.below(40)).map { _ in Character(UnicodeScalar(UInt8(random.below(128)))) }
            _ = BlueZQuirks.attError(in: "ATT error: 0x" + String(scalars))
            _ = BlueZQuirks.attError(in: String(scalars))
        }
    }
}
