import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started by a test: its output as it arrives, readiness, signals, and its end.
///
/// Both output pipes are drained on their own threads from the start, so a chatty child never blocks
/// on a full pipe, and blocking reads never occupy Swift's small cooperative thread pool.
///
/// The end is the exit of the child and the end of its output: a grandchild left running with the
/// child's output pipes (a daemon that does not close its descriptors) holds the end back until it
/// exits too. With ``ProcessLaunch/outputFile`` there are no pipes, and the end is the child's exit.
public final class RunningProcess: @unchecked Sendable {
    /// The child's process ID.
    public let pid: Int32
    private let exited = DispatchGroup()
    private let ended = DispatchGroup()
    // Everything below is guarded by `lock`.
    private let lock = NSLock()
    private var standardOutput = Data()
    private var standardError = Data()
    private var openStreams: Int
    private var termination: ProcessOutcome.Termination?
    private var hitDeadline = false
    private var finished = false
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []
    /// Bumped whenever output arrives or the process finishes; ``outputWaiters`` wait for the next bump.
    private var outputGeneration = 0
    private var outputWaiters: [CheckedContinuation<Void, Never>] = []
    private var signalsOnStandardError: [(text: String, signal: Int32)] = []
    private var heldInput: Int32?
    private var linesRead = 0

    init(launching launch: ProcessLaunch) throws {
        let commandLine = try launch.commandLine()
        let environment = ProcessInfo.processInfo.environment.merging(launch.environment) { _, new in new }
        let input = launch.standardInput != nil || launch.holdsStandardInput ? try ChildSpawn.pipe() : nil
        let captured = launch.outputFile == nil
        let outputPipe: (read: Int32, write: Int32)? =
            switch launch.standardOutput {
            case .captured, .brokenPipe: captured ? try ChildSpawn.pipe() : nil
            case .path: nil
            }
        let errorPipe = captured ? try ChildSpawn.pipe() : nil
        if case .brokenPipe = launch.standardOutput, let outputPipe { close(outputPipe.read) }
        let readsOutput = if case .captured = launch.standardOutput { true } else { false }
        defer {
            if let input { close(input.read) }
            [outputPipe?.write, errorPipe?.write].compactMap { $0 }.forEach { close($0) }
        }
        let output: ChildSpawn.Stream
        if let outputFile = launch.outputFile {
            output = .file(outputFile.path)
        } else if case .path(let path) = launch.standardOutput {
            output = .file(path)
        } else {
            output = .descriptor(outputPipe!.write)
        }
        do {
            pid = try ChildSpawn.spawn(
                commandLine, environment: environment, workingDirectory: launch.workingDirectory?.path,
                standardInput: input.map { .descriptor($0.read) } ?? .null,
                standardOutput: output, standardError: errorPipe.map { .descriptor($0.write) } ?? output)
        } catch {
            if let input { close(input.write) }
            if readsOutput, let outputPipe { close(outputPipe.read) }
            if let errorPipe { close(errorPipe.read) }
            throw error
        }
        openStreams = (readsOutput && outputPipe != nil ? 1 : 0) + (errorPipe == nil ? 0 : 1)
        exited.enter()
        ended.enter()
        watchForExit()
        if readsOutput, let outputPipe { drain(outputPipe.read, toStandardError: false) }
        if let errorPipe { drain(errorPipe.read, toStandardError: true) }
        if let input, let bytes = launch.standardInput {
            feed(bytes, to: input.write)
        } else if let input {
            heldInput = input.write
        }
        killAtDeadline(launch.deadline)
    }

    /// True once the child has exited (its output may still be arriving from a grandchild).
    public var hasExited: Bool { lock.withLock { termination != nil } }

    /// What the child wrote to standard output so far.
    public var standardOutputSoFar: String { lock.withLock { String(decoding: standardOutput, as: UTF8.self) } }

    /// What the child wrote to standard error so far.
    public var standardErrorSoFar: String { lock.withLock { String(decoding: standardError, as: UTF8.self) } }

    /// Sends `signal` unless the process has already been reaped (its PID may then belong to someone else).
    public func send(signal: Int32) {
        lock.withLock {
            if termination == nil { kill(pid, signal) }
        }
    }

