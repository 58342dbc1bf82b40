#!/usr/bin/env bash
# The user's build after an edit (issue 52, item 6): `cargo build` (dev profile, incremental, as
# a user builds) of GitHub's generated types, server and client in a scratch workspace outside
# the repository, in four situations, each with CPU (user + sys), wall, the load and the files
# the regeneration changed (`git diff --stat` of the output):
#
#   from scratch      the three generated crates built over built dependencies
#   nothing changed   `cargo build` again (what cargo's own check of freshness costs)
#   summary changed   one word of one operation's summary edited, regenerated, built
#   operation added   a copy of one operation added under a new name and path, regenerated, built
#
# The goal (issue 52): a one-operation change builds in at most 0.3x the build from scratch.
#
#   bench/user-build.sh
#   EDITED=repos.yaml bench/user-build.sh   # the group file edited (default meta.yaml)
#   APIGEN=/path/to/apigen bench/user-build.sh
#
# GitHub's document comes from the public API directory (bench/directory.sh, fetched once into
# the cache); work goes to $WORK (default: a new temporary directory; its target directory holds
# a few GB).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/directory.sh
. "$repo/bench/directory.sh"
work="${WORK:-$(mktemp -d)}"
edited="${EDITED:-meta.yaml}"
apigen="${APIGEN:-}"
if [ -z "$apigen" ]; then
  cargo build -q --release -p apigen --manifest-path "$repo/Cargo.toml"
  apigen="${CARGO_TARGET_DIR:-$repo/target}/release/apigen"
fi
spec="$work/spec" out="$work/out"
snapshot=(git --git-dir="$work/out.git" --work-tree="$out")
rm -rf "$spec" "$out" "$work/out.git"
mkdir -p "$work"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, commit $(git -C "$repo" rev-parse --short HEAD), work in $work"

generate() {
  "$apigen" generate --spec "$spec" --out "$out" --runtime "$repo/runtime" >"$work/generate.log" 2>&1 || {
    cat "$work/generate.log" >&2
    exit 1
  }
}

# changed LABEL [STAT]: the generated files the last regeneration changed (their summary
# with STAT=--shortstat), then a new snapshot.
changed() {
  echo "$1: files changed by the regeneration:"
  "${snapshot[@]}" add -A
  "${snapshot[@]}" diff --cached "${2:---stat}" | sed 's/^/  /'
  "${snapshot[@]}" -c user.name=bench -c user.email=bench@localhost commit -qm "$1"
}

# build LABEL: one measured `cargo build` of the three crates, its crates compiled listed.
build() {
  local t log
  t="$(mktemp)" log="$work/build.$1.log"
  (cd "$out" && /usr/bin/time -f '%e %U %S' -o "$t" cargo build --offline "${crates[@]}" >"$log" 2>&1) || {
    cat "$log" >&2
    exit 1
  }
  read -r wall user sys <"$t"
  rm -f "$t"
  cpu["$1"]="$(awk "BEGIN { printf \"%.1f\", $user + $sys }")" wall["$1"]="$wall" load["$1"]="$(cut -d' ' -f1 /proc/loadavg)"
  printf '%s: cargo build %s s CPU, %s s wall, load %s; compiled: %s\n' "$1" "${cpu[$1]}" "$wall" "${load[$1]}" \
    "$(sed -n 's/^ *Compiling \([^ ]*\).*/\1/p' "$log" | tr '\n' ' ')"
}

# edit_summary FILE: one word added to the first summary of FILE.
edit_summary() {
  sed -i "0,/summary: /s/summary: /summary: Edited /" "$1"
}

# add_operation FILE: the first operation of FILE copied as `<name>UserBuild`, its path under
# /user-build (bench/add_operation.py).
add_operation() {
  python3 "$repo/bench/add_operation.py" "$1" UserBuild /user-build
}

"$apigen" import "$directory/github.com/api.github.com.json" --out "$spec" >/dev/null 2>&1
generate
printf '[workspace]\nresolver = "3"\nmembers = ["types", "client", "server"]\n' >"$out/Cargo.toml"
cp "$repo/Cargo.lock" "$out/Cargo.lock"
crates=()
for side in types server client; do
  crates+=(-p "$(sed -n 's/^name = "\(.*\)"/\1/p' "$out/$side/Cargo.toml" | head -1)")
done
export CARGO_TARGET_DIR="$work/target"
unset CARGO_INCREMENTAL CARGO_BUILD_INCREMENTAL
# The dependencies, built once and not measured (the generated crates without their groups).
(cd "$out" && cargo build -q --offline "${crates[@]}" --no-default-features) >/dev/null 2>&1
# The snapshot after cargo has pruned Cargo.lock, so that it shows what apigen changed.
"${snapshot[@]}" init -q
changed generated --shortstat
# A target directory used before keeps the crates' incremental caches: cleaned, for a real
# build from scratch.
(cd "$out" && cargo clean -q --offline "${crates[@]}")
declare -A cpu wall load
build scratch
build unchanged
edit_summary "$spec/$edited"
generate
changed "summary changed in $edited"
build summary
add_operation "$spec/$edited"
generate
changed "operation added to $edited"
build added
echo
printf '| cargo build, GitHub types + server + client | CPU s | wall s | load | of scratch (CPU) |\n|---|---|---|---|---|\n'
for phase in scratch unchanged summary added; do
  printf '| %s | %s | %s | %s | %s |\n' "$phase" "${cpu[$phase]}" "${wall[$phase]}" "${load[$phase]}" \
    "$(awk "BEGIN { printf \"%.2f\", ${cpu[$phase]} / ${cpu[scratch]} }")"
done
