#!/usr/bin/env python3
"""Keeps a served page open in headless Chromium and says when each value of one of its numbers showed.

Usage: live_page_in_chromium.py URL CHECK FINAL SHOWN_FILE

Opens URL, then reads the text of the element whose `data-check` attribute is CHECK every 50 ms, as a
person watching the screen would, and notes each new value with the instant (seconds since the epoch) it
was first seen, and writes it to SHOWN_FILE (replacing the file), so the caller can wait for the page to
show what it changed. It stops when the value is FINAL (or after 120 s), and prints one JSON object: the
values seen in order with their instants, the console messages and errors the page caused, the elements
in the DOM, the text of every `data-check` element, the page's address, version and state at the end, and
its history (navigations, requests with their answers or failures, crashes) for a failure's message.
Chromium is driven over its DevTools pipe (file descriptors 3 and 4: no port, no network); it runs with a
dead proxy for everything but loopback, no profile of the user's and no D-Bus.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

DEADLINE = 120
READ = """(() => { const e = document.querySelector('[data-check="%s"]'); return e ? e.textContent.trim() : null })()"""
ELEMENTS = "Array.from(new Set(Array.from(document.querySelectorAll('*')).map(e => e.localName)))"
PAGE = "[location.href, document.body ? document.body.dataset.version : null, document.readyState]"
CHECKS = ("Object.fromEntries(Array.from(document.querySelectorAll('[data-check]'))"
          ".map(e => [e.dataset.check, e.textContent.trim()]))")


class DevTools:
    """Commands to Chromium and its answers over the DevTools pipe; events are kept for later."""

    def __init__(self, to_chromium: int, from_chromium: int):
        self.to_chromium, self.from_chromium = to_chromium, from_chromium
        self.buffer, self.next_id, self.events = b"", 0, []

    def call(self, method: str, session: str | None = None, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.to_chromium, json.dumps(message).encode() + b"\0")
        while True:
            answer = self.receive()
            if answer.get("id") == self.next_id:
                return answer
            self.events.append(answer)

    def receive(self) -> dict:
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_chromium, 65536)
            if not chunk:
                raise SystemExit("chromium closed its DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def evaluate(self, session: str, expression: str):
        answer = self.call("Runtime.evaluate", session, expression=expression, returnByValue=True)
        return answer.get("result", {}).get("result", {}).get("value")

    def history(self) -> list[str]:
        """What happened to the page, for a failure's message: navigations, loads, failed requests, crashes."""
        lines = []
        for event in self.events:
            method, params = event.get("method", ""), event.get("params", {})
            if method == "Page.frameNavigated" and not params["frame"].get("parentId"):
                lines.append(f"navigated {params['frame'].get('url')}")
            elif method == "Page.loadEventFired":
                lines.append("loaded")
            elif method == "Network.requestWillBeSent":
                lines.append(f"request {params['requestId']} {params['request'].get('url')}")
            elif method == "Network.responseReceived":
                lines.append(f"response {params['requestId']} {params['response'].get('status')}")
            elif method == "Network.loadingFailed":
                lines.append(f"failed {params['requestId']} {params.get('errorText')} {params.get('canceled', '')}")
            elif method in ("Inspector.targetCrashed", "Inspector.detached", "Target.targetCrashed"):
                lines.append(f"{method} {params}")
        return lines

    def console(self) -> list[str]:
        messages = []
        for event in self.events:
            params = event.get("params", {})
            if event.get("method") == "Runtime.consoleAPICalled":
                messages.append(" ".join(str(arg.get("value", arg.get("description", ""))) for arg in params["args"]))
            elif event.get("method") == "Log.entryAdded":
                messages.append(params["entry"].get("text", ""))
            elif event.get("method") == "Runtime.exceptionThrown":
                messages.append(params["exceptionDetails"].get("text", "exception"))
        return messages


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    url, check, final, shown = sys.argv[1:]
    to_read, to_chromium = os.pipe()
    from_chromium, to_write = os.pipe()
    with tempfile.TemporaryDirectory(prefix="ztprov-chromium-") as profile:
        environment = dict(os.environ, HOME=profile, DBUS_SESSION_BUS_ADDRESS="disabled:",
                           DBUS_SYSTEM_BUS_ADDRESS="disabled:")

        def pipes_as_3_and_4():
            # Copies first: a pipe end may already be 3 or 4, and os.pipe() ends do not survive exec.
            reading, writing = os.dup(to_read), os.dup(to_write)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        chromium = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
             "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-default-apps", "--proxy-server=127.0.0.1:9", "--remote-debugging-pipe", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment, preexec_fn=pipes_as_3_and_4,
            close_fds=False, start_new_session=True)
        os.close(to_read)
        os.close(to_write)
        try:
            seen = watch(DevTools(to_chromium, from_chromium), url, check, final, shown)
        finally:
            # The whole group: the browser's own helpers write into the profile too, and one left running made
            # the profile's removal fail ("Directory not empty").
            os.killpg(chromium.pid, signal.SIGKILL)
            chromium.wait()
    print(json.dumps(seen))
    return 0


def watch(tools: DevTools, url: str, check: str, final: str, shown: str) -> dict:
    target = tools.call("Target.createTarget", url="about:blank")["result"]["targetId"]
    session = tools.call("Target.attachToTarget", targetId=target, flatten=True)["result"]["sessionId"]
    for domain in ("Runtime.enable", "Log.enable", "Page.enable", "Network.enable", "Inspector.enable"):
        tools.call(domain, session)
    tools.call("Page.navigate", session, url=url)
    values, start = [], time.time()
    while time.time() - start < DEADLINE:
        value = tools.evaluate(session, READ % check)
        if value is not None and (not values or values[-1][0] != value):
            values.append([value, time.time()])
            with open(shown + ".new", "w") as file:
                file.write(value)
            os.replace(shown + ".new", shown)
        if value == final:
            break
        time.sleep(0.05)
    return {"seen": values, "console": tools.console(), "elements": sorted(tools.evaluate(session, ELEMENTS) or []),
            "checks": tools.evaluate(session, CHECKS) or {}, "page": tools.evaluate(session, PAGE),
            "history": tools.history()}


if __name__ == "__main__":
    sys.exit(main())
