import Foundation
import Provisioning
import TestSupport
import Testing

/// The README's table of error codes is the catalogue as users read it: every code, its exit status and the
/// commands it can come from. It is generated from ``ErrorCode``; after adding or renaming a code, rewrite it
/// with `ZTPROV_UPDATE_ERROR_CODE_TABLE=1 swift test --filter ErrorCodeTableTests` and review the diff.
@Suite struct ErrorCodeTableTests {
    static let start = "<!-- error codes: written by ErrorCodeTableTests -->"
    static let end = "<!-- end of error codes -->"

    @Test func theReadmeListsEveryCodeWithItsStatusAndWhereItOccurs() throws {
        let readmeURL = RepositoryLayout.root.appending(path: "README.md")
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        let before = try #require(readme.range(of: Self.start), "README lacks \(Self.start)")
        let after = try #require(readme.range(of: Self.end), "README lacks \(Self.end)")
        let written = String(readme[before.upperBound..<after.lowerBound])
        let table = "\n" + Self.table() + "\n"
        if ProcessInfo.processInfo.environment["ZTPROV_UPDATE_ERROR_CODE_TABLE"] == "1", written != table {
            try readme.replacingCharacters(in: before.upperBound..<after.lowerBound, with: table)
                .write(to: readmeURL, atomically: true, encoding: .utf8)
            return
        }
        #expect(written == table, "run ZTPROV_UPDATE_ERROR_CODE_TABLE=1 swift test --filter ErrorCodeTableTests")
    }

    @Test func everyCodeSaysWhereItOccurs() {
        for code in ErrorCode.allCases {
            #expect(!Self.occurrence(of: code).isEmpty, "\(code)")
        }
    }

    static func table() -> String {
        let rows = ErrorCode.allCases.map { code in
            let alias = code.formerSpelling.map { " (was `\($0)`)" } ?? ""
            return "| `\(code.rawValue)`\(alias) | \(code.exitStatus.rawValue) | \(occurrence(of: code)) |"
        }
        return (["| code | status | where it can occur |", "|---|---|---|"] + rows).joined(separator: "\n")
    }

    /// The commands a code can come from, by its family.
    static func occurrence(of code: ErrorCode) -> String {
        let bluetooth = "`ble`, `scan`, `batch`, `doctor`"
        switch code {
        case .interrupted, .hangUp, .terminated, .timeout, .permissionDenied, .outputFailed: return "any command"
        case .busNotAnswering: return "`ble`, `scan`, `softap`, `batch`, `doctor`"
        case .kernelBluetoothMissing, .hostRadioBlocked, .bluetoothdAbsent, .noBluetoothAdapter,
            .bluetoothAdapterNotFound, .bluetoothAdapterPoweredOff, .bluetoothAdapterBlocked:
            return bluetooth
        case .networkServiceUnavailable, .wifiInterfaceUnavailable: return "`softap`, `batch --path softap`, `doctor`"
        case .batchIncomplete, .batchBadInput, .batchUnknownLane: return "`batch`"
        case .batchClaimLost: return "`batch` on a database shared with other stations"
        case .networkEnterprise: return "`ble`, from the host's cached scan or with `--check-network`"
        case .bleSeveralDevices: return "`ble` when several devices match and nobody is asked (no terminal, `--json`)"
        default: break
        }
        let family = code.rawValue.split(separator: ".").first.map(String.init) ?? ""
        return switch family {
        case "usage": "any command"
        case "records": "`batch`, `report`"
        case "report": "`report --serve`"
        case "softap": "`softap`, `batch --path softap`"
        case "protocomm": "`softap`, `ble --protocol protocomm`, `batch`"
        case "thread": "`ble --protocol protocomm` with a Thread dataset"
        case "ble": "`ble`, `scan`, `batch`"
        case "blufi": "`ble` (BluFi), `batch`"
        case "improv": "`ble` (Improv)"
        case "lan": "`discover`, `handoff`, and the hand-off after `ble`, `softap`, `batch`"
        case "handoff": "`handoff`, and the hand-off after `ble`, `softap`, `batch`"
        case "sc": "a hand-off that asks the Zhiting cloud for an access token"
        case "security": "`ble`, `softap`, `batch` with `--min-security`"
        case "network": "`ble --check-network` (every protocol), `softap --check-network`"
        default: ""
        }
    }
}
