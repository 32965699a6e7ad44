import Foundation
import Testing

@testable import HCI

@Suite struct HCIControllersTests {
    static var kernelLacksBluetooth: Bool {
        !FileManager.default.fileExists(atPath: "/sys/class/bluetooth")
    }

    @Test(.enabled(if: kernelLacksBluetooth, "this kernel has Bluetooth; the EAFNOSUPPORT path cannot occur"))
    func reportsAKernelWithoutBluetooth() {
        #expect(throws: HCIError.kernelHasNoBluetooth) { try HCIControllers.list() }
    }

    @Test(.disabled(if: kernelLacksBluetooth, "this kernel has no Bluetooth"))
    func listsControllersWithTheirNames() throws {
        for controller in try HCIControllers.list() {
            #expect(controller.name == "hci\(controller.index)")
        }
    }

    @Test func explainsTheMissingKernelSupport() {
        #expect(HCIError.kernelHasNoBluetooth.description.contains("kernel has no Bluetooth support"))
    }

    @Test func decodesDeviceInfoFields() {
        let controller = HCIController(
            index: 1, name: "hci1", littleEndianAddress: [0x00, 0xDD, 0xCC, 0xBB, 0xAA, 0x0A], type: 0x01,
            flags: 0b101)
        #expect(
            controller == HCIController(index: 1, name: "hci1", address: "0A:AA:BB:CC:DD:00", bus: .usb, isUp: true))
    }

    @Test(arguments: [(UInt8(0x00), HCIBus.virtual), (0x03, .uart), (0x0A, .virtio), (0x0F, .unknown), (0x31, .usb)])
    func mapsBusCodesFromTheLowNibble(type: UInt8, bus: HCIBus) {
        let controller = HCIController(
            index: 0, name: "hci0", littleEndianAddress: [0, 0, 0, 0, 0, 0], type: type, flags: 0)
        #expect(controller.bus == bus)
        #expect(!controller.isUp)
    }
}
