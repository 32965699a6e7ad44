import ArgumentParser
import Testing

@testable import ztprov

@Suite struct RootCommandTests {
    @Test func versionFlagPrintsTheVersion() {
        let error = #expect(throws: (any Error).self) { try ZTProv.parseAsRoot(["--version"]) }
        #expect(ZTProv.exitCode(for: error!) == .success)
        #expect(ZTProv.message(for: error!) == ZTProv.version)
    }

    @Test func helpNamesThePurposeAndExitStatuses() {
        let help = ZTProv.helpMessage()
        #expect(help.contains("Provision ESP32-based Zhiting smart-home devices"))
        #expect(help.contains("130 interrupted"))
    }
}
