"""One line per operation schemathesis tested, from its JUnit report (bench/conformance.sh): the
document, the operation, its verdict, and each failure as `class<US>example`.

Each failed check is given a class by the first generic rule of rules.toml that matches it
(judge.py), else by its line in known_failures.tsv, else it is ours: `<code> <title>` as
schemathesis names it (`ST201 API rejected schema-compliant request`). An operation every request
of which was answered 401 or 403 (schemathesis's log lists it under "Authentication failed")
fails as `auth-refused`: no check judged it. The verdict: `fail` when a failure is ours, else
`gap` (a gap the import recorded, or a limit of the format), `document` (the document's own
imprecision), `judge` (the judge's own limit), `fair-refusal` (only refusals of requests
schemathesis meant to break the document, which it lists no status for), else `pass`; an
operation schemathesis skipped without a failure is `not-judged` (out of every rate).

Usage: server_verdicts.py DOC_NAME junit.xml [IMPORTED_API_YAML [DOCUMENT [KNOWN [PROBLEMS
[EXCUSES]]]]]: KNOWN is the list of known failures; each failure neither a rule nor KNOWN passes
and each listed failure of an operation judged that no longer happens is appended to PROBLEMS
(server_report.py fails the run on them); each failure of an operation counted `document` or
`judge` is appended to EXCUSES with its evidence (excuses.py). The test cases' modes are read
from the cassette beside the report (`<id>.cassette.yaml`, cassette.py)."""
import os
import re
import sys
import xml.etree.ElementTree as ET

import cassette
import excuses
import imported
import judge
import known
import original

HERE = os.path.dirname(os.path.abspath(__file__))


def refused_credentials(log_path):
    """The operations schemathesis's log lists under "Authentication failed": every request it
    sent answered 401 or 403, so no other check judged anything (a vacuous pass)."""
    try:
        log = open(log_path).read()
    except OSError:
        return set()
    section = re.search(r"^Authentication failed:.*\n((?:\n|\d{3} .*\n|  - .*\n)*)", log, re.M)
    return set(re.findall(r"^  - (.+)$", section.group(1), re.M)) if section else set()


def checks_of_testcase(case, refused):
    """Every failed check of one JUnit test case, `auth-refused` among them."""
    name = case.get("name", "?")
    checks = []
    for failure in list(case.iter("failure")) + list(case.iter("error")):
        text = failure.text or failure.get("message", "")
        checks += judge.checks_of_failure(name, failure.get("message", "error"), text)
    if name in refused:
        note = "every request was answered 401 or 403: no check judged the operation"
        checks.append(judge.Check(name, "", "auth-refused", note, note))
    return checks


def example_of(check):
    """The failure's text as one short line."""
    return " ".join(check.block.split())[:600]


def class_of(document, check, rules, evidence, entries, list_name):
    """(class, source, reason, list entry or None) of a check by the first rule that matches it,
    else by its line in the list; None when neither passes it."""
    ruled = judge.classify(check, rules, evidence, judge.TESTS)
    if ruled:
        return ruled[0], f"rules.toml {ruled[1]}", "", None
    entry = entries.get((document, check.operation, check.key))
    if entry:
        return entry.cls, f"{list_name}:{entry.line}", entry.reason, entry
    return None


def judge_testcase(document, case, rules, evidence, entries, refused, list_name="known_failures.tsv"):
    """(fields of the output line, unlisted failures, keys of the list used, excuse lines) of
    one test case."""
    name = case.get("name", "?")
    checks = checks_of_testcase(case, refused)
    found, unlisted, used, excused = [], [], set(), []
    for check in checks:
        judged_by = class_of(document, check, rules, evidence, entries, list_name)
        if judged_by is None and judge.judging_check(check, checks):
            other = class_of(document, judge.judging_check(check, checks), rules, evidence, entries, list_name)
            if other and judge.counts_apart(other[0]):
                judged_by = (other[0], f"{other[1]} (the same case's {judge.REFUSAL_JUDGED_BY[check.code]})", other[2], None)
        if judged_by is None:
            cls = check.raw_class
            unlisted.append((name, check.key, example_of(check)[:300]))
        else:
            cls, source, reason, entry = judged_by
            if entry:
                used.add(entry.key)
        found.append((cls, example_of(check)))
        if excuses.is_excuse(cls):
            excused.append(excuses.line_of(document, check, cls, source, reason))
    verdict = judge.verdict_of([cls for cls, _ in found]) if found or judged(case) else "not-judged"
    fields = [document, name, verdict] + [f"{cls}\x1f{example}" for cls, example in found]
    return fields, unlisted, used, excused if verdict in excuses.EXCUSED else []


def judged(case):
    """Whether schemathesis judged the operation (a test case it did not skip)."""
    return case.find("skipped") is None


def main(argv):
    doc, junit = argv[1], argv[2]
    api_yaml = argv[3] if len(argv) > 3 else ""
    modes = cassette.modes_of(re.sub(r"\.junit\.xml$", ".cassette.yaml", junit))
    evidence = judge.Evidence(
        imported.read_import(api_yaml), original.load_document(argv[4] if len(argv) > 4 else None), modes
    )
    entries = known.load(argv[5] if len(argv) > 5 else "")
    rules = judge.load_rules(os.path.join(HERE, "rules.toml"))
    refused = refused_credentials(re.sub(r"\.junit\.xml$", ".schemathesis.log", junit))
    problems = argv[6] if len(argv) > 6 else os.devnull
    excuses_path = argv[7] if len(argv) > 7 else os.devnull
    try:
        suites = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as error:
        print(f"{doc}\t*\tno-report\tno report: {error}")
        write_problems(problems, known.not_judged_lines(doc, entries, set()))
        return
    unlisted, used, names, excused = [], set(), set(), []
    for case in suites.iter("testcase"):
        fields, case_unlisted, case_used, case_excused = judge_testcase(
            doc, case, rules, evidence, entries, refused, os.path.basename(argv[5]) if len(argv) > 5 else ""
        )
        print("\t".join(field.replace("\t", " ").replace("\n", " ") for field in fields))
        unlisted += case_unlisted
        used |= case_used
        excused += case_excused
        if judged(case):
            names.add(case.get("name", "?"))
    write_problems(problems, known.problems(doc, entries, names, unlisted, used) + known.not_judged_lines(doc, entries, names))
    write_problems(excuses_path, excused)


def write_problems(path, lines):
    """Appends the lines to the problems file server_report.py reads."""
    with open(path, "a") as out:
        for line in lines:
            out.write(line.replace("\n", " ") + "\n")


if __name__ == "__main__":
    main(sys.argv)
