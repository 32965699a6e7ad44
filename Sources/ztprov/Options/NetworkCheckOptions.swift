import ArgumentParser

/// `--check-network` and `--hidden`, for `ble` and `softap` alike: whether the device's scan may stop the run
/// before anything is sent, and whether a network missing from it hides its name.
struct NetworkCheckOptions: ParsableArguments {
    @Flag(
        name: .customLong("check-network"),
        help: "Have the device scan first, and send nothing when it does not hear the network.")
    var checksNetwork = false

    @Flag(help: "The network hides its name: --check-network sends even when the device's scan misses it.")
    var hidden = false
}
