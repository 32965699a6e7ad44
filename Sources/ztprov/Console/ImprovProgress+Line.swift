import Improv
import JSONWriting
import Provisioning

extension ImprovProgress: ConsoleProgress {
    var line: ProgressLine {
        let sentence = ProgressLine.sentence(self)
        let (event, fields) = consoleEvent
        return switch self {
        case .authorizationRequired: ProgressLine(.actionNeeded, sentence, event: event, fields)
        case .device(.provisioned): ProgressLine(.success, sentence, event: event, fields)
        case .device(.networks(let found)):
            ProgressLine(
                sentence, event: event, fields,
                rows: found.map { HeardNetworkText.row(HeardNetwork($0)) })
        case .sessionStarted, .device(.stateChanged): ProgressLine(.detail, sentence, event: event, fields)
        default: ProgressLine(sentence, event: event, fields)
        }
    }

    private var consoleEvent: (String, [JSONField]) {
        switch self {
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
            (
                "improv-state",
                [JSONField("state", .string(ImprovFields.name(state))), ImprovFields.capabilitiesField(capabilities)]
            )
        case .authorizationRequired: ("authorization-required", [])
        case .authorized: ("authorized", [])
        case .stateChanged(let state): ("improv-state", [JSONField("state", .string(ImprovFields.name(state)))])
        case .identifySent: ("identify-sent", [])
        case .deviceInfo(let info): ("device-info", ImprovFields.fields(info))
        case .networks(let found):
            ("wifi-list", [JSONField("count", .int(found.count)), ImprovFields.networksField(found)])
        case .hostname(let name): ("hostname", [JSONField("hostname", .string(name))])
        case .deviceName(let name): ("device-name", [JSONField("device_name", .string(name))])
        case .provisioned(let url): ("wifi-connected", [JSONField("redirect_url", .optional(url))])
        }
    }
}
