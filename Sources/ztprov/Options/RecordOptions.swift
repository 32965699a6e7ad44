import ArgumentParser
import Foundation
import Records

/// `--db`: where provisioning records live, shared by `batch` and `report`.
struct RecordOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Records: an SQLite file (default $ZTPROV_DB, else ~/.local/share/ztprov/records.sqlite) or a "
                + "postgres:// URL; keep its password in ~/.pgpass or PGPASSWORD, not in the URL.",
            valueName: "location"))
    var db: String?

    /// The location named, or the default one.
    var location: RecordStoreLocation {
        db.map(RecordStoreLocation.init)
            ?? RecordStoreLocation.defaultLocation(
                environment: ProcessInfo.processInfo.environment, homeDirectory: NSHomeDirectory())
    }
}
