"""The excuses file ($OUT/excuses.tsv): every failure of an operation counted as `document`
(the document's own imprecision) or `judge` (the judge's own limit), by a generic rule or by a
line of known_failures.tsv, each with its evidence, so anyone can check the excuse against the
original document and schemathesis's own case. One line per failure, tab-separated:

  document  operation  class  source  schema pointer  request  response

`source` is `rules.toml <rule name>` or `known_failures.tsv:<line>`; the schema pointer is the
JSON pointer of the operation in the original document, followed by where in it the failure
points (a pointer the known line gives, the schema a response check names, or the fields the
router's refusal names); request and response are schemathesis's failing case (its curl command
and the answer), trimmed."""
import re

COLUMNS = ("document", "operation", "class", "source", "schema pointer", "request", "response")
EXCUSED = ("document", "judge")
TRIM = 400


def escaped(key):
    """A JSON pointer's token for a key (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


def operation_pointer(operation):
    """The pointer of `METHOD /path` in the original document."""
    method, _, route = operation.partition(" ")
    return f"#/paths/{escaped(route)}/{method.lower()}"


def where_in(check, reason):
    """Where in the operation the failure points, as text ("" when nothing says)."""
    given = re.search(r"#/[^\s`'\"),;]+", reason or "")
    if given:
        return given.group(0)
    schema = re.search(r"Schema at (/\S*):", check.block)
    status = re.search(r"status code (\d{3})", check.block)
    if schema:
        return f"{operation_pointer(check.operation)}/responses/{status.group(1) if status else '?'} schema at {schema.group(1)}"
    fields = re.findall(r'"path":"((?:[^"\\]|\\.)*)"', check.case)
    if fields:
        named = sorted({field or "the body itself" for field in fields})[:4]
        return f"{operation_pointer(check.operation)} ({', '.join(named)})"
    return operation_pointer(check.operation)


def one_line(text):
    """Text on one line, trimmed."""
    text = " ".join(text.replace("\t", " ").split())
    return text if len(text) <= TRIM else text[: TRIM - 1] + "…"


def request_of(case):
    """The curl command schemathesis gives to reproduce the case, or ""."""
    found = re.search(r"Reproduce with:\s*\n\s*(curl[^\n]*(?:\n {4,}\S[^\n]*)*)", case)
    return one_line(found.group(1)) if found else ""


def response_of(case):
    """The answer the case got (`[400] Bad Request: <body>`), or ""."""
    found = re.search(r"^\[(\d{3})\] ([^\n]*):\n(.*?)(?=\nReproduce with:|\n\d+\. Test Case ID|\Z)", case, re.M | re.S)
    return one_line(f"[{found.group(1)}] {found.group(2)}: {found.group(3)}") if found else ""


def line_of(document, check, cls, source, reason=""):
    """The excuses file's line for one excused failure."""
    fields = (document, check.operation, cls, source, where_in(check, reason), request_of(check.case), response_of(check.case))
    return "\t".join(one_line(field) if field else "-" for field in fields)


def is_excuse(cls):
    """Whether a failure of this class is an excuse the file lists."""
    return cls.split(" ", 1)[0] in EXCUSED
