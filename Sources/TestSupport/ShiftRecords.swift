public import Foundation
public import Records

/// A made-up shift whose report numbers are worked out by hand, for the shift report's tests.
///
/// Three lanes from 2024-05-01 08:00 UTC, one attempt a minute each:
/// - `line-1/hci0`, BluFi 1.3 without security (plaintext): a0…a9; a1 loses its link once then succeeds, a4 has the wrong Wi-Fi
///   password, a7 loses its link three times. 10 units, 8 provisioned, 7 on the first pass, 13 attempts.
/// - `line-1/hci1`, BluFi 1.4 with V2: b0…b7; b2 is never found (scan 5 s), b5 times out once (join 10 s)
///   then succeeds. 8 units, 7 provisioned, 6 first pass, 9 attempts.
/// - `line-2/hci0`, BluFi 1.4 with V2 over an encrypted link, device firmware 2.1.0 with a hand-off: c0…c5; c3 loses its link once.
///   6 units, 6 provisioned, 5 first pass, 7 attempts.
///
/// Failed attempts: ble.link-lost 5 (1 unit lost), then one each of ble.device-not-found,
/// blufi.wifi-wrong-password and timeout. Steps: scan 200 ms (5000 ms for b2), connect 400, 410, …
/// in the order attempts are made (28 attempts connect), negotiate 150, configure 50, join 1200
/// (3000 on the wrong password, 10000 on the timeout), handoff 80.
public enum ShiftRecords {
    public static let start = Date(timeIntervalSince1970: 1_714_550_400)

    /// Every attempt, lane by lane.
    public static func records() -> [ProvisioningRecord] {
        var connect = 400
        var records: [ProvisioningRecord] = []
        let lanes:
            [(
                station: String, adapter: String, prefix: String, units: Int, bluFi: String, device: String?,
                secured: ProvisioningSecurity
            )] = [
                ("line-1", "hci0", "a", 10, "1.3", nil, ProvisioningSecurity(.bluFiNone)),
                ("line-1", "hci1", "b", 8, "1.4", nil, ProvisioningSecurity(.bluFiV2)),
                ("line-2", "hci0", "c", 6, "1.4", "2.1.0", ProvisioningSecurity(.bluFiV2, linkEncrypted: true)),
            ]
        for lane in lanes {
            var startedAt = start
            for index in 0..<lane.units {
                let unit = "\(lane.prefix)\(index)"
                let outcomes = outcomes(unit)
                for (number, code) in outcomes.enumerated() {
                    var steps = [RecordedStep(name: "scan", milliseconds: code == "ble.device-not-found" ? 5000 : 200)]
                    if code != "ble.device-not-found" {
                        steps.append(RecordedStep(name: "connect", milliseconds: connect))
                        connect += 10
                        steps.append(RecordedStep(name: "negotiate", milliseconds: 150))
                    }
                    let join = ["ok": 1200, "blufi.wifi-wrong-password": 3000, "timeout": 10_000][code]
                    if let join {
                        steps.append(RecordedStep(name: "configure", milliseconds: 50))
                        steps.append(RecordedStep(name: "join", milliseconds: join))
                    }
                    if code == "ok", lane.device != nil {
                        steps.append(RecordedStep(name: "handoff", milliseconds: 80))
                    }
                    let milliseconds = steps.reduce(0) { $0 + $1.milliseconds }
                    let connected = code != "ble.device-not-found"
                    records.append(
                        ProvisioningRecord(
                            batchID: "shift-1", station: lane.station, adapter: lane.adapter, deviceKey: unit,
                            deviceID: code == "ok" ? "24ac0000\(String(format: "%04x", records.count))" : nil,
                            path: .ble, security: connected ? lane.secured.scheme.rawValue : nil, attempt: number + 1,
                            isFinal: number == outcomes.count - 1, code: code,
                            message: code == "ok" ? nil : "Attempt failed with \(code).", startedAt: startedAt,
                            finishedAt: startedAt.addingTimeInterval(Double(milliseconds) / 1000), steps: steps,
                            firmware: FirmwareVersions(
                                bluFi: connected ? lane.bluFi : nil, device: code == "ok" ? lane.device : nil),
                            securedWith: connected ? lane.secured : nil))
                    startedAt += 60
                }
            }
        }
        return records
    }

    /// The codes of one unit's attempts, in order.
    private static func outcomes(_ unit: String) -> [String] {
        switch unit {
        case "a1", "c3": ["ble.link-lost", "ok"]
        case "a4": ["blufi.wifi-wrong-password"]
        case "a7": ["ble.link-lost", "ble.link-lost", "ble.link-lost"]
        case "b2": ["ble.device-not-found"]
        case "b5": ["timeout", "ok"]
        default: ["ok"]
        }
    }
}
