import Transports

extension StepLimit.Ending {
    /// When a wait this limit ended gave up, as words that follow what was awaited: " after 30 s" or
    /// " when the time limit ran out".
    var endingText: String {
        switch self {
        case .own(let duration), .enclosing(let duration): " after \(secondsText(duration))"
        case .handedDown: " when the time limit ran out"
        }
    }
}
