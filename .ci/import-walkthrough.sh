#!/usr/bin/env bash
# The guide's import walkthrough as a new user runs it: the block after the marker
# `<!-- import-walkthrough` in docs/src/import.md, run as it is in a clean directory outside this
# repository, with the installed apigen first on PATH and the Petstore fixture as openapi.json.
# Usage: .ci/import-walkthrough.sh APIGEN_BIN_DIR
# Cargo runs offline (CARGO_NET_OFFLINE): the lock file init writes names only crates this
# repository's own build has fetched. CARGO_TARGET_DIR, when set, is shared to save time.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin_dir="$(cd "$1" && pwd)"
block="$(awk '/^<!-- import-walkthrough/ { found = 1; next } found && /^```sh/ { inside = 1; next } inside && /^```/ { exit } inside { print }' "$repo/docs/src/import.md")"
[ -n "$block" ] || { echo "docs/src/import.md has no import walkthrough block" >&2; exit 1; }
home="$(mktemp -d)"
cp "$repo/tests/fixtures/openapi/petstore-3.0.json" "$home/openapi.json"
printf '%s\n' "$block" >"$home/walkthrough.sh"
echo "running in $home:"
sed 's/^/  /' "$home/walkthrough.sh"
(cd "$home" && PATH="$bin_dir:$PATH" CARGO_NET_OFFLINE=true bash -euxo pipefail walkthrough.sh)
# The crates are named from the title (the file name is generic), words kept as written.
test -f "$home/my-api/generated/types/Cargo.toml"
grep -q '^name = "swagger-petstore-types"$' "$home/my-api/generated/types/Cargo.toml"
echo "import walkthrough: ok"
