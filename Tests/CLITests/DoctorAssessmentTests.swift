import JSONWriting
import Provisioning
import Testing

@testable import ztprov

/// The doctor's judgement on hand-built probe results: which checks fail, with which code, and
/// which path that blocks.
@Suite struct DoctorAssessmentTests {
    static let controller = DoctorFindings.Controller(
        name: "hci0", address: "00:1A:7D:DA:71:13", bus: "usb", isUp: true, slot: 2)
    static let healthy = DoctorFindings(
        kernel: .controllers([controller]),
        bluetoothd: .running([DoctorFindings.Adapter(name: "hci0", address: "00:1A:7D:DA:71:13", isPowered: true)]),
        radioSwitches: [
            DoctorFindings.RadioSwitch(type: "bluetooth", name: "hci0", softBlocked: false, hardBlocked: false)
        ],
        networkManager: .running([DoctorFindings.WiFiDevice(interface: "wlan0", state: 100)]),
        isRoot: true
    )

    func check(_ name: String, in findings: DoctorFindings) throws -> DoctorCheck {
        try #require(DoctorAssessment(findings: findings).checks.first { $0.name == name })
    }

    @Test func aHealthyHostPassesEveryCheck() {
        let checks = DoctorAssessment(findings: Self.healthy).checks
        #expect(checks.allSatisfy { $0.status == .ok }, "\(checks.filter { $0.status != .ok })")
        #expect(DoctorCheck.Path.allCases.allSatisfy { path in !checks.contains { $0.blocks(path) } })
        #expect(checks.map(\.name).contains("station-slots"))
    }

    @Test func aKernelWithoutBluetoothBlocksBLEOnly() throws {
        var findings = Self.healthy
        findings.kernel = .noBluetooth
        let kernel = try check("kernel-bluetooth", in: findings)
        #expect(kernel.status == .fail)
        #expect(kernel.code == .kernelBluetoothMissing)
        #expect(kernel.hint.contains("modprobe"))
        #expect(kernel.blocks(.ble) && !kernel.blocks(.softap))
        #expect(try check("controllers", in: findings).blocks(.ble))
    }

    @Test func noControllerFailsWithItsOwnCode() throws {
        var findings = Self.healthy
        findings.kernel = .controllers([])
        let controllers = try check("controllers", in: findings)
        #expect(controllers.status == .fail)
        #expect(controllers.code == .noBluetoothAdapter)
        #expect(try check("kernel-bluetooth", in: findings).status == .ok)
    }

    @Test(arguments: [
        DoctorFindings.Service<[DoctorFindings.Adapter]>.absent, .unreachable("no bus"),
    ])
    func bluetoothdMissingBlocksBLE(service: DoctorFindings.Service<[DoctorFindings.Adapter]>) throws {
        var findings = Self.healthy
        findings.bluetoothd = service
        let bluetoothd = try check("bluetoothd", in: findings)
        #expect(bluetoothd.code == .bluetoothdAbsent)
        #expect(bluetoothd.blocks(.ble))
        #expect(try check("adapter-powered", in: findings).blocks(.ble))
    }

    @Test func anUnpoweredAdapterFails() throws {
        var findings = Self.healthy
        findings.bluetoothd = .running([DoctorFindings.Adapter(name: "hci0", address: "AA", isPowered: false)])
        let adapter = try check("adapter-powered", in: findings)
        #expect(adapter.code == .bluetoothAdapterPoweredOff)
        #expect(adapter.detail.contains("hci0"))
        #expect(adapter.hint.contains("power on"))
    }

    @Test func blockedRadiosBlockTheirPath() throws {
        var findings = Self.healthy
        findings.radioSwitches = [
            DoctorFindings.RadioSwitch(type: "bluetooth", name: "hci0", softBlocked: true, hardBlocked: false),
            DoctorFindings.RadioSwitch(type: "wlan", name: "phy0", softBlocked: false, hardBlocked: true),
        ]
        let bluetooth = try check("rfkill-bluetooth", in: findings)
        #expect(bluetooth.blocks(.ble) && !bluetooth.blocks(.softap))
        #expect(bluetooth.hint.contains("rfkill unblock bluetooth"))
        #expect(bluetooth.code == .hostRadioBlocked)
        #expect(bluetooth.code?.exitStatus == .hostPrecondition)
        let wifi = try check("rfkill-wifi", in: findings)
        #expect(wifi.code == .hostRadioBlocked)
        #expect(wifi.blocks(.softap) && !wifi.blocks(.ble))
        #expect(wifi.detail.contains("hard-blocked"))
    }

    @Test func networkManagerWithoutAUsableWiFiDeviceBlocksSoftAP() throws {
        var findings = Self.healthy
        findings.networkManager = .running([DoctorFindings.WiFiDevice(interface: "wlan0", state: 10)])
        let wifi = try check("wifi-device", in: findings)
        #expect(wifi.code == .wifiInterfaceUnavailable)
        #expect(wifi.blocks(.softap) && !wifi.blocks(.ble))
        findings.networkManager = .absent
        #expect(try check("networkmanager", in: findings).code == .networkServiceUnavailable)
    }

    @Test func missingSlotsAndRootOnlyWarn() throws {
        var findings = Self.healthy
        findings.kernel = .controllers([DoctorFindings.Controller(name: "hci1", address: "B", bus: "usb", isUp: true)])
        findings.isRoot = false
        let slots = try check("station-slots", in: findings)
        let permissions = try check("permissions", in: findings)
        #expect(slots.status == .warn && slots.requiredFor.isEmpty)
        #expect(permissions.status == .warn && permissions.hint.contains("polkit"))
    }

    @Test func theReportFailsOnlyForThePathsAsked() throws {
        var findings = Self.healthy
        findings.kernel = .noBluetooth
        let captured = CapturedStreams()
        let report = DoctorReport(checks: DoctorAssessment(findings: findings).checks, paths: [.softap])
        let fields = try report.print(on: captured.console(json: true))
        #expect(fields == [JSONField("ready", .object([JSONField("ble", false), JSONField("softap", true)]))])
        #expect(throws: ProvisioningError.self) {
            try DoctorReport(checks: report.checks, paths: [.ble]).print(on: captured.console())
        }
        let error = #expect(throws: ProvisioningError.self) {
            try DoctorReport(checks: report.checks, paths: [.ble, .softap]).print(on: captured.console())
        }
        #expect(error?.code == .kernelBluetoothMissing)
        #expect(error?.exitStatus == .hostPrecondition)
        #expect(captured.standardOutput.contains("BLE: blocked by kernel-bluetooth, controllers"))
    }
}
