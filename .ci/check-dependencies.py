#!/usr/bin/env python3
"""Checks ztprov's layering rules on the import lines and API uses of Sources/.

The layers come from the package manifest (`swift package dump-package`), not from a list kept here:
  - C modules are the system-library targets and the C targets (C sources, no Swift: a library loaded at run time
    behind forwarders); each has one owner, the only target that depends on it, except C helpers;
  - C helpers are C modules only other C modules depend on (such as the loader the forwarder targets share): they
    own no library, so they depend on no C module themselves;
  - the crypto door is the owner of COpenSSL;
  - an I/O package (SwiftNIO) has one owner too, the only target that depends on its products; the owner is an
    adapter;
  - ports are the targets an owner of a C module depends on (other than C modules and the crypto door);
  - protocol cores are the library targets that depend on nothing of ours but the crypto door and other cores;
  - adapters own a C module (other than OpenSSL), depend on another adapter, or depend on ports (and the crypto door)
    alone;
  - test support is what only tests depend on; every other library target is orchestration.

Rules:
  - cores import no module of ours but the crypto door and other cores, no C module, no I/O library, and use no file,
    process, network, clock or randomness API of Foundation or the system (they are bytes in, bytes out);
  - orchestration imports no adapter and no C module;
  - each C module is imported only by its owner, and only from one folder of it; a C helper by no Swift code;
  - an I/O package's modules are imported only by its owner;
  - only executables print;
  - an executable's options (its `Options/` folder) are plain data: no file, process, environment, clock or
    randomness API there; reading secrets, files and sockets is wiring (`Wiring/`).

Usage: check-dependencies.py [SOURCES_DIR]      check a tree (default: ./Sources) against `swift package dump-package`
       check-dependencies.py --self-test        prove every rule and the layer derivation can fail, on made-up trees
"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

CRYPTO_LIBRARY = "COpenSSL"
IO_MODULES = {"Glibc", "Musl", "FoundationNetworking", "Dispatch", "Logging", "SystemPackage"}
# Packages that do I/O (sockets, event loops) and the prefixes of their modules' names; each has one owner target.
IO_PACKAGES = {"swift-nio": ("NIO", "_NIO", "CNIO")}
CORE_FORBIDDEN_APIS = re.compile(
    r"\b(FileManager|FileHandle|ProcessInfo|URLSession|DispatchQueue|Thread|ContinuousClock|SuspendingClock|"
    r"SystemRandomNumberGenerator)\b|\b(Process|Date)\(\)|\bDate\.now\b|\bcontentsOf:|\bTask\.sleep\b|"
    r"\b(getenv|fopen|arc4random)\(|\.random\((?![^)\n]*using:)")

IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?import\s+(?:\w+\s+)?(\w+)",
    re.M)
PRINT = re.compile(r"(?<![\w.])print\(")


@dataclass
class Layers:
    c_owners: dict[str, str] = field(default_factory=dict)
    c_helpers: set[str] = field(default_factory=set)
    crypto_door: str | None = None
    io_package_owners: dict[str, str] = field(default_factory=dict)
    ports: set[str] = field(default_factory=set)
    cores: set[str] = field(default_factory=set)
    adapters: set[str] = field(default_factory=set)
    test_support: set[str] = field(default_factory=set)
    executables: set[str] = field(default_factory=set)
    orchestration: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    def all_of_ours(self) -> set[str]:
        return self.ports | self.adapters | self.orchestration | self.cores | self.test_support | {self.crypto_door}


def dependency_names(target: dict) -> list[str]:
    names = []
    for dependency in target.get("dependencies", []):
        for kind, value in dependency.items():
            names.append(value[0] if kind in ("byName", "target", "product") else str(value))
    return names


def io_package_users(target: dict) -> set[str]:
    """The I/O packages whose products `target` depends on."""
    return {
        value[1] for dependency in target.get("dependencies", []) for kind, value in dependency.items()
        if kind == "product" and value[1] in IO_PACKAGES
    }


def derive_layers(manifest: dict) -> Layers:
    """Sorts the manifest's targets that live under Sources/ into the layers the rules speak of."""
    targets = {t["name"]: t for t in manifest["targets"]}
    ours = set(targets)
    deps = {name: [d for d in dependency_names(t) if d in ours] for name, t in targets.items()}
    layers = Layers()
    for package in IO_PACKAGES:
        owners = sorted(name for name, t in targets.items() if t["type"] != "test" and package in io_package_users(t))
        if len(owners) > 1:
            layers.problems.append(f"{package} must have at most one owner target, has {owners}")
        elif owners:
            layers.io_package_owners[package] = owners[0]
    c_modules = {name for name, t in targets.items() if t["type"] == "system" or t.get("c_language")}
    for module in sorted(c_modules):
        owners = sorted(name for name in targets if module in deps[name] and targets[name]["type"] != "test")
        if owners and set(owners) <= c_modules:
            layers.c_helpers.add(module)
            if set(deps[module]) & c_modules:
                layers.problems.append(f"C helper {module} owns no library, yet depends on {sorted(deps[module])}")
        elif len(owners) != 1:
            layers.problems.append(f"{module} must have exactly one owner target, has {owners}")
        elif owners:
            layers.c_owners[module] = owners[0]
    layers.crypto_door = layers.c_owners.get(CRYPTO_LIBRARY)
    libraries = {
        name for name, t in targets.items()
        if t["type"] == "regular" and name not in c_modules and not (t.get("path") or "").startswith("Tests/")
    }
    layers.executables = {name for name, t in targets.items() if t["type"] == "executable"}
    depended_on_by_non_tests = {
        d for name, t in targets.items() if t["type"] != "test" and not (t.get("path") or "").startswith("Tests/")
        for d in deps[name]
    }
    layers.test_support = libraries - depended_on_by_non_tests
    owners = set(layers.c_owners.values()) - {layers.crypto_door}
    layers.ports = {
        d for owner in owners for d in deps[owner] if d not in c_modules and d != layers.crypto_door
    }
    rest = libraries - layers.test_support - layers.ports - {layers.crypto_door}
    layers.cores = set(rest)
    while pure_only := {name for name in layers.cores if not set(deps[name]) <= layers.cores | {layers.crypto_door}}:
        layers.cores -= pure_only
    layers.adapters = set(owners) | set(layers.io_package_owners.values())
    layers.cores -= layers.adapters
    changed = True
    while changed:
        candidates = {
            name for name in rest - layers.cores - layers.adapters
            if set(deps[name]) & layers.adapters
            or (set(deps[name]) & layers.ports and set(deps[name]) <= layers.ports | {layers.crypto_door})
        }
        changed = bool(candidates)
        layers.adapters |= candidates
    layers.orchestration = rest - layers.cores - layers.adapters
    return layers


