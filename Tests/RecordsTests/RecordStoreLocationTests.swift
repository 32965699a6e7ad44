import Records
import Testing

@Suite struct RecordStoreLocationTests {
    @Test(arguments: [
        ("postgres://line@db.example/ztprov", RecordStoreLocation.postgres(url: "postgres://line@db.example/ztprov")),
        ("postgresql://db.example/ztprov", .postgres(url: "postgresql://db.example/ztprov")),
        ("sqlite:/var/lib/ztprov/line.sqlite", .sqlite(path: "/var/lib/ztprov/line.sqlite")),
        ("records.sqlite", .sqlite(path: "records.sqlite")),
        ("/srv/postgres://odd", .sqlite(path: "/srv/postgres://odd")),
    ])
    func parsesDBText(_ text: String, _ expected: RecordStoreLocation) {
        #expect(RecordStoreLocation(text) == expected)
    }

    @Test func defaultIsZTProvDBThenXDGDataHomeThenHome() {
        let home = "/home/op"
        #expect(
            RecordStoreLocation.defaultLocation(environment: ["ZTPROV_DB": "postgres://h/db"], homeDirectory: home)
                == .postgres(url: "postgres://h/db"))
        #expect(
            RecordStoreLocation.defaultLocation(environment: ["XDG_DATA_HOME": "/data"], homeDirectory: home)
                == .sqlite(path: "/data/ztprov/records.sqlite"))
        #expect(
            RecordStoreLocation.defaultLocation(
                environment: ["XDG_DATA_HOME": "relative", "ZTPROV_DB": ""], homeDirectory: home)
                == .sqlite(path: "/home/op/.local/share/ztprov/records.sqlite"))
    }

    @Test(arguments: [
        ("postgres://line:s3cr%40t@db.example:5433/ztprov", "postgres://line:****@db.example:5433/ztprov"),
        ("postgresql://line:p@ss@db.example/ztprov", "postgresql://line:****@db.example/ztprov"),
        (
            "postgres://db.example/ztprov?user=line&password=hunter2",
            "postgres://db.example/ztprov?user=line&password=****"
        ),
        ("postgres://line@db.example/ztprov", "postgres://line@db.example/ztprov"),
    ])
    func descriptionHidesThePassword(_ url: String, _ shown: String) {
        #expect(RecordStoreLocation(url).description == shown)
    }

    @Test func redactingRemovesThePasswordAsWrittenAndDecoded() {
        let location = RecordStoreLocation("postgres://line:s3cr%40t@db.example/ztprov")
        #expect(location.redacting("bad password s3cr@t or s3cr%40t") == "bad password **** or ****")
        #expect(RecordStoreLocation("sqlite:x").redacting("s3cr@t") == "s3cr@t")
    }
}
