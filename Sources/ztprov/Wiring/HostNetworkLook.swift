import DBus
import JSONWriting
import Logging
import NetworkManager
import Provisioning

/// Before anything is sent, a look at what the host's own Wi-Fi last heard of the network, where it costs
/// nothing: NetworkManager's cached scan, read over the system bus within a short limit. A network heard
/// only on 5 or 6 GHz or as WPA3-only is a warning, an 802.1X one a refusal; no NetworkManager, or none
/// answering in time, is skipped (a debug line).
enum HostNetworkLook {
    /// The longest the look may take: a NetworkManager that answers does so in milliseconds.
    static let limit: Duration = .milliseconds(500)

    /// Warns about, or refuses, `join` by what the host heard.
    static func advise(_ join: NetworkJoin, context: CommandContext) async throws(ProvisioningError) {
        let limit = min(Self.limit, max(context.deadline - .now, .zero))
        let heard: [HeardNetwork]
        do {
            let bus = try await DBusConnection.open(BusHandshake.systemBus, handshakeTimeout: limit)
            do {
                heard = try await NMCachedScan.accessPoints(on: bus, timeout: limit).map(HeardNetwork.init)
                await bus.close()
            } catch {
                await bus.close()
                throw error
            }
        } catch {
            context.logger.debug("no cached Wi-Fi scan of the host to look at: \(error)")
            return
        }
        if heard.isEmpty { context.logger.debug("NetworkManager lists no access point: not running, or no Wi-Fi") }
        for warning in try join.hostAdvice(heard) {
            context.console.warning("\(warning.message) [\(warning.code.rawValue)]")
            context.console.event(
                "warning",
                [JSONField("code", .string(warning.code.rawValue)), JSONField("message", .string(warning.message))])
        }
    }
}

extension HeardNetwork {
    /// NetworkManager's description of an access point: its security from the key management it offers, its
    /// signal quality in percent as dBm the way NetworkManager converts (`strength / 2 - 100`).
    init(_ accessPoint: NMCachedScan.AccessPoint) {
        let offered = accessPoint.wpaFlags | accessPoint.rsnFlags
        let (psk, enterprise, sae, suiteB): (UInt32, UInt32, UInt32, UInt32) = (0x100, 0x200, 0x400, 0x2000)
        let security: Security =
            if offered & (enterprise | suiteB) != 0, offered & (psk | sae) == 0 {
                .enterprise
            } else if offered & (psk | sae) != 0 || accessPoint.flags & 1 != 0 {
                .secured
            } else {
                .open
            }
        self.init(
            ssid: accessPoint.ssid, rssi: accessPoint.strength / 2 - 100, security: security,
            frequency: accessPoint.frequency,
            bssid: WiFiOptions.bssidBytes(accessPoint.bssid), wpa3Only: offered & sae != 0 && offered & psk == 0)
    }
}
