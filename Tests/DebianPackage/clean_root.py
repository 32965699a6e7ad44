"""A clean Debian 12 root to install the package into: mmdebstrap's minbase from this machine's apt sources.

The bootstrapped root is kept as a tarball under .build/ (keyed by the apt sources it came from), so later
runs on the same machine only unpack it. Commands run in it through chroot, in a mount namespace of their
own with /proc and /sys mounted, so nothing stays mounted when a run is killed.
"""

import glob
import hashlib
import os
import shutil
import subprocess

SUITE = "bookworm"


def apt_sources():
    """The machine's enabled apt source files that name the suite (third-party repositories left out)."""
    candidates = ["/etc/apt/sources.list"] + sorted(
        glob.glob("/etc/apt/sources.list.d/*.list") + glob.glob("/etc/apt/sources.list.d/*.sources")
    )
    sources = []
    for path in candidates:
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                if SUITE in handle.read():
                    sources.append(path)
    return sources


def cached_tarball(cache_dir):
    """The minbase root as a tarball, bootstrapped on first use and whenever the apt sources change."""
    sources = apt_sources()
    if not sources:
        raise RuntimeError(f"no apt source for {SUITE} in /etc/apt")
    digest = hashlib.sha256()
    for path in sources:
        with open(path, "rb") as handle:
            digest.update(handle.read())
    tarball = os.path.join(cache_dir, f"{SUITE}-minbase-{digest.hexdigest()[:12]}.tar")
    if not os.path.exists(tarball):
        os.makedirs(cache_dir, exist_ok=True)
        for stale in glob.glob(os.path.join(cache_dir, f"{SUITE}-minbase-*.tar")):
            os.remove(stale)
        partial = tarball + ".partial"
        subprocess.run(
            ["mmdebstrap", "--quiet", "--variant=minbase", "--format=tar", SUITE, partial] + sources, check=True
        )
        os.rename(partial, tarball)
    return tarball


class CleanRoot:
    """One unpacked copy of the cached root, removed by `remove`."""

    def __init__(self, tarball, directory):
        self.path = directory
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
        subprocess.run(["tar", "-xf", tarball, "-C", directory], check=True)
        # Name resolution for apt inside the root.
        shutil.copyfile("/etc/resolv.conf", os.path.join(directory, "etc/resolv.conf"))

    def run(self, command, user=None, check=True, timeout=300):
        """Runs the shell `command` in the root (as `user` with their groups, else root); returns the result."""
        mounts = 'mount -t proc proc "$0/proc" && mount -t sysfs -o ro sysfs "$0/sys"'
        if user is None:
            script = mounts + ' && exec chroot "$0" sh -c "$1"'
        else:
            script = mounts + ' && exec chroot "$0" setpriv --reuid="$2" --regid="$2" --init-groups --reset-env sh -c "$1"'
        result = subprocess.run(
            ["unshare", "--mount", "--pid", "--fork", "--kill-child", "sh", "-c", script, self.path, command]
            + ([user] if user else []),
            capture_output=True,
            text=True,
            timeout=timeout,
            env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"},
        )
        if check and result.returncode != 0:
            raise AssertionError(f"{command!r} exited {result.returncode}\n{result.stdout}\n{result.stderr}")
        return result

    def files(self):
        """Every path in the root except the pseudo file systems and the caches apt and dpkg rewrite."""
        skipped = ("proc", "sys", "dev", "run", "tmp", "var/cache", "var/lib/apt", "var/log")
        found = set()
        for directory, subdirectories, names in os.walk(self.path):
            relative = os.path.relpath(directory, self.path)
            subdirectories[:] = [d for d in subdirectories if os.path.normpath(os.path.join(relative, d)) not in skipped]
            for name in names + subdirectories:
                found.add("/" + os.path.normpath(os.path.join(relative, name)))
        return found

    def remove(self):
        shutil.rmtree(self.path, ignore_errors=True)
