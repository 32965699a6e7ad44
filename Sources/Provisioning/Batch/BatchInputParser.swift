import FoundationEssentials
public import Records
import StringEssentials

/// Reads batch input one line at a time, as a file or a barcode scanner delivers it.
///
/// Three line shapes are accepted: a CSV header (`address,name,ssid,pop,adapter` in any order and
/// subset) followed by rows; headerless rows `TARGET[,POP]`, where a target that looks like a BLE
/// address is one and anything else is the advertised name (BLE) or the hotspot SSID (SoftAP); and
/// Espressif's provisioning QR payload `{"ver":"v1","name":…,"pop":…,"transport":…}`. Blank lines and
/// `#` comments are skipped. A misspelt column is an error, never a silently ignored field.
public struct BatchInputParser: Sendable {
    enum Column: String, CaseIterable {
        case address, name, ssid, pop, adapter
    }

    let path: ProvisioningPath
    private var columns: [Column]?
    private var lineNumber = 0
    /// Only the first line with content may be a header.
    private var sawContent = false

    public init(path: ProvisioningPath) {
        self.path = path
    }

    /// The unit on the next line, nil for a header, blank or comment line; a line that names no usable
    /// unit throws `batch.bad-input` with its line number.
    public mutating func parse(_ text: Substring) throws(ProvisioningError) -> BatchDevice? {
        lineNumber += 1
        // Spreadsheets save "CSV UTF-8" with a byte order mark; it starts the input, never a unit's name.
        let unmarked = lineNumber == 1 && text.unicodeScalars.first == "\u{FEFF}" ? text.dropFirst() : text
        let line = unmarked.trimmingWhitespace()
        guard !line.isEmpty, !line.hasPrefix("#") else { return nil }
        // A decoder puts U+FFFD where bytes were not UTF-8; a name or PoP altered so would never match.
        guard !line.unicodeScalars.contains(where: { $0 == "\0" || $0 == "\u{FFFD}" }) else {
            throw bad("it holds a NUL byte or bytes that are not UTF-8 text")
        }
        let isFirst = !sawContent
        sawContent = true
        if line.hasPrefix("{") { return try validated(qrPayload(line)) }
        guard let fields = BatchCSVFields.split(Substring(line)) else { throw bad("a quote is not closed") }
        if isFirst, let header = try Self.header(fields, line: lineNumber) {
            columns = header
            return nil
        }
        if let columns { return try validated(row(fields, columns: columns)) }
        return try validated(bareRow(fields))
    }

    /// The columns, when the line names any known column; then every field must be one, once.
    private static func header(_ fields: [String], line: Int) throws(ProvisioningError) -> [Column]? {
        let columns = fields.compactMap { Column(rawValue: $0.lowercased()) }
        guard !columns.isEmpty else { return nil }
        // Messages name a field by its place, never by its text: with the columns swapped or no header
        // at all, that text may be a unit's PoP.
        if let unknown = fields.firstIndex(where: { Column(rawValue: $0.lowercased()) == nil }) {
            let known = Column.allCases.map(\.rawValue).joined(separator: ", ")
            throw .batchBadInput(
                line: line, "field \(unknown + 1) of the header is not a known column (known: \(known))")
        }
        guard Set(columns).count == columns.count else {
            throw .batchBadInput(line: line, "the header names a column twice")
        }
        return columns
    }

    private func row(_ fields: [String], columns: [Column]) throws(ProvisioningError) -> BatchDevice {
        guard fields.count <= columns.count else {
            throw bad("it has \(fields.count) fields but the header names \(columns.count)")
        }
        var values: [Column: String] = [:]
        for (column, field) in zip(columns, fields) where !field.isEmpty { values[column] = field }
        return BatchDevice(
            address: values[.address], name: values[.name], hotspotSSID: values[.ssid],
            proofOfPossession: values[.pop].map(Secret.init), lane: values[.adapter], line: lineNumber)
    }

