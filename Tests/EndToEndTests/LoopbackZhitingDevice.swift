import CryptoPrimitives
import Foundation
import Synchronization
import Transports
import ZhitingLAN

/// A Zhiting device on a loopback UDP port, played by the core's responder, that can send stray
/// and spoofed datagrams ahead of every genuine reply.
final class LoopbackZhitingDevice: Sendable {
    /// A datagram sent just before each genuine reply, to prove the client ignores it.
    enum Stray: String, CaseIterable, Sendable {
        case wrongDeviceID
        case wrongSourcePort
        case undecryptable
        case wrongRequestID
        case truncated
        case oversized
    }

    static let deviceID = ZhitingDeviceID("a1b2c3d4e5f6")!
    static let token = ZhitingToken(bytes: Array(0x60..<0x70))!

    private let socket: LoopbackUDPSocket
    private let spoofSocket: LoopbackUDPSocket
    private let stopped = Atomic<Bool>(false)
    let endpoint: DatagramEndpoint

    /// How much of the protocol the device speaks.
    enum Conduct: Sendable {
        /// Answers everything.
        case complete
        /// Answers the hello and nothing else.
        case helloOnly
        /// Answers the hello, then only strays: it never sends a usable reply.
        case straysAfterHello
    }

    /// Starts serving at once, on a thread of its own, until the device is released.
    init(
        serverReply: ZhitingDeviceResponder.ServerReply = .echo,
        strays: [Stray] = [],
        conduct: Conduct = .complete
    ) throws {
        socket = try LoopbackUDPSocket()
        spoofSocket = try LoopbackUDPSocket()
        endpoint = DatagramEndpoint(address: [127, 0, 0, 1], port: socket.port)!
        let info = ZhitingDeviceInfo(model: "ZTSW3SLW001W", softwareVersion: "1.0.0", hardwareVersion: "esp32c3")
        let responder = ZhitingDeviceResponder(
            profile: .init(deviceID: Self.deviceID, token: Self.token, info: info),
            serverReply: serverReply
        )
        Thread.detachNewThread { [socket, spoofSocket, weak self] in
            var device = responder
            while let self, !self.stopped.load(ordering: .relaxed) {
                guard let (request, clientPort) = socket.receive(), let reply = device.receivedDatagram(request)
                else { continue }
                let isHello = request == ZhitingHello.request
                if conduct == .helloOnly, !isHello { continue }
                for stray in strays {
                    (stray == .wrongSourcePort ? spoofSocket : socket).send(
                        Self.forge(stray, from: reply), toPort: clientPort)
                }
                if conduct == .complete || isHello { socket.send(reply, toPort: clientPort) }
            }
        }
    }

    /// `127.0.0.1:PORT`, for `--device-address`.
    var address: String { "\(endpoint)" }

    deinit {
        stopped.store(true, ordering: .relaxed)
    }

    private static func forge(_ stray: Stray, from reply: [UInt8]) -> [UInt8] {
        var bytes = reply
        switch stray {
        case .wrongDeviceID:
            bytes[11] ^= 0xFF
        case .wrongSourcePort:
            break
        case .undecryptable:
            if bytes.count > 32 { bytes[bytes.count - 1] ^= 0x5A } else { bytes += [UInt8](repeating: 0x5A, count: 16) }
            bytes[2] = UInt8(truncatingIfNeeded: bytes.count >> 8)
            bytes[3] = UInt8(truncatingIfNeeded: bytes.count)
        case .wrongRequestID:
            return withOtherRequestID(reply) ?? bytes
        case .truncated:
            bytes.removeLast(min(5, bytes.count))
        case .oversized:
            bytes += [UInt8](repeating: 0x21, count: 5000)
            bytes[2] = UInt8(truncatingIfNeeded: bytes.count >> 8)
            bytes[3] = UInt8(truncatingIfNeeded: bytes.count)
        }
        return bytes
    }

    /// The same JSON-RPC reply re-encrypted with an id no request used.
    private static func withOtherRequestID(_ reply: [UInt8]) -> [UInt8]? {
        guard var packet = try? ZhitingPacket(decoding: reply), packet.reserved == 0 else { return nil }
        let key = Digest.md5(token.bytes)
        let iv = Digest.md5(key + token.bytes)
        guard let plaintext = try? AES.CBC.decrypt(packet.payload, key: key, iv: iv) else { return nil }
        let text = String(decoding: plaintext, as: UTF8.self)
        guard text.hasPrefix("{\"id\":") else { return nil }
        let changed = "{\"id\":9" + text.dropFirst("{\"id\":".count)
        packet.payload = (try? AES.CBC.encrypt(Array(changed.utf8), key: key, iv: iv)) ?? []
        return packet.encoded()
    }
}
