"""The judge's rules and its gate, tested on their recorded examples (standard library only):
python3 -m unittest discover -s bench/conformance -p 'test_*.py'"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import imported  # noqa: E402
import judge  # noqa: E402
import known  # noqa: E402

RULES = judge.load_rules(os.path.join(HERE, "rules.toml"))


def evidence_of(rule, facts=True):
    """The evidence a rule's example was recorded with (or none at all)."""
    if not facts:
        return judge.Evidence(imported.Imported())
    given = dict(rule.example_facts)
    facts = imported.Imported(
        recorded=set(given.get("recorded", [])),
        left_out=dict(given.get("left_out", {})),
        untyped={tuple(pair) for pair in given.get("untyped", [])},
        nullable_enums=set(given.get("nullable_enums", [])),
        union_fields=set(given.get("union_fields", [])),
        json_fields=set(given.get("json_fields", [])),
    )
    document = json.loads(rule.example_document) if rule.example_document else None
    return judge.Evidence(facts, document)


def classes_of(rule, text, evidence):
    """(class, rule name) of each check of the text, as the engine gives them."""
    checks = judge.checks_of_failure(rule.example_operation or "GET /", "error", text)
    return [judge.classify(check, RULES, evidence, judge.TESTS) for check in checks]


def needs_evidence(rule):
    """Whether the rule reads the import or the document, not the failure text alone."""
    return bool(rule.gaps or rule.example_facts or rule.example_document)


class EachRule(unittest.TestCase):
    def test_the_table_is_well_formed(self):
        names = [rule.name for rule in RULES]
        self.assertEqual(len(names), len(set(names)), "rule names are unique")
        for rule in RULES:
            with self.subTest(rule=rule.name):
                self.assertTrue(rule.example.strip() and rule.why.strip())
                self.assertIn(rule.cls.split(" ", 1)[0], judge.KINDS)
                self.assertTrue(not rule.test or rule.test in judge.TESTS)

    def test_each_rule_passes_its_recorded_example(self):
        for rule in RULES:
            with self.subTest(rule=rule.name):
                found = classes_of(rule, rule.example, evidence_of(rule))
                self.assertTrue(found and all(f and f[1] == rule.name for f in found), found)
                self.assertNotIn("{", found[0][0])

    def test_no_rule_fires_under_another_check(self):
        for rule in [r for r in RULES if r.check]:
            with self.subTest(rule=rule.name):
                other = re.sub(r"^- ST\d+", "- ST999", rule.example, flags=re.M)
                found = classes_of(rule, other, evidence_of(rule))
                self.assertFalse(any(f and f[1] == rule.name for f in found), found)

    def test_no_rule_fires_without_the_evidence_it_reads(self):
        for rule in [r for r in RULES if needs_evidence(r)]:
            with self.subTest(rule=rule.name):
                found = classes_of(rule, rule.example, evidence_of(rule, facts=False))
                self.assertFalse(any(f and f[1] == rule.name for f in found), found)


def near(rule_name, text, operation="GET /", facts=None):
    """The rule a text fires (None when none does)."""
    evidence = judge.Evidence(facts or imported.Imported())
    checks = judge.checks_of_failure(operation, "error", text)
    found = [judge.classify(check, RULES, evidence, judge.TESTS) for check in checks]
    return [f[1] for f in found if f]


class NearMisses(unittest.TestCase):
    """Texts one detail away from a rule's example, which that rule must not pass."""

    def test_a_server_error_is_no_refusal(self):
        text = "1. Test Case ID: a\n\n- ST103 Undocumented status code\n\n    Received: 500\n    Documented: 200\n"
        self.assertEqual(near("undocumented-refusal", text), [])

    def test_a_plain_400_is_no_size_limit(self):
        text = "1. Test Case ID: a\n\n- ST201 API rejected schema-compliant request\n\n[400] Bad Request:\n"
        self.assertEqual(near("size-limits", text), [])

    def test_a_form_field_given_a_value_is_not_null(self):
        rule = next(r for r in RULES if r.name == "form-null")
        self.assertEqual(near(rule.name, rule.example.replace("redirect=null", "redirect=nul")), [])

    def test_a_value_matching_the_pattern_was_refused_by_us(self):
        rule = next(r for r in RULES if r.name == "pattern-unchecked")
        self.assertEqual(near(rule.name, rule.example.replace("Range: 0", "Range: bytes=0-")), [])

    def test_a_form_holding_the_required_field_is_ours(self):
        rule = next(r for r in RULES if r.name == "form-empty")
        self.assertEqual(near(rule.name, rule.example.replace("-d 'name=a'", "-d 'name=a&features=x'")), [])

    def test_one_violation_of_another_kind_is_ours(self):
        rule = next(r for r in RULES if r.name == "untyped-object")
        text = rule.example.replace(
            '{"path":"","message":"expected an object, found null"}',
            '{"path":"","message":"expected an object, found null"},{"path":"/a","message":"is required"}',
        )
        self.assertEqual(near(rule.name, text), [])

    def test_an_integer_of_18_digits_fits_64_bits(self):
        text = (
            "1. Test Case ID: a\n\n- ST202 API accepted schema-violating request\n\n[400] Bad Request:\n\n"
            '    `{"violations":[{"path":"/n","message":"expected an integer, found \\\\"123456789012345678\\\\""}]}`\n'
        )
        self.assertEqual(near("big-integers", text), [])

    def test_a_json_answer_to_a_204_is_ours(self):
        rule = next(r for r in RULES if r.name == "content-on-204")
        self.assertEqual(near(rule.name, rule.example.replace("[204] No Content", "[200] OK")), [])

    def test_a_missing_json_property_is_not_a_form_list(self):
        rule = next(r for r in RULES if r.name == "form-empty-list")
        self.assertEqual(near(rule.name, rule.example.replace("application/x-www-form-urlencoded", "application/json")), [])

    def test_an_answer_schemathesis_could_send_is_not_unserializable(self):
        self.assertEqual(near("no-serializer", "Failed to generate test cases: Unsatisfiable schema"), [])

    def test_a_nested_key_refused_for_its_value_is_ours(self):
        rule = next(r for r in RULES if r.name == "deep-object-nesting")
        text = rule.example.replace("is given both as a value and as an object", "must be an integer")
        self.assertEqual(near(rule.name, text), [])

    def test_a_body_field_given_as_value_and_object_is_no_deep_object(self):
        rule = next(r for r in RULES if r.name == "deep-object-nesting")
        text = re.sub(r"query\.pass_through", "/pass_through", rule.example)
        self.assertEqual(near(rule.name, text), [])

    def test_an_enumeration_shared_by_both_is_no_contradiction(self):
        rule = next(r for r in RULES if r.name == "contradictory-allof")
        document = json.loads(rule.example_document.replace('"soft", "hard"', '"soft", "bounced"'))
        checks = judge.checks_of_failure(rule.example_operation, "error", rule.example)
        found = judge.classify(checks[0], RULES, judge.Evidence(imported.Imported(), document), judge.TESTS)
        self.assertIsNone(found)


