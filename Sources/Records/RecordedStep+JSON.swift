import FoundationEssentials

/// The JSON both stores keep steps in: `[{"milliseconds":412,"name":"connect"}]`, in the order they ran,
/// with sorted keys so the same steps are always the same text.
extension RecordedStep {
    /// `steps` as the stores' JSON text.
    public static func jsonText(_ steps: [RecordedStep]) throws(RecordStoreError) -> String {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return String(decoding: try encoder.encode(steps), as: UTF8.self)
        } catch {
            throw RecordStoreError(.failed, "cannot encode the steps: \(error)")
        }
    }

    /// The steps in a store's JSON text.
    public static func steps(jsonText: String) throws(RecordStoreError) -> [RecordedStep] {
        do {
            return try JSONDecoder().decode([RecordedStep].self, from: Data(jsonText.utf8))
        } catch {
            throw RecordStoreError(.failed, "a stored steps value is not the expected JSON: \(error)")
        }
    }
}
