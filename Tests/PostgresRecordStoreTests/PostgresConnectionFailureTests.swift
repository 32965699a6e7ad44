import PostgresRecordStore
import Records
import TestSupport
import Testing

/// Failing to connect needs no server: it must be quick, `.unavailable`, and never show the password.
@Suite struct PostgresConnectionFailureTests {
    static let password = "hunter2-S3cret"

    /// Refused at once; the time limit only shows it did not hang.
    @Test(.timeLimit(.minutes(1))) func aRefusedPortIsUnavailableWithoutThePassword() async throws {
        let url = "postgres://line:\(Self.password)@127.0.0.1:\(try LoopbackPort.free())/ztprov"

        let error = await #expect(throws: RecordStoreError.self) { try await PostgresRecordStore(url: url) }
        #expect(error?.kind == .unavailable)
        #expect(error?.detail.contains("127.0.0.1") == true, "\(String(describing: error))")
        #expect(error?.detail.contains(Self.password) == false)
    }

    @Test(arguments: [
        "postgres://line:\(password)@127.0.0.1:notaport/ztprov",
        "postgres://line:%zz\(password)@127.0.0.1/ztprov",
        "postgresql://127.0.0.1/ztprov?password=\(password)&bogus_option=1",
    ])
    func aURLLibpqRejectsIsUnavailableWithoutThePassword(_ url: String) async throws {
        let error = await #expect(throws: RecordStoreError.self) { try await PostgresRecordStore(url: url) }
        #expect(error?.kind == .unavailable)
        #expect(error?.detail.isEmpty == false)
        #expect(error?.detail.contains(Self.password) == false, "\(String(describing: error))")
        #expect(RecordStorePlace.postgres(url: url).description.contains(Self.password) == false)
    }
}
