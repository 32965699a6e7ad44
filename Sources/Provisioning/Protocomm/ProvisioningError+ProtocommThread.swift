public import Protocomm
import Transports

/// How the device's trouble with a Thread network reads to a person, with the device's reason. The
/// dataset itself never appears: it holds the network key.
extension ProvisioningError {
    /// The dataset file is not a dataset.
    public static func threadInvalidDataset(_ error: ThreadDatasetError) -> ProvisioningError {
        ProvisioningError(
            .threadInvalidDataset, "The file given to --thread-dataset-file is not a Thread dataset: \(error).",
            hint: "Put the hex line printed by `ot-ctl dataset active -x` on the border router alone in the file "
                + "(at most \(ThreadDataset.maximumLength) bytes, \(ThreadDataset.maximumLength * 2) hex digits).")
    }

    /// The device reported that it gave up attaching to `network`.
    static func protocommThreadAttachFailed(_ status: ProtocommThreadStatus, network: String) -> ProvisioningError {
        let again = "Put the device back in provisioning mode and run again."
        switch status {
        case .failed(.datasetInvalid):
            return ProvisioningError(
                .threadDatasetRejected, "The device found the Thread dataset for \(network) invalid.",
                hint: "Export the active dataset again with `ot-ctl dataset active -x` on the border router (it needs "
                    + "the channel, PAN ID, extended PAN ID, network name and network key). " + again)
        case .failed(.networkNotFound):
            return ProvisioningError(
                .threadNetworkNotFound, "The device found no Thread network \(network) to attach to.",
                hint: "Check the border router is up, the dataset is its active one, and the device is in range. "
                    + again)
        case .failed(let reason):
            return .threadAttachFailed(network: network, reason: reason.description)
        case .detached:
            return .threadAttachFailed(network: network, reason: "detached")
        case .unrecognized(let state):
            return .threadAttachFailed(network: network, reason: "Thread state \(state)")
        case .attaching, .attached:
            return .threadAttachFailed(network: network, reason: "no failure reported")
        }
    }

    static func threadAttachFailed(network: String, reason: String) -> ProvisioningError {
        ProvisioningError(
            .threadAttachFailed, "The device could not attach to the Thread network \(network): \(reason).",
            hint: "Check the border router and the device's range. Put the device back in provisioning mode and "
                + "run again.")
    }

    /// "Set config" or "apply" of the dataset answered with a status other than `Success`.
    static func protocommThreadConfigRejected(_ status: ProtocommStatus, applying: Bool) -> ProvisioningError {
        if applying {
            return ProvisioningError(
                .threadAttachFailed, "The device refused to apply the Thread dataset (\(status)).",
                hint: "It already holds a dataset from an earlier attempt: put it back in provisioning mode and run "
                    + "again.")
        }
        return ProvisioningError(
            .threadDatasetRejected, "The device refused the Thread dataset (\(status)).",
            hint: "Check the dataset is the border router's active one; --verbose shows the device's status.")
    }

    /// The device was still attaching when the attach limit or the run's deadline ran out.
    static func protocommThreadAttachTimeout(network: String, limit: StepLimit.Ending) -> ProvisioningError {
        ProvisioningError(
            .threadAttachTimeout, "The device was still attaching to the Thread network \(network)\(limit.endingText).",
            hint: "Check a Thread router of that network is in range of the device, or give a longer --timeout.")
    }
}
