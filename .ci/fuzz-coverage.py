#!/usr/bin/env python3
"""The share of an OpenAPI document's operations that answered a success (2xx) at least once
in a schemathesis run, read from the run's HAR report. Prints the share and the operations
that never succeeded; fails below the minimum share.

Usage: fuzz-coverage.py OPENAPI_JSON HAR MIN_SHARE
"""
import json
import re
import sys
from collections import Counter, defaultdict
from urllib.parse import urlsplit


def operations(document):
    """(method, compiled path pattern, operationId) of every operation, literal paths first."""
    found = []
    for path, item in document["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(path)) + "$")
        literal = path.count("{")
        for method, op in item.items():
            if isinstance(op, dict) and "operationId" in op:
                found.append((literal, method.upper(), pattern, op["operationId"]))
    found.sort(key=lambda entry: entry[0])
    return [(method, pattern, name) for _, method, pattern, name in found]


def main():
    document_path, har_path, minimum = sys.argv[1], sys.argv[2], float(sys.argv[3])
    with open(document_path) as f:
        ops = operations(json.load(f))
    with open(har_path) as f:
        entries = json.load(f)["log"]["entries"]
    statuses = defaultdict(Counter)
    for entry in entries:
        method = entry["request"]["method"].upper()
        path = urlsplit(entry["request"]["url"]).path
        for op_method, pattern, name in ops:
            if op_method == method and pattern.match(path):
                statuses[name][entry["response"]["status"]] += 1
                break
    names = [name for _, _, name in ops]
    succeeded = [n for n in names if any(200 <= s < 300 for s in statuses[n])]
    share = len(succeeded) / len(names)
    print(f"{len(succeeded)} of {len(names)} operations answered a 2xx at least once ({share:.1%}); "
          f"{len(entries)} requests")
    for name in sorted(set(names) - set(succeeded)):
        common = ", ".join(f"{status} x{count}" for status, count in statuses[name].most_common(3))
        print(f"  never 2xx: {name} ({common or 'not called'})")
    if share < minimum:
        print(f"below the minimum share of {minimum:.0%}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
