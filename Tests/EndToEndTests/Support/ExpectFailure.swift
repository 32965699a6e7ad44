import TestSupport
import Testing

/// The failure contract every command keeps: the exit status, an `error[CODE]:` line with a `hint:`
/// line, the JSON result with `ok: false` and the code, and none of `secrets` in anything printed.
func expectFailure(
    _ outcome: ProcessOutcome, code: String, status: Int32, secrets: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(outcome.exitStatus == status, "\(outcome)", sourceLocation: sourceLocation)
    #expect(outcome.standardError.contains("error[\(code)]: "), "\(outcome)", sourceLocation: sourceLocation)
    #expect(outcome.standardError.contains("\nhint: "), sourceLocation: sourceLocation)
    #expect(outcome.result?["ok"] as? Bool == false, sourceLocation: sourceLocation)
    #expect(outcome.result?["code"] as? String == code, sourceLocation: sourceLocation)
    for secret in secrets {
        #expect(!outcome.everything.contains(secret), "a secret was printed", sourceLocation: sourceLocation)
    }
}
