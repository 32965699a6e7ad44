import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `posix_spawn` with what every child of a test needs, and why `Process` is not used:
///
/// - The signal mask is emptied and every signal's action reset to its default: the threads Swift
///   tests run on block SIGINT and SIGTERM, and Foundation's `Process` passes the caller's mask on
///   (swift-corelibs-foundation#4772), so a tool would ignore Ctrl-C and a helper its SIGTERM; an
///   ignored signal would likewise stay ignored in the child.
/// - Every descriptor but 0, 1 and 2 is closed in the child: a daemon a helper leaves behind
///   (`pg_ctl start`) would otherwise keep another test's pipe open, and that test would never see
///   its end.
/// - The exit is seen with `waitpid` for this one child, not through a descriptor the child and its
///   own children inherit.
/// - The child dies with the test process: it starts through util-linux's `setpriv --pdeathsig KILL`,
///   which asks the kernel for SIGKILL when its parent ends (Swift cannot call the variadic `prctl`),
///   and it is started from ``SpawningThread``, since that signal follows the thread that started it.
///   A killed `swift test` then leaves no `dbus-daemon` or mock behind.
enum ChildSpawn {
    /// The exec shim that sets the parent-death signal; without it (not on `PATH`) children start
    /// directly and can outlive a killed test process.
    static let parentDeathShim: [String] =
        ExecutableLookup.path(of: "setpriv").map { [$0, "--pdeathsig", "KILL", "--"] } ?? []

    /// What the child's descriptor `target` (0, 1 or 2) is.
    enum Stream {
        case null
        case descriptor(Int32)
        case file(String)
    }

    /// Starts `commandLine` so that it dies with the test process, and returns its process ID.
    static func spawn(
        _ commandLine: [String], environment: [String: String], workingDirectory: String?,
        standardInput: Stream, standardOutput: Stream, standardError: Stream
    ) throws -> pid_t {
        // The shim would start and then fail; a program that cannot run is the caller's error at once.
        guard access(commandLine[0], X_OK) == 0 else {
            throw ProcessLaunchError.spawnFailed(commandLine[0], errno: errno)
        }
        return try SpawningThread.shared.run {
            try spawnHere(
                parentDeathShim + commandLine, environment: environment, workingDirectory: workingDirectory,
                standardInput: standardInput, standardOutput: standardOutput, standardError: standardError)
        }
    }

    private static func spawnHere(
        _ commandLine: [String], environment: [String: String], workingDirectory: String?,
        standardInput: Stream, standardOutput: Stream, standardError: Stream
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            }
        }
        try addGlibcAction("posix_spawn_file_actions_addclosefrom_np", &actions, 3)
        if let workingDirectory {
            try addGlibcAction("posix_spawn_file_actions_addchdir_np", &actions, workingDirectory)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var everyCatchable = sigset_t()
        sigfillset(&everyCatchable)
        sigdelset(&everyCatchable, SIGKILL)
        sigdelset(&everyCatchable, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &everyCatchable)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = commandLine.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, commandLine[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw ProcessLaunchError.spawnFailed(commandLine[0], errno: spawned) }
        return pid
    }

    /// A pipe whose ends are closed on exec, so only the child it is meant for gets an end (as 0, 1 or 2).
    static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { throw ProcessLaunchError.spawnFailed("pipe", errno: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// How `waitpid`'s status says the child ended (WIFEXITED and friends are macros Swift cannot call).
    static func termination(fromWaitStatus status: Int32) -> ProcessOutcome.Termination {
        status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `…_addchdir_np` (2.29), which
    /// Swift's Glibc module does not import, looked up at run time.
    private static func addGlibcAction(
        _ name: String, _ actions: inout posix_spawn_file_actions_t, _ descriptor: Int32
    ) throws {
        typealias Add = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, name) else { throw ProcessLaunchError.spawnFailed(name, errno: ENOSYS) }
        let added = unsafeBitCast(symbol, to: Add.self)(&actions, descriptor)
        guard added == 0 else { throw ProcessLaunchError.spawnFailed(name, errno: added) }
    }

    private static func addGlibcAction(
        _ name: String, _ actions: inout posix_spawn_file_actions_t, _ path: String
    ) throws {
        typealias Add = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(nil, name) else { throw ProcessLaunchError.spawnFailed(name, errno: ENOSYS) }
        let added = path.withCString { unsafeBitCast(symbol, to: Add.self)(&actions, $0) }
        guard added == 0 else { throw ProcessLaunchError.spawnFailed(name, errno: added) }
    }
}
