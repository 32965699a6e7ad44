import Testing

@testable import BlueZ

@Suite struct BlueZErrorTests {
    static func error(_ name: String, _ message: String = "") -> DBusError {
        DBusError(name: name, message: message)
    }

    @Test(arguments: [
        ("org.bluez.Error.NotReady", "notReady"), ("org.bluez.Error.NotPermitted", "notPermitted"),
        ("org.bluez.Error.NotAuthorized", "notAuthorized"), ("org.bluez.Error.InProgress", "inProgress"),
        ("org.bluez.Error.DoesNotExist", "doesNotExist"), ("org.freedesktop.DBus.Error.UnknownObject", "doesNotExist"),
        ("org.bluez.Error.NotConnected", "notConnected"), ("org.bluez.Error.AlreadyConnected", "alreadyConnected"),
        ("org.bluez.Error.NotSupported", "notSupported"), ("org.bluez.Error.InvalidValueLength", "invalidArguments"),
        ("org.freedesktop.DBus.Error.ServiceUnknown", "bluetoothdNotRunning"),
        ("org.freedesktop.DBus.Error.AccessDenied", "accessDenied"),
        ("org.freedesktop.DBus.Error.Disconnected", "busLost"),
        ("org.freedesktop.DBus.Error.NoReply", "timedOut"), ("org.bluez.Error.Blocked", "adapterBlocked"),
        ("com.example.Error.Odd", "other"),
    ])
    func mapsErrorNamesToCases(name: String, expected: String) {
        let mapped = BlueZError(Self.error(name, "why"))
        #expect(String(describing: mapped).hasPrefix(expected + "("), "\(mapped)")
    }

    @Test func keepsTheDBusNameAndMessage() {
        let original = Self.error("org.bluez.Error.NotPermitted", "Notify acquired")
        #expect(BlueZError(original) == .notPermitted(original))
        #expect(BlueZError(original).dbusError == original)
    }

    @Test(arguments: ["le-connection-abort-by-local", "Software caused connection abort"])
    func recognisesLocalConnectionAbortsInBothGenerations(reason: String) {
        let original = Self.error("org.bluez.Error.Failed", reason)
        #expect(BlueZError(original) == .connectionAborted(original))
    }

    @Test func keepsOtherFailedReasons() {
        let original = Self.error("org.bluez.Error.Failed", "Operation already in progress")
        #expect(BlueZError(original) == .failed(reason: "Operation already in progress", original))
    }

    @Test func classifyLeavesNonBusErrorsAlone() {
        #expect(BlueZError.classify(CancellationError()) is CancellationError)
        #expect(BlueZError.classify(BlueZError.deviceNotFound) as? BlueZError == .deviceNotFound)
        #expect(
            BlueZError.classify(Self.error("org.bluez.Error.NotReady")) as? BlueZError
                == .notReady(Self.error("org.bluez.Error.NotReady")))
    }
}

@Suite struct BlueZRetryPolicyTests {
    static let abort = BlueZError.connectionAborted(
        DBusError(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
    static let inProgress = BlueZError.inProgress(DBusError(name: "org.bluez.Error.InProgress", message: ""))

    @Test func retriesAbortsAfterADisconnect() {
        let policy = BlueZRetryPolicy()
        #expect(policy.decision(after: Self.abort, attempt: 1) == .retry(after: .milliseconds(250), reset: .disconnect))
        #expect(
            policy.decision(after: .timedOut("Connect"), attempt: 2)
                == .retry(after: .milliseconds(250), reset: .disconnect))
        #expect(
            policy.decision(after: .linkLost("gone"), attempt: 3)
                == .retry(after: .milliseconds(250), reset: .disconnect))
    }

    @Test func clearsStaleStateByRemovingTheDevice() {
        let policy = BlueZRetryPolicy()
        #expect(
            policy.decision(after: Self.inProgress, attempt: 1)
                == .retry(after: .milliseconds(500), reset: .removeDevice))
        #expect(
            policy.decision(after: .servicesMissing("ffff"), attempt: 1)
                == .retry(after: .milliseconds(500), reset: .removeDevice))
    }

    @Test func stopsAtTheAttemptBudget() {
        let policy = BlueZRetryPolicy(maximumAttempts: 4)
        #expect(policy.decision(after: Self.abort, attempt: 4) == .giveUp)
        #expect(BlueZRetryPolicy(maximumAttempts: 1).decision(after: Self.abort, attempt: 1) == .giveUp)
    }

    @Test(arguments: [
        BlueZError.notReady(DBusError(name: "org.bluez.Error.NotReady", message: "")),
        .accessDenied(DBusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: "")),
        .adapterPoweredOff("hci0"), .bluetoothdNotRunning(DBusError(name: "x", message: "")), .deviceNotFound,
    ])
    func givesUpOnErrorsARetryCannotFix(error: BlueZError) {
        #expect(BlueZRetryPolicy().decision(after: error, attempt: 1) == .giveUp)
    }
}

@Suite struct BlueZQuirksTests {
    @Test func stopDiscoveryToleratesAlreadyStoppedDiscovery() {
        #expect(
            BlueZQuirks.stopDiscoveryAlreadyDone(.notReady(DBusError(name: "org.bluez.Error.NotReady", message: ""))))
        let notStarted = DBusError(name: "org.bluez.Error.Failed", message: "No discovery started")
        #expect(BlueZQuirks.stopDiscoveryAlreadyDone(BlueZError(notStarted)))
        #expect(!BlueZQuirks.stopDiscoveryAlreadyDone(.accessDenied(DBusError(name: "x", message: ""))))
    }

    @Test func countsAdvertisementPropertiesAsSightings() {
        #expect(BlueZQuirks.advertisementProperties.contains("RSSI"))
        #expect(!BlueZQuirks.advertisementProperties.contains("Connected"))
    }

    @Test func fallsBackToTheATTDefaultMTU() {
        #expect(BlueZQuirks.defaultATTMTU == 23)
    }
}
