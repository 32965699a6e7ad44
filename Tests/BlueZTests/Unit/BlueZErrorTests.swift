import Testing

@testable import BlueZ
@testable import DBus

private func why(_ name: String) -> DBusError {
    DBusError(name: name, message: "why")
}

@Suite struct BlueZErrorTests {
    static func error(_ name: String, _ message: String = "") -> DBusError {
        DBusError(name: name, message: message)
    }

    @Test(
        arguments: [
            ("org.bluez.Error.NotReady", BlueZError.notReady(why("org.bluez.Error.NotReady"))),
            ("org.bluez.Error.NotPermitted", .notPermitted(why("org.bluez.Error.NotPermitted"))),
            ("org.bluez.Error.NotAuthorized", .notAuthorized(why("org.bluez.Error.NotAuthorized"))),
            ("org.bluez.Error.InProgress", .inProgress(why("org.bluez.Error.InProgress"))),
            ("org.bluez.Error.DoesNotExist", .doesNotExist(why("org.bluez.Error.DoesNotExist"))),
            (
                "org.freedesktop.DBus.Error.UnknownObject",
                .doesNotExist(why("org.freedesktop.DBus.Error.UnknownObject"))
            ),
            ("org.bluez.Error.NotConnected", .notConnected(why("org.bluez.Error.NotConnected"))),
            ("org.bluez.Error.AlreadyConnected", .alreadyConnected(why("org.bluez.Error.AlreadyConnected"))),
            ("org.bluez.Error.NotSupported", .notSupported(why("org.bluez.Error.NotSupported"))),
            ("org.bluez.Error.InvalidValueLength", .invalidArguments(why("org.bluez.Error.InvalidValueLength"))),
            (
                "org.freedesktop.DBus.Error.ServiceUnknown",
                .bluetoothdNotRunning(why("org.freedesktop.DBus.Error.ServiceUnknown"))
            ),
            ("org.freedesktop.DBus.Error.AccessDenied", .accessDenied(why("org.freedesktop.DBus.Error.AccessDenied"))),
            ("org.freedesktop.DBus.Error.Disconnected", .busLost(why("org.freedesktop.DBus.Error.Disconnected"))),
            ("org.freedesktop.DBus.Error.NoReply", .timedOut("why")),
            ("org.bluez.Error.Blocked", .adapterBlocked("why")),
            ("com.example.Error.Odd", .other(why("com.example.Error.Odd"))),
        ])
    func mapsErrorNamesToCases(name: String, expected: BlueZError) {
        #expect(BlueZError(why(name)) == expected)
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

    @Test func aNoReplyBecauseBluetoothdLeftTheBusIsNotATimeout() {
        let gone = Self.error(
            "org.freedesktop.DBus.Error.NoReply", "Message recipient disconnected from message bus without replying")
        #expect(BlueZError(gone) == .bluetoothdNotRunning(gone))
        let late = Self.error("org.freedesktop.DBus.Error.NoReply", "Did not receive a reply.")
        #expect(BlueZError(late) == .timedOut("Did not receive a reply."))
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
        let rejectedByTheKernel = DBusError(
            name: "org.bluez.Error.InProgress", message: "Operation already in progress")
        #expect(BlueZQuirks.stopDiscoveryAlreadyDone(BlueZError(rejectedByTheKernel)))
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

@Suite struct BlueZErrorDescriptionTests {
    @Test func namesTheDBusErrorAndAFix() {
        let aborted = BlueZError(DBusError(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
        #expect(aborted.description.contains("org.bluez.Error.Failed: le-connection-abort-by-local"))
        #expect(BlueZError.adapterPoweredOff("hci1").description.contains("bluetoothctl power on"))
        #expect(BlueZError.adapterBlocked("hci0").description.contains("rfkill unblock"))
    }
}
