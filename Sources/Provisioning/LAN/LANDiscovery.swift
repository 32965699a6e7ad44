import CryptoPrimitives
import Logging
import Transports
public import ZhitingLAN

/// Discovery: broadcast hellos for a listening window, then ask every device that answered for
/// its `get_prop.info`, one after the other.
public struct LANDiscovery: Sendable {
    let setup: LANFlowSetup

    /// A flow with the link, timeouts, framing and randomness of `setup`.
    public init(_ setup: LANFlowSetup) {
        self.setup = setup
    }

    /// Every device that answered, with its info, or the reason its info could not be read.
    ///
    /// Fails only when nobody answered; a unicast target stops listening as soon as it answers.
    public func run(
        _ target: LANTarget,
        deadline: ContinuousClock.Instant,
        progress: @escaping LANProgressSink
    ) async throws(ProvisioningError) -> [LANDiscoveredDevice] {
        let beacon = LANHelloBeacon(
            channel: setup.channel, target: target, timeouts: setup.timeouts, progress: progress)
        var devices: [LANDevice] = []
        let started = ContinuousClock.now
        _ = try await beacon.run(until: min(started + setup.timeouts.listenWindow, deadline)) { device in
            guard target.deviceID == nil || device.id == target.deviceID else { return false }
            if !devices.contains(device) {
                devices.append(device)
                progress(.deviceAnswered(device))
            }
            return target.address != nil
        }
        guard !devices.isEmpty else {
            throw ProvisioningError.lanNotFound(target, within: ContinuousClock.now - started, others: [])
        }
        var source = setup.random
        var discovered: [LANDiscoveredDevice] = []
        for device in devices {
            var client = ZhitingLANClient(
                deviceID: device.id,
                sessionKey: ZhitingSessionKey.random(using: &source),
                goal: .readInfo,
                framing: setup.framing
            )
            let conversation = LANConversation(
                channel: setup.channel, device: device, timeouts: setup.timeouts, progress: progress)
            do throws(ProvisioningError) {
                let outcome = try await conversation.run(&client, until: deadline)
                discovered.append(LANDiscoveredDevice(device: device, info: outcome.info))
            } catch  where error.code == .interrupted {
                throw error
            } catch {
                discovered.append(LANDiscoveredDevice(device: device, problem: error))
            }
        }
        return discovered
    }
}

/// One device found by discovery.
public struct LANDiscoveredDevice: Sendable, Equatable {
    public var device: LANDevice
    /// What the device reported; nil when its info could not be read.
    public var info: ZhitingDeviceInfo?
    /// Why the info could not be read.
    public var problem: ProvisioningError?

    public init(device: LANDevice, info: ZhitingDeviceInfo? = nil, problem: ProvisioningError? = nil) {
        self.device = device
        self.info = info
        self.problem = problem
    }

    /// A Smart Assistant hub rather than a device, judged by the info's model or else the hello's.
    public var isSmartAssistant: Bool {
        if let info, info.model != nil { return info.isSmartAssistant }
        return ZhitingDeviceInfo(model: device.helloModel).isSmartAssistant
    }
}
