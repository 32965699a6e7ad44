/// The client side of an Improv conversation as a sans-I/O state machine: events in, ``Action``s out.
///
/// Before ``connected()`` the caller subscribes to notifications on the current-state, error-state
/// and RPC-result characteristics. Then the conversation reads capabilities and state, checks that
/// every request is supported, and runs the requests in the given order. A request that needs
/// authorization waits for the device to become authorized (announced with
/// ``ImprovClientEvent/authorizationRequired``), also when the device's authorization lapses and it
/// answers "not authorized". Peer violations and failures end it with ``Action/fail(_:)``; no clock,
/// every wait is an ``Action/wait(for:)`` whose deadline the caller owns.
public struct ImprovClient: Sendable {
    enum Phase: Sendable, Equatable {
        case idle
        case readingCapabilities
        case readingState
        case awaitingAuthorization(ImprovRequest)
        case awaitingResult(ImprovRequest)
        case awaitingMoreNetworks
        case finished
        case failed
    }

    /// How often a lapsed authorization is waited for again before the conversation gives up.
    public static let maximumReauthorizations = 3

    public private(set) var state: ImprovState?
    public private(set) var capabilities: ImprovCapabilities?
    var phase: Phase = .idle
    var pending: [ImprovRequest]
    var networks: [ImprovWiFiNetwork] = []
    var reauthorizations = 0

    /// A conversation that will run `requests` in this order. Put send Wi-Fi settings last: a
    /// provisioned device stops its Improv service.
    public init(requests: [ImprovRequest]) {
        pending = requests
    }

    /// What the conversation waits for now, if anything.
    public var awaitedReply: ImprovAwaitedReply? {
        switch phase {
        case .awaitingAuthorization: .authorization
        case .awaitingResult(let request): .result(request.command)
        case .awaitingMoreNetworks: .moreNetworks
        case .idle, .readingCapabilities, .readingState, .finished, .failed: nil
        }
    }

    public var isOver: Bool {
        phase == .finished || phase == .failed
    }

    // MARK: Events

    /// The link is up and notifications are enabled: read the capabilities.
    public mutating func connected() -> [Action] {
        guard phase == .idle else { return [] }
        phase = .readingCapabilities
        return [.read(.capabilities)]
    }

    /// The value of a ``Action/read(_:)``.
    public mutating func readCompleted(_ characteristic: ImprovCharacteristic, value: [UInt8]) -> [Action] {
        do throws(ImprovError) {
            switch (phase, characteristic) {
            case (.readingCapabilities, .capabilities):
                let capabilities = try ImprovCapabilities.decode(value)
                self.capabilities = capabilities
                if let missing = pending.first(where: { !capabilities.contains($0.command.requiredCapability ?? []) }) {
                    return fail(.unsupported(missing.command))
                }
                phase = .readingState
                return [.read(.currentState)]
            case (.readingState, .currentState):
                let state = try ImprovState.decode(value)
                self.state = state
                switch state {
                case .provisioned: return fail(.alreadyProvisioned)
                case .provisioning: return fail(.unexpectedState(state))
                case .authorizationRequired, .authorized: break
                }
                return [.report(.connected(state: state, capabilities: capabilities ?? []))] + startNext()
            default:
                return []
            }
        } catch {
            return fail(error)
        }
    }

    /// A notification on one of the subscribed characteristics.
    public mutating func notified(_ characteristic: ImprovCharacteristic, value: [UInt8]) -> [Action] {
        guard !isOver, phase != .idle else { return [] }
        do throws(ImprovError) {
            switch characteristic {
            case .currentState: return stateNotified(try ImprovState.decode(value))
            case .errorState: return errorNotified(try ImprovErrorState.decode(value))
            case .rpcResult: return try resultNotified(ImprovRPCFrame.decode(value))
            case .rpcCommand, .capabilities: return []
            }
        } catch {
            return fail(error)
        }
    }

