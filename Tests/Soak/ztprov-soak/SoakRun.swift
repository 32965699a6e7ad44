import BluFi
import CryptoPrimitives
import DeviceEmulator
import Logging
import Protocomm
import Provisioning
import Transports

/// One provisioning of an emulated device in this process, as `ztprov demo` runs them: BluFi over an
/// in-memory GATT link, or SoftAP through an in-memory hotspot and protocomm device.
enum SoakRun {
    static let homeSSID = "soak-home"
    static let password = "soak-wifi-Pa55"
    static let proofOfPossession = "soak-pop-1234"
    static let logger = Logger(label: "ztprov-soak") { _ in SwiftLogNoOpLogHandler() }

    /// BluFi V2 at MTU 185; the device joins 1 ms after CONNECT_AP and sends its ID.
    static func bluFi() async throws {
        let configuration = BluFiDeviceConfiguration(
            version: BluFiVersion(major: 1, minor: 4), security: .v2, deviceID: "a4cf12b0c0de")
        let device = BluFiDeviceSession(configuration: configuration, random: SystemRandomSource())
        let link = InMemoryBluFiPeripheral(device: device, mtu: 185, joinDelay: .milliseconds(1))
        let provisioner = BluFiProvisioner(connection: link, logger: logger)
        let settings = WiFiSettings(
            .station(WiFiStationSettings(ssid: homeSSID, password: Secret(password))), expectsDeviceID: true)
        let outcome = try await link.run {
            try await provisioner.run(settings, deadline: .now + .seconds(30)) { _ in }
        }
        guard outcome.deviceID != nil else { throw SoakFailure.missingDeviceID }
    }

    /// SoftAP with protocomm security 1, status polled every millisecond.
    static func softAP() async throws {
        let device = EmulatedProtocommDevice(
            configuration: ProtocommDeviceConfiguration(security: .security1(proofOfPossession: proofOfPossession)))
        let joiner = InMemoryWiFiJoiner(
            activeConnection: homeSSID,
            hotspots: [InMemoryWiFiJoiner.Hotspot(ssid: "MH-50AC", bssid: "a4:cf:12:00:50:ac")])
        let provisioner = SoftAPProvisioner(
            joiner: joiner, timeouts: SoftAPTimeouts(protocomm: ProtocommTimeouts(statusPollInterval: .milliseconds(1)))
        ) { _, _ in await device.connect() }
        let request = SoftAPProvisioningRequest(
            hotspot: SoftAPHotspot(ssid: "MH-50AC"),
            network: ProtocommTargetNetwork(ssid: homeSSID, passphrase: Secret(password)),
            security: ProtocommSecurityOptions(proofOfPossession: Secret(proofOfPossession)),
            listsNetworks: false)
        _ = try await provisioner.run(request, deadline: .now + .seconds(30)) { _ in }
    }
}

/// A provisioning that returned without what it promised.
enum SoakFailure: Error {
    case missingDeviceID
}
