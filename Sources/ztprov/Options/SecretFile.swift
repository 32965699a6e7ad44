#if canImport(Glibc)
    import Glibc
#endif

/// Reads a secret file without ever blocking: only a regular file of at most ``maximumSize`` bytes.
///
/// A FIFO, a device such as `/dev/zero` or a terminal could block forever or never end, and a
/// directory reads as nothing; so the file is opened non-blocking, checked with `fstat` on the open
/// descriptor (no race with a swapped path), and read up to one byte past the limit.
enum SecretFile {
    /// A larger file is not a secret file.
    static let maximumSize = SecretText.maximumLength

    /// Why a path is not a usable secret file, in words that never quote the path or its content.
    enum Refusal: Error, Equatable {
        case cannotOpen(String)
        case notRegularFile
        case tooLarge
        case readFailed(String)
    }

    /// The file's bytes, or why they cannot be the secret.
    static func contents(of path: String) -> Result<[UInt8], Refusal> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.readFailed(String(cString: strerror(errno)))) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegularFile) }
        guard status.st_size <= maximumSize else { return .failure(.tooLarge) }
        var bytes = [UInt8](repeating: 0, count: maximumSize + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.readFailed(String(cString: strerror(errno))))
            }
            filled += count
        }
        guard filled <= maximumSize else { return .failure(.tooLarge) }
        return .success(Array(bytes[..<filled]))
    }
}
