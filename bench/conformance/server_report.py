"""Summarises bench/conformance.sh's schemathesis verdicts: operations passing every check,
those whose only failures are refusals the document never lists (its own incompleteness) or
the document's own imprecision (`document <class>` in rules.toml or known_failures.tsv, each
with its evidence) or the judge's own limit (`judge <class>`), those failing only by a named gap
(`gap <id>`, `format <name>`), failure classes with an example each, one line per document.

Usage: server_report.py server.tsv [MIN_RATE [PROBLEMS]]: exits 1 when the pass rate is below
MIN_RATE percent, the server answered a 5xx (`not_a_server_error`), or PROBLEMS (written by
server_verdicts.py) names a failure neither a rule nor the known list passes, or a listed
failure that no longer happens."""
import collections
import sys

# The document's own incompleteness (a refusal it lists no status for), its imprecision (a
# `document` class) and the judge's own limit (a `judge` class) count apart, as a pass of ours.
APART = ("refusal-undocumented", "document", "judge")


def read_verdicts(path):
    """(verdicts, verdicts per document, examples per failure class) of a server.tsv."""
    verdicts = collections.Counter()
    per_doc = collections.defaultdict(collections.Counter)
    classes = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            doc, op, verdict = parts[:3]
            verdicts[verdict] += 1
            per_doc[doc][verdict] += 1
            for failure in parts[3:]:
                cls, _, example = failure.partition("\x1f")
                classes[cls].append(f"{doc} {op}: {example}")
    return verdicts, per_doc, classes


def print_rates(verdicts, per_doc):
    """The figures: per document, then the rates. Returns the pass rate."""
    total = sum(verdicts.values())
    tested = total - verdicts["no-report"]
    passed = verdicts["pass"] + sum(verdicts[v] for v in APART)
    print("server (schemathesis):")
    for doc, c in sorted(per_doc.items()):
        n = sum(c.values())
        ok = c["pass"] + sum(c[v] for v in APART)
        print(f"  {doc}: {ok}/{n} pass" + "".join(f", {k} {v}" for k, v in sorted(c.items()) if k != "pass"))
    print(f"operations: {total}; " + ", ".join(f"{k} {v}" for k, v in verdicts.most_common()))
    print(f"pass rate (every check; refusals the document never lists counted apart): {passed}/{tested} = {100 * passed / max(tested, 1):.1f}%")
    print(f"  of which the document lists no status for a refusal the router made: {verdicts['refusal-undocumented']}")
    print(f"  of which the document's own imprecision (a `document` class): {verdicts['document']}")
    print(f"  of which the judge's own limit (a `judge` class: a request it could not send, or not as it meant): {verdicts['judge']}")
    print(f"passing every check outright: {verdicts['pass']}/{tested} = {100 * verdicts['pass'] / max(tested, 1):.1f}%")
    print(f"failing only by a named gap (the format cannot say it yet): {verdicts['gap']}/{tested}; failing: {verdicts['fail']}/{tested}")
    named = passed + verdicts["gap"]
    print(f"passing, or failing only by a named gap: {named}/{tested} = {100 * named / max(tested, 1):.1f}%")
    return 100 * passed / max(tested, 1)


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
    for kind, doc, op, check, detail in kinds["unlisted"] + kinds["stale"]:
        print(f"  {kind}: {doc}\t{op}\t{check}\t{detail[:300]}")
    if kinds["unlisted"] or kinds["stale"]:
        print("FAILED: give each unlisted failure a rule or a line of the known list with its evidence, and remove each stale line (bench/README.md)")
        return True
    return False


def main(argv):
    min_rate = float(argv[2]) if len(argv) > 2 else 0.0
    verdicts, per_doc, classes = read_verdicts(argv[1])
    rate = print_rates(verdicts, per_doc)
    print_classes(classes)
    server_errors = sum(len(v) for k, v in classes.items() if "Server error" in k)
    failed = False
    if rate < min_rate or server_errors:
        print(f"FAILED: server pass rate {rate:.1f}% (at least {min_rate}% wanted), {server_errors} server errors")
        failed = True
    if len(argv) > 3:
        failed = print_known(read_problems(argv[3])) or failed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
