import BlueZ
import JSONWriting
import Provisioning

/// `ble`'s scan: listens until the choice rule (``BLEDeviceChoice``) settles which device to provision,
/// lists the devices for the person at the terminal when several match, and says on a terminal that it
/// waits for a device to appear. Discovery is stopped when this returns, ready to connect.
enum BLEDeviceScan {
    /// What the scan's one loop acts on, from the discovery, a ticking clock and the keyboard.
    private enum Event: Sendable {
        case heard(BlueZDevice)
        case ended
        case failed(any Error)
        case tick
        case keys([UInt8])
    }

    /// The device the choice rule or the person chose; throws `ble.device-not-found` when none appeared within
    /// `scanFor`, `ble.several-devices` when several match and nobody could be asked.
    static func chosen(
        on client: BlueZClient, adapter: BlueZAdapter, filter: BlueZScanFilter, policy: BLEDevicePolicy,
        scanFor: Duration, context: CommandContext
    ) async throws -> BlueZDevice {
        let console = context.console
        let scanEnd = ContinuousClock.now + scanFor
        let live = console.styled && !console.json && console.verbosity == .normal
        return try await client.withDiscovery(on: adapter, filter: filter) { devices in
            let (events, sink) = AsyncStream<Event>.makeStream()
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await device in devices { sink.yield(.heard(device)) }
                        sink.yield(.ended)
                    } catch {
                        sink.yield(.failed(error))
                    }
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: .milliseconds(250))
                        sink.yield(.tick)
                    }
                }
                var heard = HeardDevices(adapter: adapter)
                var picker: DevicePicker?
                var keyboard: DevicePickerTerminal?
                var decoder = PickerKey.Decoder()
                var view = ScanLiveView()
                defer {
                    group.cancelAll()
                    keyboard?.stop()
                    view.end()
                }
                for await event in events {
                    switch event {
                    case .heard(let device): heard.add(device)
                    case .failed(let error): throw error
                    case .ended, .tick: break
                    case .keys(let bytes):
                        for key in decoder.feed(bytes) {
                            guard let choice = picker?.press(key), let device = heard.device(choice.address) else {
                                continue
                            }
                            view.end()
                            console.progress("Chosen: \(choice.label())")
                            return device
                        }
                    }
                    if var shown = picker {
                        shown.update(heard.candidates)
                        picker = shown
                        view.picker(shown)
                        continue
                    }
                    let now = ContinuousClock.now
                    guard let firstHeard = heard.firstHeardAt else {
                        guard now < scanEnd else { throw BlueZError.deviceNotFound }
                        if live { view.waiting(left: scanEnd - now) }
                        continue
                    }
                    let settled =
                        policy.decidesOnFirstSighting || now >= firstHeard + BLEDeviceChoice.listening
                        || now >= scanEnd
                    guard settled else {
                        if live { view.listening(heard: heard.count) }
                        continue
                    }
                    switch BLEDeviceChoice.decide(
                        heard.candidates, policy: policy, interactive: DevicePickerTerminal.available(to: console))
                    {
                    case .keepScanning: continue
                    case .connect(let candidate):
                        guard let device = heard.device(candidate.address) else { continue }
                        return device
                    case .refuse(let error):
                        throw refusal(error, listing: heard, on: console)
                    case .ask(let candidates):
                        // A terminal that will not take key mode cannot be asked: as if there were none.
                        guard let terminal = DevicePickerTerminal.start() else {
                            throw refusal(BLEDeviceChoice.refusal(listing: candidates), listing: heard, on: console)
                        }
                        keyboard = terminal
                        group.addTask { await OwnThread.run { terminal.readKeys { sink.yield(.keys($0)) } } }
                        let shown = DevicePicker(candidates)
                        picker = shown
                        view.picker(shown)
                    }
                }
                throw CancellationError()
            }
        }
    }

    /// `error`, after the `{"event":"candidates","devices":[…]}` line that lists every device heard for scripts.
    private static func refusal(
        _ error: ProvisioningError, listing heard: HeardDevices, on console: Console
    ) -> ProvisioningError {
        console.event("candidates", [JSONField("devices", .array(heard.ranked.map { .object($0.fields) }))])
        return error
    }
}
