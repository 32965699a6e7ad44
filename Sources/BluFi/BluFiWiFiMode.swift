/// Which Wi-Fi roles the device takes, each with its settings.
///
/// Generic over how a role's settings are held, so the core's request (passwords as bytes) and a flow's
/// settings (passwords kept secret until the request is built) share one shape and convert with ``map(station:softAP:)``.
public enum BluFiWiFiMode<Station, SoftAP> {
    /// Join a network.
    case station(Station)
    /// Run the device's own access point.
    case softAP(SoftAP)
    /// Both: join a network and run the access point.
    case stationAndSoftAP(Station, SoftAP)

    /// The SET_OPMODE value.
    public var operationMode: BluFiOperationMode {
        switch self {
        case .station: .station
        case .softAP: .softAP
        case .stationAndSoftAP: .stationAndSoftAP
        }
    }

    /// The same roles, each one's settings converted.
    public func map<NewStation, NewSoftAP>(
        station convertStation: (Station) -> NewStation, softAP convertSoftAP: (SoftAP) -> NewSoftAP
    ) -> BluFiWiFiMode<NewStation, NewSoftAP> {
        switch self {
        case .station(let station): .station(convertStation(station))
        case .softAP(let softAP): .softAP(convertSoftAP(softAP))
        case .stationAndSoftAP(let station, let softAP):
            .stationAndSoftAP(convertStation(station), convertSoftAP(softAP))
        }
    }
}

extension BluFiWiFiMode: Sendable where Station: Sendable, SoftAP: Sendable {}
extension BluFiWiFiMode: Equatable where Station: Equatable, SoftAP: Equatable {}
