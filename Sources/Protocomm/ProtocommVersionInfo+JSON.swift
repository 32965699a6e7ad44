internal import JSONWriting

/// The `proto-ver` body as the device writes it: `cJSON_Print` output, tabs and all, so the
/// emulator's replies look like a real device's.
extension ProtocommVersionInfo {
    /// UTF-8 JSON for a `proto-ver` reply; a legacy version string is returned as is.
    public func responseBody() -> [UInt8] {
        guard !isLegacyVersionString else { return Array(version.utf8) }
        var prov = [JSONField("ver", .string(version))]
        if let securityVersion { prov.append(JSONField("sec_ver", .int(securityVersion))) }
        if let securityPatchVersion { prov.append(JSONField("sec_patch_ver", .int(securityPatchVersion))) }
        prov.append(JSONField("cap", .array(capabilities.map { .string($0.rawValue) })))
        var root = [JSONField("prov", .object(prov))]
        for (label, application) in applications.sorted(by: { $0.key < $1.key }) {
            var entry: [JSONField] = []
            if let version = application.version { entry.append(JSONField("ver", .string(version))) }
            entry.append(JSONField("cap", .array(application.capabilities.map(JSONValue.string))))
            root.append(JSONField(label, .object(entry)))
        }
        return Array(JSONValue.object(root).cJSONPrinted(depth: 0).utf8)
    }
}

extension JSONValue {
    /// The text `cJSON_Print` writes: one member a line, indented by tabs, a tab after each colon;
    /// array elements on one line, separated by ", ".
    fileprivate func cJSONPrinted(depth: Int) -> String {
        switch self {
        case .array(let elements):
            "[" + elements.map { $0.cJSONPrinted(depth: depth + 1) }.joined(separator: ", ") + "]"
        case .object(let members):
            "{\n"
                + members.map {
                    String(repeating: "\t", count: depth + 1) + JSONText.quoted($0.key) + ":\t"
                        + $0.value.cJSONPrinted(depth: depth + 1)
                }.joined(separator: ",\n") + "\n" + String(repeating: "\t", count: depth) + "}"
        default: serialized
        }
    }
}
