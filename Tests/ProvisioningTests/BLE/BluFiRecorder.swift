import Provisioning

/// The recorder of the BluFi flow.
typealias BluFiRecorder = FlowRecorder<BluFiProgress>

extension FlowRecorder where Event == BluFiProgress {
    /// Every progress line, log line and (if given) the error's text, for grepping for secrets.
    func everything(with error: ProvisioningError? = nil) -> String {
        var text = progress.map(\.description) + progress.map { "\($0)" } + logs
        if let error { text += [error.description, error.hint, error.detail ?? "", "\(error)"] }
        return text.joined(separator: "\n")
    }
}
