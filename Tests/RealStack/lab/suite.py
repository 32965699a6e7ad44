"""The scenarios of one lab boot: the real ztprov binary against the real daemons.

Usage (inside the guest, by guest-init): suite.py RESULTS_DIR

Each scenario records facts, not verdicts: the ztprov command line, its exit status, stdout,
stderr and duration, and what the stack showed afterwards (bluetoothd's view of the link, the
peripheral's record, NetworkManager's active connections and profiles, the device hosts' records).
The Swift tests (Tests/RealStackTests) judge them. results.json is rewritten after every scenario,
so a guest that dies midway still leaves what it did.
"""

import asyncio
import json
import os
import signal
import sys
import time
import traceback

from lab_peripheral import ADVERTISING_INTERVAL_MS
from guest_stack import HOTSPOT_PASSWORD, KERNEL_CONTROLLERS, GuestStack, StackError, run, wait_until

ZTPROV = os.environ["ZTLAB_ZTPROV"]
WIFI_PASSWORD = "lab-wifi-secret-31"
ACCESS_TOKEN = "AT-lab-7f00ba11"
POP = "lab-pop-5150"
SCENARIO_DEADLINE = 150.0
BENCH_JOIN_DELAY_MS = 300
BENCH_CONNECTING_POLLS = 2
HANDOFF = ["--area-id", "42", "--access-token-env", "ZTPROV_ACCESS_TOKEN", "--lan-interface", "wlan0"]
# The package scenarios' users: one in the package's group and Debian's bluetooth group, one in neither.
GROUP_MEMBER = "ztlab-member"
OUTSIDER = "ztlab-outsider"
INSTALLED_ZTPROV = "/usr/bin/ztprov"
POLKIT_RULE = "/usr/share/polkit-1/rules.d/50-ztprov-networkmanager.rules"
PACKAGE_SCENARIOS = ["package-ble-group-member", "package-softap-group-member", "package-softap-outsider"]


