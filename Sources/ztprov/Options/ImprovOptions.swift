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

    /// Whether any Improv-only option was given.
    var isUsed: Bool { firstOption != nil }

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
    /// advertises it can answer. BluFi-only settings are refused, not dropped.
    func settings(
        from bluFi: BluFiWiFiSettings, options: BluFiOptions, listsNetworks: Bool, handsOff: Bool,
        advertised capabilities: ImprovCapabilities?
    ) throws(ProvisioningError) -> ImprovSettings {
        if let refused = options.bluFiOnlyOption ?? (handsOff ? "--area-id" : nil) {
            throw ProvisioningError(
                .invalidOption, "\(refused) does not apply to an Improv device.",
                hint: handsOff
                    ? "Improv does not carry the Zhiting device ID: run `ztprov discover` and `ztprov handoff` afterwards."
                    : "Leave it out, or give --protocol blufi for a BluFi device.")
        }
        guard case .station(let station) = bluFi.mode else {
            throw ProvisioningError(.invalidOption, "An Improv device only joins a network.", hint: "Use --mode sta.")
        }
        return ImprovSettings(
            ssid: station.ssid, password: station.password, identifies: identify,
            readsDeviceInfo: capabilities?.contains(.deviceInfo) ?? false, listsNetworks: listsNetworks,
            hostname: hostname, deviceName: deviceName)
    }
}
