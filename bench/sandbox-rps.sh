#!/usr/bin/env bash
# Requests per second of the sandbox (release build, file database in WAL mode, demo data) for
# a read-heavy mix (90% reads) and a write-heavy mix (70% writes), on loopback (wrk, 32
# keep-alive connections, one thread). Reads: a space, its comments (a page of 20), the spaces
# of a collection, the organization. Writes: a new comment on the space, a space update, a new
# change request. Non-2xx answers are counted (they must be 0); that no write is lost under
# concurrency is a test (sandbox/tests/concurrency.rs), not a benchmark.
# Usage: bench/sandbox-rps.sh [seconds per mix, default 10] [binary...]
# With binaries (say, a copy of the release build before a change and one after), each runs
# in turn, on a new database each time, for ROUNDS rounds (default 1): interleaved, so a
# noisy machine weighs on both alike. Without, the current release build runs once.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
shift || true
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)" >&2; exit 1; }
if [ $# -eq 0 ]; then
  cargo build -q --release -p docs-api-sandbox
  set -- "${CARGO_TARGET_DIR:-target}/release/docs-api-sandbox"
fi
rounds=${ROUNDS:-1}
work="$(mktemp -d)"
pid=
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT

# One Lua script, the mix given by WRITES (percent of requests that write).
cat >"$work/mix.lua" <<'LUA'
local writes = tonumber(os.getenv("WRITES"))
local n = 0
local reads = {
  "/v1/spaces/space_1",
  "/v1/spaces/space_1/comments?limit=20",
  "/v1/collections/collection_1/spaces",
  "/v1/orgs/org_1",
}
wrk.headers["Authorization"] = "Bearer bench"
wrk.headers["Content-Type"] = "application/json"
request = function()
  n = n + 1
  if (n * 37) % 100 < writes then
    local kind = n % 3
    if kind == 0 then
      return wrk.format("POST", "/v1/spaces/space_1/comments", nil, '{"body":{"markdown":"load ' .. n .. '"}}')
    elseif kind == 1 then
      return wrk.format("PATCH", "/v1/spaces/space_1", nil, '{"title":"Bench ' .. (n % 1000) .. '"}')
    else
      return wrk.format("POST", "/v1/spaces/space_1/change-requests", nil, '{"subject":"load ' .. n .. '"}')
    end
  end
  return wrk.format("GET", reads[(n % #reads) + 1])
end
done = function(summary, latency, requests)
  io.write(string.format("non-2xx: %d\n", summary.errors.status))
end
LUA

# Both mixes against a new sandbox of binary $1 (its own database, the demo data).
measure() {
  local bin=$1 db
  db="$(mktemp -d "$work/db.XXXX")"
  "$bin" --listen 127.0.0.1:0 --token bench --db "$db/bench.db" --demo >"$db/log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do grep -q '^listening on ' "$db/log" && break; sleep 0.1; done
  url=$(sed -n 's/^listening on //p' "$db/log")
  [ -n "$url" ] || { cat "$db/log" >&2; exit 1; }
  curl -sf -H 'Authorization: Bearer bench' "$url/v1/spaces/space_1" >/dev/null || { echo "the demo space is not there" >&2; exit 1; }
  for writes in 10 70; do
    name=$([ "$writes" = 10 ] && echo read-heavy || echo write-heavy)
    out=$(WRITES=$writes wrk -t1 -c32 -d"${seconds}s" --latency -s "$work/mix.lua" "$url")
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    bad=$(awk '/non-2xx:/ {print $2}' <<<"$out")
    printf '%-24s %-12s %5s%%  %7.0f  %-9s %-9s %s\n' "$(basename "$bin")" "$name" "$writes" "$rps" "$p50" "$p99" "$bad"
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

printf '%-24s %-12s writes  req/s    p50       p99       non-2xx\n' binary mix
for _ in $(seq "$rounds"); do
  for bin in "$@"; do measure "$bin"; done
done
