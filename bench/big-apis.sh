#!/usr/bin/env bash
# The largest public APIs (GitHub, Stripe, Kubernetes, Microsoft Graph) through apigen and
# openapi-generator side by side, in one run (bench/README.md, "The largest public APIs").
#
#   bench/big-apis.sh                      # all four
#   APIS="github stripe" bench/big-apis.sh # some
#   ROUNDS=3 bench/big-apis.sh             # rounds of the interleaved build measurements
#   OGEN=0 bench/big-apis.sh               # apigen alone
#   BUILDS=0 OGEN=0 bench/big-apis.sh      # import and generate only (no cargo check/build)
#   APIGEN=/path/to/apigen bench/big-apis.sh  # that binary, not a fresh release build
#
# Per API: `apigen import` and `apigen generate` (release), openapi-generator's `rust` client
# generated from the same document (PyPI `openapi-generator-cli`, installed in a venv in the
# cache; needs Java 17), then, over built dependencies with CARGO_INCREMENTAL=0, interleaved
# over ROUNDS rounds: `cargo check` and the debug `cargo build` of apigen's types + client
# (all groups, and a few groups: GROUPS_<api>) against openapi-generator's crate. Each line
# gives wall seconds, CPU seconds (user + sys) and the peak resident size of the largest
# process (rustc, the JVM, apigen). The documents come from the public API directory, fetched
# once into ${XDG_CACHE_HOME:-$HOME/.cache}/apigen-bench/ (bench/directory.sh); work goes to
# $WORK (default: a new temporary directory). Results: $WORK/results.tsv and the table printed.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/directory.sh
. "$repo/bench/directory.sh"
work="${WORK:-$(mktemp -d)}"
apis="${APIS:-github stripe kubernetes graph}"
rounds="${ROUNDS:-2}"
ogen_enabled="${OGEN:-1}"
builds="${BUILDS:-1}"
mkdir -p "$work"
results="$work/results.tsv"
printf 'api\ttool\tphase\tstatus\twall\tcpu\tpeak_mb\n' >"$results"

document() {
  case "$1" in
    github) echo "$directory/github.com/api.github.com.json" ;;
    stripe) echo "$directory/stripe.com.json" ;;
    kubernetes) echo "$directory/kubernetes.io.json" ;;
    graph) echo "$directory/microsoft.com/graph.json" ;;
  esac
}

# Whether to build every group of an API: not Graph's by default (its 9,373 operations are
# 200 MB of Rust; a user builds the groups they call). ALL_graph=1 tries anyway.
all_groups() {
  case "$1" in
    graph) echo "${ALL_graph:-0}" ;;
    *) echo 1 ;;
  esac
}

# The groups a user of each API might enable (cargo features of the generated crates).
groups_of() {
  case "$1" in
    github) echo "${GROUPS_github:-repos,issues,pulls}" ;;
    stripe) echo "${GROUPS_stripe:-}" ;;
    kubernetes) echo "${GROUPS_kubernetes:-}" ;;
    graph) echo "${GROUPS_graph:-users_user,groups_group,me_user,chats_chat,drives_drive}" ;;
  esac
}

# measure API TOOL PHASE DIR COMMAND...: runs COMMAND in DIR, records wall, CPU and peak.
measure() {
  local api="$1" tool="$2" phase="$3" dir="$4"
  shift 4
  local t status wall user sys kb cpu
  t="$(mktemp)"
  (cd "$dir" && /usr/bin/time -f '%e %U %S %M' -o "$t" "$@" >"$work/logs/$api.$tool.$phase.log" 2>&1)
  status=$?
  read -r wall user sys kb < <(tail -1 "$t")
  rm -f "$t"
  cpu="$(awk "BEGIN { printf \"%.2f\", $user + $sys }")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%d\n' "$api" "$tool" "$phase" "$status" "$wall" "$cpu" "$((kb / 1024))" >>"$results"
  printf '%-11s %-18s %-22s status %-3s %7ss wall %8ss CPU %6d MB\n' "$api" "$tool" "$phase" "$status" \
    "$wall" "$cpu" "$((kb / 1024))"
  return "$status"
}

mkdir -p "$work/logs"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); work in $work"
# APIGEN=path measures that binary (an earlier build, for a before/after) instead of building.
if [ -z "${APIGEN:-}" ]; then
  cargo build -q --release -p apigen --manifest-path "$repo/Cargo.toml" || exit 1
fi
apigen="${APIGEN:-${CARGO_TARGET_DIR:-$repo/target}/release/apigen}"
ogen=""
if [ "$ogen_enabled" = 1 ]; then
  if [ ! -x "$cache/venv/bin/openapi-generator-cli" ]; then
    python3 -m venv "$cache/venv" &&
      "$cache/venv/bin/pip" install -q --disable-pip-version-check openapi-generator-cli
  fi
  ogen="$cache/venv/bin/openapi-generator-cli"
fi

