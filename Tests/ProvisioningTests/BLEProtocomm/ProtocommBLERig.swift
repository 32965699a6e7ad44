import CryptoPrimitives
import DeviceEmulator
import Protocomm
import Provisioning
import Synchronization
import Testing
import Transports

/// One in-memory protocomm-over-GATT device and the BLE flow against it, with short limits.
struct ProtocommBLERig {
    static let address = "24:0A:C4:1A:2B:3E"
    /// Far above what the in-memory device needs: these tests are about the flow, and at the start of the
    /// in-process pass on two cores a run has waited more than 10 s for a thread.
    static let timeouts = ProtocommTimeouts(
        exchange: .seconds(60), scan: .seconds(60), connect: .seconds(60), statusPollInterval: .milliseconds(1),
        quickStatusPollInterval: .milliseconds(1))

    let peripheral: InMemoryProtocommPeripheral
    let progress = ProtocommProgressLog()

    init(_ configuration: ProtocommDeviceConfiguration, options: InMemoryProtocommPeripheral.Options = .init()) {
        peripheral = InMemoryProtocommPeripheral(
            configuration: configuration, random: SeededRandomSource(seed: [3]), options: options)
    }

    static func request(
        passphrase: String = SoftAPRig.Secrets.wifiPassphrase, listsNetworks: Bool = false,
        security: ProtocommSecurityOptions = SoftAPRig.allCredentials, advertised: [String] = []
    ) -> ProtocommBLERequest {
        ProtocommBLERequest(
            wifi: ProtocommWiFiRequest(
                network: ProtocommTargetNetwork(ssid: SoftAPRig.targetSSID, passphrase: Secret(passphrase)),
                security: security, listsNetworks: listsNetworks),
            advertisedServices: advertised)
    }

    var events: [ProtocommProgress] { progress.events.withLock { $0 } }

    func run(
        _ request: ProtocommBLERequest = request(), retryPassphrase: (@Sendable () async throws -> Secret?)? = nil
    ) async throws -> ProtocommBLEOutcome {
        let provisioner = ProtocommBLEProvisioner(timeouts: Self.timeouts, random: SeededRandomSource(seed: [4]))
        let log = progress
        return try await provisioner.run(
            request, on: peripheral, address: Self.address, deadline: .now + .seconds(120),
            retryPassphrase: retryPassphrase
        ) { event in log.events.withLock { $0.append(event) } }
    }

    func failure(
        _ request: ProtocommBLERequest = request(), retryPassphrase: (@Sendable () async throws -> Secret?)? = nil
    ) async throws -> ProvisioningError {
        do {
            let outcome = try await run(request, retryPassphrase: retryPassphrase)
            Issue.record("expected a failure, got \(outcome)")
            throw SoftAPRig.RigError.unexpectedSuccess
        } catch let error as ProvisioningError {
            for secret in SoftAPRig.Secrets.all {
                #expect(!"\(error) \(error.hint) \(error.detail ?? "")".contains(secret))
            }
            return error
        }
    }
}

extension ProtocommDeviceConfiguration {
    func withWiFi(_ plan: ProtocommDeviceWiFiPlan) -> ProtocommDeviceConfiguration {
        var copy = self
        copy.wifi = plan
        return copy
    }
}

/// The flow's progress events, in order.
final class ProtocommProgressLog: Sendable {
    let events = Mutex<[ProtocommProgress]>([])
}

/// Counts calls from a `@Sendable` closure.
final class CallCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
