/// A stable, machine-readable error code such as `ble.connect-aborted`: the one closed catalogue of
/// every failure ztprov can report.
///
/// Codes appear in `error[CODE]:` lines, in the JSON result and in the records; scripts match on them,
/// so an existing code never changes its spelling or its exit status. A code names what failed for
/// the user (the device, the hotspot, the host), never the adapter that noticed it. Each case's exit
/// status and its general hint are switches over the cases (``exitStatus``, ``hint``), so a new code
/// does not compile until it has both.
public enum ErrorCode: String, CaseIterable, Sendable, CustomStringConvertible {
    // MARK: Usage (2)
    case invalidOption = "usage.invalid-option"
    /// The Improv device lacks a command an option asks for (`--identify`, `--hostname` …).
    case improvNotSupported = "improv.not-supported"
    case secretMissing = "usage.secret-missing"
    case secretUnreadable = "usage.secret-unreadable"
    /// A secret source gave an empty value; open networks are chosen with `--open-network` instead.
    case secretEmpty = "usage.secret-empty"
    /// A secret is not UTF-8 text, holds a NUL byte or is longer than any secret, so it is not sent.
    case secretInvalid = "usage.secret-invalid"
    /// The Wi-Fi password holds control characters, which no WPA passphrase can (a stray line ending, a tab).
    case wifiPasswordCharacters = "usage.wifi-password-characters"
    /// `--db` or `ZTPROV_DB` is empty or has a URL scheme that is neither `postgres(ql)://` nor `sqlite:`.
    case recordsInvalidLocation = "records.invalid-location"
    case batchBadInput = "batch.bad-input"
    /// A unit pinned to an adapter or interface that is not one of the batch's lanes: nothing could try it.
    case batchUnknownLane = "batch.unknown-lane"
    case softAPInvalidSSID = "softap.invalid-ssid"
    case softAPInvalidPassphrase = "softap.invalid-passphrase"
    case softAPInvalidHotspotPassword = "softap.invalid-hotspot-password"
    case protocommCredentialsMissing = "protocomm.credentials-missing"
    /// The `--thread-dataset-file` is not a dataset: not hex, odd, too long, or TLVs that break.
    case threadInvalidDataset = "thread.invalid-dataset"
    /// Several devices match, nobody can be asked which, and no option chose one: nothing is sent to any.
    case bleSeveralDevices = "ble.several-devices"

    // MARK: Host preconditions (3)
    case kernelBluetoothMissing = "host.no-kernel-bluetooth"
    case permissionDenied = "host.permission-denied"
    case hostRadioBlocked = "host.radio-blocked"
    /// bluetoothd is not on the system bus.
    case bluetoothdAbsent = "host.bluetoothd-absent"
    /// bluetoothd exports no adapter at all.
    case noBluetoothAdapter = "host.no-adapter"
    /// No adapter matches `--adapter`.
    case bluetoothAdapterNotFound = "host.adapter-not-found"
    case bluetoothAdapterPoweredOff = "host.adapter-powered-off"
    /// rfkill blocks the adapter.
    case bluetoothAdapterBlocked = "host.adapter-blocked"
    /// NetworkManager is not running or not reachable on the system bus.
    case networkServiceUnavailable = "host.networkmanager-absent"
    /// No Wi-Fi device NetworkManager manages and could join a hotspot with.
    case wifiInterfaceUnavailable = "host.no-wifi-device"
    case softAPInterfaceUnusable = "softap.interface-unusable"
    case lanInterfaceNotFound = "lan.interface-not-found"
    case lanPortInUse = "lan.port-in-use"
    case lanSocketFailed = "lan.socket-failed"
    /// The database cannot be opened or reached: path, permissions, server down, login refused.
    case recordsUnavailable = "records.unavailable"
    /// A newer ztprov's schema, or a database that is not ztprov's.
    case recordsIncompatibleSchema = "records.incompatible-schema"
    /// An attempt could not be stored (disk full, I/O error, lock held too long).
    case recordsWriteFailed = "records.write-failed"
    case recordsReadFailed = "records.read-failed"
    /// Stdout could not take the output (a full disk, a closed pipe); the command's result is lost.
    case outputFailed = "host.output-failed"
    /// The system bus took the connection but never answered its handshake in time.
    case busNotAnswering = "host.bus-not-answering"
    /// `report --serve` could not listen where told: the port is taken or not allowed, the address not the host's.
    case reportCannotServe = "report.cannot-serve"

