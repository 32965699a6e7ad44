import ArgumentParser
import Provisioning

/// `--protocol`: `auto`, or one of ``BLEProtocol``'s cases by its raw value, so a new protocol needs
/// no change here.
enum BLEProtocolChoice: ExpressibleByArgument, Equatable, CustomStringConvertible {
    /// Decide from the advertisement, then from the GATT database.
    case auto
    case fixed(BLEProtocol)

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
        } else if let chosen = BLEProtocol(rawValue: argument) {
            self = .fixed(chosen)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ["auto"] + BLEProtocol.allCases.map(\.rawValue) }

    var defaultValueDescription: String { description }

    var description: String {
        switch self {
        case .auto: "auto"
        case .fixed(let chosen): chosen.rawValue
        }
    }

    /// The protocols a scan looks for: the chosen one, or all.
    var candidates: [BLEProtocol] {
        switch self {
        case .auto: BLEProtocol.allCases
        case .fixed(let chosen): [chosen]
        }
    }
}
