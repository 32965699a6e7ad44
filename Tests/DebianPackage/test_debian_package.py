"""The Debian package as a user meets it: built by `.ci/build-deb`, checked by lintian, installed into a clean
Debian 12 root, used there by a plain user in the ztprov group, then purged.

Runs with ZTPROV_DEBIAN_PACKAGE=1 as root (Tests/run-tests sets it); skips naming what is missing, except
with ZTPROV_DEBIAN_PACKAGE=required (CI), where anything missing fails. The tests share one installation
and run in file order: the checks with only the package's dependencies installed come first, the purge last.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from clean_root import CleanRoot, cached_tarball  # noqa: E402

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.path.join(REPOSITORY, ".build")
USER = "installer"
# What the package recommends or suggests, loaded only by the commands that need it: `ztprov demo` must run without.
NOT_DEPENDENCIES = ("libnm0", "libsqlite3-0", "libpq5", "bluez", "network-manager")


def missing_requirements():
    mode = os.environ.get("ZTPROV_DEBIAN_PACKAGE")
    missing = [] if mode in ("1", "required") else ["ZTPROV_DEBIAN_PACKAGE=1 (Tests/run-tests sets it)"]
    if os.geteuid() != 0:
        missing.append("root (for the chroot)")
    for tool in ("swift", "mmdebstrap", "lintian", "dpkg-shlibdeps", "unshare"):
        if shutil.which(tool) is None:
            missing.append(f"{tool} (bash .ci/install-system-packages)")
    return missing


@pytest.fixture(scope="module", autouse=True)
def requirements():
    missing = missing_requirements()
    if missing and os.environ.get("ZTPROV_DEBIAN_PACKAGE") == "required":
        pytest.fail("the Debian package test needs " + ", ".join(missing))
    if missing:
        pytest.skip("the Debian package test needs " + ", ".join(missing))


def timed(label, action):
    started = time.monotonic()
    result = action()
    print(f"{label}: {time.monotonic() - started:.0f} s")
    return result


@pytest.fixture(scope="module")
def package():
    given = os.environ.get("ZTPROV_DEB_PATH")
    if given:  # Tests/run-tests built it already
        return given
    built = timed(
        "bash .ci/build-deb",
        lambda: subprocess.run(
            ["bash", ".ci/build-deb"], cwd=REPOSITORY, capture_output=True, text=True, check=False, timeout=3600
        ),
    )
    assert built.returncode == 0, built.stdout + built.stderr
    return built.stdout.strip().splitlines()[-1]


def control_field(package, field):
    return subprocess.run(["dpkg-deb", "--field", package, field], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture(scope="module")
def root(package):
    """The clean root with the package installed (dependencies only) and a plain user in the ztprov group."""
    tarball = timed("clean root (mmdebstrap, cached)", lambda: cached_tarball(os.path.join(BUILD, "debian-root")))
    clean = timed("unpack", lambda: CleanRoot(tarball, os.path.join(BUILD, "debian-root", "root")))
    shutil.copyfile(package, os.path.join(clean.path, "tmp", "ztprov.deb"))
    clean.before_install = clean.files()
    timed(
        "apt-get install ./ztprov.deb",
        lambda: clean.run(
            "apt-get update -qq && apt-get install -y -qq --no-install-recommends /tmp/ztprov.deb", timeout=600
        ),
    )
    clean.run(f"useradd --create-home --groups ztprov {USER}")
    yield clean
    clean.remove()


@pytest.fixture(scope="module")
def test_tools(root):
    """What the later checks look through (man, bash's completion loader, udev), installed after the
    checks that need only the package's dependencies."""
    timed(
        "apt-get install man-db bash-completion udev",
        lambda: root.run("apt-get install -y -qq --no-install-recommends man-db bash-completion udev", timeout=600),
    )
    return root


def test_lintian_finds_no_error_and_no_warning(package):
    result = timed(
        "lintian",
        lambda: subprocess.run(
            ["lintian", "--fail-on", "error,warning", "--display-info", "--show-overrides", package],
            capture_output=True,
            text=True,
            check=False,
        ),
    )
    print(result.stdout)
    # No override either: the package has no warning to explain away.
    assert result.returncode == 0 and "W: " not in result.stdout, result.stdout + result.stderr


def test_the_files_are_at_debians_paths(root):
    paths = set(root.run("dpkg-query -L ztprov").stdout.split())
    expected = {
        "/usr/bin/ztprov",
        "/usr/share/man/man1/ztprov.1.gz",
        "/usr/share/bash-completion/completions/ztprov",
        "/usr/share/zsh/vendor-completions/_ztprov",
        "/usr/share/fish/vendor_completions.d/ztprov.fish",
        "/usr/share/polkit-1/rules.d/50-ztprov-networkmanager.rules",
        "/usr/lib/sysusers.d/ztprov.conf",
        "/usr/share/doc/ztprov/README.md",
        "/usr/share/doc/ztprov/changelog.gz",
        "/usr/share/doc/ztprov/copyright",
        "/usr/share/doc/ztprov/examples/station.json",
        "/usr/share/doc/ztprov/examples/grafana-dashboard.json",
        "/usr/share/doc/ztprov/examples/prometheus-scrape.yml",
    }
    assert expected <= paths, sorted(expected - paths)
    # udev's own package decides where rules go: its pkg-config file on this (the building) machine.
    udevdir = subprocess.run(
        ["pkg-config", "--variable=udevdir", "udev"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert f"{udevdir}/rules.d/70-ztprov.rules" in paths


# What `report --serve` exposes at /metrics (LineMetrics in Sources/Records/Metrics).
SERVED_METRICS = {
    "ztprov_attempts_total", "ztprov_units_settled_total", "ztprov_unit_duration_seconds_bucket",
    "ztprov_unit_duration_seconds_sum", "ztprov_unit_duration_seconds_count", "ztprov_units_in_progress",
    "ztprov_last_record_timestamp_seconds", "ztprov_units_provisioned_by_security_total",
}


def test_the_grafana_example_queries_only_the_served_metrics(root):
    with open(os.path.join(root.path, "usr/share/doc/ztprov/examples/grafana-dashboard.json")) as file:
        dashboard = json.load(file)
    names = {
        name for panel in dashboard["panels"] for target in panel["targets"]
        for name in re.findall(r"\bztprov_\w+", target["expr"])
    }
    assert names and names <= SERVED_METRICS, names - SERVED_METRICS


def test_only_the_dependencies_were_installed(root):
    installed = root.run("dpkg-query -W -f '${Package} ${Status}\\n'").stdout
    for name in NOT_DEPENDENCIES:
        assert f"{name} install ok installed" not in installed, f"{name} came in with the package"


def test_the_system_group_exists_and_the_user_is_in_it(root):
    assert root.run("getent group ztprov").stdout.startswith("ztprov:x:")
    assert "ztprov" in root.run("id -nG", user=USER).stdout.split()


def test_version_is_the_packages(root, package):
    assert root.run("ztprov --version", user=USER).stdout.strip() == control_field(package, "Version")


def test_a_plain_user_provisions_the_demo_devices(root):
    demo = timed("ztprov demo --json", lambda: root.run("ztprov demo --json", user=USER, check=False, timeout=120))
    assert demo.returncode == 0, demo.stdout + demo.stderr
    result = demo.stdout.strip().splitlines()[-1]
    assert result.startswith('{"event":"result"') and '"ok":true' in result, demo.stdout


def test_the_manual_page_is_found(test_tools):
    assert test_tools.run("man -w ztprov", user=USER).stdout.strip() == "/usr/share/man/man1/ztprov.1.gz"
    # The help text's non-ASCII character (the … in batch's QR payload) is on the page, in a UTF-8 locale as
    # itself and in the plain C locale as its ASCII stand-in; groff warns in neither.
    for locale, ellipsis in (("C.UTF-8", "…"), ("C", "...")):
        page = test_tools.run(f"LC_ALL={locale} MANWIDTH=100 man ztprov 2>&1", user=USER).stdout
        for subcommand in ("ble", "softap", "batch", "doctor", "demo"):
            assert subcommand in page
        assert "warning" not in page, page
        assert '{"ver":"v1","name":' + ellipsis + ',"pop":' in page, page


def test_the_bash_completion_loads(test_tools):
    # The way bash-completion finds it in an interactive shell: on first completion, by the command's name
    # (the loader returns 124, "try again", when it loaded one).
    loaded = test_tools.run(
        "bash -c '. /usr/share/bash-completion/bash_completion && _completion_loader ztprov; complete -p ztprov'",
        user=USER,
    )
    assert loaded.stdout.strip().endswith(" ztprov"), loaded.stdout


def test_udev_reads_the_rules(test_tools):
    # udevadm test reads every rules file udev would (no event is sent; sysfs is mounted read-only).
    test = test_tools.run("udevadm test --action=add /sys/class/net/lo 2>&1", check=False)
    assert "70-ztprov.rules" in test.stdout, test.stdout[-3000:]


def test_the_polkit_rule_is_where_polkitd_reads_it(root):
    root.run("test -f /usr/share/polkit-1/rules.d/50-ztprov-networkmanager.rules")


def test_purge_leaves_nothing_but_the_group(test_tools):
    root = test_tools
    before_purge = root.files()
    package_paths = root.run("dpkg-query -L ztprov").stdout.split()
    timed("apt-get purge ztprov", lambda: root.run("apt-get purge -y -qq ztprov"))
    left = root.files()
    installed_since = left - root.before_install
    # What the dependencies and the test tools brought stays; nothing of ztprov's does.
    assert not [path for path in installed_since if "ztprov" in path], sorted(installed_since)
    for path in package_paths:
        if path in left and not os.path.isdir(os.path.join(root.path, path.lstrip("/"))):
            pytest.fail(f"{path} is left after the purge")
    assert before_purge - left, "the purge removed nothing"
    assert root.run("dpkg-query -W ztprov", check=False).returncode != 0
    assert root.run("getent group ztprov").returncode == 0
