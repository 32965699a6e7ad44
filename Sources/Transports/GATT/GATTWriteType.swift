/// How a value is written to a characteristic.
public enum GATTWriteType: Sendable, Hashable {
    /// The peer acknowledges the write; values longer than one ATT packet go through prepare/execute writes.
    case withResponse
    /// No acknowledgement; the value must fit one ATT packet (MTU − 3 bytes).
    case withoutResponse
}