def junit(cases):
    """A JUnit report of (operation, failure text or None, skipped) test cases."""
    body = ""
    for name, text, skipped in cases:
        inner = "<skipped/>" if skipped else (f"<failure message='failed'><![CDATA[{text}]]></failure>" if text else "")
        body += f"<testcase name='{name}'>{inner}</testcase>"
    return f"<testsuites><testsuite>{body}</testsuite></testsuites>"


OURS = "1. Test Case ID: a\n\n- ST201 API rejected schema-compliant request\n\n[422] Unprocessable:\n"


class TheGate(unittest.TestCase):
    """server_verdicts.py and server_report.py on a made-up report: what fails the run."""

    def run_judge(self, cases, listed):
        with tempfile.TemporaryDirectory() as tmp:
            paths = {name: os.path.join(tmp, name) for name in ("r.junit.xml", "known.tsv", "problems.tsv", "server.tsv")}
            with open(paths["r.junit.xml"], "w") as f:
                f.write(junit(cases))
            with open(paths["known.tsv"], "w") as f:
                f.write("# document\toperation\tcheck\tclass\treason\n" + "".join("\t".join(e) + "\n" for e in listed))
            open(paths["problems.tsv"], "w").close()
            verdicts = subprocess.run(
                [sys.executable, os.path.join(HERE, "server_verdicts.py"), "doc.json", paths["r.junit.xml"], "", "",
                 paths["known.tsv"], paths["problems.tsv"]],
                capture_output=True, text=True, check=True,
            ).stdout
            with open(paths["server.tsv"], "w") as f:
                f.write(verdicts)
            report = subprocess.run(
                [sys.executable, os.path.join(HERE, "server_report.py"), paths["server.tsv"], "0", paths["problems.tsv"]],
                capture_output=True, text=True,
            )
            return verdicts, report

    def test_an_unlisted_failure_fails_the_run(self):
        verdicts, report = self.run_judge([("GET /a", OURS, False), ("GET /b", None, False)], [])
        self.assertIn("\tfail\t", verdicts)
        self.assertEqual(report.returncode, 1, report.stdout)
        self.assertIn("unlisted: doc.json\tGET /a\tST201", report.stdout)

    def test_a_listed_failure_passes_the_gate_with_its_class(self):
        entry = ("doc.json", "GET /a", "ST201", "document made-up", "the document says so: #/paths/~1a")
        verdicts, report = self.run_judge([("GET /a", OURS, False)], [entry])
        self.assertIn("GET /a\tdocument\tdocument made-up", verdicts)
        self.assertEqual(report.returncode, 0, report.stdout)

    def test_a_stale_listed_failure_fails_the_run(self):
        entry = ("doc.json", "GET /b", "ST201", "document made-up", "the document says so")
        _, report = self.run_judge([("GET /a", None, False), ("GET /b", None, False)], [entry])
        self.assertEqual(report.returncode, 1, report.stdout)
        self.assertIn("stale: doc.json\tGET /b\tST201", report.stdout)

    def test_an_operation_never_reached_is_not_judged(self):
        entries = [
            ("doc.json", "GET /b", "ST201", "document made-up", "skipped"),
            ("doc.json", "GET /c", "ST201", "document made-up", "absent from the report"),
            ("other.json", "GET /a", "ST201", "document made-up", "another document"),
        ]
        _, report = self.run_judge([("GET /a", None, False), ("GET /b", None, True)], entries)
        self.assertEqual(report.returncode, 0, report.stdout)
        self.assertIn("2 listed ones not judged", report.stdout)

    def test_a_malformed_list_is_refused(self):
        with self.assertRaises(ValueError):
            known.parse("doc.json\tGET /a\tST201\tours\twhy\n")
        with self.assertRaises(ValueError):
            known.parse("doc.json\tGET /a\tST201\tgap x\n")


if __name__ == "__main__":
    unittest.main()
