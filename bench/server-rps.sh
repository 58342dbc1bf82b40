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
"$bin" generated 18081 & gen=$!
"$bin" handwritten 18082 & hand=$!
trap 'kill $gen $hand 2>/dev/null' EXIT
sleep 1
url=/v1/spaces/space_1
for body in 18081 18082; do
  curl -sf -H 'Authorization: Bearer t' "http://127.0.0.1:$body$url" >/dev/null || { echo "server on $body is not answering" >&2; exit 1; }
done
rps() { wrk -t1 -c32 -d"${seconds}s" -H 'Authorization: Bearer t' "http://127.0.0.1:$1$url" | awk '/Requests\/sec/ {print $2}'; }
printf 'round  generated  handwritten  ratio\n'
for round in $(seq "$rounds"); do
  g=$(rps 18081); h=$(rps 18082)
  printf '%5s  %9.0f  %11.0f  %5.2f\n' "$round" "$g" "$h" "$(echo "$g / $h" | bc -l)"
done
