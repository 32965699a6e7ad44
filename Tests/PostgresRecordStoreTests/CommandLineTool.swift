import Foundation
import TestSupport

/// Runs a program to completion, failing with its output when it exits non-zero.
///
/// posix_spawn and waitpid rather than `Process`: `pg_ctl start` leaves a daemon behind, and the
/// child's output goes to a file so no pipe waits on it; the child's signal mask is cleared, since
/// test processes block signals that the server's shutdown relies on. Every other descriptor is closed
/// in the child: `pg_ctl start` leaves a server running for the whole suite, and a pipe it inherited
/// from a test running beside this one (a child's stdout, a helper's stdin) would never see its end,
/// so that test would wait forever. The wait runs on a thread of
/// its own: initdb takes seconds, and blocking one of the two cooperative threads of a 2-core
/// machine that long starves every other suite running beside this one.
enum CommandLineTool {
    static func run(_ path: String, _ arguments: [String]) async throws {
        try await onOwnThread { try runBlocking(path, arguments) }
    }

    private static func runBlocking(_ path: String, _ arguments: [String]) throws {
        let log = FileManager.default.temporaryDirectory.appending(path: "ztprov-tool-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let status = try spawnAndWait(path, arguments, output: log)
        guard status == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw PostgresTestServerError(
                message: "\(path) \(arguments.joined(separator: " ")) exited with \(status): \(text)")
        }
    }

    private static func spawnAndWait(_ path: String, _ arguments: [String], output: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        try closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw PostgresTestServerError(message: "cannot start \(path): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED/WEXITSTATUS are macros; a plain exit leaves the status in bits 8-15.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
    /// does not import, looked up at run time.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) throws {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            throw PostgresTestServerError(message: "glibc lacks posix_spawn_file_actions_addclosefrom_np (needs 2.34)")
        }
        let added = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        guard added == 0 else { throw PostgresTestServerError(message: "addclosefrom_np: errno \(added)") }
    }
}
