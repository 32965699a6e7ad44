import Provisioning

extension SoftAPOptions {
    /// The flow's request for `network`, with the secrets read from their sources.
    ///
    /// The hotspot password is never asked for on the terminal: most hotspots are open. The PoP is
    /// asked for only when the chosen security needs one; with `auto` a missing PoP surfaces once
    /// the device says it needs one.
    func request(
        network: ProtocommTargetNetwork, environment: [String: String],
        prompt: (String) -> String? = SecretPrompt.ask
    ) throws(ProvisioningError) -> SoftAPProvisioningRequest {
        let hotspotSecret = try hotspotPassword.resolve(environment: environment, prompt: { _ in nil })
        let pop =
            security == .auto || security == .security0
            ? try proofOfPossession.resolve(environment: environment, prompt: { _ in nil })
            : try proofOfPossession.require(environment: environment, prompt: prompt)
        var request = SoftAPProvisioningRequest(
            hotspot: SoftAPHotspot(ssid: hotspotSSID, password: hotspotSecret),
            device: device,
            network: network,
            security: security.options(proofOfPossession: pop, srpUsername: srpUsername, patch: security2Patch),
            listsNetworks: listsNetworks
        )
        (request.checksNetwork, request.hidden) = (networkCheck.checksNetwork, networkCheck.hidden)
        return request
    }
}
