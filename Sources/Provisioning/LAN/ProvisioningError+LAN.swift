import Transports
import ZhitingLAN

/// How LAN failures read to a person: one message, one hint, a stable code.
extension ProvisioningError {
    /// Ctrl-C or another cancellation reached a flow; cleanup runs as the error unwinds.
    public static let interruptedByUser = ProvisioningError(
        .interrupted,
        "Interrupted.",
        hint: "Run the command again; every step is safe to repeat."
    )

    /// The terminal or SSH session went away (SIGHUP); cleanup ran as for Ctrl-C.
    public static let hungUp = ProvisioningError(
        .hangUp,
        "Interrupted: the terminal or session went away (SIGHUP).",
        hint: "Run long commands under tmux or screen; every step is safe to repeat."
    )

    /// SIGTERM reached ztprov; cleanup ran as for Ctrl-C.
    public static let terminated = ProvisioningError(
        .terminated,
        "Interrupted: ztprov was asked to stop (SIGTERM).",
        hint: "Run the command again; every step is safe to repeat."
    )

    /// The LAN socket could not be opened: a missing interface, a taken port, or no permission.
    public static func lanSocketUnavailable(_ error: any Error, interface: String?, port: UInt16) -> ProvisioningError {
        let failure = error as? any TransportFailure
        let detail = failure?.detail ?? "\(error)"
        switch failure?.kind {
        case .noSuchInterface:
            return ProvisioningError(
                .lanInterfaceNotFound,
                "Network interface \(interface ?? "?") does not exist.",
                hint: "List interfaces with `ip -br link` and pass the one on the devices' LAN to --lan-interface.",
                detail: detail
            )
        case .addressInUse:
            return ProvisioningError(
                .lanPortInUse,
                "UDP port \(port) is already in use on this host.",
                hint: "Stop the other program using it (a Smart Assistant, another ztprov) or pass --local-port 0.",
                detail: detail
            )
        case .permissionDenied:
            return ProvisioningError(
                .permissionDenied,
                "Not permitted to open the LAN socket\(interface.map { " on \($0)" } ?? "").",
                hint: "Run as root or grant CAP_NET_RAW, which pinning to an interface needs.",
                detail: detail
            )
        default:
            return ProvisioningError(
                .lanSocketFailed,
                "Could not open the LAN socket.",
                hint: "Check the interface is up with an IPv4 address; --verbose shows the system error.",
                detail: detail
            )
        }
    }

    static func lanTransport(_ error: any Error, while action: String) -> ProvisioningError {
        if error is CancellationError { return .interruptedByUser }
        let detail = (error as? any TransportFailure)?.detail ?? "\(error)"
        return ProvisioningError(
            .lanSendFailed,
            "The LAN socket failed while \(action).",
            hint: "Check the interface is up and has an IPv4 address, or name it with --lan-interface.",
            detail: detail
        )
    }

    static func lanNotFound(_ target: LANTarget, within window: Duration, others: [LANDevice]) -> ProvisioningError {
        let seconds = window.secondsText
        if let wanted = target.deviceID, !others.isEmpty {
            let seen = others.map { "\($0.id) at \($0.endpoint.host)" }.joined(separator: ", ")
            return ProvisioningError(
                .lanDeviceNotFound,
                "Device \(wanted) did not answer within \(seconds); other devices did: \(seen).",
                hint:
                    "Check the device ID (`ztprov discover` lists what is on this LAN) and that the device is powered."
            )
        }
        let place = target.address.map { "at \($0)" } ?? "on the LAN"
        return ProvisioningError(
            .lanNoReply,
            "No Zhiting device answered the hello \(place) within \(seconds).",
            hint: "Check the device finished Wi-Fi provisioning and is on this network; "
                + "name the interface with --lan-interface or give its address with --device-address."
        )
    }
}

extension Duration {
    /// `3 s`, `0.3 s`: what a person reads in a message, to a tenth of a second.
    var secondsText: String {
        let tenths =
            (components.seconds * 10) + (components.attoseconds + 50_000_000_000_000_000) / 100_000_000_000_000_000
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }
}
