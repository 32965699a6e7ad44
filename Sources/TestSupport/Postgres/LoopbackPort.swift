import Foundation

/// A TCP port on 127.0.0.1 that nothing listens on right now.
public enum LoopbackPort {
    public static func free() throws -> Int {
        let binding: LoopbackBinding
        do {
            binding = try LoopbackBinding(type: Int32(SOCK_STREAM.rawValue))
        } catch {
            throw PostgresTestServerError(message: "\(error)")
        }
        close(binding.descriptor)
        return Int(binding.port)
    }
}