    /// The deadline of the last ``Action/wait(for:)`` passed.
    public mutating func deadlinePassed() -> [Action] {
        switch phase {
        case .awaitingAuthorization: return fail(.authorizationTimedOut)
        case .awaitingResult(.sendWiFiSettings(_)) where state == .provisioned:
            // Joined, but the result with the (optional) URL never came: the outcome is still known.
            return [.report(.provisioned(redirectURL: nil))] + startNext()
        case .awaitingResult(let request): return fail(.noReply(request.command))
        case .awaitingMoreNetworks: return finishScan()
        case .idle, .readingCapabilities, .readingState, .finished, .failed: return []
        }
    }

    // MARK: Steps

    private mutating func startNext() -> [Action] {
        guard !pending.isEmpty else {
            phase = .finished
            return [.finished]
        }
        let request = pending.removeFirst()
        if request.needsAuthorization && state == .authorizationRequired {
            phase = .awaitingAuthorization(request)
            return [.report(.authorizationRequired), .wait(for: .authorization)]
        }
        return send(request)
    }

    private mutating func send(_ request: ImprovRequest) -> [Action] {
        let frame: ImprovRPCFrame
        do throws(ImprovError) {
            frame = try request.frame()
        } catch {
            return fail(error)
        }
        let writes = ImprovRPCFrame.chunks(of: frame.encoded).map { Action.write($0) }
        guard request.expectsResult else { return writes + [.report(.identifySent)] + startNext() }
        networks = []
        phase = .awaitingResult(request)
        return writes + [.wait(for: .result(request.command))]
    }

    private mutating func stateNotified(_ newState: ImprovState) -> [Action] {
        let previous = state
        state = newState
        guard newState != previous else { return [] }
        if case .awaitingAuthorization(let request) = phase, newState == .authorized {
            return [.report(.authorized)] + send(request)
        }
        return [.report(.stateChanged(newState))]
    }

    private mutating func errorNotified(_ errorState: ImprovErrorState) -> [Action] {
        guard case .error(let error) = errorState, case .awaitingResult(let request) = phase else { return [] }
        switch error {
        case .notAuthorized where request.needsAuthorization && reauthorizations < Self.maximumReauthorizations:
            reauthorizations += 1
            state = .authorizationRequired
            phase = .awaitingAuthorization(request)
            return [.report(.authorizationRequired), .wait(for: .authorization)]
        case .unknownRPCCommand:
            return fail(.unsupported(request.command))
        default:
            return fail(.device(error, during: request.command))
        }
    }

    private mutating func resultNotified(_ frame: ImprovRPCFrame) throws(ImprovError) -> [Action] {
        let request: ImprovRequest
        switch phase {
        case .awaitingResult(let awaited): request = awaited
        case .awaitingMoreNetworks: request = .scanWiFiNetworks
        default: return []
        }
        // A late result of an earlier command (a scan terminator after the quiet period) is not ours.
        guard frame.command == request.command.rawValue else { return [] }
        switch try ImprovResult.parse(frame, as: request.command) {
        case .provisioned(let url):
            state = .provisioned
            return [.report(.provisioned(redirectURL: url))] + startNext()
        case .networks(let found) where found.isEmpty:
            return finishScan()
        case .networks(let found):
            networks += found
            phase = .awaitingMoreNetworks
            return [.wait(for: .moreNetworks)]
        case .deviceInfo(let info): return [.report(.deviceInfo(info))] + startNext()
        case .hostname(let name): return [.report(.hostname(name))] + startNext()
        case .deviceName(let name): return [.report(.deviceName(name))] + startNext()
        }
    }

    private mutating func finishScan() -> [Action] {
        let found = networks
        networks = []
        return [.report(.networks(found))] + startNext()
    }

    private mutating func fail(_ error: ImprovError) -> [Action] {
        phase = .failed
        return [.fail(error)]
    }
}
