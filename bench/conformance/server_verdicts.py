"""One line per operation schemathesis tested, from its JUnit report (bench/conformance.sh): the
document, the operation, its verdict, and each failure as `class<US>example`.

Each failed check is given a class by the first generic rule of rules.toml that matches it
(judge.py), else by its line in known_failures.tsv, else it is ours: `<code> <title>` as
schemathesis names it (`ST201 API rejected schema-compliant request`). An operation every request
of which was answered 401 or 403 (schemathesis's log lists it under "Authentication failed")
fails as `auth-refused`: no check judged it. The verdict: `fail` when a failure is ours, else
`gap` (a gap the import recorded, or a limit of the format), `document` (the document's own
imprecision), `judge` (the judge's own limit), `refusal-undocumented` (only refusals the
document lists no status for), else `pass`.

Usage: server_verdicts.py DOC_NAME junit.xml [IMPORTED_API_YAML [DOCUMENT [KNOWN [PROBLEMS]]]]:
KNOWN is the list of known failures; each failure neither a rule nor KNOWN passes and each
listed failure of an operation judged that no longer happens is appended to PROBLEMS
(server_report.py fails the run on them)."""
import os
import re
import sys
import xml.etree.ElementTree as ET

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


def judge_testcase(document, case, rules, evidence, entries, refused):
    """(fields of the output line, unlisted failures, keys of the list used) of one test case."""
    name = case.get("name", "?")
    found, unlisted, used = [], [], set()
    for check in checks_of_testcase(case, refused):
        ruled = judge.classify(check, rules, evidence, judge.TESTS)
        entry = entries.get((document, name, check.key))
        if ruled:
            cls = ruled[0]
        elif entry:
            cls = entry.cls
            used.add(entry.key)
        else:
            cls = check.raw_class
            unlisted.append((name, check.key, example_of(check)[:300]))
        found.append((cls, example_of(check)))
    verdict = judge.verdict_of([cls for cls, _ in found])
    fields = [document, name, verdict] + [f"{cls}\x1f{example}" for cls, example in found]
    return fields, unlisted, used


def judged(case):
    """Whether schemathesis judged the operation (a test case it did not skip)."""
    return case.find("skipped") is None


def main(argv):
    doc, junit = argv[1], argv[2]
    api_yaml = argv[3] if len(argv) > 3 else ""
    evidence = judge.Evidence(imported.read_import(api_yaml), original.load_document(argv[4] if len(argv) > 4 else None))
    entries = known.load(argv[5] if len(argv) > 5 else "")
    rules = judge.load_rules(os.path.join(HERE, "rules.toml"))
    refused = refused_credentials(re.sub(r"\.junit\.xml$", ".schemathesis.log", junit))
    problems = argv[6] if len(argv) > 6 else os.devnull
    try:
        suites = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as error:
        print(f"{doc}\t*\tno-report\tno report: {error}")
        write_problems(problems, known.not_judged_lines(doc, entries, set()))
        return
    unlisted, used, names = [], set(), set()
    for case in suites.iter("testcase"):
        fields, case_unlisted, case_used = judge_testcase(doc, case, rules, evidence, entries, refused)
        print("\t".join(field.replace("\t", " ").replace("\n", " ") for field in fields))
        unlisted += case_unlisted
        used |= case_used
        if judged(case):
            names.add(case.get("name", "?"))
    write_problems(problems, known.problems(doc, entries, names, unlisted, used) + known.not_judged_lines(doc, entries, names))


def write_problems(path, lines):
    """Appends the lines to the problems file server_report.py reads."""
    with open(path, "a") as out:
        for line in lines:
            out.write(line.replace("\n", " ") + "\n")


if __name__ == "__main__":
    main(sys.argv)
