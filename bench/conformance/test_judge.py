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

import cassette  # noqa: E402
import doc_list  # noqa: E402
import imported  # noqa: E402
import judge  # noqa: E402
import known  # noqa: E402
import strict_reading  # noqa: E402

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
    return judge.Evidence(facts, document, dict(given.get("modes", {})))


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

    def test_each_rule_is_proven_on_exactly_its_examples_codes(self):
        for rule in RULES:
            with self.subTest(rule=rule.name):
                checks = judge.checks_of_failure(rule.example_operation or "GET /", "error", rule.example)
                self.assertEqual(sorted(rule.proven_on), sorted({c.proof_code for c in checks}))

    def test_no_rule_fires_outside_the_codes_it_was_proven_on(self):
        for rule in RULES:
            with self.subTest(rule=rule.name):
                unproven = judge.Rule(**{**rule.__dict__, "check": ""})
                text = re.sub(r"^- ST\d+", "- ST999", rule.example, flags=re.M)
                checks = judge.checks_of_failure(rule.example_operation or "GET /", "error", text)
                if not any(c.code == "ST999" for c in checks):
                    continue  # A failure without a check (`no-check`) has no code to change.
                found = [judge.matches(unproven, c, evidence_of(rule), judge.TESTS) for c in checks]
                self.assertEqual(found, [None] * len(checks))

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

    def test_a_uri_the_rfc_asks_every_server_to_take_refused_is_ours(self):
        rule = next(r for r in RULES if r.name == "uri-length")
        text = rule.example.replace("are 8323 bytes long", "are 7999 bytes long")
        self.assertEqual(near(rule.name, text, rule.example_operation), [])

    def test_a_refusal_naming_more_than_a_unicode_class_is_ours(self):
        rule = next(r for r in RULES if r.name == "unicode-classes")
        other = '{"path":"query.tagKeys/3","message":"must be at most 128 characters long (found 129)"},'
        text = rule.example.replace('"violations":[', '"violations":[' + other)
        self.assertEqual(near(rule.name, text, rule.example_operation), [])
        latin = rule.example.replace(r"\\p{L}\\p{Z}\\p{N}", r"a-zA-Z \\t0-9")
        self.assertEqual(near(rule.name, latin, rule.example_operation), [])

    def test_a_form_holding_the_required_field_is_ours(self):
        rule = next(r for r in RULES if r.name == "form-empty")
        self.assertEqual(near(rule.name, rule.example.replace("-d 'name=a'", "-d 'name=a&features=x'")), [])

    def test_a_null_body_refused_is_ours_even_where_the_schema_is_untyped(self):
        # The body's own schema has no `type`: the import reads it `untyped: true`, and the server
        # takes `null` there, so a refusal of the body itself is no longer the document's.
        rule = next(r for r in RULES if r.name == "untyped-null")
        document = {
            "paths": {
                "/gateways/{name}": {
                    "put": {"requestBody": {"content": {"application/json": {"schema": {"properties": {"id": {}}}}}}}
                }
            }
        }
        text = rule.example.replace('"path":"/customProfiles/0"', '"path":""')
        checks = judge.checks_of_failure(rule.example_operation, "error", text)
        evidence = judge.Evidence(imported.Imported(), document, {})
        self.assertEqual([judge.classify(c, RULES, evidence, judge.TESTS) for c in checks], [None])

    def test_a_null_property_refused_is_ours_even_where_its_schema_is_untyped(self):
        # Azure's `customProfile`: the import reads the property `untyped: true`, and the server
        # takes `null` there, so a refusal of it is no longer the document's.
        rule = next(r for r in RULES if r.name == "untyped-null")
        schema = {"type": "object", "properties": {"customProfile": {"properties": {"id": {"type": "string"}}}}}
        document = {
            "paths": {"/gateways/{name}": {"put": {"requestBody": {"content": {"application/json": {"schema": schema}}}}}}
        }
        text = rule.example.replace('"path":"/customProfiles/0"', '"path":"/customProfile"')
        checks = judge.checks_of_failure(rule.example_operation, "error", text)
        evidence = judge.Evidence(imported.Imported(), document, {})
        self.assertEqual([judge.classify(c, RULES, evidence, judge.TESTS) for c in checks], [None])

    def test_a_null_body_refused_is_no_null_item(self):
        # The gap is recorded for the document, not the operation: a `null` refused for the
        # body itself (GitHub's nullable body, 2026-11-29) is not an item of a list or map.
        rule = next(r for r in RULES if r.name == "nullable-items")
        facts = imported.Imported(recorded={"nullable-items"})
        self.assertEqual(near(rule.name, rule.example, facts=facts), [rule.name])
        at_the_root = rule.example.replace('"path":"/tags/0"', '"path":""')
        self.assertEqual(near(rule.name, at_the_root, facts=facts), [])
        folded = rule.example.replace(
            '{"violations":[{"path":"/tags/0","message":"expected a string, found null"}]}',
            '{"message":"the request is invalid: the body: expected an object, found null"}',
        )
        self.assertEqual(near(rule.name, folded, facts=facts), [])

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


