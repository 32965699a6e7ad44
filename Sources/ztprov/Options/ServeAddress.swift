import ArgumentParser

/// `--serve ADDRESS:PORT`: where `report --serve` listens. The address is an IPv4 address, `localhost`,
/// or an IPv6 address in brackets (`[::1]:8080`); port 0 lets the system pick one.
struct ServeAddress: ExpressibleByArgument, Equatable {
    var host: String
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init?(argument: String) {
        guard let colon = argument.lastIndex(of: ":"),
            let port = Int(argument[argument.index(after: colon)...]), (0...65535).contains(port)
        else { return nil }
        var host = String(argument[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            guard host == "localhost" || Self.ipv4(host) != nil else { return nil }
        }
        self.host = host
        self.port = port
    }

    /// Whether only this host can connect: `localhost`, 127.0.0.0/8 or `::1`.
    var isLoopback: Bool {
        host == "localhost" || Self.ipv4(host)?.first == 127 || host == "::1"
            || host == "0:0:0:0:0:0:0:1"
    }

    /// The address as a URL's authority: IPv6 in brackets.
    var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The four parts of a dotted IPv4 address, or nil.
    private static func ipv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { part in
            part.count <= 3 && part.allSatisfy(\.isASCII)
                ? Int(part).flatMap { (0...255).contains($0) ? $0 : nil } : nil
        }
        return parts.count == 4 && numbers.count == 4 ? numbers : nil
    }

    static var defaultValueDescription: String { "127.0.0.1:8080" }
}
