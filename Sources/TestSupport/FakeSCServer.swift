import Foundation

/// A stand-in SC server on 127.0.0.1, written in Python's http.server so the HTTPS-capable
/// URLSession adapter is tested against a real HTTP stack, not against itself.
///
/// The session cookie picks the behaviour: `good` gets the token ``token`` (only for a POST to the real
/// path), `expired` gets SC's "login lost" envelope, `broken` gets HTTP 500, `moved` a redirect
/// to a page that would hand out a token, `slow` an answer after 3 s.
public final class FakeSCServer: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    /// `http://127.0.0.1:PORT`, for `--sc-url`.
    public let baseURL: String

    /// The access token handed out for the `good` session.
    public static let token = "AT-from-sc"

    static let script = #"""
        import http.server, json, os, sys, threading, time
        # Children of the test runner inherit a mask that blocks SIGTERM, so the server also ends
        # when its stdin closes (the test process went away) rather than waiting for a signal.
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        class SC(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args): pass
            def answer(self, status, body, headers=()):
                data = body.encode()
                self.send_response(status)
                for name, value in headers: self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def token(self):
                self.answer(200, json.dumps({"status": 0, "reason": "", "data": {"access_token": "AT-from-sc", "expires_in": 3600}}))
            def do_GET(self):
                self.token() if self.path == "/elsewhere" else self.answer(404, "")
            def do_POST(self):
                cookie = self.headers.get("Cookie", "")
                if self.path != "/api/v2.0.0/oauth2/access_token": return self.answer(404, "")
                if cookie == "_session_=good" and self.headers.get("Content-Type") == "application/json": return self.token()
                if cookie == "_session_=expired": return self.answer(200, json.dumps({"status": 2008, "reason": "login lost"}))
                if cookie == "_session_=broken": return self.answer(500, "oops")
                if cookie == "_session_=moved": return self.answer(302, "", [("Location", "/elsewhere")])
                if cookie == "_session_=slow":
                    time.sleep(3)
                    return self.token()
                self.answer(401, json.dumps({"status": 2009, "reason": "not logged in"}))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SC)
        sys.stdout.write(f"{server.server_address[1]}\n")
        sys.stdout.flush()
        server.serve_forever()
        """#

    /// Starts the server on a thread of its own (waiting for it blocks) and returns once it listens.
    public static func start() async throws -> FakeSCServer {
        try await onOwnThread { try FakeSCServer() }
    }

    private init() throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script]
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let line = output.fileHandleForReading.availableData
        let port = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        baseURL = "http://127.0.0.1:\(port)"
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
