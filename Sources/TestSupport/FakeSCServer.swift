import Foundation

/// A stand-in SC server on 127.0.0.1, written in Python's http.server (and its `ssl` module for
/// HTTPS), so our HTTP client is tested against a real HTTP and TLS stack, not against itself.
///
/// With TLS the server presents a fresh self-signed certificate for `127.0.0.1` only (no DNS name),
/// written to ``trustedCertificates`` for the client to trust.
///
/// The session cookie picks the behaviour: `good` gets the token ``token`` (only for a POST to the real
/// path), `expired` gets SC's "login lost" envelope, `broken` gets HTTP 500, `moved` a redirect
/// to a page that would hand out a token, `slow` an answer after 3 s.
public final class FakeSCServer: @unchecked Sendable {
    private let process: RunningProcess
    /// `http://127.0.0.1:PORT` (`https://` with TLS), for `--sc-url`.
    public let baseURL: String
    /// The server's certificate as PEM, to trust (nil without TLS).
    public let trustedCertificates: String?

    /// The access token handed out for the `good` session.
    public static let token = "AT-from-sc"

    static let script = #"""
        import datetime, http.server, ipaddress, json, os, shutil, ssl, sys, tempfile, threading, time
        directory = tempfile.mkdtemp(prefix="ztprov-fake-sc-")
        # Children of the test runner inherit a mask that blocks SIGTERM, so the server also ends
        # when its stdin closes (the test process went away) rather than waiting for a signal.
        threading.Thread(target=lambda: (sys.stdin.read(), shutil.rmtree(directory), os._exit(0)), daemon=True).start()
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
        certificate = ""
        if sys.argv[1:] == ["tls"]:
            from cryptography import x509
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import ec
            key = ec.generate_private_key(ec.SECP256R1())
            name = x509.Name([x509.NameAttribute(x509.oid.NameOID.COMMON_NAME, "fake SC")])
            now = datetime.datetime.now(datetime.timezone.utc)
            cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                    .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
                    .not_valid_after(now + datetime.timedelta(days=1))
                    .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
                    .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
                    .sign(key, hashes.SHA256()))
            certificate = os.path.join(directory, "sc.pem")
            keyfile = os.path.join(directory, "sc.key")
            with open(certificate, "wb") as out: out.write(cert.public_bytes(serialization.Encoding.PEM))
            with open(keyfile, "wb") as out:
                out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(certificate, keyfile)
            server.socket = context.wrap_socket(server.socket, server_side=True)
        sys.stdout.write(f"{server.server_address[1]} {certificate}\n")
        sys.stdout.flush()
        server.serve_forever()
        """#

    /// Starts the server and returns once it listens.
    public static func start(tls: Bool = false) async throws -> FakeSCServer {
        var launch = ProcessLaunch(RepositoryLayout.python, ["-c", Self.script] + (tls ? ["tls"] : []))
        launch.holdsStandardInput = true
        launch.deadline = .seconds(600)
        let process = try launch.start()
        try await process.waitUntilReady("the SC server prints its port") {
            process.standardOutputSoFar.contains("\n")
        }
        return FakeSCServer(process: process, tls: tls)
    }

    private init(process: RunningProcess, tls: Bool) {
        self.process = process
        let fields = process.standardOutputSoFar.split(whereSeparator: \.isWhitespace).map(String.init)
        let port = fields.first ?? ""
        baseURL = (tls ? "https" : "http") + "://127.0.0.1:\(port)"
        trustedCertificates = fields.count > 1 ? fields[1] : nil
    }

    /// Ends the server by closing its input, so it removes its directory itself.
    deinit {
        process.closeStandardInput()
        _ = process.waitForExitBlocking()
    }
}
