internal import COpenSSL

/// A TLS client session (TLS 1.2 or later, certificate and host name verified) as bytes in, bytes out.
///
/// The caller moves ciphertext between the session and its socket (``receive(_:)``,
/// ``takeOutgoing()``), so OpenSSL never touches the network and this facade stays free of I/O.
/// Not thread-safe: one owner drives it.
public final class TLSClientSession {
    private let context: OpaquePointer
    private let connection: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer

    /// A session that will verify the server's certificate chain against the system's trust store, or
    /// against the PEM certificates in `trustedCertificates` when given, and its name against
    /// `serverName` (a DNS name, sent as SNI, or an IP address literal).
    public init(serverName: String, trustedCertificates: String? = nil) throws(CryptoError) {
        if let failure = COpenSSL_loadSSL() {
            throw .library("cannot load libssl (install libssl3): \(String(cString: failure))")
        }
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw OpenSSLErrorQueue.drain(context: "SSL_CTX_new")
        }
        self.context = context
        // An SSL object copies the context's verify mode, options and versions when it is made.
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        // Servers often close without close_notify; the HTTP framing above says whether a body is whole.
        SSL_CTX_set_options(context, COpenSSL_SSL_OP_IGNORE_UNEXPECTED_EOF)
        let trusted =
            if let trustedCertificates {
                SSL_CTX_load_verify_locations(context, trustedCertificates, nil)
            } else {
                SSL_CTX_set_default_verify_paths(context)
            }
        guard trusted == 1, COpenSSL_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1,
            let connection = SSL_new(context)
        else {
            SSL_CTX_free(context)
            throw OpenSSLErrorQueue.drain(context: "TLS setup")
        }
        self.connection = connection
        guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            SSL_free(connection)
            SSL_CTX_free(context)
            throw OpenSSLErrorQueue.drain(context: "BIO_new")
        }
        self.incoming = incoming
        self.outgoing = outgoing
        SSL_set_bio(connection, incoming, outgoing)
        SSL_set_connect_state(connection)
        guard SSL_set1_host(connection, serverName) == 1 else {
            throw OpenSSLErrorQueue.drain(context: "TLS host name")
        }
        // RFC 6066 §3: SNI carries host names only, never address literals.
        if !Self.isAddressLiteral(serverName), COpenSSL_SSL_set_tlsext_host_name(connection, serverName) != 1 {
            throw OpenSSLErrorQueue.drain(context: "SNI")
        }
    }

    deinit {
        SSL_free(connection)
        SSL_CTX_free(context)
    }

    /// Advances the handshake with the bytes received so far; true once it is complete. Send
    /// ``takeOutgoing()`` after every call.
    public func handshake() throws(CryptoError) -> Bool {
        ERR_clear_error()
        let result = SSL_do_handshake(connection)
        if result == 1 { return true }
        if SSL_get_error(connection, result) == SSL_ERROR_WANT_READ { return false }
        let verification = SSL_get_verify_result(connection)
        if verification != X509_V_OK {
            let reason = X509_verify_cert_error_string(verification).map { String(cString: $0) } ?? "unknown"
            ERR_clear_error()
            throw .library("certificate verification failed: \(reason)")
        }
        throw OpenSSLErrorQueue.drain(context: "TLS handshake")
    }

    /// Hands the session ciphertext read from the socket.
    public func receive(_ ciphertext: [UInt8]) {
        ciphertext.withUnsafeBytes { _ = BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
    }

    /// Tells the session the socket reached end of stream: pending reads end instead of waiting.
    public func receiveEndOfStream() {
        COpenSSL_BIO_set_mem_eof_return(incoming, 0)
    }

    /// The ciphertext the session wants sent, emptied from it.
    public func takeOutgoing() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while BIO_ctrl_pending(outgoing) > 0 {
            let count = chunk.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32($0.count)) }
            guard count > 0 else { break }
            bytes += chunk[..<Int(count)]
        }
        return bytes
    }

    /// Encrypts `plaintext` for sending (after the handshake); send ``takeOutgoing()`` afterwards.
    public func write(_ plaintext: [UInt8]) throws(CryptoError) {
        guard !plaintext.isEmpty else { return }
        ERR_clear_error()
        let written = plaintext.withUnsafeBytes { SSL_write(connection, $0.baseAddress, Int32($0.count)) }
        guard written == plaintext.count else { throw OpenSSLErrorQueue.drain(context: "SSL_write") }
    }

    /// What the received ciphertext decrypts to so far.
    public enum Plaintext: Equatable {
        /// Decrypted bytes (possibly none: more ciphertext is needed).
        case bytes([UInt8])
        /// The peer closed the session (close_notify) or, after ``receiveEndOfStream()``, the stream ended.
        case closed
    }

    /// Decrypts what has been received; call again after each ``receive(_:)``.
    public func read() throws(CryptoError) -> Plaintext {
        ERR_clear_error()
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { SSL_read(connection, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                bytes += chunk[..<Int(count)]
                continue
            }
            switch SSL_get_error(connection, count) {
            case SSL_ERROR_WANT_READ: return .bytes(bytes)
            case SSL_ERROR_ZERO_RETURN: return bytes.isEmpty ? .closed : .bytes(bytes)
            default: throw OpenSSLErrorQueue.drain(context: "SSL_read")
            }
        }
    }

    private static func isAddressLiteral(_ name: String) -> Bool {
        name.contains(":") || (!name.isEmpty && name.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber })
    }
}
