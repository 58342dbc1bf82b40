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
#   LIST=file bench/conformance.sh              the documents a file lists, one a line: a path
#                                               or a directory id (`amazonaws.com/fsx.json`),
#                                               `#` comments (bench/conformance/doc_list.py;
#                                               bench/conformance/heldout.txt is one)
#   SAMPLE=100 SEED=1 bench/conformance.sh      a seeded sample of the public API directory
#   JUDGES=prism (or schemathesis)              one judge only (default: both)
#   MAX_EXAMPLES=5 TIME_LIMIT=240               schemathesis's examples per operation and
#                                               seconds per document
#   PHASES=examples,fuzzing                     schemathesis's phases (default
#                                               examples,coverage,fuzzing): the coverage phase
#                                               writes a case for each boundary of every
#                                               property, 8,820 for Kubernetes' PodTemplate body
#                                               alone, so the largest documents are judged
#                                               without it (and the figures say so)
#   TIME_PER_OP=10                              schemathesis's seconds per operation it judges,
#                                               when that is more than TIME_LIMIT (a document of
#                                               845 operations gets 8,450 s, not 240)
#   OPS=100 SEED=1                              a seeded sample of 100 operations of each
#                                               document that has more (the largest APIs;
#                                               bench/conformance/op_sample.py): apigen imports
#                                               a copy holding only them and the components they
#                                               reach, Prism mocks the ORIGINAL document and
#                                               schemathesis judges the sampled operations of
#                                               the ORIGINAL document (`--include-name`); every
#                                               report labels the figures "SAMPLE: DOC: 100 of
#                                               845 operations (seed 1)"; $OUT/samples.tsv
#   PRISM_WAIT=30                               seconds Prism may take to start on a document
#   MIN_CLIENT=94 MIN_SERVER=50                 fail (exit 1) below these headlines (the
#                                               client's calls accepted and decoded; the
#                                               server's pass + fair refusal), or on any hung
#                                               call or server error (CI's gate)
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
# redirects to the document's example hosts (unreachable from here), operations that list
# no success response, and request bodies refused as matching several `oneOf` variants where
# the document's own example matches several too (the variants overlap; the report names the
# body's pointer, the example and the variants) (report.py says why for each).
#
# The server (schemathesis): `router(mock::samples())` on loopback; `schemathesis run DOC`
# with a sample credential for every scheme as the document defines it (schemathesis_auth.py)
# and the checks not_a_server_error, status_code_conformance, content_type_conformance,
# response_headers_conformance, response_schema_conformance, positive_data_acceptance and
# negative_data_rejection; its JUnit report and VCR cassette (which says whether each case was
# generated to follow the document or to break it) are kept. Each operation's verdict, strictly
# (bench/README.md, "How the judge decides"): pass (no check fails); fair refusal (a 4xx to a
# request schemathesis generated to break the document, where the document lists no such
# status); gap (a named gap); document or judge (an excuse: the document's imprecision or the
# judge's limit, each written to $OUT/excuses.tsv with its evidence); fail (everything else: an
# operation every request of which was answered 401 or 403 fails as `auth-refused`). The
# headline is pass + fair refusal over the operations judged; gaps, fails and excuses count
# against it. Each failed check is classed by the first generic rule of
# bench/conformance/rules.toml that matches it (a rule applies only to the check codes it was
# proven on), else by its line in KNOWN; the run fails (exit 1) on a failure neither passes,
# and on a listed failure of an operation schemathesis judged that no longer happens (a stale
# excuse); an operation it never reached (its time limit) is not judged. An independent
# reading (bench/conformance/strict_reading.py: schemathesis's output and the original
# document, no rule, no list) is printed beside the judge's, with the operations where they
# disagree.
#
# Prints one line per document and the rates, the failure classes with an example each, and
# writes every call to $OUT/calls.tsv, every schemathesis verdict to $OUT/server.tsv, the
# excuses to $OUT/excuses.tsv and the independent reading to $OUT/strict.tsv (OUT defaults to a
# temporary directory it names).
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
names=()
if [ -n "${LIST:-}" ]; then
  # One document a line, a path or a directory id (bench/conformance/doc_list.py); the
  # directory is fetched only when a line is not a file.
  listed="$(python3 "$repo/bench/conformance/doc_list.py" "$LIST")" || {
    [ $? -eq 2 ] || exit 1
    # shellcheck source=bench/directory.sh
    source "$repo/bench/directory.sh"
    listed="$(python3 "$repo/bench/conformance/doc_list.py" "$LIST" "$directory")"
  }
  mapfile -t names < <(cut -f1 <<<"$listed")
  mapfile -t docs < <(cut -f2 <<<"$listed")
