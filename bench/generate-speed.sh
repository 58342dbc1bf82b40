#!/usr/bin/env bash
# Wall time of `apigen lint`, `apigen generate` (into an empty directory: every file printed;
# again when nothing changed: the stamp proves it, nothing is emitted; after a one-word change
# to a summary: everything emitted, the Rust files whose tokens did not change reused from the
# last run) and `apigen check` (current; after the one-word change) on the full spec and on
# synthetic specs 4 and 16 times larger (each area file copied with its types, operations and
# paths renamed), release build, median of 5 runs.
# Usage: bench/generate-speed.sh [factors...]   (default: 1 4 16)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p apigen
bin="$PWD/target/release/apigen"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
factors=("${@:-1 4 16}")
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { local s e; s=$(date +%s%N); "$@" >/dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
printf 'factor  operations  lint  generate(empty)  generate(unchanged)  generate(changed)  check(current)  check(changed)  (ms, median of 5; load %s)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
for k in ${factors[@]}; do
  spec="$work/spec-$k"
  mkdir -p "$spec"
  cp spec/*.yaml "$spec/"
  python3 - "$k" "$spec" <<'PY'
import re, sys, pathlib
k, spec = int(sys.argv[1]), pathlib.Path(sys.argv[2])
for path in sorted(spec.glob("*.yaml")):
    if path.name == "api.yaml" or "-c" in path.stem:
        continue
    text = path.read_text()
    def section(name):
        found = re.search(rf"^{name}:\n((?:(?:  .*)?\n)*)", text, re.M)
        return found.group(1) if found else ""
    types = set(re.findall(r"^  ([A-Z]\w*):", section("types"), re.M)) | set(re.findall(r"type_name: (\w+)", text))
    ops = set(re.findall(r"^  ([a-z]\w*):", section("operations"), re.M))
    for c in range(2, k + 1):
        copy = text
        # Shared parameters and gaps stay declared once, in the original file.
        copy = re.sub(r"^(parameters|gaps):\n(?:(?:  .*)?\n)*", "", copy, flags=re.M)
        for name in sorted(types | ops, key=len, reverse=True):
            copy = re.sub(rf"\b{name}\b", f"{name}C{c}", copy)
        copy = copy.replace("path: /v1/", f"path: /c{c}/v1/")
        (spec / f"{path.stem}-c{c}.yaml").write_text(copy)
PY
  ops=$("$bin" list --spec "$spec" | wc -l)
  out="$work/out-$k"
  lint=$(for _ in 1 2 3 4 5; do ms "$bin" lint --spec "$spec"; done | median)
  empty=$(for _ in 1 2 3 4 5; do rm -rf "$out"; ms "$bin" generate --spec "$spec" --out "$out" --runtime runtime; done | median)
  unchanged=$(for _ in 1 2 3 4 5; do ms "$bin" generate --spec "$spec" --out "$out" --runtime runtime; done | median)
  check=$(for _ in 1 2 3 4 5; do ms "$bin" check --spec "$spec" --out "$out" --runtime runtime; done | median)
  # One word of one summary changed: every output is emitted; check reports the drift,
  # generate rewrites the files that show the summary (from a fresh copy of the output each time).
  sed -i '0,/summary: /s/summary: /summary: Newly /' "$spec/spaces.yaml"
  stale=$(for _ in 1 2 3 4 5; do ms "$bin" check --spec "$spec" --out "$out" --runtime runtime || true; done | median)
  changed=$(for _ in 1 2 3 4 5; do rm -rf "$out.copy"; cp -r "$out" "$out.copy"; ms "$bin" generate --spec "$spec" --out "$out.copy" --runtime runtime; done | median)
  printf '%6s  %10s  %4s  %15s  %19s  %17s  %14s  %14s\n' "$k" "$ops" "$lint" "$empty" "$unchanged" "$changed" "$check" "$stale"
done
