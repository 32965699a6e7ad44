import Glibc
import PostgresRecordStore
import Provisioning
import Records
import SQLiteRecordStore

/// How `report --serve` learns that a record landed: an SQLite file by SQLite's `data_version` on a reading
/// connection of its own (it moves once a commit can be read) and by watching the file and its write-ahead
/// log change (inode, size, time: a file replaced or created meanwhile), a PostgreSQL database by listening
/// for the notification each station sends when it records (`LISTEN`), with a read every ``fallbackLooks``
/// for stations of a ztprov that did not notify yet.
///
/// The files alone miss a commit: a writer appends to the log, syncs it and only then makes the commit
/// visible, so a look during the sync sees the log changed, reads nothing new, and no later change comes.
struct RecordChangeWatch {
    /// How often the file is looked at, and how long one wait for a notification lasts.
    static let interval: Duration = .milliseconds(100)
    static let notificationWait: Duration = .milliseconds(500)
    /// Every this many waits without a notification, the database is read anyway.
    static let fallbackLooks = 10

    private enum Source {
        case sqlite(path: String)
        case notifications(PostgresRecordStore)
    }

    private let source: Source
    private var seen: [[Int]] = []
    /// The SQLite file's reading connection (opened once the file is a record store) and its last
    /// `data_version`.
    private var reader: (store: SQLiteRecordStore, dataVersion: Int64)?
    private var looks = 0

    /// A watch on `location`; a PostgreSQL database gets a connection of its own to listen on.
    static func watching(_ location: RecordStoreLocation) async throws(ProvisioningError) -> RecordChangeWatch {
        switch location {
        case .sqlite(let path):
            return RecordChangeWatch(source: .sqlite(path: path))
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
        case .sqlite(let path):
            try await Task.sleep(for: Self.interval)
            let now = [path, path + "-wal"].map(Self.signature)
            defer { seen = now }
            let committed = await committed(in: path, filesChanged: now != seen)
            return now != seen || committed
        case .notifications(let listener):
            let notified = try await listener.awaitRecordNotification(within: Self.notificationWait)
            return notified || looks == 1 || looks % Self.fallbackLooks == 0
        }
    }

    /// Whether the file's `data_version` moved since the last look (true the first time it is read). The
    /// file is opened once it changed into something SQLite reads as a record store.
    private mutating func committed(in path: String, filesChanged: Bool) async -> Bool {
        if reader == nil, filesChanged, let store = try? await SQLiteRecordStore(readingPath: path) {
            reader = (store, -1)
        }
        guard let (store, last) = reader, let version = try? await store.dataVersion() else { return false }
        reader = (store, version)
        return version != last
    }

    private static func signature(_ path: String) -> [Int] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        return [
            Int(status.st_ino), Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec),
        ]
    }
}
