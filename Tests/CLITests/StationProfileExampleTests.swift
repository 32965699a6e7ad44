import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import ztprov

/// The station profile the Debian package ships as an example (`/usr/share/doc/ztprov/examples/`), so a
/// station that copies it starts from options `batch` accepts.
@Suite struct StationProfileExampleTests {
    @Test func theExampleParsesAsBatchOptions() throws {
        let example = RepositoryLayout.root.appending(path: ".debian/examples/station.json").path
        let options = try StationProfile.options(in: example)
        let command = try ZTProv.parseAsRoot(["batch"] + options + ["--devices", "units.csv"])
        let batch = try #require(command as? BatchCommand)
        #expect(batch.station == "line-1-st-3")
        #expect(batch.adapters == "slot:1,slot:2,slot:3,slot:4")
    }
}