for api in $apis; do
  doc="$(document "$api")"
  spec="$work/$api/spec" out="$work/$api/apigen" ogen_out="$work/$api/openapi-generator"
  rm -rf "$work/$api" && mkdir -p "$work/$api"
  echo "$api: $(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$repo" rev-parse --short HEAD), $apigen"
  measure "$api" apigen import "$work" "$apigen" import "$doc" --out "$spec" || continue
  grep -E 'operations kept' "$work/logs/$api.apigen.import.log" | sed "s/^/$api: /"
  measure "$api" apigen generate "$work" "$apigen" generate --spec "$spec" --out "$out" --runtime "$repo/runtime" || continue
  printf '[workspace]\nresolver = "3"\nmembers = ["types", "client", "server"]\n' >"$out/Cargo.toml"
  cp "$repo/Cargo.lock" "$out/Cargo.lock"
  types_dir="$out/types"
  client="$(sed -n 's/^name = "\(.*\)"/\1/p' "$out/client/Cargo.toml" | head -1)"
  lines="$(find "$out/types/src" "$out/client/src" -name '*.rs' -exec cat {} + | wc -l)"
  echo "$api: apigen types + client: $lines lines"
  if [ -n "$ogen" ]; then
    measure "$api" openapi-generator generate "$work" "$ogen" generate -i "$doc" -g rust -o "$ogen_out" \
      --package-name "ogen_$api"
    [ -d "$ogen_out/src" ] && echo "$api: openapi-generator rust client: $(cat "$ogen_out"/src/*.rs "$ogen_out"/src/*/*.rs 2>/dev/null | wc -l) lines"
  fi
  [ "$builds" = 1 ] || continue

  # Dependencies built once per target directory (check and build each), not measured.
  export CARGO_INCREMENTAL=0
  export CARGO_TARGET_DIR="$work/$api/target-apigen"
  groups="$(groups_of "$api")"
  all="$(all_groups "$api")"
  # The dependencies (with the generated crates: all groups, or none when all are not built).
  deps_features="$([ "$all" = 1 ] || echo --no-default-features)"
  # shellcheck disable=SC2086
  (cd "$out" && cargo check -q --offline -p "$client" $deps_features &&
    cargo build -q --offline -p "$client" $deps_features) >/dev/null 2>&1
  ogen_ok=0
  if [ -d "$ogen_out/src" ]; then
    (cd "$ogen_out" && CARGO_TARGET_DIR="$work/$api/target-ogen" cargo check -q --no-default-features --features rustls &&
      CARGO_TARGET_DIR="$work/$api/target-ogen" cargo build -q --no-default-features --features rustls) \
      >"$work/logs/$api.openapi-generator.deps.log" 2>&1 && ogen_ok=1
    [ "$ogen_ok" = 1 ] || echo "$api: openapi-generator's client does not compile ($(grep -c '^error' "$work/logs/$api.openapi-generator.deps.log") errors)"
  fi
  for round in $(seq "$rounds"); do
    for cmd in check build; do
      if [ "$all" = 1 ]; then
        touch "$types_dir/src/lib.rs"
        measure "$api" apigen "$cmd-all-r$round" "$out" cargo "$cmd" -q --offline -p "$client"
      fi
      if [ -n "$groups" ]; then
        touch "$types_dir/src/lib.rs"
        measure "$api" apigen "$cmd-some-r$round" "$out" cargo "$cmd" -q --offline -p "$client" \
          --no-default-features --features "$groups"
      fi
      if [ "$ogen_ok" = 1 ]; then
        touch "$ogen_out/src/lib.rs"
        CARGO_TARGET_DIR="$work/$api/target-ogen" measure "$api" openapi-generator "$cmd-r$round" "$ogen_out" \
          cargo "$cmd" -q --no-default-features --features rustls
      fi
    done
  done
  unset CARGO_TARGET_DIR CARGO_INCREMENTAL
done

echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$results" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]), delimiter="\t")]
def cpu(api, tool, prefix):
    values = [float(r["cpu"]) for r in rows if r["api"] == api and r["tool"] == tool
              and r["phase"].startswith(prefix) and r["status"] == "0"]
    return statistics.mean(values) if values else None
def peak(api, tool, prefix):
    values = [int(r["peak_mb"]) for r in rows if r["api"] == api and r["tool"] == tool
              and r["phase"].startswith(prefix) and r["status"] == "0"]
    return max(values) if values else None
print("\n| API | cargo check CPU: apigen all / some groups / openapi-generator (ratio) | peak MB | debug build CPU: all / some / openapi-generator (ratio) | peak MB |")
print("|---|---|---|---|---|")
for api in dict.fromkeys(r["api"] for r in rows):
    cells = []
    for cmd in ("check", "build"):
        a, s, o = cpu(api, "apigen", cmd + "-all"), cpu(api, "apigen", cmd + "-some"), cpu(api, "openapi-generator", cmd + "-r")
        fmt = lambda v: "—" if v is None else f"{v:.1f} s"
        ratio = f" ({a / o:.2f})" if a and o else ""
        cells.append(f"{fmt(a)} / {fmt(s)} / {fmt(o)}{ratio}")
        pa, ps, po = peak(api, "apigen", cmd + "-all"), peak(api, "apigen", cmd + "-some"), peak(api, "openapi-generator", cmd + "-r")
        cells.append(" / ".join("—" if v is None else str(v) for v in (pa, ps, po)))
    print(f"| {api} | " + " | ".join(cells) + " |")
PY
echo "results: $results"
