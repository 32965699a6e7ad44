import JSONWriting
import Provisioning
import Transports
import ZhitingLAN

/// Renders the LAN flows' progress as human lines on stderr and JSON events on stdout.
struct LANProgressPrinter: Sendable {
    let console: Console

    func report(_ progress: LANProgress) {
        switch progress {
        case .helloSent(let destination, let attempt):
            let place = destination == .broadcast(port: LANTarget.standardPort) ? "on the LAN" : "to \(destination)"
            console.progress(
                "Sending hello \(place)" + (attempt > 1 ? " (again, \(attempt))" : ""), detail: attempt > 1)
            console.event(
                "hello-sent", [JSONField("to", .string("\(destination)")), JSONField("attempt", .int(attempt))])
        case .deviceAnswered(let device):
            console.progress(
                "Found \(device.id) at \(device.endpoint.host)" + (device.helloModel.map { " (\($0))" } ?? ""))
            console.event("device-answered", Self.fields(device))
        case .requestResent(let id, let attempt):
            console.progress("No answer yet from \(id); sending again (attempt \(attempt))")
            console.event("request-resent", [JSONField("id", .string("\(id)")), JSONField("attempt", .int(attempt))])
        case .tokenReceived(let id):
            console.progress("Key exchange with \(id) done", detail: true)
            console.event("token-received", [JSONField("id", .string("\(id)"))])
        case .infoReceived(let id, let info):
            console.progress("\(id) is \(Self.describe(info))")
            console.event("info", [JSONField("id", .string("\(id)"))] + Self.fields(info))
        case .serverRequested(let id, let server, let port):
            console.progress("Telling \(id) to use \(server):\(port)")
            console.event(
                "server-requested",
                [
                    JSONField("id", .string("\(id)")), JSONField("server", .string(server)),
                    JSONField("port", .int(port)),
                ]
            )
        case .serverConfirmed(let id, let echo):
            console.success("\(id) confirmed \(echo)")
            console.event(
                "server-confirmed",
                [
                    JSONField("id", .string("\(id)")), JSONField("server", .optional(echo.server)),
                    JSONField("port", .optional(echo.port)),
                ]
            )
        }
    }

    /// `model (software 1.0.0, hardware esp32c3)`, leaving out what the device did not say.
    static func describe(_ info: ZhitingDeviceInfo) -> String {
        let versions = [
            info.softwareVersion.map { "software \($0)" }, info.hardwareVersion.map { "hardware \($0)" },
        ].compactMap { $0 }
        return (info.model ?? "an unnamed model") + (versions.isEmpty ? "" : " (\(versions.joined(separator: ", ")))")
    }

    static func fields(_ device: LANDevice) -> [JSONField] {
        [
            JSONField("id", .string("\(device.id)")), JSONField("ip", .string(device.endpoint.host)),
            JSONField("udp_port", .int(Int(device.endpoint.port))),
        ]
    }

    static func fields(_ info: ZhitingDeviceInfo) -> [JSONField] {
        [
            JSONField("model", .optional(info.model)), JSONField("sw_ver", .optional(info.softwareVersion)),
            JSONField("hw_ver", .optional(info.hardwareVersion)), JSONField("sa_id", .optional(info.smartAssistantID)),
            JSONField("port", .optional(info.port)),
        ]
    }
}
