"""Summarises bench/conformance.sh's schemathesis verdicts, strictly (bench/README.md, "How the
judge decides"): the headline is pass + fair refusal over the operations judged; a named gap is
honest but counts against it, and so does a fail; the excuses (`document`: the document's own
imprecision, `judge`: the judge's own limit) count against it too, are printed apart, each with
its evidence (excuses.tsv), and a rate counting them is printed, labelled as such. Then the
failure classes with an example each, and the independent reading (strict_reading.py) beside
the judge's, with the operations where they disagree.

Usage: server_report.py server.tsv [MIN_RATE [PROBLEMS [EXCUSES [STRICT [SAMPLES]]]]] (an empty argument
skips one): exits 1 when the headline is below MIN_RATE percent, the server answered a 5xx
(`not_a_server_error`), or PROBLEMS (written by server_verdicts.py) names a failure neither a
rule nor the known list passes, or a listed failure that no longer happens. SAMPLES (samples.tsv,
op_sample.py) labels the figures of each sampled document as a sample."""
import collections
import sys

import op_sample

# The verdicts the headline counts, and the excuses printed apart (server_verdicts.py).
HEADLINE = ("pass", "fair-refusal")
EXCUSES = ("document", "judge")
NOT_JUDGED = ("no-report", "not-judged")


def read_verdicts(path):
    """(verdicts, verdicts per document, examples per failure class, verdict per operation) of
    a server.tsv."""
    verdicts = collections.Counter()
    per_doc = collections.defaultdict(collections.Counter)
    classes = collections.defaultdict(list)
    per_op = {}
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            doc, op, verdict = parts[:3]
            verdicts[verdict] += 1
            per_doc[doc][verdict] += 1
            per_op[(doc, op)] = verdict
            for failure in parts[3:]:
                cls, _, example = failure.partition("\x1f")
                classes[cls].append(f"{doc} {op}: {example}")
    return verdicts, per_doc, classes, per_op


def judged(counts):
    """How many operations were judged (a document without a report, or an operation
    schemathesis skipped, is not)."""
    return sum(counts.values()) - sum(counts[v] for v in NOT_JUDGED)


def rate(part, whole):
    return f"{part}/{whole} = {100 * part / max(whole, 1):.1f}%"


def headline(counts):
    """The headline's percentage: pass + fair refusal over operations judged."""
    return 100 * sum(counts[v] for v in HEADLINE) / max(judged(counts), 1)


def print_rates(verdicts, per_doc):
    """The figures: per document, then the headline and what counts against it. Returns the
    headline."""
    tested = judged(verdicts)
    print("server (schemathesis), per document: pass + fair refusal / operations judged, then each verdict:")
    for doc, c in sorted(per_doc.items()):
        ok = sum(c[v] for v in HEADLINE)
        print(f"  {doc}: {ok}/{judged(c)}" + "".join(f", {k} {v}" for k, v in sorted(c.items())))
    print(f"operations: {sum(verdicts.values())}; " + ", ".join(f"{k} {v}" for k, v in verdicts.most_common()))
    print(f"HEADLINE, pass + fair refusal over operations judged: {rate(sum(verdicts[v] for v in HEADLINE), tested)}")
    print(f"  pass (no check fails): {rate(verdicts['pass'], tested)}")
    print(
        "  fair refusal (a 4xx to a request schemathesis generated to break the document, which lists no such status): "
        f"{verdicts['fair-refusal']}"
    )
    print("counted against the headline:")
    print(f"  gap (a named gap: honest, not conformance): {verdicts['gap']}")
    print(f"  fail: {verdicts['fail']}")
    print(f"  document (the document's own imprecision, each with its evidence in excuses.tsv): {verdicts['document']}")
    print(f"  judge (the judge's own limit, each with its evidence in excuses.tsv): {verdicts['judge']}")
    excused = sum(verdicts[v] for v in HEADLINE + EXCUSES)
    print(f"NOT the headline: pass + fair refusal + the document's and the judge's excuses: {rate(excused, tested)}")
    named = sum(verdicts[v] for v in HEADLINE) + verdicts["gap"]
    print(f"NOT the headline: pass + fair refusal + named gaps: {rate(named, tested)}")
    print(f"not judged (schemathesis skipped the operation, or no report): {sum(verdicts[v] for v in NOT_JUDGED)}")
    return headline(verdicts)


def print_classes(classes):
    """Each failure class with how many operations and documents it holds, and an example."""
    print("failure classes (operations, documents):")
    for cls, examples in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        docs = len({e.split(" ", 1)[0] for e in examples})
        print(f"  {len(examples):4} {docs:3}  {cls}")
        print(f"             e.g. {examples[0][:400]}")


