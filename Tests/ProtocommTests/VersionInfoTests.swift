import Protocomm
import Testing

/// `proto-ver` parsing and the security choice that follows from it.
@Suite struct VersionInfoTests {
    private func info(_ text: String) throws -> ProtocommVersionInfo {
        try ProtocommVersionInfo(responseBody: Array(text.utf8))
    }

    @Test func readsTheWifiProvisioningManagerShape() throws {
        let parsed = try info(#"{"prov":{"ver":"v1.1","sec_ver":1,"sec_patch_ver":0,"cap":["wifi_scan"]}}"#)
        #expect(
            parsed
                == ProtocommVersionInfo(
                    version: "v1.1", securityVersion: 1, securityPatchVersion: 0, capabilities: [.wifiScan]))
        #expect(try parsed.recommendedSecurityLevel() == .security1)
        #expect(parsed.requiresProofOfPossession)
    }

    @Test func readsNetworkProvisioningWithApplicationLabels() throws {
        let text = """
            {
            \t"my-app":\t{"ver": "2.0.3", "cap": ["ota"]},
            \t"prov":\t{
            \t\t"ver":\t"netprov-v1.2",
            \t\t"sec_ver":\t2,
            \t\t"sec_patch_ver":\t1,
            \t\t"cap":\t["wifi_prov", "wifi_scan"]
            \t}
            }
            """
        let parsed = try info(text)
        #expect(parsed.version == "netprov-v1.2")
        #expect(parsed.capabilities == [.wifiProvisioning, .wifiScan])
        #expect(parsed.applications == ["my-app": ProtocommApplicationInfo(version: "2.0.3", capabilities: ["ota"])])
        #expect(try parsed.recommendedSecurityLevel() == .security2)
        #expect(parsed.security2Patch == .counterNonce)
    }

    @Test func fallsBackToCapabilitiesWithoutSecVer() throws {
        #expect(
            try info(#"{"prov":{"ver":"v1.1","cap":["no_sec","wifi_scan"]}}"#).recommendedSecurityLevel() == .security0)
        #expect(try info(#"{"prov":{"ver":"v1.1","cap":["wifi_scan"]}}"#).recommendedSecurityLevel() == .security1)
        #expect(try info(#"{"prov":{"ver":"v1.1"}}"#).recommendedSecurityLevel() == .security1)
    }

    @Test func toleratesFieldsOfTheWrongType() throws {
        let parsed = try info(#"{"prov":{"ver":"v1.1","sec_ver":"2","cap":"wifi_scan"},"label":[1,2]}"#)
        #expect(parsed.securityVersion == nil)
        #expect(parsed.capabilities.isEmpty)
        #expect(parsed.applications["label"] == ProtocommApplicationInfo())
    }

    @Test func acceptsALegacyVersionString() throws {
        let parsed = try info("V0.1\n")
        #expect(parsed.isLegacyVersionString)
        #expect(parsed.version == "V0.1")
        #expect(try parsed.recommendedSecurityLevel() == .security1)
    }

    @Test(arguments: [
        "", "   ", "{", "{}", #"{"prov":{}}"#, #"{"prov":3}"#, "[1,2]", String(repeating: "v", count: 65), "a\u{7}b",
    ])
    func rejectsWhatIsNeitherJSONNorAVersion(_ text: String) {
        #expect(throws: ProtocommError.invalidVersionInfo) { try info(text) }
    }

    @Test func rejectsBytesThatAreNotUTF8() {
        #expect(throws: ProtocommError.invalidVersionInfo) { try ProtocommVersionInfo(responseBody: [0xff, 0xfe]) }
    }

    @Test func namesAnUnknownSecurityVersion() throws {
        let parsed = try info(#"{"prov":{"ver":"v1.1","sec_ver":3,"cap":[]}}"#)
        #expect(throws: ProtocommError.unsupportedSecurityVersion(3)) { try parsed.recommendedSecurityLevel() }
        #expect(try parsed.security(level: .security0, credentials: .init()) == .security0, "an override still works")
    }

    @Test func choosesCredentialsForTheScheme() throws {
        let sec1 = try info(#"{"prov":{"ver":"v1.1","sec_ver":1,"cap":["wifi_scan"]}}"#)
        #expect(try sec1.security(credentials: .init(proofOfPossession: "pop")) == .security1(proofOfPossession: "pop"))
        #expect(throws: ProtocommError.missingCredentials(.security1)) { try sec1.security(credentials: .init()) }

        let noPop = try info(#"{"prov":{"ver":"v1.1","sec_ver":1,"cap":["no_pop","wifi_scan"]}}"#)
        #expect(!noPop.requiresProofOfPossession)
        #expect(
            try noPop.security(credentials: .init(proofOfPossession: "ignored")) == .security1(proofOfPossession: ""))

        let sec2 = try info(#"{"prov":{"ver":"v1.1","sec_ver":2,"sec_patch_ver":0,"cap":["wifi_scan"]}}"#)
        #expect(
            try sec2.security(credentials: .init(username: "u", password: "p"))
                == .security2(username: "u", password: "p", patch: .fixedNonce))
        #expect(
            try sec2.security(patch: .counterNonce, credentials: .init(username: "u", password: "p"))
                == .security2(username: "u", password: "p", patch: .counterNonce))
        #expect(throws: ProtocommError.missingCredentials(.security2)) {
            try sec2.security(credentials: .init(username: "u"))
        }
        #expect(
            try sec2.security(level: .security1, credentials: .init(proofOfPossession: "pop"))
                == .security1(proofOfPossession: "pop"))
    }

    @Test func missingPatchVersionLeavesTheChoiceToTheNonce() throws {
        let parsed = try info(#"{"prov":{"ver":"v1.1","sec_ver":2,"cap":["wifi_scan"]}}"#)
        #expect(parsed.security2Patch == nil)
        #expect(
            try parsed.security(credentials: .init(username: "u", password: "p"))
                == .security2(username: "u", password: "p", patch: nil))
    }

    @Test func deviceWritesWhatCJSONPrintWrites() {
        let config = ProtocommDeviceConfiguration(security: .security0)
        let text = String(decoding: config.versionInfo.responseBody(), as: UTF8.self)
        #expect(
            text == "{\n\t\"prov\":\t{\n\t\t\"ver\":\t\"v1.1\",\n\t\t\"sec_ver\":\t0,\n\t\t\"sec_patch_ver\":\t0,\n"
                + "\t\t\"cap\":\t[\"no_sec\", \"wifi_scan\"]\n\t}\n}")
    }

    @Test(arguments: PairCase.all)
    func deviceVersionInfoRoundTrips(_ pairCase: PairCase) throws {
        var info = pairCase.device.versionInfo
        info.applications = ["app \"quoted\"": ProtocommApplicationInfo(version: "1\t2", capabilities: ["a", "b"])]
        #expect(try ProtocommVersionInfo(responseBody: info.responseBody()) == info)
    }

    @Test func legacyVersionRoundTrips() throws {
        let legacy = ProtocommVersionInfo(version: "V0.1", isLegacyVersionString: true)
        #expect(try ProtocommVersionInfo(responseBody: legacy.responseBody()) == legacy)
    }
}
