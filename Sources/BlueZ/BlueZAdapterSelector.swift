/// Which adapter to use: the kernel name, the controller address, or a station slot set by a udev rule.
///
/// `hciN` numbers follow registration order and move after a USB reset, so stations should prefer the
/// address or a slot.
public enum BlueZAdapterSelector: Sendable, Hashable {
    /// The first powered adapter, by name.
    case firstPowered
    /// A kernel name such as `hci1`.
    case name(String)
    /// A controller address such as `00:1A:7D:DA:71:13` (any case).
    case address(String)
    /// A station slot: the controller whose udev property `ZTPROV_SLOT` has this value.
    case slot(Int)

    /// Parses `hciN`, `AA:BB:CC:DD:EE:FF` or `slot:N`; nil for anything else.
    public init?(_ text: String) {
        if text.hasPrefix("slot:"), let slot = Self.number(text.dropFirst(5)) {
            self = .slot(slot)
        } else if text.hasPrefix("hci"), Self.number(text.dropFirst(3)) != nil {
            self = .name(text)
        } else if BlueZAdapterSelector.isAddress(text) {
            self = .address(text.uppercased())
        } else {
            return nil
        }
    }

    /// Decimal digits only (no sign, as `Int(_:)` would take), at most 5 of them.
    private static func number(_ text: Substring) -> Int? {
        guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }

    /// Picks the adapter from those bluetoothd exports and checks it is powered (and, when it is not,
    /// whether rfkill is why).
    public func select(
        from adapters: [BlueZAdapter], slots: any BlueZSlotLookup, radio: any BlueZRadioSwitch = SysfsRadioSwitch()
    ) throws -> BlueZAdapter {
        guard !adapters.isEmpty else { throw BlueZError.noAdapter }
        let chosen: BlueZAdapter?
        switch self {
        case .firstPowered:
            chosen = adapters.sorted { $0.name < $1.name }.first { $0.isPowered } ?? adapters.first
        case .name(let name):
            chosen = adapters.first { $0.name == name }
        case .address(let address):
            chosen = adapters.first { $0.address.uppercased() == address.uppercased() }
        case .slot(let slot):
            let name = try slots.controllerName(forSlot: slot)
            chosen = adapters.first { $0.name == name }
        }
        guard let chosen else { throw BlueZError.adapterNotFound(description) }
        if chosen.powerState == "off-blocked" || (!chosen.isPowered && radio.isBlocked(controller: chosen.name)) {
            throw BlueZError.adapterBlocked(chosen.name)
        }
        guard chosen.isPowered else { throw BlueZError.adapterPoweredOff(chosen.name) }
        return chosen
    }

    /// The selection as the user wrote it.
    public var description: String {
        switch self {
        case .firstPowered: "the first powered adapter"
        case .name(let name): name
        case .address(let address): address
        case .slot(let slot): "slot:\(slot)"
        }
    }

    private static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && UInt8($0, radix: 16) != nil }
    }
}
