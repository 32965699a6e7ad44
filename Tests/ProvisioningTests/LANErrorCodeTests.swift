import Provisioning
import Testing

/// The LAN and SC codes are part of the contract: scripts match their spelling and exit status.
@Suite struct LANErrorCodeTests {
    @Test(arguments: [
        (ErrorCode.lanInterfaceNotFound, "lan.interface-not-found", 3),
        (.lanPortInUse, "lan.port-in-use", 3),
        (.lanSocketFailed, "lan.socket-failed", 3),
        (.lanNoReply, "lan.no-reply", 4),
        (.lanDeviceNotFound, "lan.device-not-found", 4),
        (.lanSendFailed, "lan.send-failed", 5),
        (.scUnreachable, "sc.unreachable", 5),
        (.scTokenRejected, "sc.token-rejected", 6),
        (.lanBadReply, "lan.bad-reply", 8),
        (.handoffNoToken, "handoff.no-token", 8),
        (.handoffNoInfo, "handoff.no-info", 8),
        (.handoffNotConfirmed, "handoff.not-confirmed", 8),
        (.handoffServerMismatch, "handoff.server-mismatch", 8),
        (.handoffRejected, "handoff.rejected", 8),
        (.handoffTargetIsHub, "handoff.target-is-hub", 8),
        (.scHTTPError, "sc.http-error", 8),
        (.scBadResponse, "sc.bad-response", 8),
        (.scTimeout, "sc.timeout", 9),
    ])
    func codeKeepsItsSpellingAndStatus(code: ErrorCode, spelling: String, status: Int32) {
        #expect(code.rawValue == spelling)
        #expect(code.exitStatus.rawValue == status)
        #expect(ErrorCode.catalogue.contains(code))
    }
}
