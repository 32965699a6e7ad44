extension BlueZClient {
    /// Disconnects devices matching `filter` that are still connected on any adapter, and returns them.
    ///
    /// A provisioning run that was killed (power cut, SIGKILL) leaves its links up, and a connected
    /// ESP32 stops advertising, so the next run would never find the unit. The factory line calls this
    /// before scanning for a unit it names by address or name.
    ///
    /// A client mirroring one adapter knows the links up elsewhere only as its snapshot saw them: it sends
    /// those a `Disconnect` once, which bluetoothd answers when the link is down (src/device.c).
    public func releaseStaleConnections(matching filter: BlueZScanFilter) async -> [BlueZDevice] {
        let stale = tree.adapters.flatMap { tree.devices(on: $0.path) }.filter { $0.isConnected && filter.matches($0) }
        for device in stale { await disconnect(device.path) }
        let elsewhere = linksOutsideScope.filter(filter.matches)
        linksOutsideScope.removeAll(where: filter.matches)
        for device in elsewhere {
            _ = try? await call(device.path, BlueZNames.device, "Disconnect", honoursCancellation: false)
        }
        return stale + elsewhere
    }
}
