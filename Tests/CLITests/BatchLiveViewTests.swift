import Foundation
import Provisioning
import Records
import Testing

@testable import ztprov

/// The live batch view's frames, exactly, for given states and widths.
@Suite struct BatchLiveViewTests {
    static let lanes = ["hci0", "hci1", "hci10"]
    static let unitA = BatchDevice(address: "24:0A:C4:00:00:07", line: 1)
    static let unitB = BatchDevice(name: "MH-0002", line: 2)

    static func record(_ unit: BatchDevice, lane: String, code: String = "ok", final: Bool = true) -> ProvisioningRecord
    {
        ProvisioningRecord(
            batchID: "b", station: "s", adapter: lane, deviceKey: unit.key, path: .ble, attempt: 1, isFinal: final,
            code: code, startedAt: Date(timeIntervalSince1970: 0), finishedAt: Date(timeIntervalSince1970: 1))
    }

    static func midBatch() -> BatchLiveView {
        var view = BatchLiveView(lanes: lanes, startedAt: .seconds(2))
        for index in 1...10 {
            view.apply(.queued(BatchDevice(address: "24:0A:C4:00:01:0\(index % 10)", line: index)), at: .seconds(2))
        }
        view.apply(.attemptStarted(lane: "hci0", unitA, attempt: 1), at: .seconds(3))
        view.apply(.progress(lane: "hci0", unitA, "connected, ATT MTU 185"), at: .milliseconds(3_400))
        view.apply(.attemptStarted(lane: "hci10", unitB, attempt: 2), at: .seconds(4))
        view.apply(.attemptRecorded(record(unitB, lane: "hci1"), retrying: false), at: .seconds(5))
        view.apply(
            .attemptRecorded(record(unitB, lane: "hci1", code: "ble.link-lost", final: false), retrying: true),
            at: .seconds(5))
        view.apply(
            .attemptRecorded(record(unitB, lane: "hci1", code: "blufi.wifi-wrong-password"), retrying: false),
            at: .seconds(6))
        view.apply(.skipped(unitB, .alreadyProvisioned), at: .seconds(6))
        return view
    }

    @Test func aFrameShowsEachLaneAndTheTotalsWithRateAndTimeLeft() {
        let frame = Self.midBatch().frame(at: .milliseconds(8_250), width: 120)
        #expect(
            frame == [
                "hci0   24:0A:C4:00:00:07    5.2s  connected, ATT MTU 185",
                "hci1   idle",
                "hci10  MH-0002              4.2s  attempt 2",
                "3/10 done · 1 ok · 1 failed · 1 skipped · 1 retried · 2 in progress · 19.2/min · ETA 0:22",
            ])
    }

    @Test func beforeAnyUnitEndsThereIsNoRateYet() {
        var view = BatchLiveView(lanes: ["hci0"], startedAt: .zero)
        view.apply(.queued(Self.unitA), at: .zero)
        #expect(
            view.frame(at: .seconds(1), width: 80) == [
                "hci0  idle", "0/1 done · 0 ok · 0 failed · 0 in progress · ETA –",
            ])
    }

    @Test func aStoppedLaneSaysWhy() {
        var view = BatchLiveView(lanes: ["hci0"], startedAt: .zero)
        let error = ProvisioningError(.bluetoothAdapterPoweredOff, "off", hint: "on")
        view.apply(.laneStopped(lane: "hci0", error), at: .zero)
        #expect(view.frame(at: .zero, width: 80).first == "hci0  stopped: host.adapter-powered-off")
    }

    @Test(arguments: [1, 2, 5, 12, 30, 57])
    func noLineReachesTheLastColumnOfANarrowTerminal(width: Int) {
        let frame = Self.midBatch().frame(at: .seconds(9), width: width)
        #expect(frame.count == 4)
        #expect(frame.allSatisfy { $0.count <= max(1, width - 1) }, "\(frame)")
        let full = "hci0   24:0A:C4:00:00:07    6.0s  connected, ATT MTU 185"
        let expected = full.count <= width - 1 ? full : String(full.prefix(max(0, width - 2))) + "…"
        if width >= 3 { #expect(frame[0] == expected) }
    }

    @Test func timeLeftPassesAnHour() {
        #expect(BatchLiveView.clock(seconds: 7) == "0:07")
        #expect(BatchLiveView.clock(seconds: 750) == "12:30")
        #expect(BatchLiveView.clock(seconds: 3723) == "1:02:03")
    }

    @Test func erasingCountsTheRowsLinesTakeAfterTheTerminalNarrowed() {
        let lines = [String(repeating: "x", count: 70), "short"]
        #expect(LiveRegion.erase(lines, drawnAt: 80, now: 80) == "\r\u{1B}[2A\u{1B}[J")
        #expect(LiveRegion.erase(lines, drawnAt: 80, now: 30) == "\r\u{1B}[4A\u{1B}[J")
        #expect(LiveRegion.erase([], drawnAt: 80, now: 80) == "")
        #expect(LiveRegion.draw(["a", "b"]) == "a\nb\n")
    }
}
