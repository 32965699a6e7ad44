import Foundation
public import Records
import Testing

/// What every ``RecordFeed`` promises, written once and run against each store: records come in the order
/// they were stored, each numbered above the last, from any number on, in steps of the limit asked.
public enum RecordFeedConformance {
    /// Appends through `writer` and reads through `feed`, which must see the same empty store.
    public static func run(writer: any ProvisioningRecordStore, feed: any RecordFeed) async throws {
        #expect(try await feed.records(after: 0, limit: 10).isEmpty)
        // Stored out of start order: the feed follows the order of storing, not of starting.
        let stored = [30.0, 10.0, 20.0].enumerated().map { index, seconds in
            RecordStoreConformance.record(
                "k\(index)", startedAt: RecordStoreConformance.start.addingTimeInterval(seconds))
        }
        for record in stored { try await writer.append(record) }
        let all = try await feed.records(after: 0, limit: 10)
        #expect(all.map(\.record) == stored)
        #expect(all.map(\.number) == all.map(\.number).sorted() && Set(all.map(\.number)).count == 3)
        let first = try #require(all.first?.number)
        #expect(try await feed.records(after: first, limit: 1).map(\.record) == [stored[1]])
        #expect(try await feed.records(after: all[2].number, limit: 10).isEmpty)
        try await writer.append(RecordStoreConformance.fullRecord)
        #expect(
            try await feed.records(after: all[2].number, limit: 10).map(\.record) == [RecordStoreConformance.fullRecord]
        )
    }
}
