import Foundation
import Provisioning

/// Where the units come from: a file read and checked as a whole before the batch starts, or stdin
/// read line by line while lanes work (a barcode scanner), where a bad line is reported and skipped.
enum BatchInputSource {
    /// Every unit of the file, or the first unusable line's error (nothing has started yet).
    static func file(_ path: String, parser: BatchInputParser) throws(ProvisioningError) -> AsyncStream<BatchDevice> {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ProvisioningError(
                .invalidOption, "Cannot read the batch input \(path).", hint: "Check the path and its permissions.")
        }
        var parser = parser
        var devices: [BatchDevice] = []
        // `\r\n` is one Character in Swift, so splitting on "\n" alone would leave a CRLF file one line.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if let device = try parser.parse(line) { devices.append(device) }
        }
        return AsyncStream { continuation in
            for device in devices { continuation.yield(device) }
            continuation.finish()
        }
    }

    /// Units as stdin delivers them; `rejected` hears about lines that name no usable unit.
    static func standardInput(
        parser: BatchInputParser, rejected: @escaping @Sendable (ProvisioningError) -> Void
    ) -> AsyncStream<BatchDevice> {
        let (stream, continuation) = AsyncStream<BatchDevice>.makeStream()
        let reader = Thread {
            var parser = parser
            while let line = readLine(strippingNewline: true) {
                do throws(ProvisioningError) {
                    if let device = try parser.parse(Substring(line)) { continuation.yield(device) }
                } catch {
                    rejected(error)
                }
            }
            continuation.finish()
        }
        reader.name = "ztprov-batch-stdin"
        reader.start()
        return stream
    }
}