def violations(sources: pathlib.Path, layers: Layers) -> list[str]:
    found = list(layers.problems)
    c_modules = set(layers.c_owners) | layers.c_helpers
    c_folders: dict[str, set[str]] = {}
    for path in sorted(sources.rglob("*.swift")):
        relative = path.relative_to(sources)
        target = relative.parts[0]
        if "Generated" in relative.parts:
            continue
        text = path.read_text(encoding="utf-8")
        code = strip_comments(text)
        for module in IMPORT.findall(text):
            if module in layers.c_helpers:
                found.append(f"{relative}: imports {module}, a C helper only C modules use")
            elif module in c_modules:
                if layers.c_owners[module] != target:
                    found.append(f"{relative}: imports {module}, which belongs to {layers.c_owners[module]}")
                else:
                    c_folders.setdefault(module, set()).add(str(relative.parent))
            if target in layers.cores and module not in layers.cores | {layers.crypto_door} and (
                    module in IO_MODULES or module in c_modules or module in layers.all_of_ours()):
                found.append(f"{relative}: core {target} imports {module}")
            if target in layers.orchestration and module in layers.adapters | c_modules:
                found.append(f"{relative}: {target} (orchestration) imports {module}")
            for package, prefixes in IO_PACKAGES.items():
                if module.startswith(prefixes) and layers.io_package_owners.get(package) != target:
                    found.append(f"{relative}: imports {module}, which belongs to {package}'s owner "
                                 f"{layers.io_package_owners.get(package)}")
        if target in layers.cores:
            for match in CORE_FORBIDDEN_APIS.finditer(code):
                found.append(f"{relative}: core {target} uses {match.group(0).strip()} (I/O, clock or randomness)")
        if target in layers.executables and "Options" in relative.parts[1:-1]:
            for match in CORE_FORBIDDEN_APIS.finditer(code):
                found.append(f"{relative}: options of {target} use {match.group(0).strip()} (I/O belongs in Wiring/)")
        if target not in layers.executables and PRINT.search(code):
            found.append(f"{relative}: prints outside an executable")
    for module, folders in c_folders.items():
        if len(folders) > 1:
            found.append(f"{module} is imported from {len(folders)} folders: {', '.join(sorted(folders))}")
    return found


