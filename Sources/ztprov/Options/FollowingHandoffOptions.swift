import ArgumentParser

/// The hand-off that may follow provisioning (`ble`, `batch`): it runs only when --area-id is given,
/// on the LAN the LAN options name, so those options without --area-id are a mistake to point out.
///
/// Declared without a title where it is used: a title on the outer group would replace both inner ones.
struct FollowingHandoffOptions: ParsableArguments {
    @OptionGroup(title: "Hand-off (with --area-id)")
    var options: HandoffOptions

    @OptionGroup(title: "LAN")
    var lan: LANOptions

    /// Whether the command hands the device over after provisioning it.
    var isRequested: Bool { options.areaID != nil }

    func validate() throws {
        if !isRequested, lan.interface != nil || lan.deviceAddress != nil {
            throw ValidationError("LAN options belong to the hand-off: pass --area-id as well.")
        }
    }
}
