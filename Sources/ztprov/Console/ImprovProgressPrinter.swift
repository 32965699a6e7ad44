import Improv
import JSONWriting
import Provisioning

/// Renders the Improv flow's progress as one human line per step on stderr and JSON events on stdout.
struct ImprovProgressPrinter: Sendable {
    let console: Console

    func report(_ progress: ImprovProgress) {
        let sentence = progress.description.prefix(1).uppercased() + progress.description.dropFirst()
        switch progress {
        case .authorizationRequired: console.actionNeeded(sentence)
        case .device(.provisioned): console.success(sentence)
        case .device(.networks(let found)):
            console.progress(sentence)
            for network in found { console.output(HeardNetworkText.row(HeardNetwork(network))) }
        case .sessionStarted, .device(.stateChanged): console.progress(sentence, detail: true)
        default: console.progress(sentence)
        }
        let (name, fields) = Self.event(progress)
        console.event(name, fields)
    }

    private static func event(_ progress: ImprovProgress) -> (String, [JSONField]) {
        switch progress {
        case .sessionStarted(let mtu): ("session-started", [JSONField("mtu", .int(mtu))])
        case .device(let event): Self.event(event)
        case .authorizationRequired(let within):
            ("authorization-required", [JSONField("timeout_s", .int(Int(within.components.seconds)))])
        case .joinRequested(let ssid): ("join-requested", [JSONField("ssid", .string(ssid))])
        }
    }

    private static func event(_ event: ImprovClientEvent) -> (String, [JSONField]) {
        switch event {
        case .connected(let state, let capabilities):
            ("improv-state", [JSONField("state", .string(name(state))), capabilitiesField(capabilities)])
        case .authorizationRequired: ("authorization-required", [])
        case .authorized: ("authorized", [])
        case .stateChanged(let state): ("improv-state", [JSONField("state", .string(name(state)))])
        case .identifySent: ("identify-sent", [])
        case .deviceInfo(let info): ("device-info", fields(info))
        case .networks(let found): ("wifi-list", [JSONField("count", .int(found.count)), networksField(found)])
        case .hostname(let name): ("hostname", [JSONField("hostname", .string(name))])
        case .deviceName(let name): ("device-name", [JSONField("device_name", .string(name))])
        case .provisioned(let url): ("wifi-connected", [JSONField("redirect_url", .optional(url))])
        }
    }

    /// The state as JSON spells it: `authorization-required`, `authorized`, `provisioning`, `provisioned`.
    static func name(_ state: ImprovState) -> String {
        state.description.split(separator: " ").joined(separator: "-")
    }

    static func capabilitiesField(_ capabilities: ImprovCapabilities) -> JSONField {
        let names = capabilities.description == "none" ? [] : capabilities.description.split(separator: ",")
        return JSONField("capabilities", .array(names.map { .string(String($0)) }))
    }

    static func fields(_ info: ImprovDeviceInfo) -> [JSONField] {
        [
            JSONField("firmware", .string(info.firmwareName)),
            JSONField("firmware_version", .string(info.firmwareVersion)),
            JSONField("hardware", .string(info.hardware)), JSONField("device_name", .string(info.deviceName)),
            JSONField("os", .optional(info.osName)), JSONField("os_version", .optional(info.osVersion)),
        ]
    }

    static func networksField(_ found: [ImprovWiFiNetwork]) -> JSONField {
        JSONField(
            "networks",
            .array(
                found.map { network in
                    .object([
                        JSONField("ssid", .string(HeardNetwork(network).name)), JSONField("rssi", .int(network.rssi)),
                        JSONField("authentication", .string(network.authentication.joined(separator: "/"))),
                    ])
                }))
    }
}
