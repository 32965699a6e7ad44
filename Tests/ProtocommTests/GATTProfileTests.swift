import Protocomm
import TestSupport
import Testing

/// Where protocomm's BLE transport puts each endpoint: UUIDs from the service UUID, names from 0x2901.
@Suite struct GATTProfileTests {
    @Test(
        arguments: [
            (UInt16(0xFF51), "021a9004-0382-4aea-bff4-6b3f1c5adfb4", "021aff51-0382-4aea-bff4-6b3f1c5adfb4"),
            (0xFF4F, "021A9004-0382-4AEA-BFF4-6B3F1C5ADFB4", "021aff4f-0382-4aea-bff4-6b3f1c5adfb4"),
            (0x0054, "b4df5a1c-3f6b-f4bf-ea4a-820304901a02", "b4df0054-3f6b-f4bf-ea4a-820304901a02"),
        ] as [(UInt16, String, String)])
    func characteristicUUIDsReplaceBytes12And13(number: UInt16, service: String, expected: String) {
        #expect(ProtocommGATTProfile.characteristicUUID(number: number, serviceUUID: service) == expected)
    }

    @Test(arguments: ["", "ffff", "0000ffff-0000-1000-8000-00805f9b34f", "021a9004x0382-4aea-bff4-6b3f1c5adfb4"])
    func onlyFullUUIDsHaveEndpointUUIDs(service: String) {
        #expect(ProtocommGATTProfile.characteristicUUID(number: 0xFF51, serviceUUID: service) == nil)
    }

    @Test func userDescriptionsAreNamesInLowerCaseWithoutTheirTerminator() {
        #expect(ProtocommGATTProfile.endpointName(userDescription: Array("prov-session".utf8)) == "prov-session")
        #expect(ProtocommGATTProfile.endpointName(userDescription: Array("Proto-Ver".utf8) + [0, 0]) == "proto-ver")
        #expect(ProtocommGATTProfile.endpointName(userDescription: []) == nil)
        #expect(ProtocommGATTProfile.endpointName(userDescription: [0]) == nil)
        #expect(ProtocommGATTProfile.endpointName(userDescription: Array("two words".utf8)) == nil)
        #expect(ProtocommGATTProfile.endpointName(userDescription: [0xC3, 0x28]) == nil)
        #expect(ProtocommGATTProfile.endpointName(userDescription: Array(repeating: 0x61, count: 65)) == nil)
    }

    @Test func arbitraryDescriptionsNeverTrapAndNeverYieldControlCharacters() {
        var random = SplitMix64(seed: 0x2901)
        for _ in 0..<5000 {
            let value = random.bytes(random.below(80))
            if let name = ProtocommGATTProfile.endpointName(userDescription: value) {
                #expect(!name.isEmpty && name.utf8.count <= ProtocommGATTProfile.maximumNameLength)
                #expect(name.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F })
            }
        }
    }

    @Test func theStandardEndpointsHaveTheManagersNumbers() {
        #expect(
            ProtocommGATTProfile.endpointNumbers == [
                "prov-ctrl": 0xFF4F, "prov-scan": 0xFF50, "prov-session": 0xFF51, "prov-config": 0xFF52,
                "proto-ver": 0xFF53,
            ])
        #expect(Set(ProtocommGATTProfile.requiredEndpoints).isSubset(of: ProtocommGATTProfile.endpointNumbers.keys))
    }
}