class ProvenOn(unittest.TestCase):
    """A rule applies only to the check codes its example was proven on."""

    TEXT = "1. Test Case ID: a\n\n- {code} Schema-valid request rejected\n\n[418] I'm a teapot:\n"

    def rule(self):
        return judge.Rule(name="teapot", cls="judge teapot", proven_on=["ST202"], check="^ST20[12]$", block=[r"\[418\]"])

    def classify(self, code):
        check = judge.checks_of_failure("GET /", "error", self.TEXT.format(code=code))[0]
        return judge.classify(check, [self.rule()], judge.Evidence(imported.Imported()), judge.TESTS)

    def test_the_proven_code_is_passed(self):
        self.assertEqual(self.classify("ST202"), ("judge teapot", "teapot"))

    def test_a_code_its_regex_admits_but_no_example_proved_is_refused(self):
        self.assertIsNone(self.classify("ST201"))

    def test_a_rule_proven_on_nothing_applies_to_nothing(self):
        rule = judge.Rule(name="unproven", cls="judge teapot")
        check = judge.checks_of_failure("GET /", "error", self.TEXT.format(code="ST202"))[0]
        self.assertIsNone(judge.classify(check, [rule], judge.Evidence(imported.Imported()), judge.TESTS))


class FairRefusals(unittest.TestCase):
    """An `undocumented-refusal` rule applies only to a case schemathesis generated to break the
    document (its cassette's mode)."""

    def classify(self, modes):
        rule = next(r for r in RULES if r.name == "undocumented-refusal")
        check = judge.checks_of_failure(rule.example_operation, "error", rule.example)[0]
        return judge.classify(check, RULES, judge.Evidence(imported.Imported(), None, modes), judge.TESTS)

    def test_a_refusal_of_a_negative_case_is_fair(self):
        self.assertEqual(self.classify({"0ALWp0": "negative"}), ("undocumented-refusal 400", "undocumented-refusal"))

    def test_a_refusal_of_a_positive_case_is_ours(self):
        self.assertIsNone(self.classify({"0ALWp0": "positive"}))

    def test_a_case_whose_mode_is_unknown_is_ours(self):
        self.assertIsNone(self.classify({}))

    def test_the_cassette_gives_each_cases_mode(self):
        text = (
            "command: 'st run'\nhttp_interactions:\n- id: 'aB1'\n  status: 'FAILURE'\n  generation:\n    time: 0.01\n"
            "    mode: negative\n  components:\n- id: 'cD2'\n  status: 'SUCCESS'\n  generation:\n    time: 0.1\n"
            "    mode: positive\n  components:\n- id: 'eF3'\n  status: 'SUCCESS'\n  metadata: null\n"
        )
        self.assertEqual(cassette.modes_of_text(text), {"aB1": "negative", "cD2": "positive"})
        self.assertEqual(strict_reading.modes_in(text), {"aB1": "negative", "cD2": "positive"})


def junit(cases):
    """A JUnit report of (operation, failure text or None, skipped) test cases."""
    body = ""
    for name, text, skipped in cases:
        inner = "<skipped/>" if skipped else (f"<failure message='failed'><![CDATA[{text}]]></failure>" if text else "")
        body += f"<testcase name='{name}'>{inner}</testcase>"
    return f"<testsuites><testsuite>{body}</testsuite></testsuites>"


OURS = "1. Test Case ID: a\n\n- ST201 API rejected schema-compliant request\n\n[422] Unprocessable:\n"
EXCUSED_CASE = (
    "1. Test Case ID: x1\n\n- ST201 API rejected schema-compliant request\n\n    Valid data should have been accepted\n\n"
    '[422] Unprocessable Entity:\n\n    `{"error":{"code":422,"message":"no"}}`\n\nReproduce with:\n\n'
    "    curl -X GET 'http://127.0.0.1:4100/a/%F0'\n"
)


