#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file a user names (a secret, a unit list) without ever blocking: only a regular file, and
/// only up to a size limit.
///
/// A FIFO, a device such as `/dev/zero` or a terminal could block forever or never end, and a
/// directory reads as nothing; so the file is opened non-blocking, checked with `fstat` on the open
/// descriptor (no race with a swapped path), and read up to one byte past the limit.
enum RegularFile {
    /// A larger file is not a secret file.
    static let secretLimit = SecretText.maximumLength

    /// Why a path is not a usable file, in words that never quote the path or its content.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case cannotOpen(String)
        case notRegularFile
        case tooLarge
        case readFailed(String)

        /// The refusal as words that follow the file's name in a message; `limit` says the size limit
        /// (such as "16 MiB").
        func reason(limit: String) -> String {
            switch self {
            case .cannotOpen(let reason), .readFailed(let reason): "cannot be read (\(reason.lowercased()))"
            case .notRegularFile: "is not a regular file"
            case .tooLarge: "is larger than \(limit)"
            }
        }

        /// The refusal in words, wherever it is interpolated: never the case's Swift name.
        var description: String { reason(limit: "the size limit") }
    }

    /// The file's bytes, or why they cannot be used.
    static func contents(of path: String, limit: Int) -> Result<[UInt8], Refusal> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.readFailed(String(cString: strerror(errno)))) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegularFile) }
        guard status.st_size <= limit else { return .failure(.tooLarge) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.readFailed(String(cString: strerror(errno))))
            }
            bytes += chunk[..<count]
        }
        guard bytes.count <= limit else { return .failure(.tooLarge) }
        return .success(bytes)
    }
}
