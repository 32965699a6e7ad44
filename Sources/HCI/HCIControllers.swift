internal import CBluetooth
import Glibc

/// Lists controllers straight from the kernel with HCI ioctls, so `ztprov` can tell "no adapter" from
/// "bluetoothd is not running".
public enum HCIControllers {
    /// Every controller the kernel knows, in index order.
    public static func list() throws(HCIError) -> [HCIController] {
        let socketFD = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard socketFD >= 0 else {
            throw errno == EAFNOSUPPORT ? .kernelHasNoBluetooth : .systemCall("socket(AF_BLUETOOTH)", errno: errno)
        }
        defer { close(socketFD) }
        return try deviceIndices(socketFD).map { index throws(HCIError) in try controller(index, socketFD) }
    }

    private static func deviceIndices(_ socketFD: Int32) throws(HCIError) -> [Int] {
        // struct hci_dev_list_req: a uint16 count, padding, then `count` 8-byte hci_dev_req entries.
        let entrySize = MemoryLayout<hci_dev_req>.stride
        let headerSize = MemoryLayout<hci_dev_req>.alignment
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: headerSize + Int(HCI_MAX_DEV) * entrySize, alignment: MemoryLayout<hci_dev_req>.alignment)
        defer { buffer.deallocate() }
        buffer.storeBytes(of: UInt16(HCI_MAX_DEV), as: UInt16.self)
        guard CBluetooth_ioctl(socketFD, CBluetooth_HCIGETDEVLIST, buffer) == 0 else {
            throw .systemCall("ioctl(HCIGETDEVLIST)", errno: errno)
        }
        let count = Int(buffer.load(as: UInt16.self))
        return (0..<count).map { slot in
            Int(buffer.load(fromByteOffset: headerSize + slot * entrySize, as: hci_dev_req.self).dev_id)
        }.sorted()
    }

    private static func controller(_ index: Int, _ socketFD: Int32) throws(HCIError) -> HCIController {
        var info = hci_dev_info()
        info.dev_id = UInt16(index)
        guard CBluetooth_ioctl(socketFD, CBluetooth_HCIGETDEVINFO, &info) == 0 else {
            throw .systemCall("ioctl(HCIGETDEVINFO)", errno: errno)
        }
        let name = withUnsafeBytes(of: info.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let address = withUnsafeBytes(of: info.bdaddr.b) { Array($0) }
        return HCIController(
            index: index, name: name, littleEndianAddress: address, type: info.type, flags: info.flags)
    }
}