elif [ ${#docs[@]} -eq 0 ]; then
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
: >"$out/samples.tsv"
for doc in "${docs[@]}"; do
  n=$((n + 1))
  id="d$n"
  # What the reports call the document: its list name, else its file name.
  name="${names[$((n - 1))]:-$(basename "$doc")}"
  # OPS=N: a seeded sample of N operations of a larger document (bench/conformance/op_sample.py):
  # apigen imports a copy holding only them; the judges read the original. TIME_PER_OP needs
  # the operation count too.
  import_doc="$doc"
  if [ -n "${OPS:-}${TIME_PER_OP:-}" ]; then
    if ! sampled="$(python3 "$repo/bench/conformance/op_sample.py" "$doc" "${OPS:-1000000000}" "${SEED:-1}" "$work/sample/$id")"; then
      printf '%s\tsample-failed\t%s\n' "$doc" "$name" >>"$out/documents.tsv"
      continue
    fi
    printf '%s\t%s\n' "$name" "$sampled" >>"$out/samples.tsv"
    [ "${sampled%%$'\t'*}" != sampled ] || import_doc="$work/sample/$id/sampled.json"
  fi
  if ! "$apigen" import "$import_doc" --out "$work/specs/$id" >"$work/$id.import.log" 2>&1; then
    printf '%s\timport-failed\t%s\n' "$doc" "$name" >>"$out/documents.tsv"
    continue
  fi
  # Each document's crates get their own prefix (documents may share a title).
  sed -i "0,/name: [a-z0-9-]*/s//name: $id/" "$work/specs/$id/api.yaml"
  if ! "$apigen" generate --spec "$work/specs/$id" --out "$work/crates/$id" --runtime "$repo/runtime" \
    >"$work/$id.generate.log" 2>&1; then
    printf '%s\tgenerate-failed\t%s\n' "$doc" "$name" >>"$out/documents.tsv"
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
  printf '%s\t%s\t%s\n' "$id" "$doc" "$name" >>"$work/ids.tsv"
done
(IFS=,; printf '[workspace]\nresolver = "3"\nmembers = [%s]\n' "${members[*]}") >"$work/crates/Cargo.toml"
cp "$repo/Cargo.lock" "$work/crates/Cargo.lock"
echo "building ${#ids[@]} harnesses..." >&2
# Built once and run: incremental compilation would only keep gigabytes of session files.
# Every run names its harnesses d1, d2, ... in the one target directory, so a second run on
# the same checkout (another OUT) overwrites `d6-serve` with its own sixth document's server:
# the seeded 100's dlm (d6) was judged against another list's d6 (runtime.lex) at 14:27 on
# 2026-11-29, every request answered 404 "no operation matches this path". So the build and
# the hard links of this run's binaries into $work/bin hold one lock, and the run starts its
# binaries from there: a later build replaces the target's files, not the linked ones (the
# links are removed when the run ends; nothing is copied).
bin="$work/bin"
mkdir -p "$bin"
trap 'rm -rf "$bin"' EXIT
harnesses="$CARGO_TARGET_DIR/conformance/debug"
mkdir -p "$CARGO_TARGET_DIR/conformance"
(
  flock 9
  CARGO_TARGET_DIR="$CARGO_TARGET_DIR/conformance" CARGO_INCREMENTAL=0 \
    cargo build --quiet --offline --manifest-path "$work/crates/Cargo.toml" --workspace 2>"$work/build.log" \
    || { tail -30 "$work/build.log" >&2; exit 1; }
  for id in "${ids[@]}"; do
    ln -f "$harnesses/$id-harness" "$harnesses/$id-serve" "$bin/"
  done
) 9>"$CARGO_TARGET_DIR/conformance/.harness-build.lock" || exit 1
# A port the system says is free now (Prism takes a port number; the servers take port 0 and
# print theirs): fixed ports from 4010 collided between runs of several engineers.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

judges="${JUDGES:-prism schemathesis}"
: >"$out/calls.tsv"
for id in "${ids[@]}"; do
  [[ "$judges" == *prism* ]] || break
  doc="$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$work/ids.tsv")"
  name="$(awk -F'\t' -v id="$id" '$1 == id { print $3 }' "$work/ids.tsv")"
  port="$(free_port)"
  "$prism" mock -d --errors -h 127.0.0.1 -p "$port" "$doc" >"$work/$id.prism.log" 2>&1 &
  prism_pid=$!
  # PRISM_WAIT: seconds Prism may take to start (30; Stripe's 6 MB document takes minutes).
  for _ in $(seq $((${PRISM_WAIT:-30} * 10))); do
    grep -q "Prism is listening" "$work/$id.prism.log" && break
    kill -0 "$prism_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! grep -q "Prism is listening" "$work/$id.prism.log"; then
    printf '%s\tprism-failed\t%s\n' "$doc" "$name" >>"$out/documents.tsv"
    kill "$prism_pid" 2>/dev/null || true
    continue
  fi
  "$bin/$id-harness" "http://127.0.0.1:$port" \
    | sed "s|^|$name\t|" >>"$out/calls.tsv" || true
  kill "$prism_pid" 2>/dev/null || true
  wait "$prism_pid" 2>/dev/null || true
  printf '%s\tjudged\t%s\n' "$doc" "$name" >>"$out/documents.tsv"
done
if [[ "$judges" == *prism* ]]; then
  python3 "$repo/bench/conformance/report.py" "$out/calls.tsv" "$out/documents.tsv" "${MIN_CLIENT:-0}" "$out/samples.tsv" || failed=1
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
# schemathesis's seconds for one document: TIME_LIMIT, or TIME_PER_OP seconds for each
# operation it judges (the sample's, else the document's) when that is more.
time_limit() {
  local name count
  name="$(awk -F'\t' -v id="$1" '$1 == id { print $3 }' "$work/ids.tsv")"
  count="$(awk -F'\t' -v name="$name" '$1 == name { print $3; exit }' "$out/samples.tsv")"
  python3 -c 'import sys; print(max(int(sys.argv[1]), int(float(sys.argv[2]) * int(sys.argv[3] or 0))))' \
    "${TIME_LIMIT:-240}" "${TIME_PER_OP:-0}" "${count:-0}"
}
: >"$out/server.tsv"
: >"$out/known-problems.tsv"
: >"$out/excuses.tsv"
: >"$out/strict.tsv"
for id in "${ids[@]}"; do
  doc="$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$work/ids.tsv")"
  "$bin/$id-serve" 0 >"$work/$id.serve.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 100); do
    grep -qs '^listening on ' "$work/$id.serve.log" && break
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.1
  done
  port="$(sed -n 's|^listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$work/$id.serve.log")"
  "$venv/bin/python" "$repo/bench/conformance/schemathesis_auth.py" "$doc" >"$work/$id.schemathesis.toml"
  # A sample: schemathesis runs on the original document, on the sampled operations only.
  include=()
  if [ -f "$work/sample/$id/operations.txt" ]; then
    while IFS= read -r operation; do include+=(--include-name "$operation"); done <"$work/sample/$id/operations.txt"
  fi
  limit="$(time_limit "$id")"
  # A server that did not start leaves no report: the document is not judged (the report says
  # so), rather than judged against whatever answers some port.
  [ -n "$port" ] || echo "$id: the server did not start (see $work/$id.serve.log)" >&2
  [ -z "$port" ] || timeout "$limit" "$venv/bin/schemathesis" --config-file "$work/$id.schemathesis.toml" run "$doc" "${include[@]}" \
    --url "http://127.0.0.1:$port" --checks "$checks" --phases "${PHASES:-examples,coverage,fuzzing}" \
    --max-examples "${MAX_EXAMPLES:-5}" --seed 1 --generation-database none --workers 1 --no-color \
    --request-timeout 10 --continue-on-failure \
    --suppress-health-check all --report junit,vcr --report-junit-path "$work/$id.junit.xml" --report-vcr-path "$work/$id.cassette.yaml" \
    >"$work/$id.schemathesis.log" 2>&1 || true
  kill "$serve_pid" 2>/dev/null || true
  wait "$serve_pid" 2>/dev/null || true
  name="$(awk -F'\t' -v id="$id" '$1 == id { print $3 }' "$work/ids.tsv")"
  python3 "$repo/bench/conformance/server_verdicts.py" "$name" "$work/$id.junit.xml" \
    "$work/specs/$id/api.yaml" "$doc" "$known" "$out/known-problems.tsv" "$out/excuses.tsv" >>"$out/server.tsv"
  # The independent reading: schemathesis's output and the original document, no rule.
  "$venv/bin/python" "$repo/bench/conformance/strict_reading.py" "$name" "$work/$id.junit.xml" "$doc" >>"$out/strict.tsv"
done
python3 "$repo/bench/conformance/server_report.py" "$out/server.tsv" "${MIN_SERVER:-0}" "$out/known-problems.tsv" \
  "$out/excuses.tsv" "$out/strict.tsv" "$out/samples.tsv" || failed=1
echo "server verdicts: $out/server.tsv; excuses: $out/excuses.tsv; independent reading: $out/strict.tsv" >&2
exit "${failed:-0}"
