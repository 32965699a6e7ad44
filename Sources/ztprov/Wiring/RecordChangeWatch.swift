import Glibc
import PostgresRecordStore
import Provisioning
import Records

/// How `report --serve` learns that a record landed: an SQLite file by watching the file and its
/// write-ahead log change (inode, size, time), a PostgreSQL database by listening for the notification
/// each station sends when it records (`LISTEN`), with a read every ``fallbackLooks`` for stations of a
/// ztprov that did not notify yet.
struct RecordChangeWatch {
    /// How often the file is looked at, and how long one wait for a notification lasts.
    static let interval: Duration = .milliseconds(100)
    static let notificationWait: Duration = .milliseconds(500)
    /// Every this many waits without a notification, the database is read anyway.
    static let fallbackLooks = 10

    private enum Source {
        case files([String])
        case notifications(PostgresRecordStore)
    }

    private let source: Source
    private var seen: [[Int]] = []
    private var looks = 0

    /// A watch on `location`; a PostgreSQL database gets a connection of its own to listen on.
    static func watching(_ location: RecordStoreLocation) async throws(ProvisioningError) -> RecordChangeWatch {
        switch location {
        case .sqlite(let path):
            return RecordChangeWatch(source: .files([path, path + "-wal"]))
        case .postgres(let url):
            do {
                let listener = try await PostgresRecordStore(readingURL: url)
                _ = try await listener.awaitRecordNotification(within: .zero)
                return RecordChangeWatch(source: .notifications(listener))
            } catch {
                throw .records(error, at: location.place, while: .opening)
            }
        }
    }

    private init(source: Source) {
        self.source = source
    }

    /// Waits a little, then says whether something may have changed since the last look.
    mutating func next() async throws -> Bool {
        looks += 1
        switch source {
        case .files(let paths):
            try await Task.sleep(for: Self.interval)
            let now = paths.map(Self.signature)
            defer { seen = now }
            return now != seen
        case .notifications(let listener):
            let notified = try await listener.awaitRecordNotification(within: Self.notificationWait)
            return notified || looks == 1 || looks % Self.fallbackLooks == 0
        }
    }

    private static func signature(_ path: String) -> [Int] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        return [
            Int(status.st_ino), Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec),
        ]
    }
}
