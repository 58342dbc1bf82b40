#!/usr/bin/env python3
"""Summarizes bench/import-directory.sh's results.tsv: rates, failure classes with an example
document, time and peak memory per phase."""
import csv
import re
import sys
from collections import Counter, defaultdict

rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
by_phase = defaultdict(list)
for row in rows:
    by_phase[row["phase"]].append(row)


def failure_class(detail):
    """The message with its specifics (names, paths, numbers) taken out."""
    text = re.sub(r"^error: ", "", detail or "(no message)")
    text = re.sub(r"^\S+:\d+(:\d+)?: ", "", text)  # file:line:column
    text = re.sub(r"^[\w.\[\]\-/{}$]+: ", "", text)  # spec path
    text = re.sub(r"`[^`]*`", "`…`", text)
    text = re.sub(r"\d+", "N", text)
    return text[:140]


imports = by_phase["import"]
ok = [r for r in imports if r["status"] == "0"]
ops = sum(int(r["ops"] or 0) for r in imports)
kept = sum(int(r["kept"] or 0) for r in ok)
print(f"documents: {len(imports)}")
print(f"import + lint without error: {len(ok)} ({100 * len(ok) / max(len(imports), 1):.1f}%)")
print(f"operations kept: {kept} of {ops} ({100 * kept / max(ops, 1):.1f}%)")
# Parameters of the operations kept (an import before this column wrote none: not shown).
params = sum(int(r.get("params") or 0) for r in ok)
params_kept = sum(int(r.get("params_kept") or 0) for r in ok)
if params:
    print(f"parameters kept (of the operations kept): {params_kept} of {params} ({100 * params_kept / params:.1f}%);"
          f" left out: {params - params_kept}")
generated = [r for r in by_phase["generate"] if r["status"] == "0"]
print(f"generate without error: {len(generated)} of {len(by_phase['generate'])}")

sample = {r["doc"] for phase, rs in by_phase.items() if phase.startswith("clippy") for r in rs}
if sample:
    clean = []
    for doc in sorted(sample):
        parts = [r for phase, rs in by_phase.items() if phase.startswith("clippy-") for r in rs if r["doc"] == doc]
        if len(parts) == 3 and all(r["status"] == "0" for r in parts):
            clean.append(doc)
    print(f"sample: {len(sample)} documents; types, server and client clippy-clean (-D warnings): "
          f"{len(clean)} ({100 * len(clean) / len(sample):.1f}%)")

print("\nfailure classes (count, example document):")
for phase in ["import", "generate", "clippy-types", "clippy-server", "clippy-client", "clippy"]:
    failed = [r for r in by_phase.get(phase, []) if r["status"] not in ("0",)]
    classes = Counter()
    example = {}
    for r in failed:
        key = "timeout" if r["status"] == "124" else failure_class(r["detail"])
        classes[key] += 1
        example.setdefault(key, r["doc"])
    for key, n in classes.most_common():
        print(f"  {phase:14} {n:5}  {key}  (e.g. {example[key]})")

print("\ntime and peak memory per phase (per document):")
for phase, rs in by_phase.items():
    def number(text, kind):
        try:
            return kind(text)
        except ValueError:
            return kind(0)

    secs = sorted(number(r["seconds"], float) for r in rs if r["status"] != "skipped")
    kbs = sorted(number(r["kb"], int) for r in rs if r["status"] != "skipped")
    if not secs:
        continue
    median = secs[len(secs) // 2]
    print(f"  {phase:14} n={len(secs):5}  total {sum(secs):8.1f} s  median {median:.2f} s  max {secs[-1]:.2f} s"
          f"  peak memory median {kbs[len(kbs) // 2] / 1024:.0f} MiB, max {kbs[-1] / 1024:.0f} MiB")
