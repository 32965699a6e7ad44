import ArgumentParser
import Foundation
import Glibc
import Provisioning
import TestSupport
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

@Suite struct SecretTextTests {
    @Test func generatedSecretsPassOnlyWhenTheyAreNonEmptyBoundedUTF8WithoutNUL() {
        var random = SplitMix64(seed: 0x7E17)
        for _ in 0..<2000 {
            let bytes = (0..<random.below(40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let result = SecretText.checked(bytes)
            let valid = !bytes.isEmpty && !bytes.contains(0) && String(validating: bytes, as: UTF8.self) != nil
            if valid {
                #expect((try? result.get()).map { Array($0.utf8) } == bytes)
            } else {
                #expect((try? result.get()) == nil, "\(bytes) accepted")
            }
        }
        #expect(SecretText.checked([UInt8](repeating: 0x61, count: 4097)) == .failure(.tooLong))
        #expect(SecretText.checked("a\u{FFFD}b") == .failure(.notUTF8))
    }

    @Test func theFirstLineEndsAtLFOrCRLF() {
        #expect(SecretText.firstLine(of: Array("pass word\r\nnext".utf8)) == .success("pass word"))
        #expect(SecretText.firstLine(of: Array("pass\nnext".utf8)) == .success("pass"))
        #expect(SecretText.firstLine(of: Array("\nnext".utf8)) == .failure(.empty))
    }

    @Test func onlyBoundedRegularFilesAreSecretFiles() throws {
        let temporary = try TemporaryDirectory("secretfile")
        defer { temporary.remove() }
        let directory = temporary.url
        let fifo = directory.appending(path: "fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(RegularFile.contents(of: fifo, limit: RegularFile.secretLimit) == .failure(.notRegularFile))
        #expect(RegularFile.contents(of: "/dev/zero", limit: RegularFile.secretLimit) == .failure(.notRegularFile))
        #expect(RegularFile.contents(of: directory.path, limit: RegularFile.secretLimit) == .failure(.notRegularFile))
        let big = directory.appending(path: "big")
        try Data(count: RegularFile.secretLimit + 1).write(to: big)
        #expect(RegularFile.contents(of: big.path, limit: RegularFile.secretLimit) == .failure(.tooLarge))
        let exact = directory.appending(path: "exact")
        try Data(repeating: 0x61, count: RegularFile.secretLimit).write(to: exact)
        #expect(
            (try? RegularFile.contents(of: exact.path, limit: RegularFile.secretLimit).get())?.count
                == RegularFile.secretLimit)
    }

    @Test func theWiFiPassphraseRuleCountsBytes() throws {
        let options = try SecretOptions<WiFiPasswordSecret>.parse([])
        func check(_ password: String) -> ErrorCode? {
            do {
                _ = try WiFiPassphrase.resolve(
                    options, openNetwork: false, code: .invalidOption, environment: ["ZTPROV_WIFI_PASSWORD": password],
                    prompt: { _ in nil })
                return nil
            } catch {
                return error.code
            }
        }
        for length in 0...70 {
            let password = String(repeating: "a", count: length)
            let accepted = (8...63).contains(length) || length == 64
            #expect(check(password) == (accepted ? nil : length == 0 ? .secretEmpty : .invalidOption), "\(length)")
        }
        #expect(check(String(repeating: "é", count: 32)) == .invalidOption)
        #expect(check(String(repeating: "g", count: 64)) == .invalidOption)
        #expect(check(String(repeating: "0aF", count: 21) + "9") == nil)
        #expect(check("caf\u{E9} cr\u{E8}me") == nil)
        #expect(
            try WiFiPassphrase.resolve(
                options, openNetwork: true, code: .invalidOption, environment: ["ZTPROV_WIFI_PASSWORD": "ambient1"],
                prompt: { _ in nil }
            ).revealed() == "")
    }

    /// A WPA passphrase is printable text: every control character (C0 and DEL), wherever it stands in an
    /// otherwise valid password, is refused by name before anything is sent, and the message never shows it.
    @Test(arguments: Array(0x01...0x1F) + [0x7F])
    func aPasswordWithAControlCharacterIsRefused(byte: Int) throws {
        let options = try SecretOptions<WiFiPasswordSecret>.parse([])
        let control = String(UnicodeScalar(UInt8(byte)))
        for password in [control + "qz7-hunter", "qz7-" + control + "hunter", "qz7-hunter" + control] {
            #expect {
                _ = try WiFiPassphrase.resolve(
                    options, openNetwork: false, code: .invalidOption, environment: ["ZTPROV_WIFI_PASSWORD": password],
                    prompt: { _ in nil })
            } throws: { error in
                guard let error = error as? ProvisioningError else { return false }
                return error.code == .wifiPasswordCharacters && error.exitStatus == .usage
                    && !error.message.contains(control) && !error.message.contains("qz7")
            }
        }
    }

    @Test func theOpenNetworkSendsNoPassword() throws {
        let options = try SecretOptions<WiFiPasswordSecret>.parse([])
        #expect(
            try WiFiPassphrase.resolve(
                options, openNetwork: true, code: .invalidOption, environment: ["ZTPROV_WIFI_PASSWORD": "ambient1"],
                prompt: { _ in nil }
            ).revealed() == "")
    }
}
