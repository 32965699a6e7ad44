import BluFi
import CryptoPrimitives

/// A ``BluFiClient`` and a ``BluFiDeviceSession`` joined by an in-memory link (h11's `ConnectionPair`).
///
/// Writes and notifications travel through one FIFO, so the device handles the client's writes in
/// order and the client sees notifications in the order the device sent them. Everything that crosses
/// the link and every reported event is recorded for assertions.
struct BluFiSessionPair {
    enum Delivery {
        case toDevice([UInt8])
        case toClient([UInt8])
    }

    var client: BluFiClient
    var device: BluFiDeviceSession
    private(set) var phoneFrames: [[UInt8]] = []
    private(set) var deviceFrames: [[UInt8]] = []
    private(set) var events: [BluFiClientEvent] = []
    private(set) var deviceEvents: [BluFiDeviceEvent] = []
    private(set) var waits: [BluFiAwaitedReply] = []
    private(set) var failure: BluFiError?
    private(set) var isFinished = false
    private(set) var deviceClosedLink = false
    private var queue: [Delivery] = []

    init(client: BluFiClient, device: BluFiDeviceSession) {
        self.client = client
        self.device = device
    }

    /// A pair with seeded randomness on both sides.
    init(security: BluFiSecurityChoice = .automatic, device configuration: BluFiDeviceConfiguration, seed: UInt8 = 1) {
        self.init(
            client: BluFiClient(security: security, random: SeededRandomSource(seed: [seed, 0xC1])),
            device: BluFiDeviceSession(configuration: configuration, random: SeededRandomSource(seed: [seed, 0xDE])))
    }

    /// Connects both sides at `mtu` and runs until the session is ready (or failed).
    mutating func connect(mtu: Int?) {
        device.connected(mtu: mtu)
        apply(client.connected(mtu: mtu))
    }

    /// Runs a client request and everything it sets off.
    mutating func request(_ body: (inout BluFiClient) throws(BluFiError) -> [BluFiClient.Action]) throws(BluFiError) {
        apply(try body(&client))
    }

    /// The emulated station finished joining.
    mutating func completeJoin() {
        applyDevice(device.wifiJoinCompleted())
        drain()
    }

    /// The device firmware sends custom data.
    mutating func deviceSendsCustomData(_ bytes: [UInt8]) {
        applyDevice(device.requestedCustomData(bytes))
        drain()
    }

    /// The flow's timeout for the current wait fired.
    mutating func deadlinePasses() {
        apply(client.deadlinePassed())
    }

    /// Delivers raw bytes to the client as one notification, as if the device had sent them.
    mutating func injectNotification(_ bytes: [UInt8]) {
        deviceFrames.append(bytes)
        queue.append(.toClient(bytes))
        drain()
    }

    private mutating func apply(_ actions: [BluFiClient.Action]) {
        applyClient(actions)
        drain()
    }

    private mutating func drain() {
        while !queue.isEmpty {
            switch queue.removeFirst() {
            case .toDevice(let bytes): applyDevice(device.receivedWrite(bytes))
            case .toClient(let bytes): applyClient(client.receivedNotification(bytes))
            }
        }
    }

    private mutating func applyClient(_ actions: [BluFiClient.Action]) {
        for action in actions {
            switch action {
            case .write(let bytes):
                phoneFrames.append(bytes)
                queue.append(.toDevice(bytes))
            case .report(let event): events.append(event)
            case .wait(let reply): waits.append(reply)
            case .finished: isFinished = true
            case .fail(let error): failure = error
            }
        }
    }

    private mutating func applyDevice(_ actions: [BluFiDeviceSession.Action]) {
        for action in actions {
            switch action {
            case .notify(let bytes):
                deviceFrames.append(bytes)
                queue.append(.toClient(bytes))
            case .report(let event): deviceEvents.append(event)
            case .disconnect: deviceClosedLink = true
            }
        }
    }
}
