public import Records

extension RecordStorePlace {
    /// A PostgreSQL server named by `url`, shown and quoted without its password or other secrets.
    public static func postgres(url: String) -> RecordStorePlace {
        let secrets = PostgresURLPassword(url)
        return RecordStorePlace(.server, shownAs: secrets.redactedURL, hidingSecrets: secrets.redacted)
    }
}
