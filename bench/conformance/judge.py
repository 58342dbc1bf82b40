"""The judge's engine: each failed check schemathesis reports is given a class by the first
generic rule of rules.toml it matches, else by its line in known_failures.tsv, else it stays
ours (`ST201 ...`: the operation fails, and the run with it). The rules are data; this module
only reads them, matches them and gives an operation its verdict. Nothing here reads a module
global: everything a rule needs (the import's facts, the document, schemathesis's modes) is
passed in.

A rule applies only to the check codes it was proven on (`proven_on`: the codes of its recorded
example, which test_judge.py runs it on): one rule never covers a class it has not been checked
on. A rule giving a fair refusal (`undocumented-refusal <status>`) applies only to a test case
schemathesis generated to break the document (its cassette says `mode: negative`)."""
import re
import tomllib
from dataclasses import dataclass, field

import cassette
import failure_text
import original

# The kinds of class a rule or a listed failure may give, and the verdict each leads to.
KINDS = ("undocumented-refusal", "gap", "format", "document", "judge")

# What proven_on calls a failure for which schemathesis named no check (it could not send).
NO_CHECK = "no-check"

# The verdicts (bench/README.md, "How the judge decides"): the headline counts the first two;
# gaps and fails count against it; `document` and `judge` are excuses, each written with its
# evidence, printed apart and out of the headline.
HEADLINE = ("pass", "fair-refusal")


@dataclass
class Check:
    """One failed check of one test case (or a failure the report gives no checks for)."""

    operation: str  # "METHOD /path"
    code: str  # "ST201", or "" when schemathesis named no check
    title: str
    block: str  # the check's own text
    case: str  # the whole test case's text
    violations: list = field(default_factory=list)

    @property
    def key(self):
        """What known_failures.tsv names the check by: its code, else its title."""
        return self.code or self.title

    @property
    def raw_class(self):
        """The class of a failure no rule passes: schemathesis's own name for it."""
        return f"{self.code} {self.title}".strip()

    @property
    def proof_code(self):
        """The code proven_on names this check by."""
        return self.code or NO_CHECK

    @property
    def case_id(self):
        """The id of the test case the check failed in (None for a failure without a case)."""
        return cassette.case_id_of(self.case)


@dataclass
class Evidence:
    """What the rules may consult besides the failure text."""

    imported: object  # imported.Imported
    document: object = None  # the original document, or None
    modes: dict = field(default_factory=dict)  # test case id -> "positive" | "negative" (cassette)


@dataclass
class Rule:
    name: str
    cls: str
    proven_on: list = field(default_factory=list)  # the check codes its example proves it on
    why: str = ""
    check: str = ""
    gaps: list = field(default_factory=list)
    block: list = field(default_factory=list)
    not_block: list = field(default_factory=list)
    case: list = field(default_factory=list)
    violations: str = ""
    test: str = ""
    example: str = ""
    example_source: str = ""
    example_operation: str = ""
    example_facts: dict = field(default_factory=dict)
    example_document: str = ""


def load_rules(path):
    """The rules of a rules.toml, in their order (the first that matches gives the class)."""
    with open(path, "rb") as f:
        table = tomllib.load(f)
    rules = []
    for entry in table.get("rule", []):
        entry = dict(entry)
        entry["cls"] = entry.pop("class")
        rules.append(Rule(**entry))
    return rules


def checks_of_case(operation, case):
    """The failed checks one test case lists. A check that shows no response of its own
    (ST202 often does not) is judged by the refusal another check of the same case shows."""
    blocks = failure_text.blocks_of(case)
    shown = [v for b in blocks if "[400]" in b for v in failure_text.violations_in(b)]
    checks = []
    for block in blocks:
        head = failure_text.head_of(block)
        if head:
            violations = failure_text.violations_in(block) or ([] if "[400]" in block else shown)
            checks.append(Check(operation, head[0], head[1], block, case, violations))
    return checks


def checks_of_failure(operation, message, text):
    """The checks of one JUnit failure, case by case; a failure that lists none (schemathesis
    could not send the request) is one check titled by the failure's message."""
    checks = [c for case in failure_text.cases_of(text) for c in checks_of_case(operation, case)]
    return checks or [Check(operation, "", message, text, text)]


def all_found(regexes, text, found):
    """Whether every regex is found in the text; their named groups are added to `found`."""
    for regex in regexes:
        match = re.search(regex, text)
        if not match:
            return False
        found.update({k: v for k, v in match.groupdict().items() if v is not None})
    return True


def matches(rule, check, evidence, tests):
    """The names the rule's class is written with ({status}, {recorded}, ...) when the rule
    matches the check, else None."""
    found = {}
    if check.proof_code not in rule.proven_on:
        return None
    if rule.check and not re.search(rule.check, check.code):
        return None
    if rule.cls.startswith("undocumented-refusal") and evidence.modes.get(check.case_id) != "negative":
        return None
    if rule.gaps:
        recorded = [g for g in rule.gaps if g in evidence.imported.recorded]
        if not recorded:
            return None
        found["recorded"] = recorded[0]
    if not all_found(rule.block, check.block, found) or not all_found(rule.case, check.case, found):
        return None
    if any(re.search(regex, check.block) for regex in rule.not_block):
        return None
    if rule.violations and not (check.violations and all(re.match(rule.violations, v) for v in check.violations)):
        return None
    if rule.test:
        told = tests[rule.test](check, evidence)
        if not told:
            return None
        if isinstance(told, dict):
            found.update(told)
    return found