def server_tsv(verdicts):
    """A server.tsv of one operation per verdict given."""
    return "".join(f"doc.json\tGET /{n}\t{v}\n" for n, v in enumerate(verdicts))


class TheHeadline(unittest.TestCase):
    """server_report.py's figures: pass + fair refusal over operations judged, strictly."""

    def report(self, verdicts, min_rate="0", strict=None):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "server.tsv")
            with open(path, "w") as f:
                f.write(server_tsv(verdicts))
            args = [sys.executable, os.path.join(HERE, "server_report.py"), path, min_rate]
            if strict is not None:
                with open(os.path.join(tmp, "strict.tsv"), "w") as f:
                    f.write(strict)
                args += ["", "", os.path.join(tmp, "strict.tsv")]
            return subprocess.run(args, capture_output=True, text=True)

    VERDICTS = ["pass", "pass", "fair-refusal", "gap", "document", "judge", "fail", "not-judged"]

    def test_gaps_fails_and_excuses_count_against_the_headline(self):
        out = self.report(self.VERDICTS).stdout
        self.assertIn("HEADLINE, pass + fair refusal over operations judged: 3/7 = 42.9%", out)
        self.assertIn("  pass (no check fails): 2/7 = 28.6%", out)
        self.assertIn("NOT the headline: pass + fair refusal + the document's and the judge's excuses: 5/7 = 71.4%", out)
        self.assertIn("NOT the headline: pass + fair refusal + named gaps: 4/7 = 57.1%", out)

    def test_the_gate_reads_the_headline(self):
        self.assertEqual(self.report(self.VERDICTS, "42").returncode, 0)
        failed = self.report(self.VERDICTS, "43")
        self.assertEqual(failed.returncode, 1)
        self.assertIn("FAILED: server headline 42.9% (pass + fair refusal; at least 43.0% wanted), 0 server errors", failed.stdout)

    def test_both_readings_are_printed_with_their_difference(self):
        strict = "".join(
            f"doc.json\tGET /{n}\t{r}\t\n" for n, r in enumerate(["pass", "pass", "fair-refusal", "not", "not", "pass", "not", "not-judged"])
        )
        out = self.report(self.VERDICTS, strict=strict).stdout
        self.assertIn("  pass + fair refusal: 4/7 = 57.1% (pass 3, fair refusal 1, not 3, not judged 1)", out)
        self.assertIn("  the judge's headline: 42.9%; difference -14.3 points (goal: within 2)", out)
        self.assertIn("  operations the readings count differently: 1\n  doc.json GET /5: judge judge, independent pass", out)


