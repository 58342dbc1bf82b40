#!/usr/bin/env bash
# Requests per second of `GET /v1/spaces/{spaceId}` through the generated router and through a
# hand-written axum handler doing the same work, on loopback, in one run (wrk, keep-alive).
# Usage: bench/server-rps.sh [seconds per round, default 10] [rounds, default 3]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
rounds=${2:-3}
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)" >&2; exit 1; }
cargo build -q --release -p apigen-bench --bin serve
bin=target/release/serve
work="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
# Each server picks a free port and prints it: the port measured is the one of the process
# started here, never whatever else listens on a fixed port.
url=/v1/spaces/space_1
declare -A port
for kind in generated handwritten generated-axum-serve; do
  "$bin" "$kind" >"$work/$kind" </dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do grep -q '^listening on ' "$work/$kind" && break; sleep 0.1; done
  port[$kind]=$(sed -n 's/^listening on //p' "$work/$kind")
  curl -sf -H 'Authorization: Bearer t' "http://127.0.0.1:${port[$kind]}$url" >/dev/null || { echo "$kind is not answering" >&2; exit 1; }
done
rps() { wrk -t1 -c32 -d"${seconds}s" -H 'Authorization: Bearer t' "http://127.0.0.1:$1$url" | awk '/Requests\/sec/ {print $2}'; }
printf 'round  generated  handwritten  ratio  generated-under-axum::serve\n'
for round in $(seq "$rounds"); do
  g=$(rps "${port[generated]}"); h=$(rps "${port[handwritten]}"); a=$(rps "${port[generated-axum-serve]}")
  printf '%5s  %9.0f  %11.0f  %5.2f  %9.0f\n' "$round" "$g" "$h" "$(echo "$g / $h" | bc -l)" "$a"
done
