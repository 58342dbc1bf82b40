#!/usr/bin/env bash
# Requests per second and p99 latency of the generated router against hand-written axum routes
# doing the same work, on loopback, interleaved in one run (wrk, 100 keep-alive connections):
#   GET  /v1/spaces/{spaceId}                  a path parameter, the answer as JSON
#   POST /v1/spaces/{spaceId}/change-requests  a JSON body decoded and checked, 201
# Both servers run under apigen_runtime::listener::serve (head guard and body pacing on), so
# the ratio measures the router; each run also gives the server's CPU per request (user + sys
# from /proc, steadier than the rate when wrk and the server share 2 cores);
# `generated-axum-serve` (the generated router under axum::serve) measures the accept loop.
# Usage: bench/server-rps.sh [seconds per round, default 10] [rounds, default 3]
#   CONNECTIONS=100 THREADS=1 (wrk's; wrk and the server share the machine's cores)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
rounds=${2:-3}
connections=${CONNECTIONS:-100}
threads=${THREADS:-1}
if ! command -v wrk >/dev/null; then
  echo "needs wrk: installing Debian's package (apt-get install wrk)" >&2
  apt-get install -y -q wrk >/dev/null || { echo "could not install wrk" >&2; exit 1; }
fi
cargo build -q --release -p apigen-bench --bin serve
bin="${CARGO_TARGET_DIR:-target}/release/serve"
work="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
# Each server picks a free port and prints it: the port measured is the one of the process
# started here, never whatever else listens on a fixed port.
declare -A port pid
for kind in generated handwritten generated-axum-serve; do
  "$bin" "$kind" >"$work/$kind" </dev/null 2>&1 &
  pids+=($!)
  pid[$kind]=$!
  for _ in $(seq 50); do grep -q '^listening on ' "$work/$kind" && break; sleep 0.1; done
  port[$kind]=$(sed -n 's/^listening on //p' "$work/$kind")
  curl -sf -H 'Authorization: Bearer t' "http://127.0.0.1:${port[$kind]}/v1/spaces/space_1" >/dev/null \
    || { echo "$kind is not answering GET" >&2; exit 1; }
  curl -sf -H 'Authorization: Bearer t' -H 'Content-Type: application/json' -d '{"subject":"Docs"}' \
    "http://127.0.0.1:${port[$kind]}/v1/spaces/space_1/change-requests" >/dev/null \
    || { echo "$kind is not answering POST" >&2; exit 1; }
done
cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"subject":"Document the new API","agentTaskId":"task_1"}'
wrk.headers["Content-Type"] = "application/json"
LUA
# "<requests per second> <p99 in ms> <server CPU microseconds per request>" of one wrk run
# against server $1 (generated|handwritten|generated-axum-serve), route $2 (get|post). CPU per
# request (user + sys of the server process, from /proc) moves less with the machine's load
# than the rate does, as wrk and the server share the cores.
measure() {
  local url script=() before after
  if [ "$2" = post ]; then
    url="http://127.0.0.1:${port[$1]}/v1/spaces/space_1/change-requests"
    script=(-s "$work/post.lua")
  else
    url="http://127.0.0.1:${port[$1]}/v1/spaces/space_1"
  fi
  before=$(cpu_ticks "${pid[$1]}")
  wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency "${script[@]}" -H 'Authorization: Bearer t' "$url" >"$work/wrk.out"
  after=$(cpu_ticks "${pid[$1]}")
  awk -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" \
    '/Requests\/sec/ {rps=$2} /requests in/ {n=$1} $1=="99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; p99=v} END {printf "%s %s %.1f\n", rps, p99, ticks * 1000000 / hz / n}' "$work/wrk.out"
}

# User + system CPU ticks of process $1 so far.
cpu_ticks() {
  awk '{print $14 + $15}' "/proc/$1/stat"
}
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), ${connections} connections, ${seconds} s per run"
printf '%-5s %-5s %10s %10s %6s %9s %9s %6s %8s %8s %6s %12s\n' round route gen_rps hand_rps ratio gen_p99 hand_p99 p99x gen_us hand_us cpu_x axum_serve
for round in $(seq "$rounds"); do
  for route in get post; do
    read -r g gp gu < <(measure generated "$route")
    read -r h hp hu < <(measure handwritten "$route")
    read -r a _ _ < <(measure generated-axum-serve "$route")
    printf '%-5s %-5s %10.0f %10.0f %6.2f %7.2fms %7.2fms %6.2f %8.1f %8.1f %6.2f %12.0f\n' "$round" "$route" "$g" "$h" \
      "$(echo "$g / $h" | bc -l)" "$gp" "$hp" "$(echo "$gp / $hp" | bc -l)" "$gu" "$hu" "$(echo "$gu / $hu" | bc -l)" "$a"
  done
done
