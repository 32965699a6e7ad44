"""`ztprov report --serve`: what a scrape of /metrics and a view of / cost as the records grow.

For each size (10, 10,000, 1,000,000 records) an SQLite file is filled with generated attempts (four
stations, one a second, the newest now) in the schema ztprov writes (`SQLiteSchema.swift`; ztprov refuses
the file if they differ, so a drift fails the benchmark). The real binary serves it with `--since 1h`
(the page keeps the last hour, the metrics count everything). Measured:
- *start*: process start → listening, which includes reading every record once;
- *RSS*: the server's resident memory once listening;
- *scrape* and *page*: median wall time of 100 sequential GETs of /metrics and of / over loopback, and the
  server's CPU time per request (utime + stime from /proc over those requests): served from the cache, so
  flat in the number of records;
- *landed → scraped*: a record inserted as a station would, until /metrics counts it (polled every 10 ms),
  and the CPU the server spent on that change (reading the new record, re-rendering the metrics);
- *page after it*: the first view of / after that record, which renders the page anew (the last hour's
  records: 10, 3,600 and 3,600 of them).
CPU times come from /proc in clock ticks (10 ms), so a single change reads as 0 or 10 ms.
"""

import os
import re
import sqlite3
import subprocess
import tempfile
import time
import urllib.request

from .stats import fmt, median

SIZES = (10, 10_000, 1_000_000)
HEADER = ["records", "start (s)", "RSS (MiB)", "scrape (ms)", "CPU/scrape (ms)", "page (ms)", "CPU/page (ms)",
          "landed → scraped (ms)", "CPU for it (ms)", "page after it (ms)"]
REQUESTS = 100
TICKS = os.sysconf("SC_CLK_TCK")
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))

SCHEMA = """
CREATE TABLE attempts (
    id INTEGER PRIMARY KEY, batch_id TEXT NOT NULL, station TEXT NOT NULL, adapter TEXT NOT NULL,
    device_key TEXT NOT NULL, address TEXT, device_id TEXT, path TEXT NOT NULL, security TEXT,
    attempt INTEGER NOT NULL, is_final INTEGER NOT NULL, code TEXT NOT NULL, message TEXT,
    started_at INTEGER NOT NULL, finished_at INTEGER NOT NULL, steps TEXT NOT NULL, firmware_blufi TEXT,
    firmware_protocomm TEXT, firmware_device TEXT, protocol TEXT);
CREATE INDEX attempts_device_key ON attempts (device_key);
CREATE INDEX attempts_started_at ON attempts (started_at);
PRAGMA application_id = 2054451314;
PRAGMA user_version = 2;
"""
CODES = ["ok"] * 17 + ["ble.link-lost", "ble.device-not-found", "blufi.wifi-wrong-password"]
STEPS = '[{"milliseconds":200,"name":"scan"},{"milliseconds":450,"name":"connect"},{"milliseconds":1200,"name":"join"}]'


def row(index: int, now_us: int, total: int) -> tuple:
    started = now_us - (total - index) * 1_000_000
    return (f"bench-{index // 100_000}", f"line-{index % 4}", "hci0", f"unit-{index}", None, None, "ble", "v2", 1, 1,
            CODES[index % len(CODES)], None, started, started + 1_850_000, STEPS, "1.4", None, None, "blufi")


def make_database(path: str, count: int) -> None:
    with sqlite3.connect(path) as database:
        database.executescript(SCHEMA)
        now_us = int(time.time() * 1_000_000)
        database.executemany(f"INSERT INTO attempts VALUES (NULL{', ?' * 19})",
                             (row(index, now_us, count) for index in range(count)))
    sqlite3.connect(path).execute("PRAGMA journal_mode = WAL").close()


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as file:
        return int(re.search(r"VmRSS:\s+(\d+)", file.read()).group(1)) / 1024


def fetch(url: str) -> str:
    with OPENER.open(url, timeout=120) as response:
        return response.read().decode()


def timed_requests(url: str, pid: int) -> tuple[float, float]:
    walls = []
    cpu_before = cpu_seconds(pid)
    for _ in range(REQUESTS):
        began = time.perf_counter()
        fetch(url)
        walls.append((time.perf_counter() - began) * 1000)
    return median(walls), (cpu_seconds(pid) - cpu_before) * 1000 / REQUESTS


def attempts(metrics: str) -> int:
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in metrics.splitlines()
               if line.startswith("ztprov_attempts_total{"))


def measure(ztprov: str, count: int) -> list:
    with tempfile.TemporaryDirectory(prefix="ztprov-serve-bench-") as directory:
        path = os.path.join(directory, "records.sqlite")
        make_database(path, count)
        began = time.monotonic()
        server = subprocess.Popen([ztprov, "report", "--serve", "127.0.0.1:0", "--since", "1h", "--db", path],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            line = ""
            while "metrics at" not in line:
                line = server.stderr.readline()
                if not line:
                    raise SystemExit(f"report --serve ended before listening (exit {server.wait()})")
            start = time.monotonic() - began
            url = re.search(r"(http://\S+/) ", line).group(1)
            rss = rss_mib(server.pid)
            if attempts(fetch(url + "metrics")) != count:
                raise SystemExit("the metrics do not count every record")
            scrape, scrape_cpu = timed_requests(url + "metrics", server.pid)
            page, page_cpu = timed_requests(url, server.pid)
            cpu_before = cpu_seconds(server.pid)
            with sqlite3.connect(path) as database:
                database.execute(f"INSERT INTO attempts VALUES (NULL{', ?' * 19})",
                                 row(count, int(time.time() * 1_000_000), count))
            landed = time.perf_counter()
            while attempts(fetch(url + "metrics")) != count + 1:
                time.sleep(0.01)
            seen = (time.perf_counter() - landed) * 1000
            change_cpu = (cpu_seconds(server.pid) - cpu_before) * 1000
            began = time.perf_counter()
            fetch(url)
            page_after = (time.perf_counter() - began) * 1000
        finally:
            server.terminate()
            server.wait(timeout=30)
    return [f"{count:,}", fmt(start, digits=2), fmt(rss, digits=1), fmt(scrape, digits=2), fmt(scrape_cpu, digits=2),
            fmt(page, digits=1), fmt(page_cpu, digits=1), fmt(seen), fmt(change_cpu), fmt(page_after)]
