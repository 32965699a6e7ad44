import Foundation
import TestSupport

/// Independent clients of a running harness: `busctl` on its private bus, and a small Python client in
/// the host namespace for the device host, so a test sees the pieces answer as a tool would.
enum HarnessProbes {
    /// Runs `busctl --json=short <arguments>` against the harness's bus and decodes its answer
    /// (`{"type": signature, "data": …}`).
    static func busctl(_ harness: HarnessSession, _ arguments: [String]) async throws -> JSONValue {
        guard let busctl = ExecutableLookup.path(of: "busctl") else {
            throw ProcessLaunchError.missingTool("busctl")
        }
        let launch = ProcessLaunch(busctl, ["--address=\(harness.topology.busAddress)", "--json=short"] + arguments)
        return try JSONDecoder().decode(JSONValue.self, from: Data(try await launch.output().utf8))
    }

    /// What the device host answered, asked from the host namespace over the veth: the Zhiting hello
    /// reply (UDP 54321) as `hello` in hex, and the protocomm version document (HTTP `proto-ver`) as
    /// `proto_ver`.
    static func deviceHostAnswers(_ harness: HarnessSession) async throws -> JSONValue {
        var launch = ProcessLaunch(
            RepositoryLayout.python,
            ["-c", deviceHostClient, harness.topology.deviceIp, harness.topology.hostInterface]
        )
        launch.networkNamespace = harness.topology.hostNetns
        launch.deadline = .seconds(10)
        return try JSONDecoder().decode(JSONValue.self, from: Data(try await launch.output().utf8))
    }

    /// The socket is bound to the veth, as the tool's would be.
    private static let deviceHostClient = """
        import http.client, json, socket, sys
        device_ip, interface = sys.argv[1], sys.argv[2]
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, interface.encode())
        udp.settimeout(3)
        udp.sendto(bytes.fromhex("21310020" + "ff" * 28), (device_ip, 54321))
        hello = udp.recv(2048).hex()
        http = http.client.HTTPConnection(device_ip, 80, timeout=3)
        http.request("POST", "/proto-ver", b"---", {"Content-Type": "application/x-www-form-urlencoded"})
        print(json.dumps({"hello": hello, "proto_ver": json.loads(http.getresponse().read())}))
        """
}