def classify(check, rules, evidence, tests):
    """(class, rule name) of a failed check by the first rule that matches, or None."""
    for rule in rules:
        found = matches(rule, check, evidence, tests)
        if found is not None:
            return rule.cls.format(**found), rule.name
    return None


# A positive case refused shows two failed checks: ST202 (a valid request rejected) and ST103
# (the refusal's status undocumented). They are one fact, the refusal, which the ST202 check's
# class judges; the ST103 check takes that class when no rule or listed line classes it itself.
REFUSAL_JUDGED_BY = {"ST103": "ST202"}


def judging_check(check, checks):
    """The check of the same test case whose class judges this one's refusal, or None."""
    code = REFUSAL_JUDGED_BY.get(check.code)
    same_case = [c for c in checks if c is not check and c.case == check.case and c.code == code]
    return same_case[0] if code and check.case_id and same_case else None


def counts_apart(cls):
    """Whether a failure of this class is not ours (the document's, the judge's, a gap)."""
    return cls.split(" ", 1)[0] in KINDS


def verdict_of(classes):
    """An operation's verdict from its failures' classes: `fail` when one is ours, else the
    first kind among gap (a recorded gap or a limit of the format), document and judge it has,
    else `fair-refusal` (only refusals of requests breaking the document, which it lists no
    status for), else `pass` (no check failed)."""
    kinds = {cls.split(" ", 1)[0] for cls in classes}
    if any(not counts_apart(cls) for cls in classes):
        return "fail"
    for kind, verdict in (("gap", "gap"), ("format", "gap"), ("document", "document"), ("judge", "judge")):
        if kind in kinds:
            return verdict
    return "fair-refusal" if classes else "pass"


# The named tests a rule may ask for (`test = "..."`): what a regex cannot tell, each reading
# only the check and the evidence given.


def left_out(check, evidence):
    kind = evidence.imported.left_out.get(check.operation)
    return {"left_out": kind} if kind else None


def form_nulls(check, evidence):
    paths = failure_text.violation_paths(check.case)
    return bool(paths) and all(
        failure_text.form_null(check.case, p.lstrip("/")) and not m.startswith("is not a field") for p, m in paths
    )


def own_patterns_broken(check, evidence):
    paths = failure_text.violation_paths(check.case)
    return bool(paths) and all(failure_text.breaks_own_pattern(check.case, p, m) for p, m in paths)


def form_lacks_required(check, evidence):
    paths = failure_text.refusal_paths(check.case)
    return bool(paths) and all(m == "is required" and failure_text.form_lacks(check.case, p.lstrip("/")) for p, m in paths)


def contradictory_allof(check, evidence):
    found = re.search(r"Schema at /allOf/(\d+)/((?:[^\s:]+/)*[^\s:/]+):", check.block)
    if evidence.document is None or not found or "is not one of" not in check.block:
        return False
    status = re.search(r"status code (\d{3})", check.block)
    return original.enums_disjoint(
        evidence.document, check.operation, status.group(1) if status else "200", found.group(1), found.group(2).split("/")
    )


def nulls_where_untyped(check, evidence):
    """A `null` refused for a list's item where the document's schema has no `type`. Never the
    body itself nor a property: the import reads those `untyped: true`, and the server takes
    `null` there (issue 48)."""
    paths = failure_text.violation_paths(check.case)
    return bool(paths) and all(
        p.rsplit("/", 1)[-1].isdigit()
        and m == "must not be null"
        and original.untyped_at(evidence.document, check.operation, p)
        for p, m in paths
    )


def form_union_field(check, evidence):
    field = re.search(
        r"Invalid component: in body - (?:[^:\n]* -> )?([\w.-]+): (Invalid enum value|String larger than maxLength|String shorter than minLength)",
        check.block,
    )
    return bool(field) and field.group(1) in evidence.imported.union_fields


def nullable_enum_field(check, evidence):
    field = re.search(r"Invalid component: in body - (?:[^:\n]* -> )?(\w+): Incorrect type", check.block)
    return bool(field) and field.group(1) in evidence.imported.nullable_enums


def json_field(check, evidence):
    field = re.search(r"Invalid component: in body - (?:violates `\w+` at /properties/([\w.-]+)|([\w.-]+)[ :])", check.block)
    return bool(field) and (field.group(1) or field.group(2)) in evidence.imported.json_fields


def untyped_part(part):
    """A test: whether the import typed this part of the operation `json` or reduced it."""
    return lambda check, evidence: (check.operation, part) in evidence.imported.untyped


TESTS = {
    "left_out": left_out,
    "form_nulls": form_nulls,
    "own_patterns_broken": own_patterns_broken,
    "form_lacks_required": form_lacks_required,
    "contradictory_allof": contradictory_allof,
    "nulls_where_untyped": nulls_where_untyped,
    "form_union_field": form_union_field,
    "nullable_enum_field": nullable_enum_field,
    "json_field": json_field,
    "body_untyped": untyped_part("body"),
    "body_keywords_left_out": untyped_part("body-keywords"),
    "body_composition_reduced": untyped_part("body-compositions"),
    "response_untyped": untyped_part("response"),
    "response_composition_reduced": untyped_part("response-compositions"),
}
