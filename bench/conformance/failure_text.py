"""Reading schemathesis's JUnit failure text: its test cases, the checks each lists, and the
refusal the generated router answered (violations, their paths, the request's form or header
values). Nothing here judges; judge.py and the rules of rules.toml do."""
import re
from urllib.parse import parse_qs, unquote_plus, urlsplit


def cases_of(text):
    """The test cases (`1. Test Case ID: ...`) of one JUnit failure text, or the text whole."""
    cases = [c for c in re.split(r"\n(?=\d+\. Test Case ID)", text) if c.strip()]
    return cases or [text]


def blocks_of(case):
    """The failed checks of one test case (`- ST201 ...`), each as its block of text."""
    return [b for b in re.split(r"\n(?=- )", case) if re.match(r"- ", b)]


def head_of(block):
    """(code, title) of a check's block (`- ST103 Undocumented status code`), or None."""
    head = re.match(r"- (?:([A-Z]+\d+) )?([^\n]+)", block)
    return (head.group(1) or "", head.group(2).strip()) if head else None


def violations_in(block):
    """The violation messages a refusal in this block names: its `violations` list, or, where
    the API's error body has no place for them, its message (`...: /a: is required; the body:
    expected an object, found null`)."""
    listed = re.search(r'"(?:violations|details)":\[(.*?)\]\}', block)
    if listed:
        return re.findall(r'"message":"((?:[^"\\]|\\.)*)"', listed.group(1))
    folded = re.search(r'the request is invalid: ((?:[^"\\]|\\.)*)("|\s*// Output truncated)', block)
    if folded:
        parts = folded.group(1).split("; ")
        if folded.group(2) != '"':
            parts = parts[:-1] or parts  # The report cut the last one short.
        return [part.split(": ", 1)[-1] for part in parts]
    return []


def violation_paths(block):
    """(path, message) of each violation a refusal lists."""
    listed = re.search(r'"(?:violations|details)":\[(.*?)\]\}', block)
    if not listed:
        return []
    return re.findall(r'"path":"((?:[^"\\]|\\.)*)","message":"((?:[^"\\]|\\.)*)"', listed.group(1))


def refusal_paths(text):
    """(path, message) of each violation a refusal names: its `violations` list, or the
    message an error body without a place for them folds them into (`a: is required; b: ...`)."""
    listed = violation_paths(text)
    if listed:
        return listed
    folded = re.search(r'the request is invalid: ((?:[^"\\]|\\.)*)"', text)
    if not folded:
        return []
    return [tuple(part.split(": ", 1)) for part in folded.group(1).split("; ") if ": " in part]


def form_lacks(text, field):
    """Whether the urlencoded form the request sent gives no key for `field` at all."""
    body = re.search(r"-d '([^']*)'", text)
    if not body:
        return False
    keys = [unquote_plus(pair.split("=", 1)[0]) for pair in body.group(1).split("&") if pair]
    return not any(k == field or k.startswith(field + "[") for k in keys)


def form_null(text, field):
    """Whether the request's form gives `field` as the text `null` (a multipart part or a
    urlencoded pair): schemathesis writes a `null` so, and a form has no null."""
    field = re.escape(field)
    return bool(
        re.search(rf'name="{field}"\\r\\n\\r\\nnull\\r\\n', text)
        or re.search(rf"-d '(?:[^']*&)?{field}=null(?:&|')", text)
    )


def sent_value(text, place, field):
    """The value the request sent for a header or query parameter, or None."""
    if place == "header":
        sent = re.search(rf"-H '{re.escape(field)}: ([^']*)'", text, re.I)
        return sent.group(1) if sent else None
    if place == "query":
        url = re.search(r"'(http://[^']+)'|(http://\S+)", text)
        query = parse_qs(urlsplit((url.group(1) or url.group(2)) if url else "").query, keep_blank_values=True)
        return (query.get(field) or [None])[0]
    return None


def breaks_own_pattern(text, path, message):
    """Whether a header or query value the refusal names (`header.Range`) breaks the pattern
    it names, by Python's own `re` (the judge's engine): schemathesis sent it as valid anyway."""
    pattern = re.match(r"must match the pattern (.+)$", message.replace("\\\\", "\\"))
    place, _, field = path.partition(".")
    if not pattern or not field:
        return False
    value = sent_value(text, place, field)
    try:
        return value is not None and re.search(pattern.group(1), value) is None
    except re.error:
        return False
