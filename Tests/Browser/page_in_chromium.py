#!/usr/bin/env python3
"""Loads an HTML file in headless Chromium and says what a person would have seen.

Usage: page_in_chromium.py PAGE.html [SCREENSHOT.png]

Prints one JSON object: the console messages the page caused, the elements in the DOM after load,
the text of every element with a `data-check` attribute (by that attribute's value), and, with a
screenshot, how much of it is painted (pixels that differ from the top-left pixel, the page
background) and in how many colours. Chromium runs with no network access (a dead proxy), no profile
of the user's and no D-Bus. The screenshot is taken at half scale: enough to tell a blank page from
a drawn one, and quick to decode with the standard library alone.
"""
import html.parser
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

WINDOW = (1000, 2400)
CONSOLE = re.compile(r":CONSOLE[:(]\d+\)?\] (.*)$")


def render(page: str, screenshot: str | None) -> tuple[str, list[str]]:
    with tempfile.TemporaryDirectory(prefix="ztprov-chromium-") as profile:
        environment = dict(os.environ, HOME=profile, DBUS_SESSION_BUS_ADDRESS="disabled:",
                           DBUS_SYSTEM_BUS_ADDRESS="disabled:")
        result = subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--disable-default-apps", "--hide-scrollbars", "--enable-logging=stderr",
             "--v=0", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
             f"--window-size={WINDOW[0]},{WINDOW[1]}", "--force-device-scale-factor=0.5", "--dump-dom"]
            + ([f"--screenshot={screenshot}"] if screenshot else []) + ["file://" + os.path.abspath(page)],
            capture_output=True, text=True, timeout=75, env=environment, check=False)
    if result.returncode != 0:
        raise SystemExit(f"chromium exited with {result.returncode}: {result.stderr[-2000:]}")
    console = [match.group(1) for line in result.stderr.splitlines() if (match := CONSOLE.search(line))]
    return result.stdout, console


class Checks(html.parser.HTMLParser):
    """The text inside each element that has a data-check attribute."""

    def __init__(self):
        super().__init__()
        self.open: list[tuple[str, str | None]] = []
        self.found: dict[str, str] = {}
        self.elements: set[str] = set()
        self.collecting: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag, attrs):
        self.elements.add(tag)
        if tag in ("meta", "br", "img", "link", "input", "hr"):
            return
        name = dict(attrs).get("data-check")
        self.open.append((tag, name))
        if name is not None:
            self.collecting.append((name, []))

    def handle_endtag(self, tag):
        while self.open:
            opened, name = self.open.pop()
            if name is not None:
                key, parts = self.collecting.pop()
                self.found[key] = "".join(parts).strip()
            if opened == tag:
                break

    def handle_data(self, data):
        for _, parts in self.collecting:
            parts.append(data)


def pixels(path: str) -> tuple[int, int, list[bytes]]:
    """The rows of an 8-bit RGB or RGBA PNG, each as bytes of pixels."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path} is not a PNG")
    position, compressed = 8, b""
    width = height = channels = 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise SystemExit(f"unexpected PNG format: depth {depth}, colour type {colour}")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            compressed += body
        position += 12 + length
    raw = zlib.decompress(compressed)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                nearest = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                              (abs(guess - corner), 2, corner))[2]
                line[x] = (line[x] + nearest) & 0xFF
        rows.append(b"".join(bytes(line[i:i + 3]) for i in range(0, stride, channels)))
        previous = line
    return width, height, rows


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    page, screenshot = sys.argv[1], (sys.argv[2] if len(sys.argv) == 3 else None)
    dom, console = render(page, screenshot)
    checks = Checks()
    checks.feed(dom)
    seen = {"console": console, "elements": sorted(checks.elements), "checks": checks.found}
    if screenshot:
        seen.update(painting(screenshot))
    print(json.dumps(seen))
    return 0


def painting(screenshot: str) -> dict:
    """The screenshot's size, the share of it not in the background colour, and how many colours."""
    width, height, rows = pixels(screenshot)
    background = rows[0][:3]
    painted, colours = 0, set()
    for row in rows:
        for x in range(0, len(row), 3):
            pixel = row[x:x + 3]
            if pixel != background:
                painted += 1
                colours.add(pixel)
    return {"width": width, "height": height, "painted_fraction": painted / (width * height),
            "colours": len(colours)}


if __name__ == "__main__":
    sys.exit(main())
