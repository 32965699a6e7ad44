public import Improv

/// The device side of Improv over BLE, sans-I/O: characteristic writes in, notifications out.
///
/// Pair tests connect it to ``ImprovClient``; the Python model in Tests/Harness is the independent
/// peer. Writes to the RPC command characteristic collect until the frame's length byte is satisfied,
/// as devices must accept frames split over several 20-byte writes.
public struct EmulatedImprovDevice: Sendable {
    /// A value the device notifies on one of its characteristics.
    public struct Notification: Sendable, Hashable {
        public let characteristic: ImprovCharacteristic
        public let value: [UInt8]
    }

    public let configuration: EmulatedImprovDeviceConfiguration
    public private(set) var state: ImprovState
    public private(set) var errorCode: UInt8 = 0
    public private(set) var hostname: String
    public private(set) var deviceName: String
    public private(set) var identifyCount = 0
    /// The credentials of the last join attempt, successful or not.
    public private(set) var attemptedCredentials: ImprovCredentials?
    private var pendingBytes: [UInt8] = []

    public init(configuration: EmulatedImprovDeviceConfiguration) {
        self.configuration = configuration
        state = configuration.requiresAuthorization ? .authorizationRequired : .authorized
        hostname = configuration.hostname
        deviceName = configuration.deviceInfo.deviceName
    }

    /// The advertised service data.
    public var serviceData: ImprovServiceData {
        ImprovServiceData(state: state, capabilities: configuration.capabilities)
    }

    /// The value a read of `characteristic` returns.
    public func read(_ characteristic: ImprovCharacteristic) -> [UInt8] {
        switch characteristic {
        case .currentState: [state.rawValue]
        case .errorState: [errorCode]
        case .capabilities: [configuration.capabilities.rawValue]
        case .rpcCommand, .rpcResult: []
        }
    }

    /// The button press: an authorization-required device becomes authorized.
    public mutating func authorize() -> [Notification] {
        guard state == .authorizationRequired else { return [] }
        return setState(.authorized)
    }

    /// The authorization timeout of the device passed.
    public mutating func revokeAuthorization() -> [Notification] {
        guard configuration.requiresAuthorization, state == .authorized else { return [] }
        return setState(.authorizationRequired)
    }

    /// One write to the RPC command characteristic.
    public mutating func written(_ value: [UInt8]) -> [Notification] {
        pendingBytes += value
        guard pendingBytes.count >= 2 else { return [] }
        let frameLength = Int(pendingBytes[1]) + 3
        guard pendingBytes.count >= frameLength else { return [] }
        let bytes = pendingBytes
        pendingBytes = []
        guard bytes.count == frameLength, let frame = try? ImprovRPCFrame.decode(bytes),
            let strings = try? ImprovStringList.decode(frame.data)
        else { return setError(.invalidRPCPacket) }
        var notifications = errorCode == 0 ? [] : setErrorCode(0)
        notifications += handle(frame.command, strings: strings)
        return notifications
    }

    // MARK: Commands

    private mutating func handle(_ command: UInt8, strings: [[UInt8]]) -> [Notification] {
        guard state == .authorizationRequired || state == .authorized else { return setError(.unknownError) }
        switch ImprovCommand(rawValue: command) {
        case .sendWiFiSettings: return join(strings)
        case .identify where configuration.capabilities.contains(.identify) && strings.isEmpty:
            identifyCount += 1
            return []
        case .deviceInfo where configuration.capabilities.contains(.deviceInfo) && strings.isEmpty:
            return result(.deviceInfo, configuration.deviceInfo.strings)
        case .scanWiFiNetworks where configuration.capabilities.contains(.scanWiFi) && strings.isEmpty:
            return scanResults()
        case .hostname where configuration.capabilities.contains(.hostname):
            return nameCommand(.hostname, strings: strings)
        case .deviceName where configuration.supportsDeviceName:
            return nameCommand(.deviceName, strings: strings)
        case .identify, .deviceInfo, .scanWiFiNetworks:
            return setError(.invalidRPCPacket)
        case .hostname, .deviceName, nil:
            return setError(.unknownRPCCommand)
        }
    }

    private mutating func join(_ strings: [[UInt8]]) -> [Notification] {
        guard strings.count == 2, let credentials = try? ImprovCredentials(ssid: strings[0], password: strings[1])
        else {
            return setError(.invalidRPCPacket)
        }
        guard state == .authorized else { return setError(.notAuthorized) }
        attemptedCredentials = credentials
        var notifications = setState(.provisioning)
        guard credentials == configuration.joinableNetwork else {
            return notifications + setError(.unableToConnect) + setState(.authorized)
        }
        notifications += setState(.provisioned)
        return notifications + result(.sendWiFiSettings, configuration.redirectURL.map { [$0] } ?? [])
    }

    private mutating func nameCommand(_ command: ImprovCommand, strings: [[UInt8]]) -> [Notification] {
        guard strings.count <= 1 else { return setError(.invalidRPCPacket) }
        if let requested = strings.first {
            guard state == .authorized else { return setError(.notAuthorized) }
            let name = String(decoding: requested, as: UTF8.self)
            if command == .hostname {
                guard (try? ImprovRequest.validatedHostname(name)) != nil else { return setError(.badHostname) }
                hostname = name
            } else {
                guard (try? ImprovRequest.validatedDeviceName(name)) != nil else { return setError(.invalidRPCPacket) }
                deviceName = name
            }
        } else if command == .hostname, state != .authorized {
            return setError(.notAuthorized)
        }
        return result(command, [command == .hostname ? hostname : deviceName])
    }

    private func scanResults() -> [Notification] {
        let networks = configuration.networks
        switch configuration.scanStyle {
        case .singleResult:
            return result(.scanWiFiNetworks, networks.flatMap(\.strings))
        case .resultPerNetwork:
            return networks.flatMap { result(.scanWiFiNetworks, $0.strings) } + result(.scanWiFiNetworks, [])
        }
    }

    // MARK: Notifications

    private func result(_ command: ImprovCommand, _ strings: [String]) -> [Notification] {
        guard let data = try? ImprovStringList.encode(strings.map { Array($0.utf8) }),
            let frame = try? ImprovRPCFrame(command: command.rawValue, data: data)
        else { return [Notification(characteristic: .errorState, value: [ImprovDeviceError.unknownError.code])] }
        return [Notification(characteristic: .rpcResult, value: frame.encoded)]
    }

    private mutating func setState(_ newState: ImprovState) -> [Notification] {
        state = newState
        return [Notification(characteristic: .currentState, value: [newState.rawValue])]
    }

    private mutating func setError(_ error: ImprovDeviceError) -> [Notification] {
        setErrorCode(error.code)
    }

    private mutating func setErrorCode(_ code: UInt8) -> [Notification] {
        errorCode = code
        return [Notification(characteristic: .errorState, value: [code])]
    }
}
