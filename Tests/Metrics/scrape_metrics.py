#!/usr/bin/env python3
"""Scrapes a Prometheus metrics endpoint and parses it with Prometheus' own Python client.

Usage: scrape_metrics.py URL

Prints one JSON object: the response's content type, and every sample as [name, labels, value] after
`prometheus_client.parser.text_string_to_metric_families` (which raises on text it cannot parse) with
each family's type by name.
"""
import json
import sys
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(sys.argv[1], timeout=30) as response:
        content_type = response.headers.get("Content-Type", "")
        text = response.read().decode("utf-8")
    samples, types = [], {}
    for family in text_string_to_metric_families(text):
        types[family.name] = family.type
        for sample in family.samples:
            samples.append([sample.name, sample.labels, sample.value])
    print(json.dumps({"content_type": content_type, "types": types, "samples": samples}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
