import DBus

/// "Just Works" pairing for devices that refuse their attributes on an unencrypted link.
///
/// bluetoothd pairs through the calling client's agent, else the default agent; without either, pairing
/// fails (`doc/org.bluez.Device.rst`). So the client registers its own NoInputNoOutput agent for the
/// pairing: it accepts what needs no person and rejects passkey and PIN requests, which a Just Works
/// device never makes.
extension BlueZClient {
    /// Where our agent lives on our connection.
    static let agentPath = DBusObjectPath("/org/ztprov/agent")!

    /// Pairs the scope's device if its policy allows and it has not tried yet; true when the access is
    /// worth retrying. Throws ``BlueZError/pairingFailed(_:)`` when the device refuses.
    func pairForAccess(session: Int) async throws -> Bool {
        guard let state = gattSessions[session], case .justWorks = state.pairing, !state.triedPairing else {
            return false
        }
        gattSessions[session]?.triedPairing = true
        if tree.device(at: state.device.path)?.isPaired == true { return false }
        try await registerAgent()
        do {
            _ = try await call(state.device.path, BlueZNames.device, "Pair", timeout: timeouts.pairing)
        } catch let error as BlueZError where error.dbusError?.name == "org.bluez.Error.AlreadyExists" {
            // Paired meanwhile (bluetoothd may pair by itself on the refused access).
        } catch BlueZError.timedOut(let what) {
            _ = try? await call(state.device.path, BlueZNames.device, "CancelPairing", honoursCancellation: false)
            throw BlueZError.pairingFailed(
                DBusError(name: "org.bluez.Error.AuthenticationTimeout", message: "Pair timed out: \(what)"))
        } catch is CancellationError {
            // The access it was for was answered (or the run ends): bluetoothd need not go on pairing.
            _ = try? await call(state.device.path, BlueZNames.device, "CancelPairing", honoursCancellation: false)
            throw CancellationError()
        }
        return true
    }

    /// Whether the scope's device may still be paired for an unanswered access: its policy asks for it, this
    /// scope has not tried, and the device is not paired.
    func mayPairForAccess(session: Int) -> Bool {
        guard let state = gattSessions[session], case .justWorks(_, whenUnanswered: true) = state.pairing,
            !state.triedPairing
        else {
            return false
        }
        return tree.device(at: state.device.path)?.isPaired != true
    }

    /// Whether the scope's device is paired now.
    func isPaired(session: Int) -> Bool {
        gattSessions[session].flatMap { tree.device(at: $0.device.path)?.isPaired } ?? false
    }

    /// Whether the scope's policy pairs on an unanswered access, i.e. expects bluetoothd to pair by itself.
    func pairsWhenUnanswered(session: Int) -> Bool {
        guard case .justWorks(_, whenUnanswered: true) = gattSessions[session]?.pairing else { return false }
        return true
    }

    /// Ends what pairing left behind when a scope ends: removes a bond made during the scope (unless kept)
    /// and our agent.
    func releasePairing(of state: GATTSession) async {
        guard case .justWorks(let keepBond, _) = state.pairing else { return }
        let pairedNow = tree.device(at: state.device.path)?.isPaired ?? false
        if pairedNow, !state.wasPaired, !keepBond, let adapter = state.device.adapter {
            _ = try? await call(
                adapter, BlueZNames.adapter, "RemoveDevice", [.objectPath(state.device.path)],
                honoursCancellation: false)
        }
        if state.triedPairing {
            _ = try? await call(
                BlueZNames.agentManagerPath, BlueZNames.agentManager, "UnregisterAgent", [.objectPath(Self.agentPath)],
                honoursCancellation: false)
            await connection.stopServing(Self.agentPath)
        }
    }

    private func registerAgent() async throws {
        await connection.serve(Self.agentPath) { interface, member in
            guard interface == BlueZNames.agent else {
                return .error(name: "org.freedesktop.DBus.Error.UnknownInterface", message: interface)
            }
            switch member {
            case "Release", "Cancel", "RequestConfirmation", "RequestAuthorization", "AuthorizeService",
                "DisplayPasskey", "DisplayPinCode":
                return .empty
            default:
                return .error(name: "org.bluez.Error.Rejected", message: "a NoInputNoOutput agent has no passkey")
            }
        }
        do {
            _ = try await call(
                BlueZNames.agentManagerPath, BlueZNames.agentManager, "RegisterAgent",
                [.objectPath(Self.agentPath), .string("NoInputNoOutput")])
        } catch let error as BlueZError where error.dbusError?.name == "org.bluez.Error.AlreadyExists" {
            // Ours from an earlier pairing on this connection.
        }
    }
}
