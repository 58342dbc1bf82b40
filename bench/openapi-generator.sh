#!/usr/bin/env bash
# Side by side, in one run: openapi-generator (PyPI openapi-generator-cli; needs Java) fed
# generated/openapi.json, generating the `rust` client and the `rust-axum` server, against
# apigen on the same spec. For each: generation time, whether the output compiles, and its
# clean debug build time with dependencies (a fresh target directory each).
# Usage: bench/openapi-generator.sh [work dir, default /tmp/apigen-vs-openapi-generator]
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=${1:-/tmp/apigen-vs-openapi-generator}
rm -rf "$work" && mkdir -p "$work"
command -v java >/dev/null || { echo "needs java" >&2; exit 1; }
python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q --disable-pip-version-check openapi-generator-cli
ogen="$work/venv/bin/openapi-generator-cli"
cargo build -q --release -p apigen

seconds() { local start=$1; echo "$(date +%s.%N) - $start" | bc -l | xargs printf '%.1f'; }
row() { printf '%-34s %10s %10s %12s\n' "$@"; }
row "generator / output" "generate" "compiles" "clean build"

start=$(date +%s.%N); target/release/apigen generate --out "$work/apigen" >/dev/null; gen=$(seconds "$start")
for crate in client server; do
  start=$(date +%s.%N)
  if CARGO_TARGET_DIR="$work/target-apigen-$crate" cargo build -q -p "docs-api-$crate" >"$work/apigen-$crate.log" 2>&1; then ok=yes; else ok=no; fi
  row "apigen docs-api-$crate" "${gen}s" "$ok" "$(seconds "$start")s"
done

for generator in rust rust-axum; do
  start=$(date +%s.%N)
  "$ogen" generate -i "$root/generated/openapi.json" -g "$generator" -o "$work/$generator" \
    --package-name "docs_api_${generator//-/_}" >"$work/$generator-generate.log" 2>&1
  gen=$(seconds "$start")
  features=()
  [ "$generator" = rust ] && features=(--no-default-features --features rustls)
  start=$(date +%s.%N)
  if (cd "$work/$generator" && CARGO_TARGET_DIR="$work/target-$generator" cargo build -q "${features[@]}" >"$work/$generator-build.log" 2>&1); then
    ok=yes
  else
    ok="no ($(grep -c '^error' "$work/$generator-build.log") errors)"
  fi
  row "openapi-generator $generator" "${gen}s" "$ok" "$(seconds "$start")s"
done
echo "logs in $work"