class TheGate(unittest.TestCase):
    """server_verdicts.py and server_report.py on a made-up report: what fails the run."""

    def run_judge(self, cases, listed, excused=None):
        with tempfile.TemporaryDirectory() as tmp:
            names = ("r.junit.xml", "known.tsv", "problems.tsv", "server.tsv", "excuses.tsv")
            paths = {name: os.path.join(tmp, name) for name in names}
            with open(paths["r.junit.xml"], "w") as f:
                f.write(junit(cases))
            with open(paths["known.tsv"], "w") as f:
                f.write("# document\toperation\tcheck\tclass\treason\n" + "".join("\t".join(e) + "\n" for e in listed))
            open(paths["problems.tsv"], "w").close()
            open(paths["excuses.tsv"], "w").close()
            verdicts = subprocess.run(
                [sys.executable, os.path.join(HERE, "server_verdicts.py"), "doc.json", paths["r.junit.xml"], "", "",
                 paths["known.tsv"], paths["problems.tsv"], paths["excuses.tsv"]],
                capture_output=True, text=True, check=True,
            ).stdout
            with open(paths["server.tsv"], "w") as f:
                f.write(verdicts)
            report = subprocess.run(
                [sys.executable, os.path.join(HERE, "server_report.py"), paths["server.tsv"], "0", paths["problems.tsv"],
                 paths["excuses.tsv"]],
                capture_output=True, text=True,
            )
            if excused is not None:
                with open(paths["excuses.tsv"]) as f:
                    excused.extend(line.rstrip("\n").split("\t") for line in f)
            return verdicts, report

    def test_each_excuse_is_written_with_its_evidence(self):
        entry = ("doc.json", "GET /a/{id}", "ST201", "document made-up", "the document says so: #/components/schemas/A/pattern")
        excused = []
        _, report = self.run_judge([("GET /a/{id}", EXCUSED_CASE, False), ("GET /b", OURS, False)], [entry], excused)
        self.assertEqual(
            excused,
            [[
                "doc.json", "GET /a/{id}", "document made-up", "known.tsv:2", "#/components/schemas/A/pattern",
                "curl -X GET 'http://127.0.0.1:4100/a/%F0'",
                '[422] Unprocessable Entity: `{"error":{"code":422,"message":"no"}}`',
            ]],
        )
        self.assertIn("GET /a/{id}: document made-up (known.tsv:2) at #/components/schemas/A/pattern", report.stdout)

    def test_an_excuse_by_a_rule_names_the_rule_and_the_operation(self):
        rule = next(r for r in RULES if r.name == "no-serializer")
        excused = []
        self.run_judge([("POST /images/load", rule.example, False)], [], excused)
        self.assertEqual(excused[0][:5], ["doc.json", "POST /images/load", "judge no-serializer", "rules.toml no-serializer", "#/paths/~1images~1load/post"])

    def test_an_undocumented_status_shares_the_class_of_its_cases_rejection(self):
        case = EXCUSED_CASE.replace(
            "- ST201 API rejected schema-compliant request\n\n    Valid data should have been accepted\n",
            "- ST202 Schema-valid request rejected\n\n    Valid data should have been accepted\n\n"
            "- ST103 Undocumented status code\n\n    Received: 422\n    Documented: 200\n",
        )
        entry = ("doc.json", "GET /a/{id}", "ST202", "document made-up", "the document says so: #/components/schemas/A")
        excused = []
        verdicts, report = self.run_judge([("GET /a/{id}", case, False)], [entry], excused)
        self.assertEqual(report.returncode, 0, report.stdout)
        self.assertIn("GET /a/{id}\tdocument\tdocument made-up\x1f- ST202", verdicts)
        self.assertIn("\tdocument made-up\x1f- ST103", verdicts)
        self.assertEqual([e[3] for e in excused], ["known.tsv:2", "known.tsv:2 (the same case's ST202)"])

    def test_an_undocumented_status_alone_is_ours(self):
        case = EXCUSED_CASE.replace("- ST201 API rejected schema-compliant request", "- ST103 Undocumented status code")
        entry = ("doc.json", "GET /a/{id}", "ST202", "document made-up", "the document says so: #/components/schemas/A")
        _, report = self.run_judge([("GET /a/{id}", case, False)], [entry])
        self.assertEqual(report.returncode, 1, report.stdout)
        self.assertIn("unlisted: doc.json\tGET /a/{id}\tST103", report.stdout)

    def test_a_skipped_operation_is_not_judged(self):
        verdicts, report = self.run_judge([("GET /a", None, False), ("GET /b", None, True)], [])
        self.assertIn("doc.json\tGET /b\tnot-judged", verdicts)
        self.assertIn("HEADLINE, pass + fair refusal over operations judged: 1/1 = 100.0%", report.stdout)

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


class TheList(unittest.TestCase):
    """doc_list.py: the documents a LIST file names."""

    def test_paths_ids_and_comments(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "api", "example.com"))
            for name in ("api/example.com/one.json", "api/two.json", "mine.yaml"):
                open(os.path.join(tmp, name), "w").close()
            mine = os.path.join(tmp, "mine.yaml")
            text = f"# a comment\n\nexample.com/one.json\n  two.json  # a trailing comment\n{mine}\n"
            root = os.path.join(tmp, "api")
            self.assertEqual(
                doc_list.read(text, root),
                [
                    ("example.com_one.json", os.path.join(root, "example.com/one.json")),
                    ("two.json", os.path.join(root, "two.json")),
                    ("mine.yaml", mine),
                ],
            )
            with self.assertRaises(doc_list.NeedsDirectory):
                doc_list.read(text)
            self.assertEqual(doc_list.read(f"# only paths\n{mine}\n"), [("mine.yaml", mine)])
            with self.assertRaisesRegex(ValueError, "line 2: `nowhere.json` is neither a file nor a document"):
                doc_list.read("two.json\nnowhere.json\n", root)
            with self.assertRaisesRegex(ValueError, "documents named twice: two.json"):
                doc_list.read("two.json\ntwo.json\n", root)


