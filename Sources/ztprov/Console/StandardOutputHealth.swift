import Provisioning
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The first failed write to stdout, kept so the process cannot exit 0 after losing its output.
private let firstStandardOutputError = Atomic<Int32>(0)

/// Whether everything meant for stdout got there (`> /dev/full`, a reader that went away).
///
/// SIGPIPE is ignored so that a closed pipe is an `EPIPE` this type sees and reports, rather than a
/// silent death by signal.
enum StandardOutputHealth {
    static func install() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Notes `code` (an errno) as the reason stdout lost data; the first reason wins.
    static func recordFailure(_ code: Int32) {
        _ = firstStandardOutputError.compareExchange(expected: 0, desired: code, ordering: .relaxed)
    }

    /// The error to exit with when stdout lost data, after flushing what stdio still buffers.
    static func failure() -> ProvisioningError? {
        if fflush(nil) != 0 { recordFailure(errno == 0 ? EIO : errno) }
        let code = firstStandardOutputError.load(ordering: .relaxed)
        guard code != 0 else { return nil }
        return ProvisioningError(
            .outputFailed, "Could not write the output to stdout: \(String(cString: strerror(code))).",
            hint: "Check where stdout goes (a full disk, a pipe whose reader stopped) and run the command again.")
    }
}
