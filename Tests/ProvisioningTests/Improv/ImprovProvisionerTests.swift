import DeviceEmulator
import Improv
import Logging
import Provisioning
import Synchronization
import Testing
import Transports

/// The Improv flow over the GATT port against the emulated device: the commands in order, the
/// authorization wait, and how every kind of failure reaches the user.
@Suite struct ImprovProvisionerTests {
    static let network = try! ImprovCredentials(ssid: Array("HomeNet".utf8), password: Array("correct horse".utf8))
    static let timeouts = ImprovTimeouts(
        read: .seconds(2), write: .seconds(2), authorization: .milliseconds(300), wifiJoin: .seconds(2),
        scan: .seconds(2), scanQuiet: .milliseconds(100), result: .milliseconds(300))

    static func settings(password: String = "correct horse", hostname: String? = nil) -> ImprovSettings {
        ImprovSettings(
            ssid: "HomeNet", password: Secret(password), identifies: true, readsDeviceInfo: true,
            listsNetworks: true, hostname: hostname, deviceName: nil)
    }

    /// Runs the flow and returns its outcome and every progress line it reported.
    static func run(
        _ connection: InMemoryImprovPeripheral, _ settings: ImprovSettings = settings(),
        timeouts: ImprovTimeouts = timeouts, onProgress: @escaping @Sendable (ImprovProgress) -> Void = { _ in }
    ) async throws -> (ImprovProvisioningOutcome, [ImprovProgress]) {
        let reported = Mutex<[ImprovProgress]>([])
        let outcome = try await ImprovProvisioner(
            connection: connection, timeouts: timeouts, logger: Logger(label: "test")
        ).run(settings, deadline: .now + .seconds(120)) { event in
            reported.withLock { $0.append(event) }
            onProgress(event)
        }
        return (outcome, reported.withLock { $0 })
    }

    static func failure(_ connection: InMemoryImprovPeripheral, _ settings: ImprovSettings = settings())
        async throws -> ProvisioningError
    {
        do {
            _ = try await run(connection, settings)
        } catch let error as ProvisioningError {
            return error
        }
        Issue.record("the flow succeeded")
        return ProvisioningError(.interrupted, "", hint: "")
    }

    @Test func runsEveryCommandAndSendsTheSettingsLast() async throws {
        let connection = InMemoryImprovPeripheral(EmulatedImprovDeviceConfiguration(joinableNetwork: Self.network))
        let (outcome, reported) = try await Self.run(connection, Self.settings(hostname: "porch"))
        #expect(outcome.redirectURL == "http://improv-device.local/")
        #expect(outcome.joinedSSID == "HomeNet")
        #expect(outcome.identified)
        #expect(outcome.deviceInfo?.firmwareName == "ESPHome")
        #expect(outcome.networks?.map(\.ssid) == ["HomeNet", "Guest"])
        #expect(outcome.hostname == "porch")
        #expect(await connection.device.attemptedCredentials == Self.network)
        #expect(await connection.writes.allSatisfy { $0.count <= ImprovGATTProfile.maximumWriteLength })
        #expect(reported.contains(.joinRequested(ssid: "HomeNet")))
        #expect(!"\(reported)".contains("correct horse"))
    }

    @Test func goesOnWhenTheButtonIsPressed() async throws {
        let connection = InMemoryImprovPeripheral(
            EmulatedImprovDeviceConfiguration(requiresAuthorization: true, joinableNetwork: Self.network))
        var settings = Self.settings()
        settings.identifies = false
        var timeouts = Self.timeouts
        timeouts.authorization = .seconds(60)
        // The button is pressed once the flow asked for it, so the wait is always seen.
        let (outcome, reported) = try await Self.run(connection, settings, timeouts: timeouts) { event in
            if case .authorizationRequired = event { Task { await connection.pressButton() } }
        }
        #expect(outcome.waitedForAuthorization)
        #expect(reported.contains(.authorizationRequired(within: .seconds(60))))
        #expect(reported.contains(.device(.authorized)))
        #expect(outcome.redirectURL != nil)
    }

