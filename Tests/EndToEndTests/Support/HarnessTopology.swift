/// What `harness.py up` reports it started: where the private bus is, the two network namespaces and
/// the veth between them, and the PID of every component.
struct HarnessTopology: Sendable, Decodable {
    /// The run directory holding state, logs, records and the bus socket.
    let runDir: String
    /// `unix:path=…` of the private system bus; tools under test get it as `DBUS_SYSTEM_BUS_ADDRESS`.
    let busAddress: String
    /// The namespace the tool under test runs in (`zth-<id>`).
    let hostNetns: String
    /// The emulated device's namespace (`ztd-<id>`).
    let deviceNetns: String
    /// The host end of the veth (`zh<id>`), also the NetworkManager mock's Wi-Fi interface.
    let hostInterface: String
    /// The device end of the veth (`zd<id>`).
    let deviceInterface: String
    /// The host's address on the veth (192.168.4.2).
    let hostIp: String
    /// The device's address on the veth (192.168.4.1), where protocomm HTTP and Zhiting UDP listen.
    let deviceIp: String
    /// Component name (`dbus_daemon`, `bus_recorder`, `bluez_mock`, `nm_mock`, `device_host`) → PID.
    let pids: [String: Int32]

    private enum CodingKeys: String, CodingKey {
        case runDir = "run_dir"
        case busAddress = "bus_address"
        case hostNetns = "host_netns"
        case deviceNetns = "device_netns"
        case hostInterface = "host_interface"
        case deviceInterface = "device_interface"
        case hostIp = "host_ip"
        case deviceIp = "device_ip"
        case pids
    }

    /// The path of the bus socket, taken from `busAddress`.
    var busSocketPath: String {
        String(busAddress.trimmingPrefix("unix:path="))
    }
}