def read_problems(path):
    """The lines server_verdicts.py wrote: `kind<TAB>document<TAB>operation<TAB>check<TAB>detail`."""
    with open(path) as f:
        return [line.rstrip("\n").split("\t", 4) for line in f if line.strip()]


def print_known(problems):
    """The known list's verdict; True when the run fails by it (unlisted or stale failures)."""
    kinds = collections.defaultdict(list)
    for problem in problems:
        kinds[problem[0]].append(problem)
    print(
        f"known failures: {len(kinds['unlisted'])} failures neither a rule nor the list passes, "
        f"{len(kinds['stale'])} listed ones no longer happen, {len(kinds['not-judged'])} listed ones not judged "
        "(schemathesis never reached the operation)"
    )
    # One line per (kind, document, operation, check), with how many failures it stands for: a
    # server that never answered gives thousands of identical ones.
    grouped = collections.defaultdict(list)
    for kind, doc, op, check, detail in kinds["unlisted"] + kinds["stale"]:
        grouped[(kind, doc, op, check)].append(detail)
    for (kind, doc, op, check), details in grouped.items():
        times = f" ({len(details)} failures)" if len(details) > 1 else ""
        print(f"  {kind}: {doc}\t{op}\t{check}{times}\t{details[0][:300]}")
    if kinds["unlisted"] or kinds["stale"]:
        print("FAILED: give each unlisted failure a rule or a line of the known list with its evidence, and remove each stale line (bench/README.md)")
        return True
    return False


def print_excuses(path):
    """Every excused failure of the excuses file, grouped by operation."""
    with open(path) as f:
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    operations = {(line[0], line[1]) for line in lines}
    print(f"excuses (document and judge, out of the headline): {len(lines)} failures of {len(operations)} operations:")
    for doc, op, cls, source, pointer, request, response in sorted(line + ["-"] * (7 - len(line)) for line in lines):
        print(f"  {doc} {op}: {cls} ({source}) at {pointer}")
        print(f"      request: {request[:200]}")
        print(f"      response: {response[:200]}")


def read_strict(path):
    """{(document, operation): reading} of strict_reading.py's lines."""
    readings = {}
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                readings[(parts[0], parts[1])] = (parts[2], parts[3] if len(parts) > 3 else "")
    return readings


def print_agreement(per_op, readings):
    """Both readings' headlines, their difference, and each operation they read otherwise.
    Returns the difference in points."""
    strict = collections.Counter(reading for reading, _ in readings.values())
    strict_headline = 100 * sum(strict[v] for v in HEADLINE) / max(sum(strict.values()) - strict["not-judged"], 1)
    ours = collections.Counter(per_op.values())
    difference = headline(ours) - strict_headline
    print(f"independent reading (strict_reading.py: schemathesis's output and the original document, no rule, no list):")
    print(f"  pass + fair refusal: {rate(sum(strict[v] for v in HEADLINE), sum(strict.values()) - strict['not-judged'])}"
          f" (pass {strict['pass']}, fair refusal {strict['fair-refusal']}, not {strict['not']}, not judged {strict['not-judged']})")
    print(f"  the judge's headline: {headline(ours):.1f}%; difference {difference:+.1f} points (goal: within 2)")
    disagree = []
    for key in sorted(set(per_op) | set(readings)):
        verdict = per_op.get(key, "absent")
        reading, detail = readings.get(key, ("absent", ""))
        if (verdict in HEADLINE) != (reading in HEADLINE) or (verdict in NOT_JUDGED) != (reading == "not-judged"):
            disagree.append(f"  {key[0]} {key[1]}: judge {verdict}, independent {reading} {detail[:200]}")
    print(f"  operations the readings count differently: {len(disagree)}")
    print("\n".join(disagree) if disagree else "  (none)")
    return difference


def argument(argv, index):
    """A positional argument, None when absent or empty."""
    return argv[index] if len(argv) > index and argv[index] else None


def main(argv):
    min_rate = float(argument(argv, 2) or 0.0)
    verdicts, per_doc, classes, per_op = read_verdicts(argv[1])
    for label in op_sample.sample_labels(argument(argv, 6)):
        print(label)
    rate_found = print_rates(verdicts, per_doc)
    print_classes(classes)
    if argument(argv, 4):
        print_excuses(argv[4])
    if argument(argv, 5):
        print_agreement(per_op, read_strict(argv[5]))
    server_errors = sum(len(v) for k, v in classes.items() if "Server error" in k)
    failed = False
    if rate_found < min_rate or server_errors:
        print(f"FAILED: server headline {rate_found:.1f}% (pass + fair refusal; at least {min_rate}% wanted), {server_errors} server errors")
        failed = True
    if argument(argv, 3):
        failed = print_known(read_problems(argv[3])) or failed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
