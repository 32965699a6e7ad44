internal import JSONWriting

/// The `proto-ver` body as the device writes it: `cJSON_Print` output, tabs and all, so the
/// emulator's replies look like a real device's.
extension ProtocommVersionInfo {
    /// UTF-8 JSON for a `proto-ver` reply; a legacy version string is returned as is.
    public func responseBody() -> [UInt8] {
        guard !isLegacyVersionString else { return Array(version.utf8) }
        var prov: [(String, JSONValue)] = [("ver", .string(version))]
        if let securityVersion { prov.append(("sec_ver", .number(securityVersion))) }
        if let securityPatchVersion { prov.append(("sec_patch_ver", .number(securityPatchVersion))) }
        prov.append(("cap", .strings(capabilities.map(\.rawValue))))
        var root: [(String, JSONValue)] = [("prov", .object(prov))]
        for (label, application) in applications.sorted(by: { $0.key < $1.key }) {
            var entry: [(String, JSONValue)] = []
            if let version = application.version { entry.append(("ver", .string(version))) }
            entry.append(("cap", .strings(application.capabilities)))
            root.append((label, .object(entry)))
        }
        return Array(JSONValue.object(root).printed(depth: 0).utf8)
    }
}

/// The few JSON shapes `proto-ver` uses, printed the way cJSON_Print does.
private indirect enum JSONValue {
    case string(String)
    case number(Int)
    case strings([String])
    case object([(String, JSONValue)])

    func printed(depth: Int) -> String {
        switch self {
        case .string(let text): JSONText.quoted(text)
        case .number(let value): String(value)
        case .strings(let items): "[" + items.map(JSONText.quoted).joined(separator: ", ") + "]"
        case .object(let members): Self.printedObject(members, depth: depth)
        }
    }

    private static func printedObject(_ members: [(String, JSONValue)], depth: Int) -> String {
        let inner = String(repeating: "\t", count: depth + 1)
        let lines = members.map { key, value in inner + JSONText.quoted(key) + ":\t" + value.printed(depth: depth + 1) }
        return "{\n" + lines.joined(separator: ",\n") + "\n" + String(repeating: "\t", count: depth) + "}"
    }
}
