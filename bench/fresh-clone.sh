#!/usr/bin/env bash
# What a newcomer pays: the README's two set-up commands on a fresh clone, with an empty
# target directory and a warm cargo registry (crates already downloaded; the download itself
# depends on the network, not on apigen). Prints wall seconds, CPU seconds (user + sys), the
# peak resident size of the largest process and the size of target/ after each command, with
# the machine's load and core count, so a README figure names its run.
#
#   bench/fresh-clone.sh             # clones HEAD of this repository into a temporary directory
#   REV=abc123 bench/fresh-clone.sh  # another commit
#   STEPS="generate" bench/fresh-clone.sh  # the first command alone
#   KEEP=1 bench/fresh-clone.sh      # keeps the clone (its path is printed) for a look after
#
# Steps (in order, each on what the previous one built):
#   generate  cargo run -p apigen -- generate   (the README's first command)
#   test      cargo test --workspace            (the README's second)
#   heavy     cargo test --workspace -- --ignored  (the second tier: crates built outside the
#             workspace, which CI runs as a step of its own)
#   install   cargo install --path generator    (the cheaper way to run apigen repeatedly)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
rev="${REV:-HEAD}"
steps="${STEPS:-generate test heavy install}"
work="$(mktemp -d)"
if [ -n "${KEEP:-}" ]; then echo "# work: $work"; else trap 'rm -rf "$work"' EXIT; fi
git clone -q "$repo" "$work/clone"
git -C "$work/clone" checkout -q "$rev"
cd "$work/clone"
cargo fetch --locked -q
export CARGO_TARGET_DIR="$work/clone/target"
unset RUSTC_WRAPPER CARGO_BUILD_RUSTC_WRAPPER

echo "# fresh clone of $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %8s %8s %9s %9s\n' step wall_s cpu_s peak_mb target
run_step() {
  local name="$1"; shift
  local t="$work/time.$name" wall user sys kb
  if ! /usr/bin/time -f '%e %U %S %M' -o "$t" "$@" >"$work/$name.log" 2>&1; then
    echo "$name failed; its log:" >&2
    tail -30 "$work/$name.log" >&2
    exit 1
  fi
  read -r wall user sys kb < <(tail -1 "$t")
  printf '%-10s %8.1f %8.1f %9d %9s\n' "$name" "$wall" "$(awk "BEGIN { print $user + $sys }")" $((kb / 1024)) \
    "$(du -sh "$CARGO_TARGET_DIR" 2>/dev/null | cut -f1)"
}
for step in $steps; do
  case "$step" in
    generate) run_step generate cargo run -q --locked -p apigen -- generate ;;
    test) run_step test cargo test -q --locked --workspace ;;
    heavy) run_step heavy cargo test -q --locked --workspace -- --ignored ;;
    install) run_step install cargo install -q --locked --path generator --root "$work/bin" ;;
    *) echo "unknown step: $step" >&2; exit 2 ;;
  esac
done
