#!/usr/bin/env python3
"""Checks ztprov's layering rules on the import lines of Sources/.

Rules (architecture.md §3.1):
  - protocol cores import no adapter, no port module, no orchestration, no C module, no I/O library;
  - Provisioning imports no adapter and no C module;
  - each C module is imported by exactly one Swift target, and only from that target's C folder;
  - only the executable prints.

Usage: check-dependencies.py [SOURCES_DIR]      check a tree (default: ./Sources)
       check-dependencies.py --self-test        prove every rule can fail, on made-up trees
"""
import pathlib
import re
import sys
import tempfile

CORES = {"BluFi", "Protocomm", "ZhitingLAN", "Improv"}
ADAPTERS = {"DBus", "BlueZ", "NetworkManager", "Sockets", "HCI", "SQLiteRecordStore", "PostgresRecordStore"}
C_MODULE_HOMES = {
    "COpenSSL": "CryptoPrimitives/OpenSSL",
    "CDBus": "DBus",
    "CLibNM": "NetworkManager/GLib",
    "CBluetooth": "HCI",
    "CSQLite": "SQLiteRecordStore/SQLite",
    "CLibPQ": "PostgresRecordStore/LibPQ",
}
IO_MODULES = {"Glibc", "Musl", "FoundationNetworking", "Dispatch", "Logging", "SystemPackage"}
NOT_FOR_CORES = ADAPTERS | {"Transports", "Provisioning", "DeviceEmulator"} | IO_MODULES
NOT_FOR_PROVISIONING = ADAPTERS
PRINTING_TARGETS = {"ztprov"}

IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?import\s+(?:\w+\s+)?(\w+)", re.M)
PRINT = re.compile(r"(?<![\w.])print\(")


def violations(sources: pathlib.Path) -> list[str]:
    found = []
    importers: dict[str, set[str]] = {}
    for path in sorted(sources.rglob("*.swift")):
        relative = path.relative_to(sources)
        target = relative.parts[0]
        if "Generated" in relative.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for module in IMPORT.findall(text):
            if module.startswith("C") and module in C_MODULE_HOMES:
                importers.setdefault(module, set()).add(target)
                home = C_MODULE_HOMES[module]
                if not str(relative).startswith(home + "/"):
                    found.append(f"{relative}: imports {module} outside Sources/{home}/")
            if target in CORES and (module in NOT_FOR_CORES or module in C_MODULE_HOMES):
                found.append(f"{relative}: core {target} imports {module}")
            if target == "Provisioning" and (module in NOT_FOR_PROVISIONING or module in C_MODULE_HOMES):
                found.append(f"{relative}: Provisioning imports {module}")
        if target not in PRINTING_TARGETS and PRINT.search(strip_comments(text)):
            found.append(f"{relative}: prints outside the executable")
    for module, targets in importers.items():
        if len(targets) > 1:
            found.append(f"{module} is imported by {len(targets)} targets: {', '.join(sorted(targets))}")
    return found


def strip_comments(text: str) -> str:
    return re.sub(r"//.*", "", text)


def self_test() -> int:
    cases = {
        "core imports a C module": {"BluFi/Frame.swift": "import COpenSSL\n"},
        "core imports an adapter": {"Protocomm/Session.swift": "internal import BlueZ\n"},
        "core does I/O": {"ZhitingLAN/Packet.swift": "import Glibc\n"},
        "C module outside its folder": {"CryptoPrimitives/Digest.swift": "import COpenSSL\n"},
        "C module in two targets": {
            "DBus/Connection.swift": "import CDBus\n",
            "NetworkManager/GLib/Bus.swift": "@preconcurrency import CDBus\n",
        },
        "BlueZ speaks to libdbus itself": {"BlueZ/Client.swift": "import CDBus\n"},
        "Provisioning imports an adapter": {"Provisioning/Flow.swift": "public import Sockets\n"},
        "library prints": {"BlueZ/Scanner.swift": "func f() { print(\"x\") }\n"},
        "Provisioning imports a record store": {"Provisioning/Batch.swift": "import SQLiteRecordStore\n"},
        "libpq outside its folder": {"PostgresRecordStore/Store.swift": "import CLibPQ\n"},
    }
    failures = 0
    for name, files in cases.items():
        with tempfile.TemporaryDirectory() as directory:
            root = pathlib.Path(directory)
            for relative, text in files.items():
                (root / relative).parent.mkdir(parents=True, exist_ok=True)
                (root / relative).write_text(text)
            caught = violations(root)
            print(f"self-test {'ok  ' if caught else 'MISS'} {name}: {caught}")
            failures += 0 if caught else 1
    with tempfile.TemporaryDirectory() as directory:
        root = pathlib.Path(directory)
        (root / "CryptoPrimitives/OpenSSL").mkdir(parents=True)
        (root / "CryptoPrimitives/OpenSSL/Digest.swift").write_text("internal import COpenSSL\n// print(x)\n")
        clean = violations(root)
        print(f"self-test {'ok  ' if not clean else 'FALSE'} allowed layout passes: {clean}")
        failures += 1 if clean else 0
    return 1 if failures else 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    sources = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Sources")
    found = violations(sources)
    for line in found:
        print(f"dependency rule broken: {line}")
    print(f"dependency check: {len(found)} violation(s) in {sources}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
