import Dispatch
import Provisioning

/// Where the units come from: a file read and checked as a whole before the batch starts, or stdin
/// read line by line while lanes work (a barcode scanner), where a bad line is reported and skipped.
enum BatchInputSource {
    /// The largest unit file read: some hundred thousand units, far more than a shift provisions.
    static let fileLimit = 16 << 20

    /// Every unit of the file, or the first unusable line's error (nothing has started yet).
    ///
    /// The file is split into lines as bytes, at `\n` with an optional `\r` before it, and each line
    /// must be UTF-8 on its own, so a bad byte is reported with its line number.
    static func file(_ path: String, parser: BatchInputParser) throws(ProvisioningError) -> [BatchDevice] {
        let bytes: [UInt8]
        switch RegularFile.contents(of: path, limit: fileLimit) {
        case .success(let contents): bytes = contents
        case .failure(let refusal):
            throw ProvisioningError(
                .invalidOption, "The batch input \(path) \(refusal.reason(limit: "\(fileLimit >> 20) MiB")).",
                hint: "Give a regular file with one unit per line, or feed units on stdin.")
        }
        var parser = parser
        var devices: [BatchDevice] = []
        for var line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if line.last == 0x0D { line = line.dropLast() }
            // A decoder would put U+FFFD where bytes are not UTF-8; the parser refuses that character.
            if let device = try parser.parse(Substring(String(decoding: line, as: UTF8.self))) {
                devices.append(device)
            }
        }
        return devices
    }

    /// `devices` as the stream the runner reads.
    static func stream(_ devices: [BatchDevice]) -> AsyncStream<BatchDevice> {
        AsyncStream { continuation in
            for device in devices { continuation.yield(device) }
            continuation.finish()
        }
    }

    /// Units as stdin delivers them; `rejected` hears about lines that name no usable unit.
    static func standardInput(
        parser: BatchInputParser, rejected: @escaping @Sendable (ProvisioningError) -> Void
    ) -> AsyncStream<BatchDevice> {
        let (stream, continuation) = AsyncStream<BatchDevice>.makeStream()
        // Reading blocks: a queue of its own keeps it off the cooperative pool.
        DispatchQueue(label: "ztprov-batch-stdin").async {
            var parser = parser
            var lines = StandardInputLines()
            while let line = lines.next() {
                do throws(ProvisioningError) {
                    if let device = try parser.parse(Substring(line)) { continuation.yield(device) }
                } catch {
                    rejected(error)
                }
            }
            // After a signal the input did not end: the batch is being interrupted, and its cancellation
            // ends the stream; finishing it here could let the batch end as if complete.
            if !InterruptSignal.received { continuation.finish() }
        }
        return stream
    }
}
