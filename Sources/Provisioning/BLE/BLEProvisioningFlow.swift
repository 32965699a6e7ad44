/// One BLE provisioning protocol's flow: what it is (``bleProtocol``, for scanning and detection), the
/// connection it needs, and its run on a device. BluFi, Improv and ESP protocomm (Wi-Fi and Thread) each
/// conform; the commands run whichever the device speaks without knowing which.
///
/// A value holds what its run is to do (settings, progress sink); ``run(with:deadline:)`` connects through
/// the link as often as the protocol needs and ends by the run's `deadline`. Throws ``ProvisioningError``
/// for what the user is told, and `CancellationError`; a failure of the link itself is the caller's to map
/// (it knows the adapter), with what the flow was doing.
public protocol BLEProvisioningFlow: Sendable {
    associatedtype Outcome: Sendable

    /// The protocol the flow speaks.
    static var bleProtocol: BLEProtocol { get }

    /// What the flow needs of its connection.
    var connectionPolicy: BLEConnectionPolicy { get }

    /// Provisions the device behind `link` by `deadline`.
    func run(with link: any BLELink, deadline: ContinuousClock.Instant) async throws -> Outcome
}
