import FoundationEssentials
import Provisioning

/// `batch --config FILE`: a station's standing options kept in a JSON object, so the line's scripts
/// need not repeat them.
///
/// Keys are the batch command's long options without dashes; strings and numbers become values, `true`
/// a flag, arrays a comma-separated list. The file's options go before the command line's, and
/// ArgumentParser keeps the last value given, so the command line wins. Secrets stay out: there is no
/// option that takes one, only `password-file`, `password-env` and the like.
enum StationProfile {
    /// `arguments` (without the program name) with the profile's options inserted after `batch`.
    static func expand(_ arguments: [String]) throws(ProvisioningError) -> [String] {
        guard arguments.first == "batch", let path = configPath(arguments) else { return arguments }
        return ["batch"] + (try options(in: path)) + arguments.dropFirst()
    }

    private static func configPath(_ arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { return arguments[index + 1] }
            if argument.hasPrefix("--config=") { return String(argument.dropFirst("--config=".count)) }
        }
        return nil
    }

    static func options(in path: String) throws(ProvisioningError) -> [String] {
        // A regular file only, like a secret file: a FIFO or device given as --config must not hang.
        guard case .success(let bytes) = RegularFile.contents(of: path, limit: 1 << 20) else {
            throw invalid(path, "cannot be read as a regular file of at most 1 MiB")
        }
        let data = Data(bytes)
        guard let object = try? JSONDecoder().decode([String: Value].self, from: data) else {
            throw invalid(path, "is not a JSON object of strings, numbers, true/false and lists")
        }
        var options: [String] = []
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            guard !key.hasPrefix("-"), key != "config", !key.isEmpty else {
                throw invalid(path, "has the key \"\(key)\"; keys are long option names without dashes")
            }
            if value.texts.contains(where: { $0.unicodeScalars.contains("\0") }) {
                throw invalid(path, "has a NUL character in the value of \"\(key)\"")
            }
            options += value.arguments(for: key)
        }
        return options
    }

    /// One profile value, decoded by JSON type so `true` is a flag and `2` a number.
    ///
    /// A number keeps the digits written: integers exactly, others as a decimal, never through
    /// `Double` (which loses digits of large IDs) nor `Int(Double)` (which traps on `1e20`). The
    /// option's own parser then checks it like a number typed on the command line.
    enum Value: Decodable {
        case flag(Bool)
        case number(String)
        case text(String)
        case list([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let integer = try? container.decode(Int.self) {
                self = .number(String(integer))
            } else if let decimal = try? container.decode(Decimal.self) {
                self = .number(decimal.description)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .list(try container.decode([String].self))
            }
        }

        /// The option as one `--key=value` argument: a value starting with `-` (a station named
        /// `-line-1`) stays the option's value instead of reading as another option.
        func arguments(for key: String) -> [String] {
            switch self {
            case .flag(let on): on ? ["--\(key)"] : []
            case .number(let number): ["--\(key)=\(number)"]
            case .text(let text): ["--\(key)=\(text)"]
            case .list(let items): ["--\(key)=\(items.joined(separator: ","))"]
            }
        }

        /// The text values, for the checks every value gets.
        var texts: [String] {
            switch self {
            case .flag: []
            case .number(let text), .text(let text): [text]
            case .list(let items): items
            }
        }
    }

    private static func invalid(_ path: String, _ reason: String) -> ProvisioningError {
        ProvisioningError(
            .invalidOption, "The station profile given to --config (\(path)) \(reason).",
            hint:
                "Write a JSON object such as {\"ssid\": \"Factory\", \"password-env\": \"WIFI_PW\", \"adapters\": [\"hci0\"]}."
        )
    }
}