    /// Sends `signal` as soon as standard error contains `text`, from the thread that reads it: a test
    /// process whose cooperative threads are busy cannot then deliver the signal seconds too late. Each
    /// call arms one signal, so several can wait for texts that appear one after another.
    public func send(signal: Int32, whenStandardErrorContains text: String) {
        lock.withLock {
            signalsOnStandardError.append((text, signal))
            signalIfStandardErrorAsked()
        }
    }

    /// Waits until standard error contains `text`; false when the process ended or the task was
    /// cancelled first.
    public func waitForStandardError(containing text: String) async -> Bool {
        await waitUntil { String(decoding: $0.standardError, as: UTF8.self).contains(text) }
    }

    /// Waits until standard output contains `text`; false when the process ended or the task was
    /// cancelled first.
    public func waitForStandardOutput(containing text: String) async -> Bool {
        await waitUntil { String(decoding: $0.standardOutput, as: UTF8.self).contains(text) }
    }

    /// Waits until a helper is ready for its test (`isReady` holds), checking every 10 ms.
    ///
    /// Throws ``ProcessLaunchError/notReady(_:_:)`` when the helper ends first or `deadline` passes:
    /// start-up is given a bound of its own, generous because Python can take seconds to start on a
    /// loaded two-core machine, and far below the helper's own run-time deadline.
    public func waitUntilReady(
        _ what: String, within deadline: Duration = .seconds(60), _ isReady: () async throws -> Bool
    ) async throws {
        let giveUp = ContinuousClock.now + deadline
        while try await !isReady() {
            if hasExited { throw ProcessLaunchError.notReady(what, await stop()) }
            guard ContinuousClock.now < giveUp else {
                await stop()
                throw ProcessLaunchError.notReady(what, nil)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Writes `line` and a newline to the standard input held open by ``ProcessLaunch/holdsStandardInput``,
    /// for helpers that take commands line by line; throws when that input is closed or its reader gone.
    public func writeLine(_ line: String) throws {
        guard let descriptor = lock.withLock({ heldInput }) else {
            throw ProcessLaunchError.spawnFailed("write to a closed standard input", errno: EBADF)
        }
        let failure = Self.writeIgnoringBrokenPipe(Array((line + "\n").utf8), to: descriptor)
        if failure != 0 { throw ProcessLaunchError.spawnFailed("write to standard input", errno: failure) }
    }

    /// The next line of standard output not returned before, without its newline, once it is complete;
    /// nil when the process ends (or the task is cancelled) first.
    public func nextStandardOutputLine() async -> String? {
        var line: String?
        _ = await waitUntil { [self] seen in
            let lines = seen.standardOutput.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let taken = lock.withLock { linesRead }
            guard lines.count - 1 > taken else { return false }
            line = String(decoding: lines[taken], as: UTF8.self)
            lock.withLock { linesRead += 1 }
            return true
        }
        return line
    }

    /// Closes the standard input held open by ``ProcessLaunch/holdsStandardInput``.
    public func closeStandardInput() {
        lock.withLock {
            if let heldInput { close(heldInput) }
            heldInput = nil
        }
    }

    /// Kills the child (SIGKILL: a helper's clean shutdown is not what a test checks) and waits for its
    /// end and the end of its output.
    @discardableResult
    public func stop() async -> ProcessOutcome {
        closeStandardInput()
        send(signal: SIGKILL)
        return await waitForExit()
    }

    /// Kills the child and blocks until it has exited, for owners that end it from `deinit`.
    public func stopBlocking() {
        closeStandardInput()
        send(signal: SIGKILL)
        exited.wait()
    }

    /// Waits for the end of the process and of its output, even when the task is cancelled, so that a
    /// test never leaves a child behind.
    public func waitForExit() async -> ProcessOutcome {
        await withCheckedContinuation { waiter in
            let done = lock.withLock {
                if !finished { exitWaiters.append(waiter) }
                return finished
            }
            if done { waiter.resume() }
        }
        return outcome()
    }

    /// ``waitForExit()`` for synchronous callers; it blocks the calling thread.
    func waitForExitBlocking() -> ProcessOutcome {
        ended.wait()
        return outcome()
    }

    private func outcome() -> ProcessOutcome {
        lock.withLock {
            ProcessOutcome(
                termination: termination!,
                standardOutput: String(decoding: standardOutput, as: UTF8.self),
                standardError: String(decoding: standardError, as: UTF8.self),
                hitDeadline: hitDeadline
            )
        }
    }

    private struct Seen {
        let standardOutput: Data
        let standardError: Data
    }

    /// Checks `condition` on the output so far, and again each time more arrives, until it holds (true)
    /// or the process finished or the task was cancelled (false).
    private func waitUntil(_ condition: (Seen) -> Bool) async -> Bool {
        while !Task.isCancelled {
            let (seen, ended, generation) = lock.withLock {
                (Seen(standardOutput: standardOutput, standardError: standardError), finished, outputGeneration)
            }
            if condition(seen) { return true }
            if ended { return false }
            await outputChange(after: generation)
        }
        return false
    }

    /// Returns once output arrived or the process finished after `generation`, or the task is cancelled.
    private func outputChange(after generation: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiter in
                // Cancelled before this: the handler found nothing to wake, so nobody else would resume it.
                let waitsHere = lock.withLock {
                    guard outputGeneration == generation, !Task.isCancelled else { return false }
                    outputWaiters.append(waiter)
                    return true
                }
                if !waitsHere { waiter.resume() }
            }
        } onCancel: {
            // Every waiter wakes and checks again; those of other tasks simply wait once more.
            wakeOutputWaiters()
        }
    }

    /// Bumps the output generation and wakes whoever waits for it.
    private func wakeOutputWaiters() {
        let waiters = lock.withLock {
            outputGeneration += 1
            defer { outputWaiters = [] }
            return outputWaiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Waits for this child's exit on a thread of its own, leaving it unreaped (`WNOWAIT`) until the
    /// lock is held, so ``send(signal:)`` can never reach a process that has taken over the PID.
    private func watchForExit() {
        Thread.detachNewThread { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            lock.withLock {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                termination = ChildSpawn.termination(fromWaitStatus: status)
            }
            exited.leave()
            finishIfComplete()
        }
    }

    private func drain(_ descriptor: Int32, toStandardError: Bool) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                lock.withLock {
                    if toStandardError {
                        standardError.append(contentsOf: buffer[..<count])
                    } else {
                        standardOutput.append(contentsOf: buffer[..<count])
                    }
                    signalIfStandardErrorAsked()
                }
                wakeOutputWaiters()
            }
            close(descriptor)
            lock.withLock { openStreams -= 1 }
            finishIfComplete()
        }
    }

