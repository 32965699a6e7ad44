import Sockets
import Testing
import Transports

/// Flows tell a wrong PoP from a missing endpoint by these kinds alone, so each error must land in its own.
@Suite struct HTTPTransportErrorKindTests {
    static let device = DeviceEndpoint(192, 168, 4, 1, port: 80)

    @Test(
        arguments: [
            (HTTPTransportError.invalidEndpointName("a b"), ProtocommExchangeFailureKind.invalidRequest),
            (.payloadSizeOutOfRange(0), .invalidRequest),
            (.interfaceBindingFailed(interface: "wlan9", errno: 19), .interfaceUnavailable),
            (.connectFailed(device, errno: 111), .unreachable),
            (.connectTimedOut(device), .timedOut),
            (.systemCallFailed(call: "poll", errno: 4), .systemFailure),
            (.exchangeTimedOut(endpoint: "prov-config"), .timedOut),
            (.connectionClosedWithoutResponse(endpoint: "prov-session"), .closedWithoutResponse),
            (.sessionConnectionLost, .sessionLost),
            (.endpointNotFound(endpoint: "prov-ctrl"), .endpointNotFound),
            (
                .unexpectedStatus(endpoint: "prov-config", statusCode: 405, reasonPhrase: "Method Not Allowed"),
                .unexpectedResponse
            ),
            (.unsolicitedBytes, .unexpectedResponse),
        ] as [(HTTPTransportError, ProtocommExchangeFailureKind)])
    func sortsEachErrorIntoItsKind(error: HTTPTransportError, kind: ProtocommExchangeFailureKind) {
        #expect(error.exchangeFailureKind == kind)
        let asSeenByAFlow: any Error = error
        #expect((asSeenByAFlow as? any ProtocommExchangeFailure)?.exchangeFailureKind == kind)
    }
}
