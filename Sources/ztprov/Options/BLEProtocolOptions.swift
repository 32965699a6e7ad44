import Provisioning

/// Options only some BLE protocols honour, declared once with the protocols they apply to. `ble` refuses
/// a given one rather than drop it: at parsing when `--protocol` names another protocol, and before
/// connecting when detection finds one.
struct BLEProtocolOptions: Sendable {
    /// What the options are, for people: "a BluFi option".
    let kind: String
    /// The protocols that honour them.
    let appliesTo: [BLEProtocol]
    /// The first of them given, if any.
    let given: String?

    /// Why the given option cannot go with `--protocol chosen`, if it cannot.
    func refusalAtParsing(_ chosen: BLEProtocol) -> String? {
        guard let given, !appliesTo.contains(chosen) else { return nil }
        return "\(given) is \(kind): not with --protocol \(chosen.rawValue)."
    }

    /// Why the given option cannot go with a device found to speak `chosen`, if it cannot.
    func refusal(for chosen: BLEProtocol) -> ProvisioningError? {
        guard let given, !appliesTo.contains(chosen) else { return nil }
        let article = "AEIOU".contains(chosen.description.prefix(1)) ? "an" : "a"
        return ProvisioningError(
            .invalidOption, "\(given) does not apply to \(article) \(chosen) device: it is \(kind).",
            hint: "Leave it out for this device.")
    }
}
