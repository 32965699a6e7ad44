import BluFi
import CryptoPrimitives
import DeviceEmulator
import Improv
import Protocomm
import Provisioning
import Transports
import ZhitingLAN

/// The emulated devices and host of `ztprov demo`, and the fixed values they share.
///
/// The passwords, PoP and token are made up for the demo (nobody's real secrets), yet the tool treats
/// them as secrets all the same, so the demo shows that they never reach the output.
enum DemoDevices {
    static let homeSSID = "ztprov-demo-home"
    static let wifiPassword = "demo-wifi-Pa55-2718"
    static let proofOfPossession = "demo-pop-3141"
    static let srpUsername = "wifiprov"
    static let srpPassword = "demo-srp-1618"
    static let accessToken = "demo-access-token-5772"
    static let areaID = "demo-area"
    /// Every secret above, for checks that none was printed.
    static let secrets = [wifiPassword, proofOfPossession, srpPassword, accessToken]

    /// The ID the BluFi device sends once it joined (custom data, as Zhiting firmware does).
    static let bluFiDeviceID = ZhitingDeviceID("a4cf12b0c0de")!
    static let hotspotSSID = "MH-B0C0DF"
    /// The SoftAP device's ID is its hotspot's BSSID, as the Zhiting apps take it.
    static let hotspotBSSID = "a4:cf:12:b0:c0:df"

    /// A BluFi device running `scheme` on its stock firmware: 1.4 for V2, 1.3 otherwise.
    static func bluFiLink(_ scheme: BluFiSecurityScheme) -> InMemoryBluFiPeripheral {
        let configuration = BluFiDeviceConfiguration(
            version: scheme == .v2 ? BluFiVersion(major: 1, minor: 4) : BluFiVersion(major: 1, minor: 3),
            security: scheme,
            deviceID: "\(bluFiDeviceID)"
        )
        let device = BluFiDeviceSession(configuration: configuration, random: SystemRandomSource())
        return InMemoryBluFiPeripheral(device: device, mtu: 185)
    }

    /// An Improv device (ESPHome-like) that joins the demo's home network.
    static func improvPeripheral() throws(ProvisioningError) -> InMemoryImprovPeripheral {
        guard let home = try? ImprovCredentials(ssid: Array(homeSSID.utf8), password: Array(wifiPassword.utf8))
        else { throw broken("The demo's Wi-Fi settings do not fit Improv.") }
        return InMemoryImprovPeripheral(
            EmulatedImprovDeviceConfiguration(
                joinableNetwork: home, redirectURL: "http://improv-demo.local/",
                networks: [ImprovWiFiNetwork(ssid: homeSSID, rssi: -52, authentication: ["WPA2"])]))
    }

    /// An ESP provisioning device over BLE (`network_provisioning`, security 1 with the demo's PoP), joining
    /// the home network at 192.168.4.23.
    static func protocommPeripheral() -> InMemoryProtocommPeripheral {
        InMemoryProtocommPeripheral(
            configuration: ProtocommDeviceConfiguration(
                security: .security1(proofOfPossession: proofOfPossession),
                wifi: ProtocommDeviceWiFiPlan(outcome: .connect(ipAddress: "192.168.4.23"))))
    }

    /// The QR payload on the protocomm device's label: its name, the transport and its PoP.
    static func protocommLabel() throws(ProvisioningError) -> ESPProvisioningQRPayload {
        guard
            let label = try? ESPProvisioningQRPayload(
                #"{"ver":"v1","name":"PROV_C0E0","pop":"\#(proofOfPossession)","transport":"ble","security":1}"#)
        else { throw broken("The demo's QR payload does not parse.") }
        return label
    }

    /// The demo itself is broken, which no option can fix.
    static func broken(_ message: String) -> ProvisioningError {
        ProvisioningError(.handoffNoInfo, message, hint: "This is a bug in the demo; please report it.")
    }

    /// A protocomm device behind its hotspot, with the demo's PoP or SRP password for `level`.
    static func protocommDevice(_ level: ProtocommSecurityLevel) -> EmulatedProtocommDevice {
        let security: ProtocommDeviceSecurity =
            switch level {
            case .security0: .security0
            case .security1: .security1(proofOfPossession: proofOfPossession)
            case .security2:
                .security2(
                    verifier: ProtocommSecurity2Verifier(username: srpUsername, password: srpPassword, salt: salt()),
                    patch: .counterNonce)
            }
        return EmulatedProtocommDevice(configuration: ProtocommDeviceConfiguration(security: security))
    }

    private static func salt() -> [UInt8] {
        var random = SystemRandomSource()
        return random.bytes(16)
    }

    /// The host's Wi-Fi: on the home network, with the device's hotspot in range.
    static func wifiJoiner() -> InMemoryWiFiJoiner {
        InMemoryWiFiJoiner(
            interfaceName: "wlan0", activeConnection: homeSSID,
            hotspots: [InMemoryWiFiJoiner.Hotspot(ssid: hotspotSSID, bssid: hotspotBSSID)])
    }

    /// A LAN with one Zhiting switch of ID `id` on it, at a loopback address (nothing leaves the process).
    static func lan(deviceID id: ZhitingDeviceID) async -> InMemoryDatagramLink {
        let link = InMemoryDatagramLink()
        let info = ZhitingDeviceInfo(model: "ZTSW3SLW001W", softwareVersion: "1.0.0", hardwareVersion: "esp32c3")
        var random = SystemRandomSource()
        let profile = ZhitingDeviceResponder.Profile(
            deviceID: id, token: ZhitingToken(bytes: random.bytes(16))!, info: info)
        await link.attach(
            .zhiting(ZhitingDeviceResponder(profile: profile)),
            at: DatagramEndpoint(address: [127, 0, 0, 2], port: LANTarget.standardPort)!)
        return link
    }
}
