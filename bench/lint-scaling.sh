#!/usr/bin/env bash
# Lint time against spec size: a synthetic spec of N types (a ring of references, so every
# type is reached) for growing N, linted by the release binary. Linear growth is the goal.
# Usage: bench/lint-scaling.sh [sizes...]   (default: 1000 4000 16000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p apigen
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sizes=("${@:-1000 4000 16000}")
for n in ${sizes[@]}; do
  dir="$work/spec-$n"
  mkdir -p "$dir"
  cp tests/fixtures/valid/petstore/*.yaml "$dir/"
  python3 - "$n" "$dir/many.yaml" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
out = ["types:"]
for i in range(n):
    out.append(f"  T{i}:\n    description: Type {i}.\n    fields:\n"
               f"      id: {{ type: string, description: Id. }}\n"
               f"      next: {{ type: T{(i + 1) % n}, optional: true, description: The next one. }}")
open(path, "w").write("\n".join(out) + "\n")
PY
  start=$(date +%s.%N)
  target/release/apigen lint --spec "$dir" >/dev/null
  end=$(date +%s.%N)
  printf '%6d types: %6.0f ms\n' "$n" "$(echo "($end - $start) * 1000" | bc)"
done
