import CryptoPrimitives

/// Security set-up: pick the scheme, send the NEG messages, derive keys from the device's reply.
///
/// Symbols: p, g = the scheme's group; a = our private exponent (drawn from the injected source, as
/// wide as ``BluFiSecurityScheme/privateExponentByteCount`` says, or taken from a pair drawn ahead); A = g^a mod p, sent padded to the width of p; B = the device's public key;
/// K = B^a mod p, hashed into the AES key by ``BluFiSessionKeys``.
extension BluFiClient {
    /// Resolves the scheme from the version (if any) and either negotiates or declares the session ready.
    mutating func startSecurity() throws(BluFiError) -> [Action] {
        let scheme = securityChoice.resolved(deviceVersion: deviceVersion)
        securityScheme = scheme
        guard let group = scheme.group else {
            phase = .ready
            return [.report(.sessionReady)]
        }
        let keyPair: DHKeyPair
        if let ahead = keyPairsDrawnAhead.firstIndex(where: { $0.group == group }) {
            keyPair = keyPairsDrawnAhead.remove(at: ahead)
        } else {
            keyPair = DHKeyPair.generate(
                in: group, privateKeyByteCount: scheme.privateExponentByteCount, using: &random)
        }
        let parameters = BluFiNegotiation.parameterDataMessage(group: group, publicKey: keyPair.publicKey)
        phase = .awaitingDevicePublicKey(keyPair)
        return [.report(.negotiationStarted(scheme))]
            + (try send(.negotiation, BluFiNegotiation.parameterLengthMessage(for: parameters)))
            + (try send(.negotiation, parameters))
            + [.wait(for: .devicePublicKey)]
    }

    /// Derives the keys, installs both ciphers and tells the device to protect its data frames.
    mutating func completeNegotiation(keyPair: DHKeyPair, devicePublicKey: [UInt8]) throws(BluFiError) -> [Action] {
        guard devicePublicKey.count == keyPair.group.byteCount, let scheme = securityScheme,
            let secret = try? keyPair.sharedSecret(peerPublicKey: devicePublicKey)
        else { throw .invalidPublicKey }
        let keys = scheme == .v2 ? BluFiSessionKeys.v2(sharedSecret: secret) : BluFiSessionKeys.v1(sharedSecret: secret)
        let mode: BluFiSecurityMode = [.dataChecksum, .dataEncryption]
        // SET_SEC_MODE itself goes out with a checksum only, as both official clients send it.
        let actions = try send(.setSecurityMode, [mode.rawValue], control: .checksum)
        encoder.install(keys.cipher(for: .phoneToDevice))
        decoder.install(keys.cipher(for: .deviceToPhone))
        phase = .ready
        return actions + [.report(.securityEstablished(scheme)), .report(.sessionReady)]
    }
}
