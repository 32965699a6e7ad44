import BluFi
import Improv
import JSONWriting
import Protocomm
import Provisioning
import TestSupport
import Testing

@testable import ztprov

/// One printer serves every flow: a line's tone decides where and how its sentence shows, its rows go to
/// stdout for people, and its event to stdout for scripts.
@Suite struct ProgressPrinterTests {
    private struct Step: ConsoleProgress {
        let line: ProgressLine
    }

    @Test func eachToneShowsItsSentenceItsOwnWay() {
        let streams = CapturedStreams()
        let printer = ProgressPrinter(console: streams.console())
        printer.report(Step(line: ProgressLine("Connecting", event: "a")))
        printer.report(Step(line: ProgressLine(.detail, "Session at MTU 23", event: "b")))
        printer.report(Step(line: ProgressLine(.success, "Joined", event: "c")))
        printer.report(Step(line: ProgressLine(.warning, "Fell back to V1", event: "d")))
        printer.report(Step(line: ProgressLine(.actionNeeded, "Press the button", event: "e")))
        #expect(streams.standardError == "Connecting\nJoined\nwarning: Fell back to V1\naction: Press the button\n")
        #expect(streams.standardOutput.isEmpty)

        let verbose = CapturedStreams()
        ProgressPrinter(console: verbose.console(verbosity: .verbose))
            .report(Step(line: ProgressLine(.detail, "Session at MTU 23", event: "b")))
        #expect(verbose.standardError == "Session at MTU 23\n")
    }

    @Test func rowsAreForPeopleAndTheEventForScripts() {
        let line = ProgressLine(
            "The device sees 2 networks", event: "networks", [JSONField("count", .int(2))], rows: ["a\t-40 dBm", "b"])
        let human = CapturedStreams()
        ProgressPrinter(console: human.console()).report(Step(line: line))
        #expect(human.standardOutput == "a\t-40 dBm\nb\n")

        let json = CapturedStreams()
        ProgressPrinter(console: json.console(json: true)).report(Step(line: line))
        #expect(json.standardOutput == #"{"event":"networks","elapsed_ms":0,"count":2}"# + "\n")
    }

    /// Every protocol's network list prints one inert row per network, whatever the names hold.
    @Test func generatedHostileNetworkNamesStayOneInertRowEach() {
        var random = SplitMix64(seed: 0x5EED_0029)
        for _ in 0..<200 {
            let names = (0..<(1 + random.below(4))).map { _ in HostileText.next(&random) }
            let lists: [any ConsoleProgress] = [
                BluFiProgress.wifiListReceived(
                    names.map { BluFiAccessPoint(ssid: Array($0.utf8.prefix(32)), rssi: -50) }),
                ImprovProgress.device(
                    .networks(names.map { ImprovWiFiNetwork(ssid: $0, rssi: -50, authentication: ["WPA2", $0]) })),
                ProtocommProgress.networksListed(
                    names.map {
                        ProtocommWiFiNetwork(
                            ssid: Array($0.utf8.prefix(32)), channel: 6, rssi: -50, bssid: [], authMode: .wpa2PSK)
                    }),
            ]
            for list in lists {
                let streams = CapturedStreams()
                ProgressPrinter(console: streams.console()).report(list)
                let rows = streams.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                #expect(rows.count == names.count, "\(list)")
                #expect(
                    !streams.standardOutput.unicodeScalars.contains {
                        $0 != "\n" && $0 != "\t"
                            && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                                || $0 == "\u{202E}")
                    }, "\(list)")
            }
        }
    }
}
