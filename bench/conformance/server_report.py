"""Summarises bench/conformance.sh's schemathesis verdicts: operations passing every check,
those whose only failures are refusals the document never lists (its own incompleteness) or
the document's own imprecision (`document <class>` in server_verdicts.py, each with its
evidence) or the judge's own limit (`judge <class>`), those failing only by a named gap, failure classes with an example each, one line per document. Usage: server_report.py server.tsv [MIN_RATE]: exits 1 when the pass
rate is below MIN_RATE percent or the server answered a 5xx (`not_a_server_error`)."""
import collections
import sys

min_rate = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
verdicts = collections.Counter()
per_doc = collections.defaultdict(collections.Counter)
classes = collections.defaultdict(list)
with open(sys.argv[1]) as f:
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
total = sum(verdicts.values())
tested = total - verdicts["no-report"]
# The document's own incompleteness (a refusal it lists no status for) or imprecision
# (server_verdicts.py's `document` classes) is counted apart, as a pass of ours.
apart = ("refusal-undocumented", "document", "judge")
passed = verdicts["pass"] + sum(verdicts[v] for v in apart)
print("server (schemathesis):")
for doc, c in sorted(per_doc.items()):
    n = sum(c.values())
    ok = c["pass"] + sum(c[v] for v in apart)
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
print("failure classes (operations, documents):")
for cls, examples in sorted(classes.items(), key=lambda kv: -len(kv[1])):
    docs = len({e.split(" ", 1)[0] for e in examples})
    print(f"  {len(examples):4} {docs:3}  {cls}")
    print(f"             e.g. {examples[0][:400]}")
rate = 100 * passed / max(tested, 1)
server_errors = sum(len(v) for k, v in classes.items() if "Server error" in k)
if rate < min_rate or server_errors:
    print(f"FAILED: server pass rate {rate:.1f}% (at least {min_rate}% wanted), {server_errors} server errors")
    sys.exit(1)
