import BluFi
import DeviceEmulator
import Provisioning
import Testing

/// The BluFi flow against an emulated device: every scheme at the MTUs that matter (23 = none
/// exchanged, 185 = a typical phone, 517 = BlueZ), every Wi-Fi mode, and the steps it reports.
@Suite struct BluFiProvisionerTests {
    static let schemes: [BluFiSecurityScheme] = [.none, .v1, .v2]
    static let mtus = [23, 185, 517]

    @Test(arguments: schemes, mtus)
    func stationJoinsAndReportsTheDeviceID(scheme: BluFiSecurityScheme, mtu: Int) async throws {
        let ble = EmulatedBLE(device: EmulatedBLE.device(scheme), mtu: mtu, security: EmulatedBLE.choice(for: scheme))
        let outcome = try await ble.provision()

        #expect(outcome.security == scheme)
        #expect(outcome.deviceID == EmulatedBLE.deviceID)
        #expect(outcome.deviceVersion == EmulatedBLE.device(scheme).version)
        #expect(outcome.report.stationState == .connected)
        #expect(outcome.report.stationSSID == Array(EmulatedBLE.ssid.utf8))
        #expect(outcome.traffic.mtu == mtu)
        #expect(outcome.traffic.framesWritten == (await ble.link.writes.count))
        #expect(outcome.traffic.framesReceived > 0)
        let device = await ble.link.device
        #expect(device.fields[.staSSID] == Array(EmulatedBLE.ssid.utf8))
        #expect(device.fields[.staPassword] == Array(EmulatedBLE.password.utf8))
        #expect(device.securityMode == (scheme == .none ? [] : [.dataChecksum, .dataEncryption]))
        #expect(await ble.link.deviceEvents.allSatisfy { if case .errorSent = $0 { false } else { true } })
        #expect(await ble.link.closure == .byDevice)
        #expect(!ble.leaksSecret())
    }

    @Test(arguments: schemes, [23, 517])
    func softAPStartsTheDevicesAccessPoint(scheme: BluFiSecurityScheme, mtu: Int) async throws {
        let ble = EmulatedBLE(device: EmulatedBLE.device(scheme), mtu: mtu, security: EmulatedBLE.choice(for: scheme))
        let outcome = try await ble.provision(WiFiSettings(.softAP(EmulatedBLE.softAP), expectsDeviceID: false))

        #expect(outcome.report.operationMode == .softAP)
        #expect(outcome.deviceID == nil)
        let device = await ble.link.device
        #expect(device.operationMode == .softAP)
        #expect(device.fields[.softAPSSID] == Array(EmulatedBLE.softAPSSID.utf8))
        #expect(device.fields[.softAPPassword] == Array(EmulatedBLE.softAPPassword.utf8))
        #expect(device.fields[.softAPChannel] == [6])
        #expect(ble.recorder.progress.contains { if case .softAPStarted = $0 { true } else { false } })
        #expect(!ble.leaksSecret())
    }

    @Test(arguments: schemes)
    func stationAndSoftAPWaitsForTheStation(scheme: BluFiSecurityScheme) async throws {
        let ble = EmulatedBLE(device: EmulatedBLE.device(scheme), security: EmulatedBLE.choice(for: scheme))
        let settings = WiFiSettings(
            .stationAndSoftAP(EmulatedBLE.station, EmulatedBLE.softAP), expectsDeviceID: true)
        let outcome = try await ble.provision(settings)

        #expect(outcome.report.operationMode == .stationAndSoftAP)
        #expect(outcome.report.stationState == .connected)
        #expect(outcome.deviceID == EmulatedBLE.deviceID)
        #expect(!ble.leaksSecret())
    }

    @Test func reportsOneProgressEventPerStepInProtocolOrder() async throws {
        var timeouts = EmulatedBLE.timeouts
        timeouts.statusPollInterval = .seconds(30)  // no poll: the device's own push ends the join
        let ble = EmulatedBLE(device: EmulatedBLE.device(.v1), mtu: 185, timeouts: timeouts)
        let outcome = try await ble.provision()

        #expect(
            ble.recorder.progress == [
                .sessionStarted(mtu: 185),
                .versionReceived(BluFiVersion(major: 1, minor: 3)),
                .negotiationStarted(.v1),
                .sessionReady(.v1),
                .operationModeSet(.station),
                .joinRequested(ssid: EmulatedBLE.ssid),
                .wifiConnected(outcome.report),
                .deviceIDReceived(EmulatedBLE.deviceID),
                .disconnectRequested,
            ])
        #expect(outcome.traffic.statusPolls == 0)
    }

    @Test func forcedV1OnAVersion14DeviceThatKeptV1() async throws {
        var device = EmulatedBLE.device(.v1)
        device.version = BluFiVersion(major: 1, minor: 4)
        let ble = EmulatedBLE(device: device, security: .fixed(.v1))
        #expect(try await ble.provision().security == .v1)
    }

    @Test func listsTheNetworksTheDeviceFoundStrongestFirst() async throws {
        let ble = EmulatedBLE(device: EmulatedBLE.device(.v2), mtu: 23)
        let list = try await ble.listNetworks()

        #expect(list.accessPoints.map(\.ssid) == [Array(EmulatedBLE.ssid.utf8), Array("Neighbour".utf8)])
        #expect(list.security == .v2)
        #expect(
            ble.recorder.progress.suffix(3) == [
                .wifiListRequested, .wifiListReceived(list.accessPoints), .disconnectRequested,
            ])
        #expect(await ble.link.closure == .byDevice)
    }

    @Test func aDeviceThatFindsNothingListsNoNetworks() async throws {
        var device = EmulatedBLE.device(.v1)
        device.accessPoints = []
        var timeouts = EmulatedBLE.timeouts
        timeouts.wifiList = .milliseconds(100)
        let ble = EmulatedBLE(device: device, timeouts: timeouts)
        #expect(try await ble.listNetworks().accessPoints.isEmpty)
    }
}
