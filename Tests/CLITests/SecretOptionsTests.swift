import ArgumentParser
import Foundation
import Provisioning
import Testing

@testable import ztprov

@Suite struct SecretOptionsTests {
    private typealias PasswordOptions = SecretOptions<WiFiPasswordSecret>
    private let noPrompt: (String) -> String? = { _ in nil }

    @Test func readsTheFirstLineOfAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ztprov-secret-\(UUID().uuidString)")
        try Data("s3cret pass\r\nsecond line\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let options = try PasswordOptions.parse(["--password-file", url.path])
        #expect(try options.resolve(environment: [:], prompt: noPrompt)?.revealed() == "s3cret pass")
    }

    @Test func unreadableFileIsAUsageError() throws {
        let options = try PasswordOptions.parse(["--password-file", "/nonexistent/ztprov"])
        let error = #expect(throws: ProvisioningError.self) { try options.resolve(environment: [:], prompt: noPrompt) }
        #expect(error?.code == .secretUnreadable)
        #expect(error?.exitStatus == .usage)
    }

    @Test func namedVariableMustExist() throws {
        let options = try PasswordOptions.parse(["--password-env", "SITE_PASS"])
        #expect(try options.resolve(environment: ["SITE_PASS": "abc12345"], prompt: noPrompt)?.revealed() == "abc12345")
        let error = #expect(throws: ProvisioningError.self) { try options.resolve(environment: [:], prompt: noPrompt) }
        #expect(error?.code == .secretMissing)
    }

    @Test func fallsBackToDefaultVariableThenPrompt() throws {
        let options = try PasswordOptions.parse([])
        #expect(
            try options.resolve(environment: ["ZTPROV_WIFI_PASSWORD": "fromenv1"], prompt: noPrompt)?.revealed()
                == "fromenv1")
        var asked: String?
        let prompted = try options.resolve(environment: [:]) { label in
            asked = label
            return "typed-pass"
        }
        #expect(prompted?.revealed() == "typed-pass")
        #expect(asked == "Wi-Fi password: ")
        #expect(try options.resolve(environment: [:], prompt: noPrompt) == nil)
    }

    @Test func requireExplainsEveryWayToGiveTheSecret() throws {
        let options = try SecretOptions<ProofOfPossessionSecret>.parse([])
        let error = #expect(throws: ProvisioningError.self) { try options.require(environment: [:], prompt: noPrompt) }
        #expect(error?.code == .secretMissing)
        #expect(error?.hint.contains("--pop-file") == true)
        #expect(error?.hint.contains("ZTPROV_POP") == true)
    }

    @Test func secretIsNeverAcceptedOnTheCommandLine() {
        #expect(throws: (any Error).self) { try PasswordOptions.parse(["--password", "plain"]) }
    }
}
