import ArgumentParser
import BluFi
import Improv
import Provisioning

/// What `ztprov ble` asks of an Improv device besides the Wi-Fi settings.
struct ImprovOptions: ParsableArguments {
    @Flag(help: "Make the device identify itself (blink or beep) first.")
    var identify = false

    @Option(help: ArgumentHelp("Set the device's hostname (letters, digits, inner hyphens).", valueName: "name"))
    var hostname: String?

    @Option(help: ArgumentHelp("Set the device's name.", valueName: "name"))
    var deviceName: String?

    @Option(
        help: ArgumentHelp(
            "How long to wait for someone to press the device's button (default: 60).", valueName: "seconds"),
        transform: DecimalSeconds.parse)
    var authorizationTimeout: Double?

    func validate() throws {
        if let authorizationTimeout, !(authorizationTimeout > 0 && authorizationTimeout <= 3600) {
            throw ValidationError("--authorization-timeout must be a number of seconds between 0 and 3600.")
        }
        if let hostname, (try? ImprovRequest.validatedHostname(hostname)) == nil {
            throw ValidationError(
                "--hostname takes letters, digits and inner hyphens, 1 to 63 per dot-separated label.")
        }
        if let deviceName, (try? ImprovRequest.validatedDeviceName(deviceName)) == nil {
            throw ValidationError("--device-name must be 1 to 254 bytes.")
        }
    }

    /// The first Improv-only option given, so another protocol refuses it rather than drop it.
    var firstOption: String? {
        if identify { return "--identify" }
        if hostname != nil { return "--hostname" }
        if deviceName != nil { return "--device-name" }
        if authorizationTimeout != nil { return "--authorization-timeout" }
        return nil
    }

    var timeouts: ImprovTimeouts {
        ImprovTimeouts(authorization: .milliseconds(Int64((authorizationTimeout ?? 60) * 1000)))
    }

    /// The Improv settings for the network `bluFi` names; device info is read when the device
    /// advertises it can answer. A hand-off is refused, not dropped: Improv carries no device ID.
    func settings(
        from bluFi: WiFiSettings, listsNetworks: Bool, handsOff: Bool, advertised capabilities: ImprovCapabilities?
    ) throws(ProvisioningError) -> ImprovSettings {
        if handsOff {
            throw ProvisioningError(
                .invalidOption, "--area-id does not apply to an Improv device.",
                hint:
                    "Improv does not carry the Zhiting device ID: run `ztprov discover` and `ztprov handoff` afterwards."
            )
        }
        guard case .station(let station) = bluFi.mode else {
            throw ProvisioningError(.invalidOption, "An Improv device only joins a network.", hint: "Use --mode sta.")
        }
        var settings = ImprovSettings(
            ssid: station.ssid, password: station.password, identifies: identify,
            readsDeviceInfo: capabilities?.contains(.deviceInfo) ?? false, listsNetworks: listsNetworks,
            hostname: hostname, deviceName: deviceName)
        (settings.checksNetwork, settings.hidden) = (bluFi.checksNetwork, bluFi.hidden)
        return settings
    }
}
