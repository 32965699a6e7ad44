public import Records

extension RecordStorePlace {
    /// An SQLite file at `path`: a path holds no secret, so it is shown and quoted as it is.
    public static func sqlite(path: String) -> RecordStorePlace {
        RecordStorePlace(.file, shownAs: path) { $0 }
    }
}
