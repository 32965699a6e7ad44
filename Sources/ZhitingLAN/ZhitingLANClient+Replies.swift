internal import JSONWriting

extension ZhitingLANClient {
    mutating func receivedTokenReply(_ packet: ZhitingPacket) -> Step {
        guard !packet.payload.isEmpty else { return .ignored(.emptyPayload) }
        let plaintext: [UInt8]
        do {
            plaintext = try ZhitingPayloadCipher(secret: sessionKey.bytes).decrypt(packet.payload)
        } catch {
            return .ignored(packet.reserved == ZhitingPacket.helloReserved ? .helloReply : .undecryptable)
        }
        guard let token = ZhitingToken(bytes: plaintext) else {
            return .ignored(.malformedToken(length: plaintext.count))
        }
        self.token = token
        phase = .awaitingInfo
        return .tokenReceived(next: request(.getInfo, params: .array([]), using: token))
    }

    mutating func receivedReply(_ packet: ZhitingPacket) throws(ZhitingLANError) -> Step {
        guard let token, let expectedID = pendingRequestID else { return .ignored(.afterFinish) }
        let plaintext: [UInt8]
        do {
            plaintext = try ZhitingPayloadCipher(secret: token.bytes).decrypt(packet.payload)
        } catch {
            return .ignored(classifyUndecryptable(packet, token: token))
        }
        switch phase {
        case .awaitingInfo:
            guard let reply = ZhitingReply<ZhitingDeviceInfo>.decode(plaintext) else { return .ignored(.notJSON) }
            guard reply.id == expectedID else { return .ignored(.unexpectedID(reply.id)) }
            return try receivedInfo(reply, token: token)
        default:
            guard let reply = ZhitingReply<ZhitingServerEcho>.decode(plaintext) else { return .ignored(.notJSON) }
            guard reply.id == expectedID else { return .ignored(.unexpectedID(reply.id)) }
            return try receivedConfirmation(reply)
        }
    }

    private mutating func receivedInfo(_ reply: ZhitingReply<ZhitingDeviceInfo>, token: ZhitingToken)
        throws(ZhitingLANError) -> Step
    {
        try finishIfRejected(reply.error)
        guard let info = reply.result else { return try finish(throwing: .malformedJSON) }
        switch goal {
        case .readInfo:
            finish()
            return .infoReceived(info, next: nil)
        case .assignServer(let assignment):
            if info.isSmartAssistant, let model = info.model {
                return try finish(throwing: .deviceIsSmartAssistant(model: model))
            }
            phase = .awaitingConfirmation
            return .infoReceived(info, next: request(.setServer, params: assignment.params, using: token))
        }
    }

    private mutating func receivedConfirmation(_ reply: ZhitingReply<ZhitingServerEcho>) throws(ZhitingLANError) -> Step
    {
        try finishIfRejected(reply.error)
        guard case .assignServer(let assignment) = goal else { return .ignored(.afterFinish) }
        guard let echo = reply.result, echo.server != nil, echo.port != nil else {
            return try finish(throwing: .serverNotEchoed)
        }
        guard echo == assignment.echo else {
            return try finish(throwing: .serverMismatch(expected: assignment.echo, echoed: echo))
        }
        finish()
        return .serverConfirmed(echo)
    }

    /// A late duplicate of the token reply (answering a resent token request) is harmless; tell it
    /// apart from real garbage so diagnostics stay honest.
    private func classifyUndecryptable(_ packet: ZhitingPacket, token: ZhitingToken) -> IgnoredDatagram {
        if let again = try? ZhitingPayloadCipher(secret: sessionKey.bytes).decrypt(packet.payload), again == token.bytes
        {
            return .duplicateToken
        }
        return packet.reserved == ZhitingPacket.helloReserved ? .helloReply : .undecryptable
    }

    private mutating func request(_ method: ZhitingMethod, params: JSONValue, using token: ZhitingToken) -> [UInt8] {
        let id = nextRequestID
        nextRequestID += 1
        pendingRequestID = id
        let plaintext = ZhitingRequestText.make(method, params: params, id: id)
        let packet = ZhitingPacket(
            reserved: framing.reserved.rawValue,
            deviceID: deviceID,
            checksumField: [],
            payload: ZhitingPayloadCipher(secret: token.bytes).encrypt(plaintext)
        )
        let bytes = framing.checksum.apply(to: packet, sessionKey: sessionKey).encoded()
        pendingRequest = bytes
        return bytes
    }

    private mutating func finishIfRejected(_ error: ZhitingReplyError?) throws(ZhitingLANError) {
        if let error { _ = try finish(throwing: .deviceRejected(code: error.code, message: error.message)) }
    }

    private mutating func finish() {
        phase = .finished
        pendingRequest = nil
        pendingRequestID = nil
    }

    private mutating func finish(throwing error: ZhitingLANError) throws(ZhitingLANError) -> Step {
        finish()
        throw error
    }
}
