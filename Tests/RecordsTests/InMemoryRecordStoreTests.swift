import Records
import TestSupport
import Testing

/// The fake the batch tests use behaves like the real stores.
@Suite struct InMemoryRecordStoreTests {
    @Test(arguments: RecordStoreConformance.allCases)
    func conformsToTheStoreContract(_ check: RecordStoreConformance) async throws {
        try await check.run(on: InMemoryRecordStore())
    }
}