    // MARK: Device not found (4)
    case bleDeviceNotFound = "ble.device-not-found"
    /// The Improv device is provisioned already and takes no settings.
    case improvAlreadyProvisioned = "improv.already-provisioned"
    case softAPHotspotNotFound = "softap.hotspot-not-found"
    case lanNoReply = "lan.no-reply"
    case lanDeviceNotFound = "lan.device-not-found"

    // MARK: Link failures (5)
    case bleConnectAborted = "ble.connect-aborted"
    /// The device resolved its services but not the protocol's (wrong device or a stale cache).
    case bleServicesMissing = "ble.services-missing"
    /// bluetoothd refused an operation the flow needs, for a reason it named.
    case bleRefused = "ble.refused"
    case bleLinkLost = "ble.link-lost"
    case bluFiSequenceMismatch = "blufi.sequence-mismatch"
    /// A frame the other side cannot use: malformed, unexpected, or refused by the device.
    case bluFiProtocolError = "blufi.protocol-error"
    /// The Improv device reported an error for a command (other than failing to join).
    case improvRejected = "improv.rejected"
    /// The Improv device sent values that break the specification.
    case improvProtocolError = "improv.protocol-error"
    case softAPJoinFailed = "softap.join-failed"
    case softAPRestoreFailed = "softap.restore-failed"
    case softAPDeviceUnreachable = "softap.device-unreachable"
    case protocommEndpointMissing = "protocomm.endpoint-missing"
    case protocommConnectionClosed = "protocomm.connection-closed"
    case protocommProtocolError = "protocomm.protocol-error"
    case protocommOutcomeUnknown = "protocomm.outcome-unknown"
    case lanSendFailed = "lan.send-failed"
    case scUnreachable = "sc.unreachable"

    // MARK: Authentication (6)
    /// The BluFi key exchange failed or the two sides derived different keys.
    case bluFiNegotiationFailed = "blufi.negotiation-failed"
    case wrongPoP = "protocomm.wrong-pop"
    case protocommSessionRejected = "protocomm.session-rejected"
    case protocommHandshakeFailed = "protocomm.handshake-failed"
    case protocommUnsupportedSecurity = "protocomm.unsupported-security"
    /// The device's hotspot refused the password the host joined with.
    case hotspotPasswordRejected = "softap.hotspot-password-rejected"
    case scTokenRejected = "sc.token-rejected"
    /// The device refuses its provisioning endpoints until the link is paired, and pairing did not succeed.
    case blePairingFailed = "ble.pairing-failed"
    /// The device's negotiated security is below `--min-security`; it was refused before any credential went.
    case securityBelowMinimum = "security.below-minimum"

    // MARK: The device could not join the target Wi-Fi (7)
    case bluFiWiFiWrongPassword = "blufi.wifi-wrong-password"
    case bluFiWiFiNotFound = "blufi.wifi-not-found"
    case bluFiWiFiJoinFailed = "blufi.wifi-join-failed"
    /// The device was still trying when the join's time ran out.
    case bluFiWiFiJoinTimeout = "blufi.wifi-join-timeout"
    case bluFiWiFiScanFailed = "blufi.wifi-scan-failed"
    /// The Improv device could not join with the settings (a wrong password, a network out of range).
    case improvWiFiUnableToConnect = "improv.wifi-unable-to-connect"
    case protocommWiFiWrongPassword = "protocomm.wifi-wrong-password"
    case protocommWiFiNotFound = "protocomm.wifi-not-found"
    case protocommWiFiJoinFailed = "protocomm.wifi-join-failed"
    case protocommConfigRejected = "protocomm.config-rejected"
    /// `--check-network`: the device's scan does not list the SSID, and `--hidden` was not given.
    case networkNotHeard = "network.not-heard"
    /// A scan shows the network secured, and no password was given (`--open-network`).
    case networkPasswordRequired = "network.password-required"
    /// A scan shows the network open, and a password was given.
    case networkIsOpen = "network.is-open"
    /// A scan shows the network as 802.1X enterprise, which no provisioning protocol can send.
    case networkEnterprise = "network.enterprise"