class Suite:
    def __init__(self, results: str):
        self.results_dir = results
        self.stack = GuestStack(results)
        self.results: list[dict] = []
        self.started = time.monotonic()
        self.timings: dict[str, float] = {}
        self._next_address = 0x10
        self._device_host_state: tuple | None = None
        self.installing: asyncio.Future | None = None
        # Daemons that ended on their own, already told in the scenario during which they did.
        self._ended_daemons: set[str] = set()

    def address(self) -> str:
        self._next_address += 1
        return f"24:0A:C4:00:00:{self._next_address:02X}"

    def blufi(self, **settings) -> dict:
        return {"device_id": self.stack.device_id, "version": [1, 3], "join_delay_ms": 200, **settings}

    def save(self) -> None:
        document = {"timings": self.timings, "scenarios": self.results,
                    "device_id": self.stack.device_id, "hotspot_bssid": self.stack.hotspot_bssid,
                    "controllers": KERNEL_CONTROLLERS}
        temporary = os.path.join(self.results_dir, "results.json.tmp")
        with open(temporary, "w") as handle:
            json.dump(document, handle, indent=1)
        os.replace(temporary, os.path.join(self.results_dir, "results.json"))

    def mark(self, name: str) -> None:
        self.timings[name] = round(time.monotonic() - self.started, 2)

    # Running ztprov --------------------------------------------------------------------------------

    async def ztprov(self, argv: list[str], interrupt=None, timeout: float = 90.0, env_extra=None,
                     interrupt_signal: int = signal.SIGINT, user: str | None = None) -> dict:
        """Runs ztprov; `interrupt` is an async callable that returns once `interrupt_signal` should be sent. With
        `user`, the installed ztprov runs as that user with the groups /etc/group gives it."""
        program = [ZTPROV]
        if user is not None:
            program = ["setpriv", "--reuid", user, "--regid", user, "--init-groups", INSTALLED_ZTPROV]
            env_extra = dict(env_extra or {}, HOME=f"/home/{user}")
        result = await self.command(program + argv, interrupt, timeout, env_extra, interrupt_signal)
        result["argv"] = argv
        result["program"] = program
        return result

    async def command(self, argv: list[str], interrupt=None, timeout: float = 90.0, env_extra=None,
                      interrupt_signal: int = signal.SIGINT) -> dict:
        """Runs a program with the secrets in its environment; records what it did."""
        env = dict(os.environ, HOME="/root", ZTPROV_WIFI_PASSWORD=WIFI_PASSWORD,
                   ZTPROV_ACCESS_TOKEN=ACCESS_TOKEN, ZTPROV_POP=POP, ZTPROV_AP_PASSWORD=HOTSPOT_PASSWORD)
        for name, value in (env_extra or {}).items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
        started = time.monotonic()
        process = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.PIPE, env=env)
        interrupted_at = None
        line_seconds: list[float] = []
        communicate = asyncio.ensure_future(self._collect(process, started, line_seconds))
        if interrupt is not None:
            waiter = asyncio.ensure_future(interrupt())
            done, _ = await asyncio.wait({communicate, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if waiter in done and process.returncode is None:
                interrupted_at = time.monotonic()
                process.send_signal(interrupt_signal)
            else:
                waiter.cancel()
        try:
            stdout, stderr = await asyncio.wait_for(asyncio.shield(communicate), timeout)
            status = process.returncode
        except asyncio.TimeoutError:
            process.kill()
            stdout, stderr = await communicate
            status = "timeout"
        ended = time.monotonic()
        return {"argv": argv, "status": status, "stdout": stdout.decode(errors="replace"),
                "stderr": stderr.decode(errors="replace"), "seconds": round(ended - started, 2),
                "stdout_line_seconds": line_seconds,
                "seconds_after_interrupt": round(ended - interrupted_at, 2) if interrupted_at else None}

    @staticmethod
    async def _collect(process, started: float, line_seconds: list[float]) -> tuple[bytes, bytes]:
        """The program's output to its end; each stdout line stamped (seconds since start) as it arrives."""
        async def stdout() -> bytes:
            lines = []
            while line := await process.stdout.readline():
                line_seconds.append(round(time.monotonic() - started, 3))
                lines.append(line)
            return b"".join(lines)

        output, errors = await asyncio.gather(stdout(), process.stderr.read())
        await process.wait()
        return output, errors

    @staticmethod
    def selected(name: str) -> bool:
        """Whether the boot runs scenario `name` (`run --only` names a few)."""
        only = [n for n in os.environ.get("ZTLAB_ONLY", "").split(",") if n]
        return not only or name in only

    async def scenario(self, name: str, body) -> None:
        if not self.selected(name):
            return
        print(f"--- {name}", flush=True)
        started = time.monotonic()
        entry = {"name": name}
        try:
            entry.update(await asyncio.wait_for(body(), SCENARIO_DEADLINE))
        except Exception as error:
            entry["lab_error"] = f"{type(error).__name__}: {error}"
            traceback.print_exc()
        entry["scenario_seconds"] = round(time.monotonic() - started, 2)
        ended = {name: daemon.process.returncode for name, daemon in self.stack.daemons.items()
                 if not daemon.running and name not in self._ended_daemons}
        if ended:
            # A daemon that dies (a negative status is the signal) fails every later scenario that needs it;
            # this says where it went.
            entry["daemons_ended"] = ended
            self._ended_daemons.update(ended)
        print(f"    status={entry.get('status')} in {entry['scenario_seconds']}s {entry.get('lab_error', '')}"
              f"{' daemons ended: ' + str(ended) if ended else ''}", flush=True)
        self.results.append(entry)
        self.save()

    # BLE -------------------------------------------------------------------------------------------

    async def ble_run(self, blufi: dict, extra: list[str], interrupt_after_connect: float | None = None,
                      address: str | None = None, keep: bool = False, user: str | None = None, **faults) -> dict:
        address = address or self.address()
        peripheral = await self.stack.ble.add_peripheral(address, "BLUFI_LAB", blufi, **faults)
        interrupt = None
        if interrupt_after_connect is not None:
            async def interrupt():
                await wait_until("the peripheral connected", lambda: _true(peripheral.connection is not None), 40)
                await asyncio.sleep(interrupt_after_connect)
        handoff_before = self.handoff_requests()
        result = await self.ztprov(["ble", "--device", address, "--ssid", "HomeNet", "--json", "--verbose",
                                    "--scan-timeout", "15"] + extra, interrupt=interrupt, user=user)
        await asyncio.sleep(0.3)
        result["bluetoothd_connected_after"] = {
            f"hci{i}": await self.stack.device_connected(f"hci{i}", address) for i in range(len(KERNEL_CONTROLLERS))}
        result["peripheral"] = peripheral.record()
        result["handoff_requests"] = self.handoff_requests() - handoff_before
        if not keep:
            await self.stack.ble.remove_peripheral(address)
        return result

    def handoff_requests(self) -> int:
        """set_prop.server requests the home-LAN device answered so far."""
        path = os.path.join(self.stack.logs, "home-device.records.jsonl")
        if not os.path.exists(path):
            return 0
        with open(path) as handle:
            return sum(1 for line in handle if "set_prop.server" in line)

    async def ble_handoff_scenarios(self) -> None:
        """The BLE runs that need the host on its home network (the hand-off goes over wlan0)."""
        await self.scenario("scan", self.scan)
        await self.scenario("ble-v1-handoff", lambda: self.ble_run(self.blufi(), ["--security", "auto"] + HANDOFF))

    async def ble_scenarios(self) -> None:
        await self.scenario("ble-v2", lambda: self.ble_run(self.blufi(version=[1, 4]), ["--security", "auto"]))
        await self.scenario("ble-none", lambda: self.ble_run(self.blufi(security="none"), ["--security", "none"]))
        await self.scenario("ble-wrong-password",
                            lambda: self.ble_run(self.blufi(wifi_outcome="wrong-password"), []))
        await self.scenario("ble-mtu23-v1", lambda: self.ble_run(self.blufi(), ["--security", "v1"], max_mtu=23))
        await self.scenario("ble-mtu23-v2", lambda: self.ble_run(self.blufi(version=[1, 4]), ["--security", "v2"],
                                                                max_mtu=23))
        await self.scenario("ble-no-device", self.ble_no_device)
        await self.scenario("ble-link-drop-negotiation",
                            lambda: self.ble_run(self.blufi(), ["--security", "v1"], link_loss_at_frame=2))
        await self.scenario("ble-adapter-hci1", lambda: self.ble_run(self.blufi(), ["--adapter", "hci1"]))
        await self.scenario("ble-adapter-address",
                            lambda: self.ble_run(self.blufi(), ["--adapter", KERNEL_CONTROLLERS[1]]))
        await self.scenario("ble-adapter-slot", lambda: self.ble_run(self.blufi(), ["--adapter", "slot:2"]))
        await self.scenario("ble-ctrl-c", lambda: self.ble_run(self.blufi(join_delay_ms=30000), [],
                                                               interrupt_after_connect=2.0))
        await self.scenario("ble-several-devices", self.ble_several_devices)
        await self.scenario("ble-network-checks", self.ble_network_checks)
        await self.scenario("ble-quick-reconnect", self.ble_quick_reconnect)
        await self.scenario("ble-gatt-changed", self.ble_gatt_changed)

    async def scan(self) -> dict:
        address = self.address()
        await self.stack.ble.add_peripheral(address, "BLUFI_SCAN", self.blufi())
        result = await self.ztprov(["scan", "--duration", "4", "--json"])
        result["address"] = address
        await self.stack.ble.remove_peripheral(address)
        return result

    async def ble_no_device(self) -> dict:
        return await self.ztprov(["ble", "--device", "24:0A:C4:FF:FF:FF", "--ssid", "HomeNet", "--json",
                                  "--scan-timeout", "4"])

    async def ble_several_devices(self) -> dict:
        """Two BluFi devices in range and neither named, three times over a fresh pair: without a terminal
        ztprov refuses before connecting and lists both; on a terminal the person picks the second row; with
        `--pick first` it provisions one. Each run's peripheral records are copied when it ends."""
        command = ["ble", "--name-prefix", "BLUFI_PICK", "--ssid", "HomeNet", "--scan-timeout", "15"]
        picker = os.path.join(os.environ["ZTLAB_REPO"], "Tests", "Harness", "pick_in_pty.py")
        runs = {
            "refused": lambda: self.ztprov(command + ["--json"]),
            "chosen": lambda: self.command([sys.executable, picker, "2 devices match", "2", ZTPROV] + command),
            "picked": lambda: self.ztprov(command + ["--json", "--pick", "first"]),
        }
        result: dict = {}
        for name, run in runs.items():
            addresses = [self.address(), self.address()]
            peripherals = [await self.stack.ble.add_peripheral(address, f"BLUFI_PICK_{index}", self.blufi())
                           for index, address in enumerate(addresses)]
            result[name] = await run()
            result[name]["addresses"] = addresses
            result[name]["peripherals"] = json.loads(json.dumps([peripheral.record() for peripheral in peripherals]))
            for address in addresses:
                await self.stack.ble.remove_peripheral(address)
        result["status"] = result["picked"]["status"]
        return result

    async def ble_network_checks(self) -> dict:
        """A device whose own scan hears HomeNet and Neighbour-5G, told to join "Elsewhere": with
        `--check-network` refused before anything is sent; without it, the failed join explained from the
        device's scan. Each run's peripheral record is copied when it ends."""
        address = self.address()
        peripheral = await self.stack.ble.add_peripheral(address, "BLUFI_NET", self.blufi(target_ssid="HomeNet"))
        command = ["ble", "--device", address, "--ssid", "Elsewhere", "--json", "--scan-timeout", "15"]
        result: dict = {}
        for name, extra in (("checked", ["--check-network"]), ("joined", [])):
            result[name] = await self.ztprov(command + extra)
            result[name]["peripheral"] = json.loads(json.dumps(peripheral.record()))
        await self.stack.ble.remove_peripheral(address)
        result["status"] = result["checked"]["status"]
        return result

    async def ble_quick_reconnect(self) -> dict:
        """Two runs against one device within bluetoothd's ~30 s cache of its GATT objects."""
        address = self.address()
        first = await self.ble_run(self.blufi(version=[1, 4]), [], address=address, keep=True)
        peripheral = self.stack.ble.peripherals[address]
        frames_first = peripheral.model.record["frames"]
        second = await self.ztprov(["ble", "--device", address, "--ssid", "HomeNet", "--json", "--verbose"])
        second["frames"] = peripheral.model.record["frames"] - frames_first
        first["frames"] = frames_first
        second["peripheral"] = peripheral.record()
        await self.stack.ble.remove_peripheral(address)
        return {"status": second["status"], "first": first, "second": second}

    async def ble_gatt_changed(self) -> dict:
        """A device whose GATT database changed (firmware update) since bluetoothd cached it."""
        address = self.address()
        first = await self.ble_run(self.blufi(), [], address=address)
        await asyncio.sleep(0.5)
        second = await self.ble_run(self.blufi(), [], address=address, extra_service=True)
        return {"status": second["status"], "first": first, "second": second}

    # SoftAP ----------------------------------------------------------------------------------------

    async def softap_run(self, security: str, protocomm: dict, extra: list[str], hotspot: str = "wpa2",
                         ssid: str | None = None, env_extra=None, interrupt_after: float | None = None,
                         vanish: bool = False, interrupt_signal: int = signal.SIGINT,
                         user: str | None = None) -> dict:
        ap_ssid = await self.stack.start_hotspot(hotspot) if hotspot != "absent" else None
        if hotspot == "absent":
            await self.stack.stop_hotspot()
        await self.fresh_device_host({"protocomm": protocomm})
        if vanish:
            # Heard by a scan moments before it goes: the kernel then reports it in every scan for 30 s, and
            # NetworkManager's LastSeen for it moves by its whole-second rounding (the case that misled ztprov).
            since = self.stack.boottime()
            await wait_until("a scan that heard the hotspot", lambda: self._heard_since(ap_ssid, since), 60, 1.0)
            await self.stack.stop_hotspot()
            await asyncio.sleep(2.5)
        interrupt = None
        if interrupt_after is not None:
            async def interrupt():
                await wait_until("the hotspot joined", self._on_hotspot, 90)
                await asyncio.sleep(interrupt_after)
        handoff_before = self.handoff_requests()
        argv = ["softap", "--ap-ssid", ssid or ap_ssid or "PROV_NOWHERE", "--ssid", "HomeNet",
                "--wifi-interface", "wlan0", "--security", security, "--json", "--verbose"] + extra
        result = await self.ztprov(argv, interrupt=interrupt, env_extra=env_extra, timeout=75,
                                   interrupt_signal=interrupt_signal, user=user)
        result["wifi_after"] = await self.stack.wifi_state()
        result["handoff_requests"] = self.handoff_requests() - handoff_before
        if result["wifi_after"]["active"] == []:
            result["home_reconnect_needed"] = True
            await self.stack.connect_home()
        return result

    async def fresh_device_host(self, config: dict) -> None:
        """Restarts the device host unless it runs with `config` and nobody talked to it since."""
        records = self.device_host_records()
        if self._device_host_state == (json.dumps(config, sort_keys=True), records):
            return
        await self.stack.start_device_host(config)
        self._device_host_state = (json.dumps(config, sort_keys=True), self.device_host_records())

    def device_host_records(self) -> int:
        path = os.path.join(self.stack.logs, "device-host.records.jsonl")
        if not os.path.exists(path):
            return 0
        with open(path) as handle:
            return sum(1 for _ in handle)

    async def _heard_since(self, ssid: str, since: float) -> bool:
        """Whether NetworkManager lists `ssid` as heard at boot time `since` or later; asks for a scan otherwise."""
        for access_point in await self.stack.access_points():
            if access_point["ssid"] == ssid and access_point["last_seen"] >= since:
                return True
        await run("nmcli", "device", "wifi", "rescan", check=False)
        return False

    async def _on_hotspot(self) -> bool:
        _, text = await run("ip", "-4", "-o", "addr", "show", "wlan0", check=False)
        return "192.168.4." in text

    async def softap_hang_up(self) -> dict:
        """SIGHUP (a dropped SSH session) while the host is on the device's hotspot, with the home profile not
        autoconnecting: NetworkManager drops the hotspot when ztprov's bus connection dies (bind-activation)
        but would not bring the home network back, so only ztprov's own restore can."""
        await run("nmcli", "connection", "modify", "home", "connection.autoconnect", "no")
        try:
            result = await self.softap_run("1", {"security": 1, "pop": POP}, [], interrupt_after=0.2,
                                           interrupt_signal=signal.SIGHUP)
        finally:
            await run("nmcli", "connection", "modify", "home", "connection.autoconnect", "yes")
        return result

    async def softap_scenarios(self) -> None:
        # Ordered so that hostapd and the device host restart as seldom as possible (each restart costs
        # seconds under TCG).
        security1 = {"security": 1, "pop": POP}
        await self.scenario("softap-sec1-wpa2-handoff", lambda: self.softap_run("1", security1, HANDOFF))
        await self.scenario("softap-wrong-hotspot-password", lambda: self.softap_run(
            "1", security1, [], env_extra={"ZTPROV_AP_PASSWORD": "not-the-hotspot-pass"}))
        await self.scenario("softap-ctrl-c", lambda: self.softap_run("1", security1, [], interrupt_after=0.2))
        await self.scenario("softap-sighup", self.softap_hang_up)
        await self.scenario("softap-hotspot-vanished", lambda: self.softap_run("1", security1, [], vanish=True))
        await self.scenario("softap-hotspot-absent", lambda: self.softap_run("1", security1, [], hotspot="absent"))
        await self.scenario("softap-sec2-open", lambda: self.softap_run(
            "2", {"security": 2, "srp_password": POP}, [], hotspot="open", env_extra={"ZTPROV_AP_PASSWORD": None}))

    # The Debian package ----------------------------------------------------------------------------

    def start_package_install(self) -> None:
        """Installs the package while the other scenarios run (dpkg reads its database over 9p: a minute or
        more under TCG), when the boot has it and runs a package scenario."""
        if os.environ.get("ZTLAB_DEB") and any(self.selected(name) for name in PACKAGE_SCENARIOS):
            self.installing = asyncio.ensure_future(self.install_package())

    async def install_package(self) -> dict:
        """Installs the package into the guest's overlay (its triggers, such as man-db's, left pending), adds
        the two users and waits for polkitd; returns what the package scenarios record about it."""
        started = time.monotonic()
        await run("dpkg", "--no-triggers", "--install", os.environ["ZTLAB_DEB"], timeout=600)
        await run("useradd", "--create-home", "--groups", "ztprov,bluetooth", GROUP_MEMBER)
        await run("useradd", "--create-home", OUTSIDER)
        await wait_until("polkitd on the bus", lambda: self.stack.on_bus("org.freedesktop.PolicyKit1"), 60)
        _, version = await run("dpkg-query", "--show", "--showformat", "${Version}", "ztprov")
        return {"version": version, "polkit_rule": os.path.exists(POLKIT_RULE),
                "users": {user: (await run("id", user))[1].strip() for user in (GROUP_MEMBER, OUTSIDER)},
                "install_seconds": round(time.monotonic() - started, 2)}

    async def package_scenarios(self) -> None:
        """The installed package as its users meet it: a member of its group (and of bluetooth) provisions over
        BLE and SoftAP, the package's polkit rule letting NetworkManager join the hotspot and restore the home
        network; a user outside the group is refused by polkit and told which group to join."""
        if self.installing is None:
            return
        try:
            package = await self.installing
        except Exception as error:
            package = {"install_error": f"{type(error).__name__}: {error}"}
        self.mark("package_installed")
        security1 = {"security": 1, "pop": POP}
        bodies = {
            "package-ble-group-member": lambda: self.ble_run(
                self.blufi(version=[1, 4]), ["--security", "auto"], user=GROUP_MEMBER),
            "package-softap-group-member": lambda: self.softap_run("1", security1, [], user=GROUP_MEMBER),
            "package-softap-outsider": lambda: self.softap_run("1", security1, [], user=OUTSIDER),
        }
        for name in PACKAGE_SCENARIOS:
            await self.scenario(name, lambda body=bodies[name]: self.packaged(package, body))

    @staticmethod
    async def packaged(package: dict, body) -> dict:
        """Runs `body` with the package installed; records what was installed and who ran it."""
        if "install_error" in package:
            raise StackError(f"the package did not install: {package['install_error']}")
        result = await body()
        result["package"] = package
        return result

    # Batch -----------------------------------------------------------------------------------------

    async def batch_four_adapters(self) -> dict:
        """Six units on four controllers: every lane provisions, one unit after another, each with its record."""
        return await self.batch_run(units=6, lanes=len(KERNEL_CONTROLLERS))

    async def batch_two_adapters(self) -> dict:
        """Four units on two controllers: each lane provisions two units one after another, so every lane's
        second unit is picked from what its discovery heard after pausing for the first unit's connect."""
        return await self.batch_run(units=4, lanes=2)

    async def batch_run(self, units: int, lanes: int) -> dict:
        addresses = [self.address() for _ in range(units)]
        for address in addresses:
            await self.stack.ble.add_peripheral(address, "BLUFI_BATCH", self.blufi())
        units_file = "/run/lab-units.csv"
        with open(units_file, "w") as handle:
            handle.write("\n".join(addresses) + "\n")
        database = "/run/lab-batch.sqlite"
        if os.path.exists(database):
            os.remove(database)
        adapters = ",".join(f"hci{index}" for index in range(lanes))
        result = await self.ztprov(["batch", "--devices", units_file, "--ssid", "HomeNet", "--adapters", adapters,
                                    "--db", database, "--json", "--verbose"], timeout=120)
        report = await self.ztprov(["report", "--format", "json", "--db", database])
        result["report"] = report["stdout"]
        result["addresses"] = addresses
        result["peripherals"] = [self.stack.ble.peripherals[a].record() for a in addresses]
        for address in addresses:
            await self.stack.ble.remove_peripheral(address)
        return result

    # Improv ----------------------------------------------------------------------------------------

    def improv(self, **settings) -> dict:
        return {"target_ssid": "HomeNet", "target_password": WIFI_PASSWORD, "join_delay_ms": 200, **settings}

    async def improv_scan(self) -> dict:
        """`ztprov scan` by name finds the Improv peripheral through bluetoothd (name in the scan response)."""
        address = self.address()
        await self.stack.ble.add_improv(address, "IMPROV_LAB", self.improv())
        result = await self.ztprov(["scan", "--name-prefix", "IMPROV_", "--duration", "4", "--json"])
        result["address"] = address
        await self.stack.ble.remove_peripheral(address)
        return result

    async def improv_run(self, improv: dict, extra: list[str]) -> dict:
        """`ztprov ble` against the Improv peripheral through the real bluetoothd."""
        address = self.address()
        peripheral = await self.stack.ble.add_improv(address, "IMPROV_LAB", improv)
        result = await self.run_ble_against(address, peripheral, extra)
        await self.stack.ble.remove_peripheral(address)
        return result

    async def run_ble_against(self, address: str, peripheral, extra: list[str]) -> dict:
        """`ztprov ble --device address` through the real bluetoothd, then what the peripheral saw and
        whether bluetoothd still holds the connection, per controller."""
        result = await self.ztprov(["ble", "--device", address, "--ssid", "HomeNet", "--json", "--verbose",
                                    "--scan-timeout", "15"] + extra)
        await asyncio.sleep(0.3)
        result["peripheral"] = peripheral.record()
        result["bluetoothd_connected_after"] = {
            f"hci{i}": await self.stack.device_connected(f"hci{i}", address) for i in range(len(KERNEL_CONTROLLERS))}
        return result

    # ESP protocomm over BLE ------------------------------------------------------------------------

    def protocomm_ble(self, pairing: dict | None = None) -> dict:
        """A network_provisioning device at security 1 that joins HomeNet with the lab's password."""
        config: dict = {"protocomm": {"security": 1, "pop": POP, "target_ssid": "HomeNet",
                                      "target_passphrase": WIFI_PASSWORD, "connecting_polls": 1,
                                      "cleanup_delay_ms": 2000}}
        if pairing is not None:
            config["pairing"] = pairing
        return config

    async def protocomm_run(self, config: dict, extra: list[str]) -> dict:
        """`ztprov ble` against the protocomm peripheral through the real bluetoothd, then what bluetoothd
        keeps of the device: connected and paired, per controller."""
        address = self.address()
        peripheral = await self.stack.ble.add_protocomm_peripheral(address, "PROV_LAB", config)
        result = await self.run_ble_against(address, peripheral, extra)
        adapters = [f"hci{i}" for i in range(len(KERNEL_CONTROLLERS))]
        result["bluetoothd_paired_after"] = {a: await self.stack.device_paired(a, address) for a in adapters}
        await self.stack.ble.remove_peripheral(address)
        return result

    async def improv_client(self) -> dict:
        """Home Assistant's py-improv-ble-client (over bleak and the real bluetoothd) provisions the lab's
        Improv peripheral: the peripheral speaks Improv as another implementation reads it."""
        python = os.path.join(os.environ["ZTLAB_REPO"], ".build", "improv-client-venv", "bin", "python")
        if not os.path.exists(python):
            return {"status": "missing", "stderr": f"{python} missing (Tests/Harness/make-improv-client-venv)"}
        address = self.address()
        peripheral = await self.stack.ble.add_improv(address, "IMPROV_LAB", self.improv())
        script = os.path.join(os.environ["ZTLAB_REPO"], "Tests", "Harness", "improv_client_check.py")
        result = await self.command([python, script, "--device", address, "--ssid", "HomeNet",
                                     "--password-env", "ZTPROV_WIFI_PASSWORD",
                                     "--expect-url", "http://improv-device.local/"], timeout=90)
        await asyncio.sleep(0.3)
        result["peripheral"] = peripheral.record()
        result["bluetoothd_connected_after"] = {
            f"hci{i}": await self.stack.device_connected(f"hci{i}", address) for i in range(len(KERNEL_CONTROLLERS))}
        await self.stack.ble.remove_peripheral(address)
        return result

    # Doctor ----------------------------------------------------------------------------------------

    async def doctor(self, scope: str) -> dict:
        return await self.ztprov(["doctor", "--for", scope, "--json"])

    async def doctor_adapter_down(self) -> dict:
        for index in range(len(KERNEL_CONTROLLERS)):
            await self.stack.set_powered(index, False)
        try:
            return await self.doctor("ble")
        finally:
            for index in range(len(KERNEL_CONTROLLERS)):
                await self.stack.set_powered(index, True)
            await wait_until("adapters powered again", self.stack.adapters_powered, 20)

    async def doctor_rfkill(self) -> dict:
        self.stack.set_bluetooth_soft_block(True)
        try:
            result = await self.doctor("ble")
            result["ble"] = await self.ble_run(self.blufi(), ["--scan-timeout", "3"])
            return result
        finally:
            self.stack.set_bluetooth_soft_block(False)
            await asyncio.sleep(1)
            for index in range(len(KERNEL_CONTROLLERS)):
                await self.stack.set_powered(index, True)
            await wait_until("adapters powered again", self.stack.adapters_powered, 20)

    # The last two scenarios of the boot: the daemon they stop is not started again.

    async def doctor_no_bluetoothd(self) -> dict:
        await self.stack.stop_daemon("bluetoothd")
        return await self.doctor("ble")

    async def doctor_no_nm(self) -> dict:
        await self.stack.stop_daemon("NetworkManager")
        return await self.doctor("softap")

    # Benchmark (Tests/Benchmarks/ztbench/lab_bench.py) ---------------------------------------------

    async def bench(self, runs: int) -> None:
        """`runs` provisionings over each path, nothing else: BluFi V2 (device on BluFi 1.4) at the MTU the
        stacks negotiate, then protocomm security 1 through the WPA2 hotspot with a fresh device each time
        (a provisioned device stops its provisioning service). The device's own delays are recorded as
        the floor it imposes."""
        self.timings["bench_device_floor"] = {
            "ble": {"advertising_interval_ms": ADVERTISING_INTERVAL_MS, "join_delay_ms": BENCH_JOIN_DELAY_MS},
            "softap": {"connecting_polls": BENCH_CONNECTING_POLLS}}
        for run_index in range(runs):
            await self.scenario(f"bench-ble-{run_index + 1}", lambda: self.ble_run(
                self.blufi(version=[1, 4], join_delay_ms=BENCH_JOIN_DELAY_MS), ["--security", "v2"]))
        protocomm = {"security": 1, "pop": POP, "connecting_polls": BENCH_CONNECTING_POLLS}
        for run_index in range(runs):
            await self.scenario(f"bench-softap-{run_index + 1}", lambda: self.softap_run("1", protocomm, []))
        self.mark("finished")
        self.save()

    # The whole boot --------------------------------------------------------------------------------

    async def main(self) -> None:
        await self.stack.start_bus()
        await asyncio.gather(self.stack.start_bluetooth(), self.stack.start_wifi())
        await self.stack.assign_slot("hci1", 2)
        self.mark("stack_ready")
        self.save()
        bench_runs = int(os.environ.get("ZTLAB_BENCH") or 0)
        if bench_runs:
            await self.bench(bench_runs)
            return
        self.start_package_install()
        await self.scenario("doctor-ready", lambda: self.doctor("all"))
        await self.ble_handoff_scenarios()
        # One scenario at a time: run side by side on a loaded host, the two chains (separate daemons, radios
        # and peripherals) each ran several times slower, every ztprov start-up competing for the two emulated CPUs.
        await self.bluetooth_chain()
        await self.package_scenarios()
        await self.wifi_chain()
        await self.scenario("doctor-adapter-down", self.doctor_adapter_down)
        await self.scenario("doctor-rfkill-soft-blocked", self.doctor_rfkill)
        await self.scenario("doctor-no-bluetoothd", self.doctor_no_bluetoothd)
        await self.scenario("doctor-no-networkmanager", self.doctor_no_nm)
        self.mark("finished")
        self.save()

    async def wifi_chain(self) -> None:
        await self.softap_scenarios()
        self.mark("softap_done")

    async def bluetooth_chain(self) -> None:
        await self.ble_scenarios()
        self.mark("ble_done")
        await self.scenario("batch-four-adapters", self.batch_four_adapters)
        await self.scenario("batch-two-adapters", self.batch_two_adapters)
        await self.scenario("improv-scan", self.improv_scan)
        await self.scenario("improv-client", self.improv_client)
        await self.scenario("ble-improv-auto", lambda: self.improv_run(
            self.improv(), ["--identify", "--hostname", "lab-plug"]))
        await self.scenario("ble-improv-wrong-password", lambda: self.improv_run(
            self.improv(target_password="not-the-lab-password"), ["--protocol", "improv"]))
        await self.scenario("ble-protocomm-auto", lambda: self.protocomm_run(self.protocomm_ble(), []))
        await self.scenario("ble-protocomm-pairing", lambda: self.protocomm_run(
            self.protocomm_ble({"required": True}), ["--protocol", "protocomm"]))
        await self.scenario("ble-protocomm-pairing-mitm", lambda: self.protocomm_run(
            self.protocomm_ble({"required": True, "mitm": True}), ["--protocol", "protocomm"]))
        await self.scenario("ble-protocomm-pairing-refused", lambda: self.protocomm_run(
            self.protocomm_ble({"required": True, "accept": False}), ["--protocol", "protocomm"]))
        self.mark("bluetooth_done")


async def _true(value: bool) -> bool:
    return value


def main() -> None:
    results = sys.argv[1]
    suite = Suite(results)
    status = "finished"
    try:
        asyncio.run(suite.main())
    except Exception:
        traceback.print_exc()
        status = "failed"
    suite.save()
    with open(os.path.join(results, "suite.status"), "w") as handle:
        handle.write(status + "\n")


if __name__ == "__main__":
    main()
