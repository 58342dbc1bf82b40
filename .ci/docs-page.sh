#!/usr/bin/env bash
# The reference page in a real browser: the sandbox (built already) serves /docs; headless
# Chromium (Debian's package, installed when missing) renders it with Redoc from the binary,
# offline; the rendered DOM must list every operation of generated/openapi.json (Redoc gives
# each a section `operation/<operationId>`). A screenshot is kept for CI's artifacts in
# target/ci-artifacts/docs-page.png.
# Usage: .ci/docs-page.sh SANDBOX_BINARY
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
sandbox="$1"
if ! command -v chromium >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
chromium --version
artifacts="$repo/target/ci-artifacts"
mkdir -p "$artifacts"
log="$(mktemp)"
"$sandbox" --listen 127.0.0.1:0 --log off >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q '^listening on ' "$log" && break
  sleep 0.1
done
base="$(sed -n 's/^listening on //p' "$log")"
[ -n "$base" ] || { cat "$log" >&2; exit 1; }
browse() {
  # No network beyond the sandbox: no background requests, no updates, no sync, a fresh profile.
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$(mktemp -d)" \
    --virtual-time-budget=10000 "$@" "$base/docs" 2>/dev/null
}
dom="$artifacts/docs-page.html"
browse --dump-dom >"$dom"
browse --screenshot="$artifacts/docs-page.png" --window-size=1280,2000 || true
python3 - "$repo/generated/openapi.json" "$dom" <<'PY'
import json, sys
document = json.load(open(sys.argv[1]))
dom = open(sys.argv[2], encoding="utf-8").read()
ids = [op["operationId"] for path in document["paths"].values() for op in path.values() if isinstance(op, dict) and "operationId" in op]
missing = [i for i in ids if f'operation/{i}"' not in dom]
title = document["info"]["title"]
if title not in dom:
    sys.exit(f"the page does not show the title {title!r}")
if missing:
    sys.exit(f"the page lists {len(ids) - len(missing)} of {len(ids)} operations; missing: {missing[:10]}")
print(f"docs page: {len(ids)} of {len(ids)} operations listed, title {title!r}")
PY
[ -s "$artifacts/docs-page.png" ] && echo "screenshot: $artifacts/docs-page.png"
kill "$pid"
