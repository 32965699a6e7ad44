public import BluFi
import Protocomm
public import Records

/// The audit's view of what each protocol negotiated.
extension ProvisioningSecurity {
    /// A BluFi session's scheme, its link taken as plain: BluFi firmware does not ask for pairing.
    public init(_ scheme: BluFiSecurityScheme) {
        switch scheme {
        case .none: self.init(.bluFiNone)
        case .v1: self.init(.bluFiV1)
        case .v2: self.init(.bluFiV2)
        }
    }

    /// A protocomm session's scheme, and whether its BLE link was encrypted (SoftAP: never).
    public init(_ used: ProtocommSecurityUsed) {
        let scheme: Scheme =
            switch used.level {
            case .security0: .protocomm0
            case .security1: used.usesProofOfPossession ? .protocomm1WithPoP : .protocomm1
            case .security2: .protocomm2
            }
        self.init(scheme, linkEncrypted: used.linkEncrypted)
    }
}
