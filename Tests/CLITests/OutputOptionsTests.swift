import ArgumentParser
import Testing

@testable import ztprov

@Suite struct OutputOptionsTests {
    @Test func parsesFlags() throws {
        let options = try OutputOptions.parse(["--json", "--verbose"])
        #expect(options.json && options.verbose && !options.quiet)
    }

    @Test func verboseAndQuietExcludeEachOther() {
        #expect(throws: (any Error).self) { try OutputOptions.parse(["--verbose", "--quiet"]) }
    }
}
