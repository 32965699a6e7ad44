import CryptoPrimitives

/// The device's half of the key negotiation, with the checks and error codes of ESP-IDF's example
/// security callbacks (V1: release/v5.x with mbedTLS DHM; V2: v6.x with PSA FFDH).
///
/// Symbols: p, g, A = prime, generator and public key the phone sent; b = the device's private
/// exponent (drawn from the injected source, the prime's width); B = g^b mod p, the reply.
extension BluFiDeviceSession {
    mutating func negotiate(_ payload: [UInt8]) -> [Action] {
        guard payload.count >= 3 else { return sendError(.dataFormat) }
        guard configuration.security != .none else { return sendError(.initSecurity) }
        switch payload[0] {
        case BluFiNegotiation.parameterLengthCode:
            let length = Int(payload[1]) << 8 | Int(payload[2])
            guard (1...1024).contains(length) else {
                pendingParameterLength = nil
                return sendError(.dhParameter)
            }
            pendingParameterLength = length
            if configuration.security == .v2 {
                // V2 tears down both keystreams when a new negotiation starts.
                encoder.install(nil)
                decoder.install(nil)
            }
            return []
        case BluFiNegotiation.parameterDataCode:
            return receiveParameters(payload)
        case 0x02...0x04:
            return []
        default:
            return configuration.security == .v2 ? sendError(.dataFormat) : []
        }
    }

    private mutating func receiveParameters(_ payload: [UInt8]) -> [Action] {
        guard let length = pendingParameterLength else { return sendError(.dhParameter) }
        guard payload.count >= length + 1 else { return sendError(.dhParameter) }
        pendingParameterLength = nil
        guard let fields = Self.lengthPrefixedFields(payload[1...length]) else { return sendError(.dhParameter) }
        do {
            let (keys, publicKey) =
                configuration.security == .v2
                ? try agreeV2(peerPublicKey: fields.publicKey)
                : try agreeV1(prime: fields.prime, generator: fields.generator, peerPublicKey: fields.publicKey)
            encoder.install(keys.cipher(for: .deviceToPhone))
            decoder.install(keys.cipher(for: .phoneToDevice))
            return send(.negotiation, publicKey) + [.report(.negotiated(keys.scheme))]
        } catch {
            return sendError(error.code)
        }
    }

    /// A negotiation step that failed with the code the example reports.
    private struct NegotiationFailure: Error {
        let code: BluFiDeviceErrorCode
    }

    private mutating func agreeV1(
        prime: [UInt8], generator: [UInt8], peerPublicKey: [UInt8]
    ) throws(NegotiationFailure) -> (BluFiSessionKeys, [UInt8]) {
        let p = BigNumber(bigEndian: prime)
        let a = BigNumber(bigEndian: peerPublicKey)
        guard p.magnitude.count <= 128 else { throw NegotiationFailure(code: .dhParameter) }
        // mbedtls_dhm_read_params accepts a peer key only in 2 ... p − 2.
        guard Self.isInPublicKeyRange(a, prime: p) else { throw NegotiationFailure(code: .readParameter) }
        // mbedtls_dhm_make_public needs an odd modulus and a result in the same range.
        guard p.magnitude.last.map({ $0 & 1 == 1 }) ?? false else { throw NegotiationFailure(code: .makePublic) }
        let group = DHGroup(prime: p.magnitude, generator: generator)
        let keyPair = DHKeyPair.generate(in: group, using: &random)
        guard Self.isInPublicKeyRange(BigNumber(bigEndian: keyPair.publicKey), prime: p),
            let secret = try? keyPair.sharedSecret(peerPublicKey: peerPublicKey)
        else { throw NegotiationFailure(code: .makePublic) }
        return (BluFiSessionKeys.v1(sharedSecret: secret), keyPair.publicKey)
    }

    private mutating func agreeV2(peerPublicKey: [UInt8]) throws(NegotiationFailure) -> (BluFiSessionKeys, [UInt8]) {
        // p and g from the phone are ignored: the key's width selects the RFC 7919 group, and only 3072 exists.
        guard peerPublicKey.count == DHGroup.ffdhe3072.byteCount else { throw NegotiationFailure(code: .dhParameter) }
        let keyPair = DHKeyPair.generate(in: .ffdhe3072, using: &random)
        guard let secret = try? keyPair.sharedSecret(peerPublicKey: peerPublicKey) else {
            throw NegotiationFailure(code: .dhParameter)
        }
        return (BluFiSessionKeys.v2(sharedSecret: secret), keyPair.publicKey)
    }

    private static func isInPublicKeyRange(_ value: BigNumber, prime: BigNumber) -> Bool {
        BigNumber(1) < value && value + BigNumber(1) < prime
    }

    /// Splits `len(p) ‖ p ‖ len(g) ‖ g ‖ len(pub) ‖ pub`; `nil` when a length runs past the end.
    private static func lengthPrefixedFields(
        _ bytes: ArraySlice<UInt8>
    ) -> (prime: [UInt8], generator: [UInt8], publicKey: [UInt8])? {
        var rest = bytes
        var fields: [[UInt8]] = []
        for _ in 0..<3 {
            guard rest.count >= 2 else { return nil }
            let count = Int(rest[rest.startIndex]) << 8 | Int(rest[rest.startIndex + 1])
            guard rest.count - 2 >= count else { return nil }
            fields.append(Array(rest.dropFirst(2).prefix(count)))
            rest = rest.dropFirst(2 + count)
        }
        return (fields[0], fields[1], fields[2])
    }
}
