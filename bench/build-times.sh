#!/usr/bin/env bash
# Debug build time of the generated crates on top of their already-built dependencies, the
# budget of issue 3 (at most 25 s for types, server and client together on 2 cores).
# Usage: bench/build-times.sh [runs, default 3]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
export CARGO_INCREMENTAL=0
crates=(-p docs-api-types -p docs-api-server -p docs-api-client)
cargo build -q "${crates[@]}"  # dependencies built once
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
hyperfine --runs "$runs" --style basic \
  --prepare 'cargo clean -q -p docs-api-types -p docs-api-server -p docs-api-client' \
  -n 'types + server + client' 'cargo build -q -p docs-api-types -p docs-api-server -p docs-api-client' \
  --prepare 'cargo clean -q -p docs-api-types' -n 'types alone' 'cargo build -q -p docs-api-types' \
  --prepare 'cargo clean -q -p docs-api-server' -n 'server alone (types built)' 'cargo build -q -p docs-api-server' \
  --prepare 'cargo clean -q -p docs-api-client' -n 'client alone (types built)' 'cargo build -q -p docs-api-client'
