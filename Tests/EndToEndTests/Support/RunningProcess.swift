import Dispatch
import Foundation
import Glibc

/// A child process started by a test: its output as it arrives, signals, and its end.
///
/// Both output pipes are drained on their own threads from the start, so a chatty child never blocks
/// on a full pipe, and blocking reads never occupy Swift's small cooperative thread pool.
///
/// The end is the exit of the child and of every process that inherited its descriptors: Foundation
/// notices the exit through a socket the child inherits, so a grandchild left running (a daemon that
/// does not close its descriptors) holds the end back until it exits too.
final class RunningProcess: @unchecked Sendable {
    private let process = Process()
    // Everything below is guarded by `lock`.
    private let lock = NSLock()
    private var standardOutput = Data()
    private var standardError = Data()
    private var openStreams = 2
    private var termination: ProcessOutcome.Termination?
    private var hitDeadline = false
    private var finished = false
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []
    private var spawnError: (any Error)?
    private var signalOnStandardError: (text: String, signal: Int32)?

    init(launching launch: ProcessLaunch) throws {
        let commandLine = try launch.commandLine()
        let output = Pipe()
        let errors = Pipe()
        let input = launch.standardInput.map { _ in Pipe() }
        process.executableURL = URL(fileURLWithPath: commandLine[0])
        process.arguments = Array(commandLine.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(launch.environment) { _, new in new }
        process.currentDirectoryURL = launch.workingDirectory
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input ?? FileHandle.nullDevice
        process.terminationHandler = { [weak self] ended in self?.recordExit(of: ended) }
        try spawnWithEmptySignalMask()
        drain(output.fileHandleForReading, toStandardError: false)
        drain(errors.fileHandleForReading, toStandardError: true)
        if let input, let bytes = launch.standardInput { feed(bytes, to: input.fileHandleForWriting) }
        killAtDeadline(launch.deadline)
    }

    /// The child's process ID.
    var pid: Int32 { process.processIdentifier }

    /// Sends `signal` unless the process has already ended (its PID may then belong to someone else).
    func send(signal: Int32) {
        lock.withLock {
            if termination == nil { kill(pid, signal) }
        }
    }

    /// Sends `signal` as soon as standard error contains `text`, from the thread that reads it: a test
    /// process whose cooperative threads are busy cannot then deliver the signal seconds too late.
    func send(signal: Int32, whenStandardErrorContains text: String) {
        lock.withLock {
            signalOnStandardError = (text, signal)
            signalIfStandardErrorAsked()
        }
    }

    /// Waits until standard error contains `text`; false when the process ended or the task was
    /// cancelled first.
    func waitForStandardError(containing text: String) async -> Bool {
        while !Task.isCancelled {
            let (seen, ended) = lock.withLock { (String(decoding: standardError, as: UTF8.self), finished) }
            if seen.contains(text) { return true }
            if ended { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// Waits for the end of the process and of its output, even when the task is cancelled, so that a
    /// test never leaves a child behind.
    func waitForExit() async -> ProcessOutcome {
        await withCheckedContinuation { waiter in
            let done = lock.withLock {
                if !finished { exitWaiters.append(waiter) }
                return finished
            }
            if done { waiter.resume() }
        }
        return lock.withLock {
            ProcessOutcome(
                termination: termination!,
                standardOutput: String(decoding: standardOutput, as: UTF8.self),
                standardError: String(decoding: standardError, as: UTF8.self),
                hitDeadline: hitDeadline
            )
        }
    }

    /// Starts the child from a fresh thread whose signal mask is empty.
    ///
    /// Foundation's `Process` on Linux passes the calling thread's signal mask on to the child
    /// (swift-corelibs-foundation#4772), and the threads Swift tests run on block SIGINT and SIGTERM:
    /// started from one of them, a tool would ignore Ctrl-C and the harness's daemons SIGTERM.
    private func spawnWithEmptySignalMask() throws {
        let spawned = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            var empty = sigset_t()
            sigemptyset(&empty)
            pthread_sigmask(SIG_SETMASK, &empty, nil)
            do { try process.run() } catch { lock.withLock { spawnError = error } }
            spawned.signal()
        }
        spawned.wait()
        if let spawnError = lock.withLock({ spawnError }) { throw spawnError }
    }

    private func drain(_ handle: FileHandle, toStandardError: Bool) {
        Thread.detachNewThread { [self] in
            var chunk = handle.availableData
            while !chunk.isEmpty {
                lock.withLock {
                    if toStandardError { standardError.append(chunk) } else { standardOutput.append(chunk) }
                    signalIfStandardErrorAsked()
                }
                chunk = handle.availableData
            }
            lock.withLock { openStreams -= 1 }
            finishIfComplete()
        }
    }

    /// Sends the signal asked for once standard error holds its text; called with `lock` held.
    private func signalIfStandardErrorAsked() {
        guard let (text, signal) = signalOnStandardError,
            String(decoding: standardError, as: UTF8.self).contains(text)
        else { return }
        signalOnStandardError = nil
        if termination == nil { kill(pid, signal) }
    }

    /// Writes the input on its own thread, which blocks SIGPIPE: a child that exits without reading
    /// all of it turns the write into an error instead of a signal that would end the test run.
    private func feed(_ bytes: Data, to handle: FileHandle) {
        Thread.detachNewThread {
            var brokenPipe = sigset_t()
            sigemptyset(&brokenPipe)
            sigaddset(&brokenPipe, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &brokenPipe, nil)
            try? handle.write(contentsOf: bytes)
            try? handle.close()
        }
    }

    private func killAtDeadline(_ deadline: Duration) {
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline.seconds) { [self] in
            lock.withLock {
                guard termination == nil else { return }
                hitDeadline = true
                kill(pid, SIGKILL)
            }
        }
    }

    private func recordExit(of ended: Process) {
        lock.withLock {
            termination =
                ended.terminationReason == .exit
                ? .exited(ended.terminationStatus) : .signalled(ended.terminationStatus)
        }
        finishIfComplete()
    }

    /// Wakes the waiters once the process has ended and all its output is read.
    private func finishIfComplete() {
        let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
            guard !finished, termination != nil, openStreams == 0 else { return [] }
            finished = true
            defer { exitWaiters = [] }
            return exitWaiters
        }
        waiters.forEach { $0.resume() }
    }
}

extension Duration {
    /// The duration in seconds, for Dispatch's time arithmetic.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