    private func bareRow(_ fields: [String]) throws(ProvisioningError) -> BatchDevice {
        guard fields.count <= 2, let target = fields.first, !target.isEmpty else {
            throw bad("expected TARGET or TARGET,POP, or a header line naming the columns")
        }
        let pop = fields.count == 2 && !fields[1].isEmpty ? Secret(fields[1]) : nil
        if Self.looksLikeAddress(target) {
            return BatchDevice(address: target, proofOfPossession: pop, line: lineNumber)
        }
        return path == .ble
            ? BatchDevice(name: target, proofOfPossession: pop, line: lineNumber)
            : BatchDevice(hotspotSSID: target, proofOfPossession: pop, line: lineNumber)
    }

    private func qrPayload(_ line: String) throws(ProvisioningError) -> BatchDevice {
        guard let payload = try? JSONDecoder().decode(QRPayload.self, from: Data(line.utf8)),
            let name = payload.name, !name.isEmpty
        else { throw bad("the QR payload is not JSON with a \"name\"") }
        if let transport = payload.transport, transport.lowercased() != path.rawValue {
            throw bad("the QR payload's transport is not \(path.rawValue), which this batch runs")
        }
        if path == .ble, payload.transport?.lowercased() == "ble" { return try protocommUnit(line) }
        let pop = payload.pop.flatMap { $0.isEmpty ? nil : Secret($0) }
        return path == .ble
            ? BatchDevice(name: name, proofOfPossession: pop, line: lineNumber)
            : BatchDevice(hotspotSSID: name, proofOfPossession: pop, line: lineNumber)
    }

    /// A payload with `"transport":"ble"` comes from ESP provisioning firmware: the unit runs protocomm
    /// over BLE with the payload's security, username and PoP.
    private func protocommUnit(_ line: String) throws(ProvisioningError) -> BatchDevice {
        let payload: ESPProvisioningQRPayload
        do {
            payload = try ESPProvisioningQRPayload(line)
        } catch {
            throw bad("the QR payload is unusable (a field of the wrong type or out of range)")
        }
        if payload.network == "thread" { throw bad("the QR payload is for a Thread unit; a batch provisions Wi-Fi") }
        return BatchDevice(
            name: payload.name, proofOfPossession: payload.proofOfPossession, line: lineNumber,
            protocomm: BatchProtocommUnit(security: payload.security, username: payload.username))
    }

    private func validated(_ device: BatchDevice) throws(ProvisioningError) -> BatchDevice {
        // A QR payload's JSON can spell a NUL as `\u0000`: it would cut the stored name in SQLite.
        let texts = [
            device.address, device.name, device.hotspotSSID, device.lane, device.proofOfPossession?.revealed(),
        ]
        guard !texts.contains(where: { $0?.unicodeScalars.contains("\0") == true }) else {
            throw bad("a field holds a NUL character")
        }
        guard device.isAddressable(on: path) else {
            throw bad(path == .ble ? "a BLE unit needs an address or a name" : "a SoftAP unit needs its hotspot ssid")
        }
        if let address = device.address, !Self.looksLikeAddress(address) {
            throw bad("the address is not a BLE address such as 24:0A:C4:12:34:56")
        }
        if let ssid = device.hotspotSSID, !(1...32).contains(ssid.utf8.count) {
            throw bad("the hotspot SSID must be 1 to 32 bytes")
        }
        return device
    }

    static func looksLikeAddress(_ text: String) -> Bool {
        let octets = text.split(separator: ":", omittingEmptySubsequences: false)
        return octets.count == 6 && octets.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }

    private func bad(_ reason: String) -> ProvisioningError {
        .batchBadInput(line: lineNumber, reason)
    }
}

/// The QR payload's fields the batch uses; one that is missing or not a string reads as nil, and
/// every other field (`ver`, `password`, …) is ignored.
private struct QRPayload: Decodable {
    var name: String?
    var transport: String?
    var pop: String?

    private enum CodingKeys: String, CodingKey {
        case name, transport, pop
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        name = try? fields.decodeIfPresent(String.self, forKey: .name)
        transport = try? fields.decodeIfPresent(String.self, forKey: .transport)
        pop = try? fields.decodeIfPresent(String.self, forKey: .pop)
    }
}
