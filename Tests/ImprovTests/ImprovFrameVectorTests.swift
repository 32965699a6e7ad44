import Improv
import TestSupport
import Testing

/// Frames byte for byte. Expected bytes were worked out from https://www.improv-wifi.com/ble/ (the
/// send Wi-Fi settings example and the device info and scan examples), checksum = sum mod 256.
@Suite struct ImprovFrameVectorTests {
    static let requestVectors: [(ImprovRequest, String)] = [
        (
            .sendWiFiSettings(
                try! ImprovCredentials(ssid: Array("MyWirelessAP".utf8), password: Array("mysecurepassword".utf8))),
            "01 1e 0c 4d79576972656c6573734150 10 6d7973656375726570617373776f7264 c0"
        ),
        (.identify, "02 00 02"),
        (.deviceInfo, "03 00 03"),
        (.scanWiFiNetworks, "04 00 04"),
        (.hostname(nil), "05 00 05"),
        (.hostname(Array("my-device".utf8)), "05 0a 09 6d792d646576696365 9b"),
        (.deviceName(nil), "06 00 06"),
        (.deviceName(Array("Kitchen Plug".utf8)), "06 0d 0c 4b69746368656e20506c7567 9d"),
    ]

    @Test(arguments: requestVectors)
    func requestEncodesToTheWorkedBytes(request: ImprovRequest, hex: String) throws {
        #expect(try request.frame().encoded == [UInt8](hex: hex))
        let decoded = try ImprovRPCFrame.decode([UInt8](hex: hex))
        #expect(decoded.command == request.command.rawValue)
    }

    @Test func specificationExampleSplitsIntoTwentyByteWrites() throws {
        let frame = [UInt8](hex: Self.requestVectors[0].1)
        let chunks = ImprovRPCFrame.chunks(of: frame)
        #expect(frame.count == 33)
        #expect(chunks.map(\.count) == [20, 13])
        #expect(chunks.flatMap { $0 } == frame)
        #expect(ImprovRPCFrame.chunks(of: Array(frame.prefix(20))).count == 1)
        #expect(
            ImprovRPCFrame.chunks(of: Array(repeating: 0, count: 258)).map(\.count) == Array(repeating: 20, count: 12)
                + [18])
    }

    @Test func redirectURLResult() throws {
        let frame = try ImprovRPCFrame.decode(
            [UInt8](hex: "01 1c 1b 687474703a2f2f696d70726f762d6465766963652e6c6f63616c2f 32"))
        #expect(
            try ImprovResult.parse(frame, as: .sendWiFiSettings)
                == .provisioned(redirectURL: "http://improv-device.local/"))
        let empty = try ImprovRPCFrame.decode([UInt8](hex: "01 00 01"))
        #expect(try ImprovResult.parse(empty, as: .sendWiFiSettings) == .provisioned(redirectURL: nil))
        let emptyString = try ImprovRPCFrame.decode([UInt8](hex: "01 01 00 02"))
        #expect(try ImprovResult.parse(emptyString, as: .sendWiFiSettings) == .provisioned(redirectURL: nil))
    }

    @Test func deviceInfoResultOfTheSpecificationExample() throws {
        let frame = try ImprovRPCFrame.decode(
            [UInt8](
                hex: """
                    03 42 07 455350486f6d65 09 323032312e31312e30 1b 65737033322d73332d6465766b6974632d312f65737033322d7333
                    13 54656d7065726174757265204d6f6e69746f72 e1
                    """))
        let expected = ImprovDeviceInfo(
            firmwareName: "ESPHome", firmwareVersion: "2021.11.0", hardware: "esp32-s3-devkitc-1/esp32-s3",
            deviceName: "Temperature Monitor")
        #expect(try ImprovResult.parse(frame, as: .deviceInfo) == .deviceInfo(expected))
    }

    @Test func scanResultOfTheSpecificationExample() throws {
        let frame = try ImprovRPCFrame.decode(
            [UInt8](
                hex: """
                    04 3f 11 4d79576972656c6573734e6574776f726b 03 2d3630 04 57504132
                    16 4d794f74686572576972656c6573734e6574776f726b 03 2d3532 08 5750412f57504132 ec
                    """))
        #expect(
            try ImprovResult.parse(frame, as: .scanWiFiNetworks)
                == .networks([
                    ImprovWiFiNetwork(ssid: "MyWirelessNetwork", rssi: -60, authentication: ["WPA2"]),
                    ImprovWiFiNetwork(ssid: "MyOtherWirelessNetwork", rssi: -52, authentication: ["WPA", "WPA2"]),
                ]))
        #expect(try ImprovResult.parse(ImprovRPCFrame.decode([4, 0, 4]), as: .scanWiFiNetworks) == .networks([]))
    }

    @Test func characteristicUUIDs() {
        #expect(ImprovCharacteristic.currentState.uuid == "00467768-6228-2272-4663-277478268001")
        #expect(ImprovCharacteristic.errorState.uuid == "00467768-6228-2272-4663-277478268002")
        #expect(ImprovCharacteristic.rpcCommand.uuid == "00467768-6228-2272-4663-277478268003")
        #expect(ImprovCharacteristic.rpcResult.uuid == "00467768-6228-2272-4663-277478268004")
        #expect(ImprovCharacteristic.capabilities.uuid == "00467768-6228-2272-4663-277478268005")
        #expect(ImprovCharacteristic(uuid: "00467768-6228-2272-4663-277478268004".uppercased()) == .rpcResult)
        #expect(ImprovCharacteristic(uuid: ImprovGATTProfile.serviceUUID) == nil)
    }

    @Test func serviceData() throws {
        let data = try ImprovServiceData.decode([0x01, 0x0d, 0, 0, 0, 0])
        #expect(data.state == .authorizationRequired)
        #expect(data.capabilities == [.identify, .scanWiFi, .hostname])
        #expect(data.encoded == [0x01, 0x0d, 0, 0, 0, 0])
        #expect(throws: ImprovError.malformedServiceData(length: 5)) { try ImprovServiceData.decode([2, 1, 0, 0, 0]) }
        #expect(throws: ImprovError.unknownState(0)) { try ImprovServiceData.decode([0, 1, 0, 0, 0, 0]) }
    }

    @Test func everyErrorCodeIsMapped() throws {
        let named: [UInt8: ImprovDeviceError] = [
            0x01: .invalidRPCPacket, 0x02: .unknownRPCCommand, 0x03: .unableToConnect, 0x04: .notAuthorized,
            0x05: .badHostname, 0xFF: .unknownError,
        ]
        #expect(try ImprovErrorState.decode([0]) == .noError)
        for code in UInt8(1)...UInt8(255) {
            let error = ImprovDeviceError(code: code)
            #expect(error == named[code] ?? .unassigned(code))
            #expect(error.code == code)
            #expect(try ImprovErrorState.decode([code]) == .error(error))
        }
        #expect(throws: ImprovError.malformedCharacteristicValue(.errorState, length: 2)) {
            try ImprovErrorState.decode([0, 0])
        }
    }

    @Test func everyStateIsMapped() throws {
        #expect(try ImprovState.allCases.map { try ImprovState.decode([$0.rawValue]) } == ImprovState.allCases)
        #expect(ImprovState.allCases.map(\.rawValue) == [1, 2, 3, 4])
        for byte in [0, 5, 0xFF] as [UInt8] {
            #expect(throws: ImprovError.unknownState(byte)) { try ImprovState.decode([byte]) }
        }
        #expect(throws: ImprovError.malformedCharacteristicValue(.currentState, length: 0)) {
            try ImprovState.decode([])
        }
    }
}
