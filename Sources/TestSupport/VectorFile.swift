public import Foundation

/// Loads a JSON vector file that a test target ships under `Vectors/` (Wycheproof style: one file per
/// source, a `source` field naming where the values come from).
public enum VectorFile {
    /// Decodes `Vectors/<name>.json` from `bundle` (pass the test target's `Bundle.module`).
    public static func load<T: Decodable>(_ type: T.Type, named name: String, in bundle: Bundle) throws -> T {
        guard let url = bundle.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Vectors/\(name).json"])
        }
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}
