import JSONWriting
import Provisioning
import Transports
import ZhitingLAN

extension LANProgress: ConsoleProgress {
    var line: ProgressLine {
        switch self {
        case .helloSent(let destination, let attempt):
            ProgressLine(
                attempt > 1 ? .detail : .step,
                "Sending hello "
                    + (destination == .broadcast(port: LANTarget.standardPort) ? "on the LAN" : "to \(destination)")
                    + (attempt > 1 ? " (again, \(attempt))" : ""),
                event: "hello-sent", [JSONField("to", .string("\(destination)")), JSONField("attempt", .int(attempt))])
        case .deviceAnswered(let device):
            ProgressLine(
                "Found \(device.id) at \(device.endpoint.host)" + (device.helloModel.map { " (\($0))" } ?? ""),
                event: "device-answered", LANFields.fields(device))
        case .requestResent(let id, let attempt):
            ProgressLine(
                "No answer yet from \(id); sending again (attempt \(attempt))", event: "request-resent",
                [JSONField("id", .string("\(id)")), JSONField("attempt", .int(attempt))])
        case .tokenReceived(let id):
            ProgressLine(
                .detail, "Key exchange with \(id) done", event: "token-received", [JSONField("id", .string("\(id)"))])
        case .infoReceived(let id, let info):
            ProgressLine(
                "\(id) is \(LANFields.describe(info))", event: "info",
                [JSONField("id", .string("\(id)"))] + LANFields.fields(info))
        case .serverRequested(let id, let server, let port):
            ProgressLine(
                "Telling \(id) to use \(server):\(port)", event: "server-requested",
                [
                    JSONField("id", .string("\(id)")), JSONField("server", .string(server)),
                    JSONField("port", .int(port)),
                ])
        case .serverConfirmed(let id, let echo):
            ProgressLine(
                .success, "\(id) confirmed \(echo)", event: "server-confirmed",
                [
                    JSONField("id", .string("\(id)")), JSONField("server", .optional(echo.server)),
                    JSONField("port", .optional(echo.port)),
                ])
        }
    }
}
