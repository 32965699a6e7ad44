import ArgumentParser
import Provisioning
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
}
