#!/usr/bin/env bash
# Bytes of generated Rust per operation (bench/README.md, "Bytes per operation").
#
#   bench/op-bytes.sh                       # this checkout's apigen (release)
#   APIGEN=/path/to/apigen bench/op-bytes.sh  # another build (an older commit's, to compare)
#   DOCS="github stripe" bench/op-bytes.sh  # directory documents to average over
#
# A trivial operation: two documents of 10 and 20 operations `GET /rN` answering one shared
# object, public, no parameters; the difference of their generated client and server, over 10,
# is what one more such operation costs. Then, for each document of DOCS (default: GitHub),
# the client's and the server's bytes per operation, the average and the 90th percentile
# (bench/op-bytes.py: each item belongs to the operation it names, the rest is spread evenly),
# without doc comments (they are the spec's text) and with them. Counted: the Rust of the
# client's and server's modules and their parts, the samples and the mock apart (one sample
# body per operation: data, not code).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/directory.sh
. "$repo/bench/directory.sh"
apigen="${APIGEN:-}"
if [ -z "$apigen" ]; then
  cargo build -q --release -p apigen --locked --manifest-path "$repo/Cargo.toml"
  apigen="${CARGO_TARGET_DIR:-$repo/target}/release/apigen"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# code DIR SIDE...: bytes of the sides' modules without doc comments, samples and mock.
code() {
  local dir=$1
  shift
  local files=()
  for side in "$@"; do
    while IFS= read -r f; do
      case "$f" in */src/samples.rs | */src/mock.rs | */src/samples/* | */src/mock/*) ;; *) files+=("$f") ;; esac
    done < <(find "$dir/generated/$side/src" -name '*.rs' | sort)
  done
  grep -hv '^\s*//[/!]' "${files[@]}" | wc -c
}

# project DOC DIR: `init --from DOC` then `generate` in DIR.
project() {
  mkdir -p "$2"
  (cd "$2" && "$apigen" init --from "$1" --runtime "$repo/runtime" >/dev/null 2>&1 && "$apigen" generate >/dev/null)
}

for count in 10 20; do
  python3 - "$work/trivial$count.json" "$count" <<'EOF'
import json, sys
path, count = sys.argv[1], int(sys.argv[2])
answer = {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Root"}}}}}
paths = {f"/r{i}": {"get": {"operationId": f"op{i}", "tags": ["meta"], "summary": f"Op {i}", "responses": answer}} for i in range(count)}
doc = {"openapi": "3.0.3", "info": {"title": "Trivial", "version": "1.0"}, "paths": paths,
       "components": {"schemas": {"Root": {"type": "object", "properties": {"url": {"type": "string"}}}}}}
json.dump(doc, open(path, "w"))
EOF
  project "$work/trivial$count.json" "$work/t$count"
done
for side in client server; do
  small=$(code "$work/t10" "$side")
  large=$(code "$work/t20" "$side")
  printf 'trivial operation, %s: %d bytes\n' "$side" $(((large - small) / 10))
done

for name in ${DOCS:-github}; do
  case "$name" in
    github) doc="$directory/github.com/api.github.com.json" ;;
    stripe) doc="$directory/stripe.com.json" ;;
    kubernetes) doc="$directory/kubernetes.io.json" ;;
    *) doc="$name" ;;
  esac
  project "$doc" "$work/$name"
  ops=$(cd "$work/$name" && "$apigen" list | wc -l)
  printf '%s (%d operations), bytes per operation, average / 90th percentile:\n' "$name" "$ops"
  for side in client server; do
    read -r bare bare90 found < <(python3 "$repo/bench/op-bytes.py" "$work/$name/generated" "$side")
    read -r docs docs90 _ < <(python3 "$repo/bench/op-bytes.py" "$work/$name/generated" "$side" --docs)
    printf '  %s: %s / %s without docs, %s / %s with docs (%s operations found)\n' "$side" "$bare" "$bare90" \
      "$docs" "$docs90" "$found"
  done
done
