public import Foundation

/// A fresh directory `ztprov-<label>-<UUID>` under the system's temporary directory, for one test's
/// files; `remove()` deletes it with everything in it.
public struct TemporaryDirectory: Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appending(path: "ztprov-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
