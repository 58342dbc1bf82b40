#!/usr/bin/env bash
# The edit loop (issue 52, item 1), side by side in one run: CPU (user + sys) and wall seconds
# of `apigen generate` (release) on GitHub's API imported, and on this repository's own spec
# (spec/, the largest in the repository: a mid-size API), in four situations:
#
#   from scratch      an empty output directory and an empty cache
#   nothing changed   generate again
#   summary changed   one word of one operation's summary edited
#   operation added   a copy of one operation added under a new name and path
#
# Each figure is the median of ROUNDS runs (default 3; each changed round makes a new edit).
# The load (/proc/loadavg) and the date are printed with the table. GitHub's document comes
# from the public API directory (bench/directory.sh, fetched once into the cache); work goes
# to $WORK (default: a new temporary directory).
#
#   bench/edit-loop.sh
#   ROUNDS=5 bench/edit-loop.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/directory.sh
. "$repo/bench/directory.sh"
work="${WORK:-$(mktemp -d)}"
rounds="${ROUNDS:-3}"
mkdir -p "$work"
cargo build -q --release -p apigen --manifest-path "$repo/Cargo.toml"
apigen="${CARGO_TARGET_DIR:-$repo/target}/release/apigen"

# run NAME SPEC OUT: one `generate`, its "wall cpu" appended to $work/NAME.
run() {
  local t
  t="$(mktemp)"
  APIGEN_CACHE_DIR="$work/cache" /usr/bin/time -f '%e %U %S' -o "$t" \
    "$apigen" generate --spec "$2" --out "$3" --runtime "$repo/runtime" >"$work/last.log" 2>&1 || {
    cat "$work/last.log" >&2
    exit 1
  }
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$t" >>"$work/$1"
  rm -f "$t"
}

# median NAME COLUMN: the median of a column (1 wall, 2 CPU) of $work/NAME.
median() {
  cut -d' ' -f"$2" "$work/$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# edit_summary FILE N: one word added to the first summary of FILE.
edit_summary() {
  sed -i "0,/summary: /s/summary: /summary: Edit$2 /" "$1"
}

# add_operation FILE N: the first operation of FILE copied as `<name>EditLoop<N>`, its path
# under /edit-loop-<N> (bench/add_operation.py).
add_operation() {
  python3 "$repo/bench/add_operation.py" "$1" "EditLoop$2" "/edit-loop-$2"
}

# measure LABEL SPEC_SOURCE EDITED_FILE: the four situations for one API.
measure() {
  local label="$1" source="$2" edited="$3" spec="$work/$1/spec" out="$work/$1/out"
  rm -rf "$work/$label" "$work/cache" "$work/cache.key"
  mkdir -p "$work/$label"
  cp -r "$source" "$spec"
  ops["$label"]="$("$apigen" list --spec "$spec" 2>/dev/null | wc -l)"
  for i in $(seq "$rounds"); do
    rm -rf "$out" "$work/cache" "$work/cache.key"
    run "$label.scratch" "$spec" "$out"
  done
  for _ in $(seq "$rounds"); do run "$label.unchanged" "$spec" "$out"; done
  for i in $(seq "$rounds"); do
    edit_summary "$spec/$edited" "$i"
    run "$label.summary" "$spec" "$out"
  done
  for i in $(seq "$rounds"); do
    add_operation "$spec/$edited" "$i"
    run "$label.added" "$spec" "$out"
  done
}

declare -A ops
github="$work/github-spec"
rm -rf "$github"
"$apigen" import "$directory/github.com/api.github.com.json" --out "$github" >/dev/null
measure github "$github" meta.yaml
measure spec "$repo/spec" spaces.yaml
printf '%s, %s cores, load %s, commit %s, median of %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(nproc)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "$(git -C "$repo" rev-parse --short HEAD)" "$rounds"
printf '%-17s  %21s  %21s\n' "apigen generate" "GitHub (${ops[github]} ops)" "spec/ (${ops[spec]} ops)"
printf '%-17s  %10s %10s  %10s %10s\n' "" "CPU s" "wall s" "CPU s" "wall s"
for phase in scratch unchanged summary added; do
  case "$phase" in
    scratch) name="from scratch" ;;
    unchanged) name="nothing changed" ;;
    summary) name="summary changed" ;;
    added) name="operation added" ;;
  esac
  printf '%-17s  %10s %10s  %10s %10s\n' "$name" "$(median "github.$phase" 2)" "$(median "github.$phase" 1)" \
    "$(median "spec.$phase" 2)" "$(median "spec.$phase" 1)"
done
