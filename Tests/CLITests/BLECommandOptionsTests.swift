import ArgumentParser
import BluFi
import BlueZ
import DBus
import Improv
import Provisioning
import Testing

@testable import ztprov

@Suite struct BLECommandOptionsTests {
    @Test(arguments: [
        [String](),
        ["--ssid", String(repeating: "x", count: 33)],
        ["--ssid", "Home", "--device", "not-an-address"],
        ["--ssid", "Home", "--device", "24:0A:C4:12:34:56", "--name-prefix", "MH-"],
        ["--ssid", "Home", "--adapter", "usb0"],
        ["--ssid", "Home", "--ap-ssid", "Mine"],
        ["--mode", "softap", "--ap-channel", "14"],
        ["--ssid", "Home", "--lan-interface", "eth0"],
    ])
    func invalidCombinationsAreUsageErrors(arguments: [String]) {
        #expect(throws: (any Error).self) { try BLECommand.parse(arguments) }
    }

    @Test func theOptionsBecomeSettings() throws {
        let command = try BLECommand.parse([
            "--ssid", "Home", "--security", "v1", "--adapter", "slot:2", "--mode", "sta+softap", "--ap-ssid", "Mine",
            "--ap-channel", "6", "--password-env", "ZT_TEST_UNSET_VARIABLE_4711",
        ])
        #expect(command.wifi.securityChoice == .fixed(.v1))
        #expect(command.bluetooth.selector == .slot(2))
        #expect(command.bluetooth.filter() == BlueZScanFilter(serviceUUIDs: BLEProtocol.serviceUUIDs))
        #expect(command.bleProtocol == .auto)
        #expect(throws: ProvisioningError.self) { try command.wifi.settings(expectsDeviceID: false) }
    }

    @Test func theProtocolNarrowsTheScanToItsService() throws {
        let command = try BLECommand.parse(["--ssid", "Home", "--protocol", "improv", "--hostname", "porch"])
        #expect(command.bleProtocol == .fixed(.improv))
        #expect(
            command.bluetooth.filter(protocols: command.bleProtocol.candidates)
                == BlueZScanFilter(serviceUUIDs: [ImprovGATTProfile.serviceUUID]))
        #expect(command.protocols.improv.firstOption == "--hostname")
        #expect(BLEProtocolChoice.allValueStrings == ["auto"] + BLEProtocol.allCases.map(\.rawValue))
    }

    /// Options of one protocol are refused with the other, and bad Improv values before anything runs.
    @Test(arguments: [
        ["--protocol", "improv", "--security", "v2"],
        ["--protocol", "improv", "--bssid", "24:0A:C4:12:34:56"],
        ["--protocol", "blufi", "--identify"],
        ["--protocol", "blufi", "--device-name", "Porch"],
        ["--protocol", "thread"],
        ["--hostname", "-porch"],
        ["--hostname", String(repeating: "a", count: 64)],
        ["--device-name", ""],
        ["--authorization-timeout", "0"],
    ])
    func protocolOptionsThatDoNotFitAreUsageErrors(arguments: [String]) {
        #expect(throws: (any Error).self) { try BLECommand.parse(["--ssid", "Home"] + arguments) }
    }

    /// A Thread dataset replaces --ssid; Wi-Fi, Improv, BluFi-only and hand-off options do not go with it.
    @Test func aThreadDatasetStandsInForTheWiFiNetwork() throws {
        let command = try BLECommand.parse(["--thread-dataset-file", "dataset.hex", "--list-networks"])
        #expect(command.protocols.protocomm.threadDatasetFile == "dataset.hex")
        #expect(command.protocols.protocomm.firstOption == "--thread-dataset-file")
        for extra in [
            ["--ssid", "Home"], ["--password-env", "X"], ["--open-network"], ["--bssid", "24:0A:C4:12:34:56"],
            ["--security", "v2"], ["--mode", "softap"], ["--hostname", "porch"], ["--area-id", "42"],
            ["--retry-password-file", "pw.txt"], ["--protocol", "blufi"], ["--protocol", "improv"],
        ] {
            #expect(throws: (any Error).self, "\(extra)") {
                try BLECommand.parse(["--thread-dataset-file", "dataset.hex"] + extra)
            }
        }
    }

    @Test func aGivenAddressIsTheOnlyScanCriterion() throws {
        let options = try BLEAdapterOptions.parse([])
        #expect(options.filter(address: "24:0a:c4:12:34:56") == BlueZScanFilter(address: "24:0A:C4:12:34:56"))
    }

    @Test func aNamePrefixReplacesTheServiceCriterion() throws {
        let options = try BLEAdapterOptions.parse(["--name-prefix", "MH-"])
        #expect(options.filter() == BlueZScanFilter(namePrefix: "MH-"))
        #expect(options.filter(address: "24:0a:c4:12:34:56").address == "24:0A:C4:12:34:56")
    }

    static let dbus = DBusError(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local")

    @Test(arguments: [
        (BlueZError.bluetoothdNotRunning(dbus), "host.bluetoothd-absent", Provisioning.ExitStatus.hostPrecondition),
        (.noAdapter, "host.no-adapter", .hostPrecondition),
        (.adapterNotFound("hci7"), "host.adapter-not-found", .hostPrecondition),
        (.adapterPoweredOff("hci0"), "host.adapter-powered-off", .hostPrecondition),
        (.adapterBlocked("hci0"), "host.adapter-blocked", .hostPrecondition),
        (.accessDenied(dbus), "host.permission-denied", .hostPrecondition),
        (.deviceNotFound, "ble.device-not-found", .deviceNotFound),
        (.connectionAborted(dbus), "ble.connect-aborted", .linkFailure),
        (.linkLost("disconnected"), "ble.link-lost", .linkFailure),
        (.servicesMissing("FFFF"), "ble.services-missing", .linkFailure),
        (.notSupported(dbus), "ble.refused", .linkFailure),
        (.timedOut("Connect"), "timeout", .timeout),
    ])
    func blueZErrorsMapToTheirCodes(error: BlueZError, code: String, status: Provisioning.ExitStatus) {
        let mapped = ProvisioningError.fromBlueZ(error, while: "connecting")
        #expect(mapped.code.rawValue == code)
        #expect(mapped.exitStatus == status)
        #expect(!mapped.hint.isEmpty)
    }

    @Test func cancellationAndOurOwnErrorsPassThrough() {
        #expect(ProvisioningError.fromBlueZ(CancellationError(), while: "x") == .interruptedByUser)
        let own = ProvisioningError(.bleLinkLost, "gone", hint: "retry")
        #expect(ProvisioningError.fromBlueZ(own, while: "x") == own)
    }
}
