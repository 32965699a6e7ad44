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

    /// The controllers the kernel shows in sysfs, which the ioctl listing must agree with.
    static var sysfsControllers: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/bluetooth")) ?? []
        return names.filter { $0.hasPrefix("hci") && !$0.contains(":") }.sorted()
    }

    @Test(.enabled(if: !sysfsControllers.isEmpty, "this kernel shows no Bluetooth controller to list"))
    func listsControllersWithTheirNames() throws {
        let controllers = try HCIControllers.list()
        #expect(controllers.map(\.name).sorted() == Self.sysfsControllers)
        for controller in controllers {
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
