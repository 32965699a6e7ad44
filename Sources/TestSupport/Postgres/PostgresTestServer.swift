import Foundation

/// A throwaway PostgreSQL server on loopback for the suite: `initdb` into a temporary directory,
/// `pg_ctl start` on a free port with its socket in that directory, so it never meets the system's
/// own cluster. Root runs the server as the `postgres` user, which PostgreSQL insists on.
public struct PostgresTestServer: Sendable {
    /// The newest installed server's binaries, or nil when PostgreSQL is not installed.
    public static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }
    }()

    public static let user = "ztprov"

    public let directory: String
    public let port: Int
    private let binaries: String

    /// Initializes a cluster and starts it; stops and removes everything if starting fails.
    public static func start() async throws -> PostgresTestServer {
        guard let binaries else { throw PostgresTestServerError(message: "PostgreSQL is not installed") }
        let directory = FileManager.default.temporaryDirectory.appending(path: "ztprov-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let server = PostgresTestServer(directory: directory, port: try LoopbackPort.free(), binaries: binaries)
        do {
            if getuid() == 0 { try await CommandLineTool.run("/usr/bin/chown", ["postgres:postgres", directory]) }
            try await server.runAsServerUser(
                "initdb",
                ["-D", server.data, "-U", user, "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"])
            let options = "-h 127.0.0.1 -p \(server.port) -k \(directory) -F"
            try await server.runAsServerUser(
                "pg_ctl",
                ["-D", server.data, "-l", directory + "/server.log", "-o", options, "-w", "-t", "120", "start"])
        } catch {
            await server.stop()
            throw error
        }
        return server
    }

    /// Stops the server at once (its data is thrown away) and removes the directory.
    public func stop() async {
        try? await runAsServerUser("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Creates an empty database for one test and returns its URL.
    public func freshDatabase() async throws -> String {
        let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await CommandLineTool.run(
            binaries + "/createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", Self.user, name])
        return "postgres://\(Self.user)@127.0.0.1:\(port)/\(name)"
    }

    /// Runs SQL in the database at `url` with psql, as a person tampering with it would.
    public func psql(_ url: String, _ sql: String) async throws {
        try await CommandLineTool.run(binaries + "/psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql])
    }

    private var data: String { directory + "/data" }

    private func runAsServerUser(_ tool: String, _ arguments: [String]) async throws {
        let path = binaries + "/" + tool
        if getuid() == 0 {
            try await CommandLineTool.run("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
        } else {
            try await CommandLineTool.run(path, arguments)
        }
    }
}

/// Setting up the server failed; what the tool said.
public struct PostgresTestServerError: Error, CustomStringConvertible {
    let message: String
    public var description: String { message }
}
