import BlueZ
import Provisioning

/// The devices a scan heard, in the order it first heard them, each at its latest sighting.
struct HeardDevices {
    let adapter: BlueZAdapter
    private var latest: [String: BlueZDevice] = [:]
    private var order: [String] = []
    private(set) var firstHeardAt: ContinuousClock.Instant?

    init(adapter: BlueZAdapter) {
        self.adapter = adapter
    }

    var count: Int { order.count }

    mutating func add(_ device: BlueZDevice) {
        if latest[device.address] == nil { order.append(device.address) }
        latest[device.address] = device
        if firstHeardAt == nil { firstHeardAt = .now }
    }

    func device(_ address: String) -> BlueZDevice? { latest[address] }

    /// What the choice rule and the picker see of each device, in the order first heard.
    var candidates: [BLECandidate] { scanned.map(\.candidate) }

    /// Strongest first, as `scan` lists them.
    var ranked: [ScannedDevice] {
        let order = BLEDeviceChoice.ranked(candidates).map(\.address)
        let byAddress = Dictionary(uniqueKeysWithValues: scanned.map { ($0.address, $0) })
        return order.compactMap { byAddress[$0] }
    }

    private var scanned: [ScannedDevice] { order.compactMap { latest[$0] }.map { ScannedDevice($0, adapter: adapter) } }
}
