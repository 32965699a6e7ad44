import Foundation
import Records
import TestSupport
import Testing

@testable import ztprov

@Suite struct RecordStoreLocationTests {
    @Test(arguments: [
        ("postgres://line@db.example/ztprov", RecordStoreLocation.postgres(url: "postgres://line@db.example/ztprov")),
        ("postgresql://db.example/ztprov", .postgres(url: "postgresql://db.example/ztprov")),
        ("sqlite:/var/lib/ztprov/line.sqlite", .sqlite(path: "/var/lib/ztprov/line.sqlite")),
        ("records.sqlite", .sqlite(path: "records.sqlite")),
        ("/srv/postgres://odd", .sqlite(path: "/srv/postgres://odd")),
        ("POSTGRES://h/db", .postgres(url: "postgres://h/db")),
        ("postgres://line:p@ss/w?rd@h/db", .postgres(url: "postgres://line:p%40ss%2Fw%3Frd@h/db")),
        ("postgres://line:s3cr%40t@h/db", .postgres(url: "postgres://line:s3cr%40t@h/db")),
    ])
    func parsesDBText(_ text: String, _ expected: RecordStoreLocation) throws {
        #expect(try RecordStoreLocation(parsing: text) == expected)
    }

    @Test func emptyAndUnknownSchemesAreRefused() throws {
        #expect(throws: RecordStoreLocation.Refusal.empty) { try RecordStoreLocation(parsing: "") }
        #expect(throws: RecordStoreLocation.Refusal.empty) { try RecordStoreLocation(parsing: "sqlite:") }
        for text in ["host=db password=hunter2", "dbname = x", " user=u", "x y PassWord=z"] {
            #expect(throws: RecordStoreLocation.Refusal.connectionString, "\(text)") {
                try RecordStoreLocation(parsing: text)
            }
        }
        #expect(try RecordStoreLocation(parsing: "sqlite:a=b.sqlite") == .sqlite(path: "a=b.sqlite"))
        for text in ["postgress://u:pw@h/db", "mysql://h", "postgres:/h", "x:y", "Postgres+ssl://h"] {
            #expect(throws: RecordStoreLocation.Refusal.unknownScheme, "\(text)") {
                try RecordStoreLocation(parsing: text)
            }
        }
    }

    @Test func generatedPasswordsNeverShowInTheLocationOrLibpqStyleMessages() async throws {
        var random = SplitMix64(seed: 0x9A55)
        let plain = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        // In the user info anything goes up to the last `@` before the query; a secret query value runs to
        // the next `&` that starts a libpq parameter, so it may hold `&`, `@`, `?`, `/` and `#` raw.
        let userInfoRaw = Array("/?@#:&=%+ ")
        let queryRaw = Array("/?@#:&=%+ ")
        func password(_ raw: [Character]) -> String {
            let alphabet = plain + raw + raw
            return "Zq" + String((0..<(6 + random.below(20))).map { _ in alphabet[random.below(alphabet.count)] })
        }
        for round in 0..<500 {
            // Many rounds of slow debug-build string work: the test process's timed tests run in between.
            await Task.yield()
            let scheme = ["postgres", "postgresql", "POSTGRES", "PostgreSQL"][round % 4]
            let inUserInfo = password(userInfoRaw)
            let inQuery = password(queryRaw)
            for (url, password) in [
                ("\(scheme)://line:\(inUserInfo)@db.example:5433/ztprov", inUserInfo),
                ("\(scheme)://db.example/ztprov?user=line&password=\(inQuery)", inQuery),
                ("\(scheme)://db.example/ztprov?PassWord=\(inQuery)&password=\(inQuery)&sslmode=require", inQuery),
                ("\(scheme)://line:\(inUserInfo)@db.example/ztprov?password=\(inQuery)", inQuery),
                ("\(scheme)://line:\(inUserInfo)@db.example/ztprov?password=\(inQuery)", inUserInfo),
                ("\(scheme)://db.example/ztprov?sslpassword=\(inQuery)&host=db2", inQuery),
                ("\(scheme)://line@db.example/ztprov?sslmode=require&PASSWORD=\(inQuery)", inQuery),
            ] {
                guard let location = try? RecordStoreLocation(parsing: url) else { continue }
                #expect(!location.description.contains(password), "\(url) → \(location)")
                let message = "could not connect with " + url + " or " + password
                #expect(!location.place.redacting(message).contains(password), "\(url)")
                guard case .postgres(let encoded) = location else { continue }
                #expect(!location.place.redacting(encoded).contains(password), "\(url) → \(encoded)")
                // What libpq will see splits where the redaction did: the password, percent-encoded, is one value.
                let query = encoded.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
                for pair in query.split(separator: "&") where pair.split(separator: "=").count > 2 {
                    Issue.record("a raw = survived in \(pair) of \(encoded)")
                }
            }
        }
    }

    @Test func defaultIsZTProvDBThenXDGDataHomeThenHome() throws {
        let home = "/home/op"
        #expect(
            try RecordStoreLocation.defaultLocation(environment: ["ZTPROV_DB": "postgres://h/db"], homeDirectory: home)
                == .postgres(url: "postgres://h/db"))
        #expect(
            try RecordStoreLocation.defaultLocation(environment: ["XDG_DATA_HOME": "/data"], homeDirectory: home)
                == .sqlite(path: "/data/ztprov/records.sqlite"))
        #expect(
            try RecordStoreLocation.defaultLocation(
                environment: ["XDG_DATA_HOME": "relative", "ZTPROV_DB": ""], homeDirectory: home)
                == .sqlite(path: "/home/op/.local/share/ztprov/records.sqlite"))
    }

    @Test(arguments: [
        ("postgres://line:s3cr%40t@db.example:5433/ztprov", "postgres://****@db.example:5433/ztprov"),
        ("postgresql://line:p@ss@db.example/ztprov", "postgresql://****@db.example/ztprov"),
        (
            "postgres://db.example/ztprov?user=line&password=hunter2",
            "postgres://db.example/ztprov?user=line&password=****"
        ),
        ("postgres://line@db.example/ztprov", "postgres://****@db.example/ztprov"),
        (
            "postgres://db.example/ztprov?password=a&sslmode=require&PASSWORD=b",
            "postgres://db.example/ztprov?password=****&sslmode=require&PASSWORD=****"
        ),
        // `&x=1` starts no libpq parameter, so it is part of the password.
        ("postgres://db.example/ztprov?password=a&x=1", "postgres://db.example/ztprov?password=****"),
        ("postgres://u@db.example/ztprov?password=p@q/r?s#t", "postgres://****@db.example/ztprov?password=****"),
        ("postgres://u:p?w@db.example/ztprov", "postgres://****@db.example/ztprov"),
    ])
    func descriptionHidesThePassword(_ url: String, _ shown: String) throws {
        #expect(try RecordStoreLocation(parsing: url).description == shown)
    }

    @Test func redactingRemovesThePasswordAsWrittenAndDecoded() throws {
        let location = try RecordStoreLocation(parsing: "postgres://line:s3cr%40t@db.example/ztprov")
        #expect(location.place.redacting("bad password s3cr@t or s3cr%40t") == "bad password **** or ****")
        #expect(try RecordStoreLocation(parsing: "sqlite:x").place.redacting("s3cr@t") == "s3cr@t")
    }
}
