/// Where a session handshake of two round trips stands (security 1 and 2 both take two); `Pending` is
/// what the first reply leaves for checking the second.
enum ProtocommHandshakePhase<Pending: Sendable>: Sendable {
    case idle
    case awaitingResponse0
    case awaitingResponse1(Pending)
    case established

    /// True once the second command is on its way: a connection the device drops now means wrong credentials.
    var isAwaitingVerdict: Bool {
        if case .awaitingResponse1 = self { return true }
        return false
    }

    /// What the second reply is checked against, or `nil` while the first reply is awaited; throws when
    /// no reply is awaited at all.
    func pendingSecondReply() throws(ProtocommError) -> Pending? {
        switch self {
        case .idle: throw .handshakeNotStarted
        case .established: throw .handshakeAlreadyFinished
        case .awaitingResponse0: return nil
        case .awaitingResponse1(let pending): return pending
        }
    }
}
