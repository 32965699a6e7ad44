import Provisioning
import Testing
import Transports
import ZhitingLAN

@testable import ztprov

@Suite struct DiscoveryOutputTests {
    let device = LANDiscoveredDevice(
        device: LANDevice(
            id: ZhitingDeviceID("a1b2c3d4e5f6")!, endpoint: DatagramEndpoint(parsing: "192.0.2.20", defaultPort: 54321)!
        ),
        info: ZhitingDeviceInfo(model: "ZTSW3SLW001W", softwareVersion: "1.0.0", hardwareVersion: "esp32c3")
    )
    let hub = LANDiscoveredDevice(
        device: LANDevice(
            id: ZhitingDeviceID("0a0b0c0d0e0f")!,
            endpoint: DatagramEndpoint(parsing: "192.0.2.3", defaultPort: 54321)!,
            helloModel: "MH-SA00DCLB001W"
        ),
        problem: ProvisioningError(.handoffNoToken, "No token.", hint: "Retry.")
    )

    @Test func theTableLinesUpItsColumns() {
        #expect(
            DiscoveryTable([device, hub]).rendered == """
                ID            IP          KIND             MODEL            SOFTWARE  HARDWARE  SA ID
                a1b2c3d4e5f6  192.0.2.20  device           ZTSW3SLW001W     1.0.0     esp32c3   -
                0a0b0c0d0e0f  192.0.2.3   smart-assistant  MH-SA00DCLB001W  -         -         -
                """
        )
    }

    @Test func eachDeviceBecomesOneEventWithItsProblem() {
        let streams = CapturedStreams()
        let console = streams.console(json: true)
        console.event("device", DiscoveryTable.fields(device))
        console.event("device", DiscoveryTable.fields(hub))
        #expect(
            streams.standardOutput == """
                {"event":"device","elapsed_ms":0,"id":"a1b2c3d4e5f6","ip":"192.0.2.20","udp_port":54321,"kind":"device",\
                "model":"ZTSW3SLW001W","sw_ver":"1.0.0","hw_ver":"esp32c3","sa_id":null,"port":null}
                {"event":"device","elapsed_ms":0,"id":"0a0b0c0d0e0f","ip":"192.0.2.3","udp_port":54321,"kind":"smart-assistant",\
                "model":"MH-SA00DCLB001W","error":"handoff.no-token","message":"No token."}

                """
        )
    }

    @Test func progressEventsNeverCarryTheToken() {
        let streams = CapturedStreams()
        let printer = ProgressPrinter(console: streams.console(json: true, verbosity: .verbose))
        let id = device.device.id
        printer.report(LANProgress.tokenReceived(id))
        printer.report(LANProgress.serverRequested(id, server: "gz.sc.zhitingtech.com", port: 54321))
        printer.report(LANProgress.serverConfirmed(id, ZhitingServerEcho(server: "gz.sc.zhitingtech.com", port: 54321)))
        #expect(
            streams.standardOutput == """
                {"event":"token-received","elapsed_ms":0,"id":"a1b2c3d4e5f6"}
                {"event":"server-requested","elapsed_ms":0,"id":"a1b2c3d4e5f6","server":"gz.sc.zhitingtech.com","port":54321}
                {"event":"server-confirmed","elapsed_ms":0,"id":"a1b2c3d4e5f6","server":"gz.sc.zhitingtech.com","port":54321}

                """
        )
        #expect(
            streams.standardError == """
                Key exchange with a1b2c3d4e5f6 done
                Telling a1b2c3d4e5f6 to use gz.sc.zhitingtech.com:54321
                a1b2c3d4e5f6 confirmed gz.sc.zhitingtech.com:54321

                """)
    }
}
