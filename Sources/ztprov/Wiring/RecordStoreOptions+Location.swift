import FoundationEssentials
import Provisioning
import Records

extension RecordStoreOptions {
    /// The location `--db` names, or the default from the environment.
    func location(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ProvisioningError) -> RecordStoreLocation {
        let source = database != nil ? "--db" : RecordStoreLocation.environmentVariable
        do throws(RecordStoreLocation.Refusal) {
            if let database { return try RecordStoreLocation(parsing: database) }
            let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
            return try .defaultLocation(environment: environment, homeDirectory: home)
        } catch {
            switch error {
            case .empty:
                throw ProvisioningError(
                    .recordsInvalidLocation, "\(source) names no database: the location is empty.",
                    hint: "Give a file path, sqlite:PATH or a postgres:// URL; SQLite would keep an empty one "
                        + "in memory only.")
            case .inMemory:
                throw ProvisioningError(
                    .recordsInvalidLocation,
                    "\(source) names SQLite's in-memory database: every record would be lost at exit.",
                    hint: "Give a file path or a postgres:// URL; write a file named :memory: as ./:memory:.")
            case .unknownScheme:
                throw ProvisioningError(
                    .recordsInvalidLocation, "\(source) starts with a URL scheme ztprov does not know.",
                    hint: "Use postgres:// or postgresql://, sqlite:PATH, or write a file name such as ./name.")
            case .connectionString:
                throw ProvisioningError(
                    .recordsInvalidLocation, "\(source) looks like a libpq key=value connection string.",
                    hint: "Give PostgreSQL as a postgres:// URL, with the password in ~/.pgpass or PGPASSWORD; "
                        + "write a file name that holds `=` as sqlite:PATH.")
            }
        }
    }
}
