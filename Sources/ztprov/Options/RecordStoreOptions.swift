import ArgumentParser
import Foundation
import Records

/// `--db`: where the provisioning records are, shared by `report` and the batch commands.
struct RecordStoreOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "Records database: an SQLite file (PATH or sqlite:PATH) or a postgres:// URL (default: $ZTPROV_DB, "
                + "else $XDG_DATA_HOME/ztprov/records.sqlite). Keep a PostgreSQL password in ~/.pgpass or "
                + "PGPASSWORD, not in the URL.",
            valueName: "location")
    )
    var database: String?

    /// The location `--db` names, or the default from the environment.
    func location(environment: [String: String] = ProcessInfo.processInfo.environment) -> RecordStoreLocation {
        if let database { return RecordStoreLocation(database) }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return .defaultLocation(environment: environment, homeDirectory: home)
    }
}
