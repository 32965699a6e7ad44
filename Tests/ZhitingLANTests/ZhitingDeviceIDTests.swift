import Testing
import ZhitingLAN

@Suite struct ZhitingDeviceIDTests {
    @Test(arguments: ["a1b2c3d4e5f6", "A1B2C3D4E5F6", "a1:b2:c3:d4:e5:f6", "A1-B2-C3-D4-E5-F6"])
    func parsesTheFormsUsersPaste(text: String) {
        #expect(ZhitingDeviceID(text)?.bytes == [0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
        #expect(ZhitingDeviceID(text)?.description == "a1b2c3d4e5f6")
    }

    @Test func acceptsBSSIDOctetsWithoutLeadingZeros() {
        #expect(ZhitingDeviceID("a:b2:c3:d4:e5:6")?.description == "0ab2c3d4e506")
    }

    @Test(arguments: [
        "", "a1b2c3d4e5", "a1b2c3d4e5f6a7", "g1b2c3d4e5f6", "a1:b2:c3:d4:e5", "a1b:2c:3d:4e:5f:6", "+1b2c3d4e5f6",
    ])
    func refusesAnythingElse(text: String) {
        #expect(ZhitingDeviceID(text) == nil)
    }

    @Test func broadcastIsAllOnes() {
        #expect(ZhitingDeviceID.broadcast.description == "ffffffffffff")
        #expect(ZhitingDeviceID(bytes: [1, 2, 3]) == nil)
    }
}