def strip_comments(text: str) -> str:
    """The code without comments and the contents of one-line string literals (a message may say "Thread")."""
    return re.sub(r"//.*", "", re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text))


def made_up_manifest() -> dict:
    """A small package shaped like ztprov's, for the self-test."""
    def target(name, kind="regular", deps=(), path=None):
        return {"name": name, "type": kind, "path": path, "dependencies": [{"byName": [d, None]} for d in deps]}
    return {"targets": [
        target("tool", "executable", ["Flows", "Radio", "Wire", "Frames", "Ports", "Store", "Serve"]),
        target("Flows", deps=["Frames", "Ports", "Crypto"]),
        target("Frames", deps=["Crypto", "Text"]),
        target("Text"),
        target("Ports"),
        target("Radio", deps=["CRadio", "Ports"]),
        target("Bus", deps=["CBus"]),
        target("Wire", deps=["Ports"]),
        target("Crypto", deps=["COpenSSL"]),
        target("Helpers", deps=["Ports"]),
        target("COpenSSL", "system"), target("CRadio", "system"), dict(target("CBus", deps=["CLoad"]), c_language=True),
        dict(target("CStore", deps=["CLoad"]), c_language=True), dict(target("CLoad"), c_language=True),
        target("Store", deps=["CStore", "Ports"]),
        target("RadioBus", deps=["Bus", "Ports"]),
        dict(target("Serve"), dependencies=[{"product": ["NIOPosix", "swift-nio", None, None]}]),
        target("FlowsTests", "test", ["Flows", "Helpers"]),
    ]}


