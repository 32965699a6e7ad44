import Provisioning
import Records
import Testing

/// How each record-store failure reads: code, message, hint and exit status, never the password.
@Suite struct RecordsErrorMappingTests {
    static let file = RecordStorePlace(.file, shownAs: "/var/lib/ztprov/records.sqlite") { $0 }
    /// A server whose store hides its password as the PostgreSQL store does (that store's own tests show how).
    static let server = RecordStorePlace(.server, shownAs: "postgres://****@db.example/ztprov") {
        $0.replacing("pw-42", with: "****")
    }

    @Test func anUnopenableFileNamesThePathAndPermissions() {
        let error = ProvisioningError.records(
            RecordStoreError(.unavailable, "unable to open database file"), at: Self.file, while: .opening)
        #expect(error.code == .recordsUnavailable)
        #expect(
            error.message
                == "Cannot open the records database /var/lib/ztprov/records.sqlite: unable to open database file.")
        #expect(
            error.hint
                == "Check that this user can create and write the file and its directory, or pass --db (or set "
                + "ZTPROV_DB) with another path.")
        #expect(error.exitStatus.rawValue == 3)
    }

    @Test func anUnreachableServerNamesTheServerWithoutThePassword() {
        let error = ProvisioningError.records(
            RecordStoreError(.unavailable, "password authentication failed (tried pw-42)."), at: Self.server,
            while: .writing)
        #expect(error.code == .recordsUnavailable)
        #expect(
            error.message
                == "Cannot open the records database postgres://****@db.example/ztprov: password authentication "
                + "failed (tried ****).")
        #expect(
            error.hint
                == "Check that the PostgreSQL server is running and reachable and the URL's host, port, database and "
                + "user; keep the password in ~/.pgpass or PGPASSWORD.")
        #expect(error.detail?.contains("pw-42") == false)
        #expect(error.exitStatus.rawValue == 3)
    }

    @Test func anIncompatibleSchemaSaysUpgradeOrUseAnotherDatabase() {
        let error = ProvisioningError.records(
            RecordStoreError(.incompatibleSchema, "the records schema is version 2; this ztprov reads version 1"),
            at: Self.file, while: .opening)
        #expect(error.code == .recordsIncompatibleSchema)
        #expect(
            error.message
                == "The records database /var/lib/ztprov/records.sqlite is not one this ztprov can use: the records "
                + "schema is version 2; this ztprov reads version 1.")
        #expect(
            error.hint
                == "If a newer ztprov wrote it, upgrade this one; otherwise pass --db (or set ZTPROV_DB) with a new "
                + "file or database.")
        #expect(error.exitStatus.rawValue == 3)
    }

    @Test func aFailedWriteSaysTheAttemptIsNotRecorded() {
        let error = ProvisioningError.records(
            RecordStoreError(.failed, "database or disk is full"), at: Self.file, while: .writing)
        #expect(error.code == .recordsWriteFailed)
        #expect(
            error.message == "Could not record the attempt in /var/lib/ztprov/records.sqlite: database or disk is full."
        )
        #expect(
            error.hint == "Check free disk space and, for PostgreSQL, the server's log; this attempt is not recorded.")
        #expect(error.exitStatus.rawValue == 3)
    }

    @Test func aFailedReadPointsAtAnIntegrityCheck() {
        let error = ProvisioningError.records(
            RecordStoreError(.failed, "database disk image is malformed"), at: Self.file, while: .reading)
        #expect(error.code == .recordsReadFailed)
        #expect(
            error.message
                == "Could not read the records from /var/lib/ztprov/records.sqlite: database disk image is malformed.")
        #expect(
            error.hint == "Check the database is intact (sqlite3 FILE 'PRAGMA integrity_check') or the server's log.")
        #expect(error.exitStatus.rawValue == 3)
    }
}
