public import BluFi

/// Faults an ``InMemoryBluFiPeripheral`` injects between the flow and the emulated device.
///
/// Wi-Fi outcomes (wrong password, network not found) are the device's own behaviour and live in
/// ``BluFiDeviceConfiguration/wifiOutcome``; a join that never ends is a `nil` join delay.
public struct BluFiFaultPlan: Sendable, Equatable {
    /// Which phone write sets a fault off.
    public enum Trigger: Sendable, Equatable {
        /// The n-th write of the connection, counting from 1.
        case write(Int)
        /// The first write of a frame of this type (the first fragment, for a fragmented message).
        case firstWrite(of: BluFiFrameType)
    }

    /// One fault.
    public enum Fault: Sendable, Equatable {
        /// The device's n-th notification (counting from 1, ACKs included) is sent but never arrives.
        case dropNotification(Int)
        /// The link drops as this write arrives: the write fails and the notifications end with an error.
        case loseLink(Trigger)
        /// The device answers this write with an ERROR frame carrying `code`, instead of handling it.
        case reportError(BluFiDeviceErrorCode, Trigger)
        /// From this write on the device still handles writes but none of its notifications arrive.
        case fallSilent(Trigger)
    }

    /// The faults, each set off independently.
    public var faults: [Fault]

    /// A plan with these faults; none by default.
    public init(_ faults: [Fault] = []) {
        self.faults = faults
    }

    /// Whether the n-th notification is to be dropped.
    func drops(notification number: Int) -> Bool {
        faults.contains(.dropNotification(number))
    }

    /// The faults this write sets off.
    func faults(atWrite number: Int, of type: BluFiFrameType, isFirstOfType: Bool) -> [Fault] {
        faults.filter { fault in
            switch fault {
            case .dropNotification: false
            case .loseLink(let trigger), .reportError(_, let trigger), .fallSilent(let trigger):
                trigger.matches(number, type, isFirstOfType: isFirstOfType)
            }
        }
    }
}

extension BluFiFaultPlan.Trigger {
    func matches(_ number: Int, _ type: BluFiFrameType, isFirstOfType: Bool) -> Bool {
        switch self {
        case .write(let wanted): wanted == number
        case .firstWrite(let wanted): wanted == type && isFirstOfType
        }
    }
}