def self_test() -> int:
    manifest = made_up_manifest()
    manifest["targets"][0]["dependencies"].append({"byName": ["RadioBus", None]})
    layers = derive_layers(manifest)
    expected = {
        "cores": {"Frames", "Text"}, "ports": {"Ports"},
        "adapters": {"Radio", "Bus", "Wire", "RadioBus", "Store", "Serve"},
        "orchestration": {"Flows"}, "test_support": {"Helpers"}, "crypto_door": "Crypto", "c_helpers": {"CLoad"},
    }
    failures = 0
    for name, value in expected.items():
        ok = getattr(layers, name) == value
        print(f"self-test {'ok  ' if ok else 'FAIL'} derives {name}: {getattr(layers, name)}")
        failures += 0 if ok else 1
    def depending(name: str, on: str) -> dict:
        """The made-up manifest with `name` (a new target if it is not there) depending on `on` as well (a new
        system library if it is not there)."""
        manifest = made_up_manifest()
        if all(t["name"] != on for t in manifest["targets"]):
            manifest["targets"].append({"name": on, "type": "system", "path": None, "dependencies": []})
        target = next((t for t in manifest["targets"] if t["name"] == name), None)
        if target is None:
            target = {"name": name, "type": "regular", "path": None, "dependencies": []}
            manifest["targets"].append(target)
        target["dependencies"].append({"byName": [on, None]})
        return manifest
    second_owner = made_up_manifest()
    second_owner["targets"].append(
        {"name": "Serve2", "type": "regular", "path": None,
         "dependencies": [{"product": ["NIOHTTP1", "swift-nio", None, None]}]})
    broken_manifests = {
        "I/O package with two owners": second_owner,
        "C module with two owners": depending("Radio2", on="CRadio"),
        "C helper that owns a library": depending("CLoad", on="CZip"),
        "C helper a Swift target depends on": depending("Store", on="CLoad"),
    }
    for name, broken in broken_manifests.items():
        caught = derive_layers(broken).problems
        print(f"self-test {'ok  ' if caught else 'MISS'} {name}: {caught}")
        failures += 0 if caught else 1
    cases = {
        "core imports a C module": {"Frames/Frame.swift": "import COpenSSL\n"},
        "core imports an adapter": {"Frames/Session.swift": "internal import Radio\n"},
        "core imports a port": {"Frames/Session.swift": "import Ports\n"},
        "core does I/O": {"Frames/Packet.swift": "import Glibc\n"},
        "core reads a file": {"Frames/Load.swift": "let d = try Data(contentsOf: url)\n"},
        "core lists a directory": {"Frames/Load.swift": "let f = FileManager.default\n"},
        "core reads the clock": {"Frames/Stamp.swift": "let now = Date()\n"},
        "core sleeps": {"Frames/Wait.swift": "try await Task.sleep(for: .seconds(1))\n"},
        "core draws randomness": {"Frames/Nonce.swift": "let n = UInt8.random(in: 0...9)\n"},
        "core starts a process": {"Frames/Run.swift": "let p = Process()\n"},
        "C module outside its owner": {"Crypto/Digest.swift": "import CRadio\n"},
        "Swift imports a C helper": {"Bus/Load.swift": "import CLoad\n"},
        "C module in two folders of its owner": {
            "Radio/Link.swift": "import CRadio\n", "Radio/Low/Socket.swift": "import CRadio\n"},
        "orchestration imports an adapter": {"Flows/Flow.swift": "public import Radio\n"},
        "orchestration imports a C module": {"Flows/Flow.swift": "import CBus\n"},
        "an I/O package outside its owner": {"Radio/Server.swift": "import NIOPosix\n"},
        "core imports an I/O package": {"Frames/Server.swift": "import NIOCore\n"},
        "library prints": {"Radio/Scanner.swift": "func f() { print(\"x\") }\n"},
        "options read the environment": {"tool/Options/Secret.swift": "let e = ProcessInfo.processInfo.environment\n"},
        "options read a file": {"tool/Options/Profile.swift": "let d = try Data(contentsOf: url)\n"},
    }
    for name, files in cases.items():
        with tempfile.TemporaryDirectory() as directory:
            root = pathlib.Path(directory)
            for relative, text in files.items():
                (root / relative).parent.mkdir(parents=True, exist_ok=True)
                (root / relative).write_text(text)
            caught = violations(root, layers)
            print(f"self-test {'ok  ' if caught else 'MISS'} {name}: {caught}")
            failures += 0 if caught else 1
    with tempfile.TemporaryDirectory() as directory:
        root = pathlib.Path(directory)
        allowed = {
            "Crypto/OpenSSL/Digest.swift": "internal import COpenSSL\n// print(x)\n",
            "Frames/Frame.swift": "import Crypto\nimport Text\nimport Foundation\nstruct F { var date: Int; let random: UInt8 }\n",
            "Flows/Flow.swift": "import Frames\nimport Ports\nimport Foundation\nlet now = Date()\n",
            "tool/Main.swift": "import Radio\nprint(\"ok\")\n",
            "Serve/Server.swift": "import NIOCore\nimport NIOPosix\n",
            "tool/Wiring/Secret.swift": "let e = ProcessInfo.processInfo.environment\n",
            "tool/Options/Flags.swift": "struct Flags { var file: String?; var environmentVariable: String? }\n",
            "tool/Options/Help.swift": 'let help = "for a Thread device, not a file // nor ProcessInfo"\n',
        }
        for relative, text in allowed.items():
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text(text)
        clean = violations(root, layers)
        print(f"self-test {'ok  ' if not clean else 'FALSE'} allowed layout passes: {clean}")
        failures += 1 if clean else 0
    return 1 if failures else 0


def package_manifest(package_directory: pathlib.Path) -> dict:
    dumped = subprocess.run(
        ["swift", "package", "dump-package"], cwd=package_directory, capture_output=True, text=True, check=True)
    manifest = json.loads(dumped.stdout)
    for target in manifest["targets"]:
        folder = package_directory / (target.get("path") or f"Sources/{target['name']}")
        target["c_language"] = (target["type"] == "regular" and any(folder.rglob("*.c"))
                                and not any(folder.rglob("*.swift")))
    return manifest


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    sources = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Sources").resolve()
    layers = derive_layers(package_manifest(sources.parent))
    print(f"layers: cores {sorted(layers.cores)}, ports {sorted(layers.ports)}, adapters {sorted(layers.adapters)}, "
          f"orchestration {sorted(layers.orchestration)}, crypto door {layers.crypto_door}, "
          f"C helpers {sorted(layers.c_helpers)}")
    found = violations(sources, layers)
    for line in found:
        print(f"dependency rule broken: {line}")
    print(f"dependency check: {len(found)} violation(s) in {sources}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