class TheHeldOutLists(unittest.TestCase):
    """No held-out list (heldout.txt, heldout-2.txt, ...) is ever tuned to: neither the known list
    nor a rule names a document of any of them."""

    def lists(self):
        names = sorted(f for f in os.listdir(HERE) if re.fullmatch(r"heldout(-\d+)?\.txt", f))
        self.assertGreaterEqual(len(names), 2, names)
        return names

    def held_out(self, name):
        with open(os.path.join(HERE, name)) as f:
            return [line for _, line in doc_list.entries(f.read())]

    def every_held_out(self):
        return [doc for name in self.lists() for doc in self.held_out(name)]

    def test_each_holds_twenty_documents(self):
        for name in self.lists():
            self.assertEqual(len(self.held_out(name)), 20, name)

    def test_no_document_is_held_out_twice(self):
        docs = self.every_held_out()
        self.assertEqual(sorted({d for d in docs if docs.count(d) > 1}), [])

    def test_no_known_failure_names_a_held_out_document(self):
        names = {n for doc in self.every_held_out() for n in (doc.replace("/", "_"), doc.rsplit("/", 1)[-1])}
        with open(os.path.join(HERE, "known_failures.tsv")) as f:
            listed = {e.document for e in known.parse(f.read()).values()}
        self.assertEqual(listed & names, set())

    def test_no_rule_names_a_held_out_document(self):
        with open(os.path.join(HERE, "rules.toml")) as f:
            rules = f.read()
        named = [n for doc in self.every_held_out() for n in (doc, doc.replace("/", "_")) if n in rules]
        self.assertEqual(named, [])


STRICT_DOCUMENT = {
    "paths": {
        "/a": {"get": {"responses": {"200": {}}}, "post": {"responses": {"200": {}, "400": {}}}},
        "/b": {"get": {"responses": {"200": {}, "4XX": {}}}, "put": {"responses": {"200": {}}}},
        "/c": {"get": {"responses": {"200": {}}}, "put": {"responses": {"200": {}}}, "post": {"responses": {"200": {}}}},
    }
}


def st103(case_id, status):
    return (
        f"{case_id[-1]}. Test Case ID: {case_id}\n\n- ST103 Undocumented status code\n\n    Received: {status}\n"
        f"    Documented: 200\n\n[{status}] Bad Request:\n\n    `{{}}`\n\nReproduce with:\n\n    curl -X GET http://x/a\n"
    )


class TheIndependentReading(unittest.TestCase):
    """strict_reading.py on a tiny run: JUnit, cassette, log and the original document."""

    def read(self):
        cases = [
            ("GET /a", st103("n1", 400), False),  # negative, undocumented: fair
            ("POST /a", st103("n2", 400), False),  # negative, but the document lists 400
            ("GET /b", st103("n3", 404), False),  # negative, listed by its range 4XX
            ("PUT /b", st103("p4", 400), False),  # positive: a refusal of a valid request
            ("GET /c", None, False),
            ("PUT /c", None, True),
            ("POST /c", None, False),  # every request answered 401
        ]
        modes = {"n1": "negative", "n2": "negative", "n3": "negative", "p4": "positive"}
        cassette_text = "http_interactions:" + "".join(
            f"\n- id: '{cid}'\n  status: 'FAILURE'\n  generation:\n    time: 0.1\n    mode: {mode}\n  components:"
            for cid, mode in modes.items()
        )
        log = "Authentication failed:\n\n401 Unauthorized (2 requests):\n  - POST /c\n\nSummary\n"
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in (("r.junit.xml", junit(cases)), ("r.cassette.yaml", cassette_text), ("r.schemathesis.log", log),
                               ("doc.json", json.dumps(STRICT_DOCUMENT))):
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(text)
            out = subprocess.run(
                [sys.executable, os.path.join(HERE, "strict_reading.py"), "doc.json", os.path.join(tmp, "r.junit.xml"),
                 os.path.join(tmp, "doc.json")],
                capture_output=True, text=True, check=True,
            ).stdout
        return {line.split("\t")[1]: line.split("\t")[2:] for line in out.splitlines()}

    def test_each_reading(self):
        found = self.read()
        self.assertEqual({op: r[0] for op, r in found.items()}, {
            "GET /a": "fair-refusal", "POST /a": "not", "GET /b": "not", "PUT /b": "not",
            "GET /c": "pass", "PUT /c": "not-judged", "POST /c": "not",
        })
        self.assertEqual(found["PUT /b"][1], "case p4: 400 to a request meant to follow the document (positive; ST103)")
        self.assertEqual(found["POST /a"][1], "case n2: 400, which the document lists (ST103)")

    def test_it_reads_nothing_of_the_judge(self):
        with open(os.path.join(HERE, "strict_reading.py")) as f:
            imports = re.findall(r"^\s*(?:import|from) (\w+)", f.read(), re.M)
        self.assertEqual(set(imports) - {"json", "re", "sys", "xml", "yaml"}, set())


if __name__ == "__main__":
    unittest.main()
