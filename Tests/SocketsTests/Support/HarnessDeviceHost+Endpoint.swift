import TestSupport
import Transports

extension HarnessDeviceHost {
    /// The host's HTTP listener as the transports address it.
    var endpoint: DeviceEndpoint {
        get throws {
            guard let endpoint = DeviceEndpoint(httpAddress) else {
                throw ProcessLaunchError.notReady("an HTTP address the transports accept (\(httpAddress))", nil)
            }
            return endpoint
        }
    }
}
