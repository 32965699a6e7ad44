import BluFi
import Provisioning
import Testing
import Transports

/// Some firmware echoes the passwords in its WIFI_REPORT; neither progress nor the outcome may carry them.
@Suite struct BluFiPasswordEchoTests {
    /// A device played by a script over plaintext frames (security none): answers the version, ACKs
    /// SET_OPMODE, and reports the join with both passwords echoed as soon as CONNECT_AP arrives.
    actor EchoingDevice: ScriptedBluFiPeer {
        nonisolated let mtu = 185
        nonisolated let notifications: AsyncThrowingStream<[UInt8], any Error>
        private let notifier: AsyncThrowingStream<[UInt8], any Error>.Continuation
        private var encoder = BluFiFrameEncoder(direction: .deviceToPhone, attMTU: 185)

        init() {
            (notifications, notifier) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        }

        func frameWritten(_ value: [UInt8], until deadline: ContinuousClock.Instant) throws {
            let type = BluFiFrameType(rawValue: value[0])
            switch type {
            case .getVersion: try send(.version, [1, 3])
            case .setOperationMode: try send(.ack, [value[2]])
            case .connectAP: try send(.wifiReport, Self.echoingReport.payload)
            case .disconnectBLE: notifier.finish()
            default: break
            }
        }

        private func send(_ type: BluFiFrameType, _ payload: [UInt8]) throws {
            for frame in try encoder.encode(BluFiMessage(type, payload)) { notifier.yield(frame) }
        }

        static var echoingReport: BluFiWiFiReport {
            var report = BluFiWiFiReport(operationMode: .stationAndSoftAP, stationState: .connected)
            report.stationSSID = Array(EmulatedBLE.ssid.utf8)
            report.stationPassword = Array(EmulatedBLE.password.utf8)
            report.softAPSSID = Array(EmulatedBLE.softAPSSID.utf8)
            report.softAPPassword = Array(EmulatedBLE.softAPPassword.utf8)
            return report
        }
    }

    @Test func echoedPasswordsAreDroppedFromProgressAndOutcome() async throws {
        let recorder = BluFiRecorder()
        let provisioner = BluFiProvisioner(
            connection: EchoingDevice(), security: .fixed(.none), timeouts: EmulatedBLE.timeouts,
            logger: recorder.logger())
        let settings = WiFiSettings(
            .stationAndSoftAP(EmulatedBLE.station, EmulatedBLE.softAP), expectsDeviceID: false)
        let outcome = try await provisioner.run(settings, deadline: .now + .seconds(30), progress: recorder.sink)

        #expect(outcome.report.stationSSID == Array(EmulatedBLE.ssid.utf8))
        #expect(outcome.report.stationPassword == nil && outcome.report.softAPPassword == nil)
        let reports = recorder.progress.compactMap { event -> BluFiWiFiReport? in
            switch event {
            case .wifiConnected(let report), .softAPStarted(let report), .wifiStatusChanged(let report): report
            default: nil
            }
        }
        #expect(!reports.isEmpty)
        #expect(reports.allSatisfy { $0.stationPassword == nil && $0.softAPPassword == nil })
        let text = recorder.everything()
        #expect(!text.contains(EmulatedBLE.password) && !text.contains(EmulatedBLE.softAPPassword))
    }
}