    // MARK: The device could not attach to the Thread network (7)
    /// The device found the dataset invalid (OpenThread could not parse it) or refused to store it.
    case threadDatasetRejected = "thread.dataset-rejected"
    /// No Thread network answered the device with the dataset's parameters.
    case threadNetworkNotFound = "thread.network-not-found"
    /// The device reported another failure (detached, an unknown state) or refused to apply the dataset.
    case threadAttachFailed = "thread.attach-failed"

    // MARK: Hand-off failed or not confirmed (8)
    /// The device ID sent over BluFi is not the 12 hex digits the LAN protocol needs.
    case bluFiUnusableDeviceID = "blufi.unusable-device-id"
    case lanBadReply = "lan.bad-reply"
    case handoffNoToken = "handoff.no-token"
    case handoffNoInfo = "handoff.no-info"
    case handoffNotConfirmed = "handoff.not-confirmed"
    case handoffServerMismatch = "handoff.server-mismatch"
    case handoffRejected = "handoff.rejected"
    case handoffTargetIsHub = "handoff.target-is-hub"
    case scHTTPError = "sc.http-error"
    case scBadResponse = "sc.bad-response"

    // MARK: Timeouts (9)
    case timeout = "timeout"
    /// Nobody authorized the Improv device (pressed its button) within the wait.
    case improvAuthorizationTimeout = "improv.authorization-timeout"
    case softAPJoinTimeout = "softap.join-timeout"
    case protocommDeviceTimeout = "protocomm.device-timeout"
    case protocommWiFiConnectTimeout = "protocomm.wifi-connect-timeout"
    /// The device was still attaching when the attach limit or the run's time ran out.
    case threadAttachTimeout = "thread.attach-timeout"
    case scTimeout = "sc.timeout"

    // MARK: Batch verdict (10) and interruption (129, 130, 143)
    /// The batch ran to its end, but some units were not provisioned; the records say which and why.
    case batchIncomplete = "batch.incomplete"
    /// The station could not renew its claim on the unit in time (the database was out of reach) and
    /// another station took it: the attempt stopped so the unit is not provisioned twice.
    case batchClaimLost = "batch.claim-lost"
    /// The terminal or the SSH session went away (SIGHUP); cleanup still ran.
    case hangUp = "interrupted.hangup"
    case interrupted = "interrupted"
    /// SIGTERM (a supervisor, `kill`, a shutdown); cleanup still ran.
    case terminated = "interrupted.terminated"

    public var description: String { rawValue }

    /// The spelling this code had before it named what failed for the user rather than an adapter or a
    /// transport; the JSON result carries it as `code_alias` for one release so scripts can move over.
    public var formerSpelling: String? {
        switch self {
        case .hotspotPasswordRejected: "nm.no-secrets"
        case .networkServiceUnavailable: "nm.unavailable"
        case .wifiInterfaceUnavailable: "nm.no-wifi-device"
        case .protocommEndpointMissing, .protocommConnectionClosed, .protocommProtocolError, .protocommOutcomeUnknown,
            .wrongPoP, .protocommSessionRejected, .protocommHandshakeFailed, .protocommUnsupportedSecurity,
            .protocommWiFiWrongPassword, .protocommWiFiNotFound, .protocommWiFiJoinFailed, .protocommConfigRejected,
            .protocommDeviceTimeout, .protocommWiFiConnectTimeout, .protocommCredentialsMissing:
            // The protocomm conversation's codes were `softap.*` while SoftAP was its only transport.
            "softap." + rawValue.dropFirst("protocomm.".count)
        default: nil
        }
    }
}
