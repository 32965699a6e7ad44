/// Moving one request and its response over the connection, with failures named for the caller.
extension HTTPProtocommTransport {
    func sendBytes(
        _ bytes: [UInt8],
        on connection: TCPConnection,
        for request: HTTPProtocommRequest,
        until deadline: ContinuousClock.Instant
    ) throws {
        do throws(TCPConnectionFailure) {
            try connection.send(bytes, until: deadline)
        } catch {
            throw transportError(for: error, endpoint: request.endpoint)
        }
    }

    /// Reads until one whole response has arrived; an end of stream before it is the device's refusal.
    func receiveResponse(
        on connection: TCPConnection,
        for request: HTTPProtocommRequest,
        until deadline: ContinuousClock.Instant
    ) throws -> HTTPResponse {
        var parser = HTTPResponseParser()
        while true {
            do throws(TCPConnectionFailure) {
                parser.received(try connection.receive(until: deadline))
            } catch .closedByPeer {
                do {
                    try parser.receivedEndOfStream()
                } catch {
                    throw HTTPTransportError.malformedResponse(endpoint: request.endpoint, error)
                }
                throw HTTPTransportError.connectionClosedWithoutResponse(endpoint: request.endpoint)
            } catch {
                throw transportError(for: error, endpoint: request.endpoint)
            }
            let response: HTTPResponse?
            do {
                response = try parser.nextResponse()
            } catch {
                throw HTTPTransportError.malformedResponse(endpoint: request.endpoint, error)
            }
            if let response {
                guard !parser.hasPartialResponse else { throw HTTPTransportError.unsolicitedBytes }
                return response
            }
        }
    }

    /// Names a socket failure for the caller, with the request it happened to.
    func transportError(for failure: TCPConnectionFailure, endpoint: String) -> any Error {
        switch failure {
        case .connectTimedOut: HTTPTransportError.connectTimedOut(device)
        case .transferTimedOut: HTTPTransportError.exchangeTimedOut(endpoint: endpoint)
        case .cancelled: CancellationError()
        case .closedByPeer: HTTPTransportError.connectionClosedWithoutResponse(endpoint: endpoint)
        case .interfaceBindingFailed(let interface, let code):
            HTTPTransportError.interfaceBindingFailed(interface: interface, errno: code)
        case .connectFailed(let code): HTTPTransportError.connectFailed(device, errno: code)
        case .systemCallFailed(let call, let code): HTTPTransportError.systemCallFailed(call: call, errno: code)
        }
    }
}
