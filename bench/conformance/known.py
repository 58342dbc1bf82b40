"""The known failures (known_failures.tsv): failures of one document that no generic rule passes,
each listed with its class and its evidence, like prost's `conformance/failing_tests.txt`. A run
fails on a failure neither a rule passes nor the list names (unlisted), and on a listed one that
no longer happens (stale: the excuse outlived the failure); an operation schemathesis never
reached is not judged, so its entries are neither."""
from dataclasses import dataclass

import judge


@dataclass(frozen=True)
class Entry:
    document: str  # the document's file name (`discourse.local.json`)
    operation: str  # "METHOD /path", as schemathesis names it
    check: str  # the check's code (`ST201`), or its title when it has none (`auth-refused`)
    cls: str  # `gap <id>`, `format <name>`, `document <name>` or `judge <name>`
    reason: str  # one line: why, with its evidence
    line: int = 0  # its line in the list (the excuses file cites it)

    @property
    def key(self):
        return (self.document, self.operation, self.check)


def parse_line(line, number):
    """The entry of one line of the list, None for a comment or a blank line; ValueError when
    the line is malformed."""
    if not line.strip() or line.lstrip().startswith("#"):
        return None
    fields = line.rstrip("\n").split("\t")
    if len(fields) != 5 or not all(f.strip() for f in fields):
        raise ValueError(f"line {number}: want 5 tab-separated fields (document, operation, check, class, reason)")
    entry = Entry(*[f.strip() for f in fields], line=number)
    if not judge.counts_apart(entry.cls) or entry.cls.startswith("undocumented-refusal"):
        raise ValueError(f"line {number}: class `{entry.cls}` is not `gap <id>`, `format <name>`, `document <name>` or `judge <name>`")
    return entry


def parse(text):
    """The entries of a list's text, by (document, operation, check)."""
    entries = {}
    for number, line in enumerate(text.split("\n"), 1):
        entry = parse_line(line, number)
        if entry is None:
            continue
        if entry.key in entries:
            raise ValueError(f"line {number}: {entry.key} listed twice")
        entries[entry.key] = entry
    return entries


def load(path):
    """The entries of the list at `path` ("" or None: an empty list)."""
    if not path:
        return {}
    with open(path) as f:
        return parse(f.read())


def of_document(entries, document):
    """The entries naming this document."""
    return {k: e for k, e in entries.items() if e.document == document}


def problems(document, entries, judged, unlisted, used):
    """What fails the run for one document: each failure neither a rule passes nor the list
    names (`unlisted`: (operation, check, example)), and each entry of the document whose
    operation schemathesis judged (`judged`: operation names) that no failure used (`used`:
    keys). Lines of `kind<TAB>document<TAB>operation<TAB>check<TAB>detail`."""
    lines = [f"unlisted\t{document}\t{op}\t{check}\t{example}" for op, check, example in unlisted]
    for key, entry in sorted(of_document(entries, document).items()):
        if key not in used and entry.operation in judged:
            lines.append(f"stale\t{document}\t{entry.operation}\t{entry.check}\tlisted as `{entry.cls}`, but no failure of that check is left to excuse (it passes, or a generic rule passes it)")
    return lines


def not_judged_lines(document, entries, judged):
    """A line for each entry of this document whose operation schemathesis never reached (a
    document past its time limit gives no report at all): neither used nor stale."""
    return [
        f"not-judged\t{document}\t{e.operation}\t{e.check}\tnot reached"
        for key, e in sorted(of_document(entries, document).items())
        if e.operation not in judged
    ]
