import DeviceEmulator
import Improv

/// Runs an ``ImprovClient`` against an ``EmulatedImprovDevice`` in memory, as a BLE link would:
/// reads answer at once, each write reaches the device, notifications come back in order.
struct ImprovPair {
    var client: ImprovClient
    var device: EmulatedImprovDevice
    /// Every event the client reported, in order.
    var events: [ImprovClientEvent] = []
    var waits: [ImprovAwaitedReply] = []
    var writes: [[UInt8]] = []
    var outcome: Result<Void, ImprovError>?
    /// Called when the client waits for authorization; the default presses the button.
    var onAuthorizationWait: (inout EmulatedImprovDevice) -> [EmulatedImprovDevice.Notification] = { $0.authorize() }

    init(requests: [ImprovRequest], configuration: EmulatedImprovDeviceConfiguration) {
        client = ImprovClient(requests: requests)
        device = EmulatedImprovDevice(configuration: configuration)
    }

    mutating func run() {
        var queue = client.connected()
        var rounds = 0
        while outcome == nil, rounds < 1000 {
            rounds += 1
            guard !queue.isEmpty else {
                queue = client.deadlinePassed()
                continue
            }
            let action = queue.removeFirst()
            switch action {
            case .read(let characteristic):
                queue += client.readCompleted(characteristic, value: device.read(characteristic))
            case .write(let bytes):
                writes.append(bytes)
                queue += deliver(device.written(bytes))
            case .report(let event):
                events.append(event)
            case .wait(let reply):
                waits.append(reply)
                if reply == .authorization { queue += deliver(onAuthorizationWait(&device)) }
            case .finished:
                outcome = .success(())
            case .fail(let error):
                outcome = .failure(error)
            }
        }
    }

    private mutating func deliver(_ notifications: [EmulatedImprovDevice.Notification]) -> [ImprovClient.Action] {
        notifications.flatMap { client.notified($0.characteristic, value: $0.value) }
    }
}

extension Result where Failure == ImprovError {
    var error: ImprovError? {
        if case .failure(let error) = self { error } else { nil }
    }
}