    /// Every error a device may report for a command other than a failed join: the device refused it.
    @Test(arguments: [0x01, 0x05, 0xFF, 0x42] as [UInt8])
    func aDeviceErrorIsARejection(code: UInt8) async throws {
        let connection = InMemoryImprovPeripheral(EmulatedImprovDeviceConfiguration(joinableNetwork: Self.network)) {
            number, _ in number == 2 ? [(.errorState, [code])] : nil
        }
        let error = try await Self.failure(connection)
        #expect(error.code == .improvRejected)
        #expect(error.exitStatus.rawValue == 5)
        #expect(error.message.contains("The device refused device info"), "\(error)")
        #expect(error.hint.contains("hostname") == (code == 0x05))
    }

    /// Bytes that break the specification, on each value the flow reads or is notified.
    @Test(
        arguments: [
            ("capabilities", 0, [1, 2]), ("result checksum", 2, [0x03, 0x01, 0x00, 0x00]),
            ("state", 2, [9]), ("string list", 2, [0x03, 0x02, 0x05, 0x41, 0x4B]),
        ] as [(String, Int, [UInt8])])
    func malformedValuesAreProtocolErrors(what: String, write: Int, value: [UInt8]) async throws {
        let capabilities: [UInt8]? = write == 0 ? value : nil
        let characteristic: ImprovCharacteristic = what == "state" ? .currentState : .rpcResult
        let connection = InMemoryImprovPeripheral(
            EmulatedImprovDeviceConfiguration(joinableNetwork: Self.network), capabilities: capabilities
        ) { number, _ in number == write ? [(characteristic, value)] : nil }
        let error = try await Self.failure(connection)
        #expect(error.code == .improvProtocolError, "\(what): \(error)")
        #expect(error.exitStatus.rawValue == 5)
        #expect(error.detail != nil)
    }

    @Test func aSilentDeviceTimesOut() async throws {
        let connection = InMemoryImprovPeripheral(EmulatedImprovDeviceConfiguration(joinableNetwork: Self.network)) {
            number, _ in number == 2 ? [] : nil
        }
        let error = try await Self.failure(connection)
        #expect(error.code == .timeout)
        #expect(error.message.contains("did not answer device info"), "\(error)")
    }

    @Test func settingsTheCoreRefusesAreUsageErrorsBeforeAnyWrite() async throws {
        for settings in [Self.settings(password: "short"), Self.settings(hostname: "-bad-")] {
            let connection = InMemoryImprovPeripheral(EmulatedImprovDeviceConfiguration(joinableNetwork: Self.network))
            let error = try await Self.failure(connection, settings)
            #expect(error.code == .invalidOption, "\(error)")
            #expect(!error.message.contains("short"))
            #expect(await connection.writes.isEmpty)
        }
    }

    @Test func aMissingCharacteristicIsAMissingService() async throws {
        let error = await #expect(throws: ProvisioningError.self) {
            _ = try await ImprovProvisioner(connection: EmptyConnection(), logger: Logger(label: "test"))
                .run(Self.settings(), deadline: .now + .seconds(1)) { _ in }
        }
        #expect(error?.code == .bleServicesMissing)
    }
}

/// A peer without the Improv service.
private struct EmptyConnection: GATTConnection {
    struct Unused: Error {}

    let mtu = 23
    let services: [GATTService] = []

    func read(_ characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        throw Unused()
    }
    func read(_ descriptor: GATTDescriptor, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        throw Unused()
    }
    func write(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType,
        until deadline: ContinuousClock.Instant
    ) throws { throw Unused() }
    func subscribe(to characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) throws
        -> AsyncThrowingStream<[UInt8], any Error>
    { throw Unused() }
}