    /// Sends each signal asked for whose text standard error now holds, once; called with `lock` held.
    private func signalIfStandardErrorAsked() {
        guard !signalsOnStandardError.isEmpty else { return }
        let text = String(decoding: standardError, as: UTF8.self)
        while let due = signalsOnStandardError.firstIndex(where: { text.contains($0.text) }) {
            let signal = signalsOnStandardError.remove(at: due).signal
            if termination == nil { kill(pid, signal) }
        }
    }

    /// Writes the input on its own thread, so a child that reads slowly never blocks the caller.
    private func feed(_ bytes: Data, to descriptor: Int32) {
        Thread.detachNewThread {
            _ = Self.writeIgnoringBrokenPipe(Array(bytes), to: descriptor)
            close(descriptor)
        }
    }

    /// Writes all of `bytes` with SIGPIPE blocked on this thread, and consumes a SIGPIPE the write raised:
    /// a child that exits without reading turns the write into an error (its errno is returned, 0 when
    /// all was written) instead of a signal that would end the test run.
    private static func writeIgnoringBrokenPipe(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        var brokenPipe = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &brokenPipe, &previous)
        defer {
            var none = timespec()
            while sigtimedwait(&brokenPipe, nil, &none) == SIGPIPE {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : EIO }
            offset += written
        }
        return 0
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

    /// Wakes the waiters once the process has ended and all its output is read.
    private func finishIfComplete() {
        let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
            guard !finished, termination != nil, openStreams == 0 else { return [] }
            finished = true
            ended.leave()
            defer { exitWaiters = [] }
            return exitWaiters
        }
        waiters.forEach { $0.resume() }
        wakeOutputWaiters()
    }
}

extension Duration {
    /// The duration in seconds, for Dispatch's time arithmetic.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
