#!/usr/bin/env bash
# Regenerates generated/ and every checked-in fixture output (tests/fixtures/generated/*) with
# this checkout's apigen: what to run after changing the generator or a fixture spec.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -p apigen
apigen="${CARGO_TARGET_DIR:-target}/debug/apigen"
"$apigen" generate | tail -1
for spec in tests/fixtures/valid/*/; do
  name="$(basename "$spec")"
  [ -d "tests/fixtures/generated/$name" ] || continue
  "$apigen" generate --spec "$spec" --out "tests/fixtures/generated/$name" | tail -1
done
