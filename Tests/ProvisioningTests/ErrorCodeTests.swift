import Provisioning
import Testing

@Suite struct ErrorCodeTests {
    @Test func codesAreUniqueAndWellFormed() {
        let spellings = ErrorCode.catalogue.map(\.rawValue)
        #expect(Set(spellings).count == spellings.count)
        for code in spellings {
            #expect(code.allSatisfy { $0.isLowercase || $0 == "." || $0 == "-" }, "\(code)")
        }
    }

    @Test func contractCodesKeepTheirExitStatus() {
        #expect(ErrorCode.bleConnectAborted.rawValue == "ble.connect-aborted")
        #expect(ErrorCode.bleConnectAborted.exitStatus == .linkFailure)
        #expect(ErrorCode.bluFiSequenceMismatch.rawValue == "blufi.sequence-mismatch")
        #expect(ErrorCode.wrongPoP.rawValue == "softap.wrong-pop")
        #expect(ErrorCode.wrongPoP.exitStatus == .authenticationFailed)
        #expect(ErrorCode.hotspotPasswordRejected.rawValue == "nm.no-secrets")
        #expect(ErrorCode.lanNoReply.rawValue == "lan.no-reply")
        #expect(ErrorCode.lanNoReply.exitStatus == .deviceNotFound)
        #expect(ErrorCode.interrupted.exitStatus.rawValue == 130)
    }

    @Test func exitStatusesMatchTheContractTable() {
        let table: [Provisioning.ExitStatus: Int32] = [
            .success: 0, .usage: 2, .hostPrecondition: 3, .deviceNotFound: 4, .linkFailure: 5,
            .authenticationFailed: 6, .wifiJoinFailed: 7, .handoffFailed: 8, .timeout: 9, .batchIncomplete: 10,
            .interrupted: 130,
        ]
        #expect(table.count == Provisioning.ExitStatus.allCases.count)
        for (status, value) in table {
            #expect(status.rawValue == value)
        }
    }

    @Test func errorRendersCodeAndMessage() {
        let error = ProvisioningError(.wrongPoP, "The device rejected the proof of possession.", hint: "Check the PoP.")
        #expect(error.description == "error[softap.wrong-pop]: The device rejected the proof of possession.")
        #expect(error.exitStatus == .authenticationFailed)
    }
}
