import Testing
import Transports

@testable import NetworkManager

@Suite struct NetworkManagerErrorTests {
    @Test(arguments: [
        (NetworkManagerError.notRunning, WiFiJoinFailureKind.serviceUnavailable),
        (.busUnavailable(message: "no socket"), .serviceUnavailable),
        (.libraryUnavailable(message: "libnm.so.0: cannot open shared object file"), .serviceUnavailable),
        (.permissionDenied(operation: "a Wi-Fi scan", message: "not authorized"), .permissionDenied),
        (.wifiDeviceNotFound(interface: "wlan9"), .interfaceUnavailable),
        (.wifiDeviceNotFound(interface: nil), .interfaceUnavailable),
        (.notWiFiDevice(interface: "eth0"), .interfaceUnavailable),
        (.ethernetTestLinkUnavailable(interface: "wlan0"), .interfaceUnavailable),
        (.ethernetTestLinkUnavailable(interface: nil), .interfaceUnavailable),
        (.wifiDisabled, .interfaceUnavailable),
        (.deviceUnavailable(interface: "wlan0", state: .unmanaged), .interfaceUnavailable),
        (.accessPointNotFound(ssid: "ZT_1A2B3C"), .networkNotFound),
        (.accessPointNotSeenAgain(ssid: "ZT_1A2B3C", lastSeenSecondsAgo: 4), .networkNotFound),
        (.activationFailed(NMStateReason(device: 7)), .passwordRejected),
        (.activationFailed(NMStateReason(activeConnection: 9)), .passwordRejected),
        (.activationFailed(NMStateReason(device: 53)), .networkNotFound),
        (.activationFailed(NMStateReason(device: 11)), .timedOut),
        (.activationFailed(NMStateReason(device: 17)), .associationFailed),
        (.activationFailed(NMStateReason(device: 36)), .interfaceUnavailable),
        (.activationFailed(nil), .associationFailed),
        (.activationTimedOut(network: "ZT_1A2B3C", lastDeviceState: .config), .timedOut),
        (.restoreFailed(connection: "HomeWiFi", cause: "timed out"), .restoreFailed),
        (.alreadyJoined(interface: "wlan0"), .interfaceUnavailable),
        (.operationFailed(operation: "ActivateConnection", message: "boom"), .associationFailed),
    ])
    func mapsToAJoinFailureKind(error: NetworkManagerError, kind: WiFiJoinFailureKind) {
        #expect(error.joinFailureKind == kind)
    }

    @Test func describesInNetworkManagersWords() {
        #expect(
            NetworkManagerError.activationFailed(NMStateReason(device: 7)).description
                == "NetworkManager could not join the hotspot: device reason NO_SECRETS (7)")
        #expect(
            NetworkManagerError.deviceUnavailable(interface: "wlan0", state: .unavailable).description
                == "wlan0 cannot be used while unavailable")
        #expect(
            NetworkManagerError.accessPointNotSeenAgain(ssid: "ZT_1A2B3C", lastSeenSecondsAgo: 4).description
                == "ZT_1A2B3C is listed from a scan 4 s ago, but no scan since has seen it")
    }
}
