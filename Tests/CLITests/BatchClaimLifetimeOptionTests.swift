import ArgumentParser
import Testing

@testable import ztprov

/// `--claim-lifetime`: how long a dead station keeps its units from the others.
@Suite struct BatchClaimLifetimeOptionTests {
    @Test(arguments: ["0", "0.2", "86400.5", "-3", "0x10", "1e3", "inf", "", "3s"])
    func aLifetimeOutOfRangeOrNotDecimalIsAUsageError(_ value: String) {
        let error = #expect(throws: (any Error).self) {
            try BatchCommand.parse(["--ssid", "Factory", "--claim-lifetime", value])
        }
        // Refused as a number of seconds, not as an option the command does not know.
        #expect(error.map { BatchCommand.message(for: $0).contains("seconds") } == true)
    }

    @Test func aLifetimeIsTakenAsGivenOrLeftToTheDefault() throws {
        #expect(try BatchCommand.parse(["--ssid", "Factory", "--claim-lifetime", "2.5"]).claimLifetime == 2.5)
        #expect(try BatchCommand.parse(["--ssid", "Factory"]).claimLifetime == nil)
    }
}
