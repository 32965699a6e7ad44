import Foundation
import SoakMetrics

/// `ztprov-soak [--iterations N] [--every K]`: N provisionings in one process, alternating BluFi and
/// SoftAP against the emulated devices, sampling descriptors and RSS at the start, every K and at the
/// end. Prints one JSON object; exits 1 when a provisioning failed or the trend is not flat.
@main
struct SoakCommand {
    static let trend = SoakTrend(warmUpIterations: 100, rssTolerance: 0.10)

    static func main() async {
        let iterations = option("--iterations") ?? 1000
        let every = option("--every") ?? 100
        var samples = [sample(at: 0)]
        var failures: [String] = []
        for iteration in 1...max(iterations, 1) {
            do {
                if iteration.isMultiple(of: 2) { try await SoakRun.softAP() } else { try await SoakRun.bluFi() }
            } catch {
                failures.append("\(iteration): \(error)")
            }
            if iteration.isMultiple(of: every) || iteration == iterations { samples.append(sample(at: iteration)) }
        }
        let flat = trend.isFlat(samples)
        print(report(iterations: iterations, failures: failures, samples: samples, flat: flat))
        exit(failures.isEmpty && flat ? 0 : 1)
    }

    private static func option(_ name: String) -> Int? {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return Int(arguments[index + 1])
    }

    private static func sample(at iteration: Int) -> SoakSample {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
        return SoakSample(
            iteration: iteration, openFileDescriptors: descriptors,
            residentKiB: pages * sysconf(Int32(_SC_PAGESIZE)) / 1024)
    }

    private static func report(iterations: Int, failures: [String], samples: [SoakSample], flat: Bool) -> String {
        let entries = samples.map {
            "{\"iteration\":\($0.iteration),\"fds\":\($0.openFileDescriptors),\"rss_kib\":\($0.residentKiB)}"
        }
        let failureList = failures.prefix(10).map { "\"\($0.replacingOccurrences(of: "\"", with: "'"))\"" }
        return
            "{\"iterations\":\(iterations),\"failures\":\(failures.count),\"first_failures\":[\(failureList.joined(separator: ","))],"
            + "\"flat\":\(flat),\"samples\":[\(entries.joined(separator: ","))]}"
    }
}
