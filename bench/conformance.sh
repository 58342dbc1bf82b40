#!/usr/bin/env bash
# Judges the generated client and server on the ORIGINAL document, with tools nobody here wrote:
#
# - Prism (npm @stoplight/prism-cli 5.16.0), `prism mock -d --errors DOC`, validates every
#   request the generated client sends and answers from the document's own schemas;
# - schemathesis (PyPI, 4.32.5) drives the generated server, answering every operation with
#   the spec's sample response (`mock::samples()`), and checks its answers against the
#   document.
#
#   bench/conformance.sh DOC...                 the documents named
#   SAMPLE=100 SEED=1 bench/conformance.sh      a seeded sample of the public API directory
#   JUDGES=prism (or schemathesis)              one judge only (default: both)
#   MAX_EXAMPLES=5 TIME_LIMIT=240               schemathesis's examples per operation and
#                                               seconds per document
#   PRISM_WAIT=30                               seconds Prism may take to start on a document
#   MIN_CLIENT=94 MIN_SERVER=50                 fail (exit 1) below these pass rates, or on
#                                               any hung call or server error (CI's gate)
#   KNOWN=path                                  the known failures (default
#                                               bench/conformance/known_failures.tsv; KNOWN=
#                                               for none)
#
# For each document: `apigen import`, `apigen generate` against this checkout's runtime, and a
# small harness with two programs.
#
# The client (Prism): `samples::client` holds a sample credential for every scheme,
# `samples::calls` calls every operation once with the spec's samples, each with a 60 s
# deadline. Each call is:
#   ok          accepted by Prism and its answer decoded;
#   refused     Prism refused the request (422/400 naming the request, 401, 404 route, 405):
#               always our failure;
#   undecoded   the answer did not decode (our failure unless Prism flags its own answer);
#   hung        the call did not end within its deadline;
#   other       anything else (the message says what).
# Left out of the rate, each counted: answers Prism flags against the document itself,
# operations it cannot route (path keys holding a fragment, a required query parameter named
# with brackets), answers it cannot produce (a success response given only as a media range,
# `*/*`, or a file without a schema), one-item lists of a form it reads as a string,
# redirects to the document's example hosts (unreachable from here) and operations that list
# no success response (report.py says why for each).
#
# The server (schemathesis): `router(mock::samples())` on loopback; `schemathesis run DOC`
# with a sample credential for every scheme and the checks not_a_server_error,
# status_code_conformance, content_type_conformance, response_headers_conformance,
# response_schema_conformance, positive_data_acceptance and negative_data_rejection. An
# operation passes when no check fails; a status the document never lists for a refusal the
# router must make (400, 401, 404, 405, 406, 413, 415) is counted apart as the document's
# own incompleteness; an operation every request of which was answered 401 or 403 fails
# (`auth-refused`: nothing was judged). Each failed check is classed by the first generic rule
# of bench/conformance/rules.toml that matches it, else by its line in KNOWN; the run fails
# (exit 1) on a failure neither passes, and on a listed failure of an operation schemathesis
# judged that no longer happens (a stale excuse); an operation it never reached (its time
# limit) is not judged (bench/README.md, "How the judge decides").
#
# Prints one line per document and the rates, the failure classes with an example each, and
# writes every call to $OUT/calls.tsv and every schemathesis verdict to $OUT/server.tsv (OUT
# defaults to a temporary directory it names).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
# APIGEN names a binary built already (CI's debug build); otherwise a release build.
apigen="${APIGEN:-$CARGO_TARGET_DIR/release/apigen}"
[ -n "${APIGEN:-}" ] || cargo build -q --release -p apigen --locked --manifest-path "$repo/Cargo.toml"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/apigen-bench"
prism="$cache/prism/node_modules/.bin/prism"
if [ ! -x "$prism" ]; then
  mkdir -p "$cache/prism"
  (cd "$cache/prism" && npm install --silent --no-audit --no-fund @stoplight/prism-cli@5.16.0 >/dev/null)
fi
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
work="$out/work"
rm -rf "$work"
mkdir -p "$work"

