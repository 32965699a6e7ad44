import Improv
import Provisioning
import Testing
import Transports

/// Auto detection: the advertisement decides when it names a protocol, the GATT database otherwise.
@Suite struct BLEProtocolTests {
    @Test func theAdvertisedServiceDecides() {
        #expect(BLEProtocol.advertised(serviceUUIDs: ["ffff"], serviceData: [:]) == .bluFi)
        #expect(
            BLEProtocol.advertised(serviceUUIDs: ["0000FFFF-0000-1000-8000-00805F9B34FB"], serviceData: [:]) == .bluFi)
        #expect(
            BLEProtocol.advertised(
                serviceUUIDs: ["180a", ImprovGATTProfile.serviceUUID.uppercased()], serviceData: [:])
                == .improv)
        #expect(BLEProtocol.advertised(serviceUUIDs: ["180a"], serviceData: [:]) == nil)
    }

    @Test func improvsServiceDataAloneIsEnough() {
        #expect(BLEProtocol.advertised(serviceUUIDs: [], serviceData: ["4677": [2, 15, 0, 0, 0, 0]]) == .improv)
        #expect(BLEProtocol.advertised(serviceUUIDs: [], serviceData: ["feaa": [0]]) == nil)
    }

    @Test func theGATTDatabaseDecidesWithoutAnAdvertisement() {
        let improv = GATTService(uuid: ImprovGATTProfile.serviceUUID, characteristics: [])
        #expect(BLEProtocol.offered(by: [GATTService(uuid: "1801", characteristics: []), improv]) == .improv)
        #expect(BLEProtocol.offered(by: [GATTService(uuid: "ffff", characteristics: [])]) == .bluFi)
        #expect(BLEProtocol.offered(by: [GATTService(uuid: "1801", characteristics: [])]) == nil)
    }

    @Test func everyProtocolHasItsOwnService() {
        #expect(Set(BLEProtocol.serviceUUIDs).count == BLEProtocol.allCases.count)
        for chosen in BLEProtocol.allCases { #expect(BLEProtocol(rawValue: chosen.rawValue) == chosen) }
    }
}
