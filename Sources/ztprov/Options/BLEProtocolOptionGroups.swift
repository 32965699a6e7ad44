import ArgumentParser
import Provisioning

/// The option groups of the BLE protocols that have options of their own, each declared with the
/// protocols it applies to. A protocol with options adds its group here; `ble` shows them, and refuses one
/// given for another protocol, without knowing any of them.
struct BLEProtocolOptionGroups: ParsableArguments {
    @OptionGroup(title: "Improv")
    var improv: ImprovOptions

    @OptionGroup(title: "ESP provisioning (protocomm)")
    var protocomm: ProtocommBLEOptions

    /// Each group's options, with the protocols they apply to.
    var declared: [BLEProtocolOptions] {
        [
            BLEProtocolOptions(kind: "an Improv option", appliesTo: [.improv], given: improv.firstOption),
            BLEProtocolOptions(kind: "an ESP protocomm option", appliesTo: [.protocomm], given: protocomm.firstOption),
        ]
    }
}