docs=("$@")
if [ ${#docs[@]} -eq 0 ]; then
  # shellcheck source=bench/directory.sh
  source "$repo/bench/directory.sh"
  mapfile -t docs < <(python3 - "$directory" "${SAMPLE:-100}" "${SEED:-1}" <<'EOF'
import os, random, sys
root, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
found = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith((".json", ".yaml")))
random.Random(seed).shuffle(found)
print("\n".join(sorted(found[:count])))
EOF
  )
fi

members=()
ids=()
n=0
for doc in "${docs[@]}"; do
  n=$((n + 1))
  id="d$n"
  if ! "$apigen" import "$doc" --out "$work/specs/$id" >"$work/$id.import.log" 2>&1; then
    printf '%s\timport-failed\n' "$doc" >>"$out/documents.tsv"
    continue
  fi
  # Each document's crates get their own prefix (documents may share a title).
  sed -i "0,/name: [a-z0-9-]*/s//name: $id/" "$work/specs/$id/api.yaml"
  if ! "$apigen" generate --spec "$work/specs/$id" --out "$work/crates/$id" --runtime "$repo/runtime" \
    >"$work/$id.generate.log" 2>&1; then
    printf '%s\tgenerate-failed\n' "$doc" >>"$out/documents.tsv"
    continue
  fi
  mkdir -p "$work/crates/$id/harness/src"
  cat >"$work/crates/$id/harness/Cargo.toml" <<EOF
[package]
name = "$id-harness"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
api = { path = "../client", package = "$id-client", features = ["samples"] }
server = { path = "../server", package = "$id-server", features = ["mock"] }
apigen-runtime = { path = "$repo/runtime", features = ["server"] }
tokio = { version = "1", features = ["macros", "rt", "time", "net"] }
EOF
  sed "s/__CLIENT__/api/g" "$repo/bench/conformance/harness.rs" >"$work/crates/$id/harness/src/main.rs"
  mkdir -p "$work/crates/$id/harness/src/bin"
  sed "s/__SERVER__/server/g" "$repo/bench/conformance/serve.rs" >"$work/crates/$id/harness/src/bin/$id-serve.rs"
  members+=("\"$id/harness\"")
  ids+=("$id")
  printf '%s\t%s\n' "$id" "$doc" >>"$work/ids.tsv"
done
(IFS=,; printf '[workspace]\nresolver = "3"\nmembers = [%s]\n' "${members[*]}") >"$work/crates/Cargo.toml"
cp "$repo/Cargo.lock" "$work/crates/Cargo.lock"
echo "building ${#ids[@]} harnesses..." >&2
CARGO_TARGET_DIR="$CARGO_TARGET_DIR/conformance" \
  cargo build --quiet --offline --manifest-path "$work/crates/Cargo.toml" --workspace 2>"$work/build.log" \
  || { tail -30 "$work/build.log" >&2; exit 1; }

judges="${JUDGES:-prism schemathesis}"
port=4010
: >"$out/calls.tsv"
for id in "${ids[@]}"; do
  [[ "$judges" == *prism* ]] || break
  doc="$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$work/ids.tsv")"
  port=$((port + 1))
  "$prism" mock -d --errors -h 127.0.0.1 -p "$port" "$doc" >"$work/$id.prism.log" 2>&1 &
  prism_pid=$!
  # PRISM_WAIT: seconds Prism may take to start (30; Stripe's 6 MB document takes minutes).
  for _ in $(seq $((${PRISM_WAIT:-30} * 10))); do
    grep -q "Prism is listening" "$work/$id.prism.log" && break
    kill -0 "$prism_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! grep -q "Prism is listening" "$work/$id.prism.log"; then
    printf '%s\tprism-failed\n' "$doc" >>"$out/documents.tsv"
    kill "$prism_pid" 2>/dev/null || true
    continue
  fi
  "$CARGO_TARGET_DIR/conformance/debug/$id-harness" "http://127.0.0.1:$port" \
    | sed "s|^|$(basename "$doc")\t|" >>"$out/calls.tsv" || true
  kill "$prism_pid" 2>/dev/null || true
  wait "$prism_pid" 2>/dev/null || true
  printf '%s\tjudged\n' "$doc" >>"$out/documents.tsv"
done
if [[ "$judges" == *prism* ]]; then
  python3 "$repo/bench/conformance/report.py" "$out/calls.tsv" "$out/documents.tsv" "${MIN_CLIENT:-0}" || failed=1
  echo "calls: $out/calls.tsv" >&2
fi

[[ "$judges" == *schemathesis* ]] || exit "${failed:-0}"
venv="$cache/schemathesis-4.32.5"
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check schemathesis==4.32.5
fi
checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance
checks="$checks,response_schema_conformance,positive_data_acceptance,negative_data_rejection"
# A fixed seed and no example database: schemathesis's default database (`.hypothesis/` in the
# working directory) replays the failing examples of earlier runs, so a second run on the same
# checkout sent other requests than the first and judged other operations failing.
known="${KNOWN-$repo/bench/conformance/known_failures.tsv}"
: >"$out/server.tsv"
: >"$out/known-problems.tsv"
for id in "${ids[@]}"; do
  doc="$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$work/ids.tsv")"
  port=$((port + 1))
  "$CARGO_TARGET_DIR/conformance/debug/$id-serve" "$port" >"$work/$id.serve.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 100); do
    grep -q '^listening on ' "$work/$id.serve.log" && break
    sleep 0.1
  done
  "$venv/bin/python" "$repo/bench/conformance/schemathesis_auth.py" "$doc" >"$work/$id.schemathesis.toml"
  timeout "${TIME_LIMIT:-240}" "$venv/bin/schemathesis" --config-file "$work/$id.schemathesis.toml" run "$doc" \
    --url "http://127.0.0.1:$port" --checks "$checks" --phases examples,coverage,fuzzing \
    --max-examples "${MAX_EXAMPLES:-5}" --seed 1 --generation-database none --workers 1 --no-color \
    --request-timeout 10 --continue-on-failure \
    --suppress-health-check all --report junit --report-junit-path "$work/$id.junit.xml" \
    >"$work/$id.schemathesis.log" 2>&1 || true
  kill "$serve_pid" 2>/dev/null || true
  wait "$serve_pid" 2>/dev/null || true
  python3 "$repo/bench/conformance/server_verdicts.py" "$(basename "$doc")" "$work/$id.junit.xml" \
    "$work/specs/$id/api.yaml" "$doc" "$known" "$out/known-problems.tsv" >>"$out/server.tsv"
done
python3 "$repo/bench/conformance/server_report.py" "$out/server.tsv" "${MIN_SERVER:-0}" "$out/known-problems.tsv" \
  || failed=1
echo "server verdicts: $out/server.tsv" >&2
exit "${failed:-0}"
