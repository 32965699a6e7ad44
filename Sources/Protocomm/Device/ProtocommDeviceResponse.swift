/// What the emulated device does with one request, in terms the HTTP side can act on.
public enum ProtocommDeviceResponse: Equatable, Sendable {
    /// `200 OK` with this body.
    case reply([UInt8])
    /// Close the socket without any response: how the real device reacts to every protocomm
    /// failure (wrong PoP or password, bad protobuf, failed decryption, wrong session state).
    /// The error says what the device saw, for test logs; the client never learns it.
    case closeConnection(ProtocommError)
    /// `404 Not Found` and then close: the endpoint is not registered (e.g. `prov-ctrl` before
    /// ESP-IDF 5.1).
    case notFound
}
