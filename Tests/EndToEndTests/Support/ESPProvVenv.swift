import Foundation
import TestSupport
import Testing

/// The virtual environment with Espressif's esp_prov client code (`Tests/Harness/make-esp-prov-venv`:
/// pinned PyPI packages under `.build/`), made on first use when CI's install step has not made it.
enum ESPProvVenv {
    static let directory = RepositoryLayout.root.appending(path: ".build/esp-prov-venv")
    static let python = directory.appending(path: "bin/python").path

    /// Whether the venv can run the check, creating it first if needed; false when that fails (offline).
    static func ensure() async -> Bool {
        if await canImportClient() { return true }
        var make = ProcessLaunch(
            RepositoryLayout.harnessDirectory.appending(path: "make-esp-prov-venv").path,
            [directory.path])
        make.deadline = .seconds(300)
        guard (try? await make.run())?.succeeded == true else { return false }
        return await canImportClient()
    }

    private static func canImportClient() async -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let probe = ProcessLaunch(python, ["-c", "import rmaker_tools, google.protobuf, bleak"])
        return (try? await probe.run())?.succeeded == true
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips unless the esp_prov venv exists or can be created now (it needs PyPI once).
    static var requiresESPProvVenv: Self {
        .enabled("needs the esp_prov venv, which Tests/Harness/make-esp-prov-venv could not create (PyPI unreachable?)")
        {
            await ESPProvVenv.ensure()
        }
    }
}
