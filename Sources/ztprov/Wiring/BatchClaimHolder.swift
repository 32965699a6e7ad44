import Glibc
import StringEssentials

/// Who holds a batch's claims on units, written so that a batch on the same host can tell the holder died:
/// `BOOT-ID/PID-NAMESPACE/PID/BATCH-ID`.
///
/// A batch restarted after a crash or `kill -9` then takes its dead run's claims at once instead of waiting
/// them out. Only a holder of this very kernel and PID namespace is ever judged gone, and only when its
/// process no longer exists; any other holder's claims run out by their time.
enum BatchClaimHolder {
    /// This process's holder for the batch run `batchID`.
    static func current(batchID: String) -> String {
        guard let host = hostRun else { return batchID }
        return "\(host)/\(getpid())/\(batchID)"
    }

    /// True when `holder` is a batch process of this host (same boot, same PID namespace) that has exited.
    static func isGone(_ holder: String) -> Bool {
        guard let host = hostRun else { return false }
        let parts = holder.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, "\(parts[0])/\(parts[1])" == host, let pid = pid_t(parts[2]), pid > 0 else {
            return false
        }
        return kill(pid, 0) == -1 && errno == ESRCH
    }

    /// This boot of the kernel and this PID namespace, or nil where either cannot be read.
    private static let hostRun: String? = {
        guard case .success(let bytes) = RegularFile.contents(of: "/proc/sys/kernel/random/boot_id", limit: 64)
        else { return nil }
        let bootID = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        var link = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/self/ns/pid", &link, link.count - 1)
        guard !bootID.isEmpty, !bootID.contains("/"), length > 0 else { return nil }
        let namespace = String(decoding: link[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(bootID)/\(namespace.filter { $0.isNumber })"
    }()
}
