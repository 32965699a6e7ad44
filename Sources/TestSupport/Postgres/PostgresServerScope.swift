public import Testing

/// A suite trait that starts one PostgreSQL server before the suite's first test and stops it after
/// the last, on success and failure alike; tests reach it as `PostgresTestServer.current`.
public struct PostgresServerScope: SuiteTrait, TestScoping {
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try await PostgresTestServer.start()
        do {
            try await PostgresTestServer.$current.withValue(server, operation: function)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

extension PostgresTestServer {
    /// The server of the enclosing `.postgresServer` suite.
    @TaskLocal public static var current: PostgresTestServer?

    /// The server of the enclosing suite, or a failure saying the trait is missing.
    public static func required() throws -> PostgresTestServer {
        guard let current else { throw PostgresTestServerError(message: "the suite lacks the .postgresServer trait") }
        return current
    }
}

extension Trait where Self == PostgresServerScope {
    /// One PostgreSQL server for the whole suite.
    public static var postgresServer: Self { PostgresServerScope() }
}
