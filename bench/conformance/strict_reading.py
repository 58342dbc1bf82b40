"""An independent reading of one schemathesis run, written apart from the judge (judge.py,
rules.toml, known_failures.tsv): it imports none of them and knows no rule, no gap and no
excuse. From schemathesis's own output (its JUnit report, its VCR cassette and its log) and
the ORIGINAL document only, it reads each operation by issue 48's definitions:

  pass          schemathesis judged the operation and no check failed;
  fair-refusal  every failing test case is a 4xx answer to a request schemathesis generated to
                break the document (the cassette's `mode: negative`) where the document lists
                no such status for the operation (neither the status, nor its `4XX` range,
                nor `default`);
  not           anything else (the detail says which case and why);
  not-judged    schemathesis skipped the operation (it never reached it, or could not).

An operation every request of which was answered 401 or 403 (the log's "Authentication
failed") is `not`: nothing was judged. The headline is pass + fair-refusal over operations
judged; server_report.py prints it beside the judge's and lists where they disagree.

Usage: strict_reading.py DOC_NAME junit.xml DOCUMENT > lines of
`document<TAB>operation<TAB>reading<TAB>detail` (the cassette and the log are read beside the
report: `<id>.cassette.yaml`, `<id>.schemathesis.log`)."""
import json
import re
import sys
import xml.etree.ElementTree as ET

READINGS = ("pass", "fair-refusal", "not", "not-judged")


def load_document(path):
    """The original document as a mapping ({} when unreadable)."""
    try:
        with open(path) as f:
            text = f.read()
    except (OSError, TypeError):
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        try:
            import yaml

            value = yaml.safe_load(text)
        except Exception:
            return {}
    return value if isinstance(value, dict) else {}


def documented_statuses(document, operation):
    """The response keys the document lists for `METHOD /path` (`200`, `4XX`, `default`)."""
    method, _, route = operation.partition(" ")
    item = (document.get("paths") or {}).get(route)
    entry = item.get(method.lower()) if isinstance(item, dict) else None
    responses = entry.get("responses") if isinstance(entry, dict) else None
    return {str(key).upper() for key in responses} if isinstance(responses, dict) else set()


def lists_status(documented, status):
    """Whether the document lists this status for the operation, exactly, by range or default."""
    return str(status) in documented or f"{str(status)[0]}XX" in documented or "DEFAULT" in documented


def modes_in(cassette_text):
    """{case id: mode} from a VCR cassette's interactions."""
    found = {}
    current = None
    for line in cassette_text.split("\n"):
        if line.startswith("- id: '"):
            current = line[len("- id: '") : -1]
        elif current and line.startswith("    mode: "):
            found[current] = line[len("    mode: ") :].strip()
            current = None
    return found


def auth_failed(log_text):
    """The operations the log lists under "Authentication failed"."""
    lines = log_text.split("\n")
    found, inside = set(), False
    for line in lines:
        if line.startswith("Authentication failed"):
            inside = True
        elif inside and line.startswith("  - "):
            found.add(line[4:].strip())
        elif inside and line.strip() and not re.match(r"\d{3} ", line):
            inside = False
    return found


def failing_cases(text):
    """(case id, status, check codes) of each test case a failure text shows; a text with no
    case (schemathesis could not send) is one case without id or status."""
    parts = re.split(r"(?m)^(?=\d+\. Test Case ID: )", text)
    cases = []
    for part in parts:
        head = re.match(r"\d+\. Test Case ID: (\S+)", part)
        if not head:
            continue
        status = re.search(r"(?m)^\[(\d{3})\] ", part)
        codes = re.findall(r"(?m)^- (ST\d+|[A-Z]+\d+) ", part)
        cases.append((head.group(1), int(status.group(1)) if status else None, codes))
    return cases or [(None, None, [])]


def why_unfair(case, modes, documented):
    """Why a failing case is no fair refusal, or None when it is one."""
    case_id, status, codes = case
    if case_id is None or status is None:
        return "a failure without a test case or an answer"
    if not 400 <= status < 500:
        return f"case {case_id}: {status} ({' '.join(codes)})"
    if modes.get(case_id) != "negative":
        return f"case {case_id}: {status} to a request meant to follow the document ({modes.get(case_id, 'mode unknown')}; {' '.join(codes)})"
    if lists_status(documented, status):
        return f"case {case_id}: {status}, which the document lists ({' '.join(codes)})"
    return None


def reading_of(testcase, modes, refused, document):
    """(reading, detail) of one JUnit test case."""
    name = testcase.get("name", "?")
    failures = list(testcase.iter("failure")) + list(testcase.iter("error"))
    if testcase.find("skipped") is not None and not failures:
        return "not-judged", "skipped by schemathesis"
    if name in refused:
        return "not", "every request was answered 401 or 403"
    if not failures:
        return "pass", ""
    documented = documented_statuses(document, name)
    for failure in failures:
        for case in failing_cases(failure.text or failure.get("message", "")):
            why = why_unfair(case, modes, documented)
            if why:
                return "not", why
    return "fair-refusal", "every failing case a 4xx the document does not list, to a negative request"


def read_beside(junit, suffix):
    """The text of the file beside the report (`<id>.junit.xml` -> `<id><suffix>`), or ""."""
    try:
        with open(re.sub(r"\.junit\.xml$", suffix, junit), encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def main(argv):
    name, junit, document = argv[1], argv[2], load_document(argv[3] if len(argv) > 3 else None)
    modes = modes_in(read_beside(junit, ".cassette.yaml"))
    refused = auth_failed(read_beside(junit, ".schemathesis.log"))
    try:
        suites = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as error:
        print(f"{name}\t*\tnot-judged\tno report: {error}")
        return
    for testcase in suites.iter("testcase"):
        reading, detail = reading_of(testcase, modes, refused, document)
        print("\t".join(" ".join(f.split()) for f in (name, testcase.get("name", "?"), reading, detail)))


if __name__ == "__main__":
    main(sys.argv)
