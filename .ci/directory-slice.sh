#!/usr/bin/env bash
# Imports every document of tests/fixtures/directory with the apigen built in target/debug,
# generates its crates against this checkout's runtime, and builds them all with clippy,
# warnings denied, in one workspace outside the repository (this repository's lock file, so
# no crate is fetched). Fails on the first import, generate or clippy failure.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
apigen="${CARGO_TARGET_DIR:-$repo/target}/debug/apigen"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
members=()
n=0
for doc in "$repo"/tests/fixtures/directory/*.json; do
  id="$(basename "$doc" .json)"
  n=$((n + 1))
  # The import's lint warnings (descriptions missing, ...) are the documents' business.
  if ! "$apigen" import "$doc" --out "$work/specs/$id" >"$work/$id.log" 2>&1; then
    cat "$work/$id.log" >&2
    exit 1
  fi
  grep -E 'operations kept' "$work/$id.log" | sed "s/^/$id: /"
  # Documents may share a title (and so a crate prefix): each gets its own.
  sed -i "0,/^  name: .*/s//  name: slice$n/" "$work/specs/$id/api.yaml"
  if ! "$apigen" generate --spec "$work/specs/$id" --out "$work/crates/$id" --runtime "$repo/runtime" >"$work/$id.log" 2>&1; then
    cat "$work/$id.log" >&2
    exit 1
  fi
  for part in types server client; do
    members+=("\"$id/$part\"")
  done
done
(IFS=,; printf '[workspace]\nresolver = "3"\nmembers = [%s]\n' "${members[*]}") >"$work/crates/Cargo.toml"
cp "$repo/Cargo.lock" "$work/crates/Cargo.lock"
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}/directory-slice" \
  cargo clippy --quiet --offline --manifest-path "$work/crates/Cargo.toml" --workspace --all-targets --all-features -- -D warnings
echo "the directory slice: ${#members[@]} crates of $n documents pass clippy, warnings denied"
