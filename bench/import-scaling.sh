#!/usr/bin/env bash
# Import, lint and generate against document size: a real OpenAPI document (Stripe's, from the
# public API directory) and copies of it 4 and 16 times as large, each copy's paths, component
# names, operation ids and tags renamed (so nothing is shared between copies), run through the
# release binary. Linear growth is the goal: 16x the document should cost about 16x.
#
#   bench/import-scaling.sh                       # Stripe at 1x, 4x, 16x
#   DOC=github.com/api.github.com.json bench/import-scaling.sh 1 2 4
#
# Each line: the factor, the operations kept, then wall seconds, CPU seconds (user + sys) and
# peak resident MB of `apigen import`, `apigen lint` and `apigen generate` (into an empty
# directory), and the ratio of each phase's CPU to the 1x run's divided by the factor (1.00 is
# linear). The document comes from the directory cache (bench/directory.sh).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/directory.sh
. "$repo/bench/directory.sh"
doc="$directory/${DOC:-stripe.com.json}"
factors=("${@:-1 4 16}")
cargo build -q --release -p apigen --manifest-path "$repo/Cargo.toml"
bin="${CARGO_TARGET_DIR:-$repo/target}/release/apigen"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# replicate K OUT: the document with K renamed copies of everything in it.
replicate() {
  python3 - "$doc" "$1" "$2" <<'PY'
import copy, json, re, sys
source, k, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
doc = json.load(open(source))
components = doc.get("components", {})
def renamed(node, c):
    """The node with every component reference of copy c pointing at copy c's component."""
    if isinstance(node, dict):
        return {key: (re.sub(r"^(#/components/[^/]+/)(.+)$", rf"\g<1>\g<2>C{c}", value)
                      if key == "$ref" and isinstance(value, str) else renamed(value, c))
                for key, value in node.items()}
    if isinstance(node, list):
        return [renamed(item, c) for item in node]
    return node
paths, sections, tags = {}, {}, list(doc.get("tags", []))
for c in range(1, k + 1):
    suffix = "" if c == 1 else f"C{c}"
    for path, item in doc.get("paths", {}).items():
        item = renamed(item, c) if c > 1 else item
        for operation in item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if "operationId" in operation:
                operation["operationId"] += suffix
            if c > 1:
                # An untagged operation is grouped by its path's first segment past versions:
                # the copy's group is that segment's copy, so each copy has the groups of the
                # original.
                first = next((s for s in path.strip("/").split("/")
                              if s and not re.fullmatch(r"v\d+(\.\d+)*|\{.*\}", s)), "root")
                operation["tags"] = [f"{t}-c{c}" for t in operation.get("tags", [])] or [f"{first}-c{c}"]
        paths[path if c == 1 else f"/c{c}{path}"] = item
    for section, entries in components.items():
        target = sections.setdefault(section, {})
        for name, value in entries.items():
            target[name + suffix] = renamed(value, c) if c > 1 else value
    if c > 1:
        tags += [dict(t, name=f"{t['name']}-c{c}") for t in doc.get("tags", []) if "name" in t]
doc["paths"], doc["components"], doc["tags"] = paths, sections, tags
json.dump(doc, open(out, "w"))
PY
}

# run NAME COMMAND...: wall, CPU and peak of COMMAND as "wall cpu peak_mb".
run() {
  local t
  t="$(mktemp)"
  /usr/bin/time -f '%e %U %S %M' -o "$t" "$@" >"$work/last.log" 2>&1 || { cat "$work/last.log" >&2; exit 1; }
  awk '{ printf "%.2f %.2f %d\n", $1, $2 + $3, $4 / 1024 }' "$t"
  rm -f "$t"
}

echo "document: ${doc#"$directory/"}; machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%6s %10s  %-22s  %-22s  %-22s  %s\n' factor operations "import (s, CPU, MB)" "lint" "generate" \
  "CPU per factor vs 1x (import lint generate)"
declare -A base
for k in ${factors[@]}; do
  replicate "$k" "$work/doc-$k.json"
  read -r iw ic im < <(run "$bin" import "$work/doc-$k.json" --spec "$work/spec-$k")
  ops="$("$bin" list --spec "$work/spec-$k" 2>/dev/null | wc -l)"
  read -r lw lc lm < <(run "$bin" lint --spec "$work/spec-$k")
  read -r gw gc gm < <(run "$bin" generate --spec "$work/spec-$k" --out "$work/out-$k" --runtime "$repo/runtime")
  rm -rf "$work/out-$k" "$work/spec-$k" "$work/doc-$k.json"
  if [ -z "${base[import]:-}" ]; then
    base[import]="$(awk "BEGIN { print $ic / $k }")" base[lint]="$(awk "BEGIN { print $lc / $k }")"
    base[generate]="$(awk "BEGIN { print $gc / $k }")"
  fi
  ratios="$(awk "BEGIN { printf \"%.2f %.2f %.2f\", $ic / $k / ${base[import]}, $lc / $k / ${base[lint]}, $gc / $k / ${base[generate]} }")"
  printf '%6s %10s  %-22s  %-22s  %-22s  %s\n' "${k}x" "$ops" "$iw $ic $im" "$lw $lc $lm" "$gw $gc $gm" "$ratios"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
