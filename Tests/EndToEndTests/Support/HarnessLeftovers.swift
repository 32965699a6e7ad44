import Foundation
import TestSupport

/// Whatever one harness run left on the machine, looked up without asking the harness, so that a
/// test can prove `down` cleans up instead of trusting its report.
enum HarnessLeftovers {
    /// Descriptions of every trace of the run still present; empty when the machine is clean.
    ///
    /// `components` are the harness's processes as identified while it was up.
    static func find(of topology: HarnessTopology, components: [String: ProcessIdentity]) async throws -> [String] {
        var found = components.filter { $0.value.isAlive }.map { "process \($0.key) (pid \($0.value.pid))" }
        found += processesMentioning(topology.runDir).map { "process mentioning the run directory: \($0)" }
        let namespaces = try await ip(["netns", "list"])
        found += [topology.hostNetns, topology.deviceNetns].filter(namespaces.contains).map { "netns \($0)" }
        let links = try await ip(["-o", "link"])
        found += [topology.hostInterface, topology.deviceInterface].filter(links.contains).map { "link \($0)" }
        if FileManager.default.fileExists(atPath: topology.busSocketPath) { found.append("bus socket") }
        return found.sorted()
    }

    /// Command lines of live processes (other than this one) that contain `text`.
    private static func processesMentioning(_ text: String) -> [String] {
        let own = String(getpid())
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.first?.isNumber == true && $0 != own }.compactMap { pid in
            guard let identity = Int32(pid).flatMap(ProcessIdentity.init(pid:)), identity.isAlive,
                let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
            else { return nil }
            let commandLine = String(decoding: raw.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return commandLine.contains(text) ? "\(pid): \(commandLine)" : nil
        }
    }

    private static func ip(_ arguments: [String]) async throws -> String {
        guard let ip = ExecutableLookup.path(of: "ip") else { throw ProcessLaunchError.missingTool("ip") }
        return try await ProcessLaunch(ip, arguments).output()
    }
}
