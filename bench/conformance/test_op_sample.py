"""A seeded sample of a document's operations (op_sample.py, bench/conformance.sh's `OPS=N
SEED=S`): reproducible, trimmed to what the sample reaches, labelled as a sample (standard
library only): python3 -m unittest discover -s bench/conformance -p 'test_*.py'"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import op_sample  # noqa: E402


def document(count):
    """An OpenAPI 3 document of `count` GET operations, each answering its own schema, which
    refers to a shared one; one schema nothing refers to."""
    paths = {f"/things/{i:02}": {"parameters": [{"$ref": "#/components/parameters/Limit"}], "get": {
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/Thing{i:02}"}}}}}}} for i in range(count)}
    schemas = {f"Thing{i:02}": {"type": "object", "properties": {"owner": {"$ref": "#/components/schemas/Owner"}}} for i in range(count)}
    schemas["Owner"] = {"type": "object", "properties": {"name": {"type": "string"}}}
    schemas["Unused"] = {"type": "string"}
    return {
        "openapi": "3.0.0",
        "info": {"title": "t", "version": "1"},
        "paths": paths,
        "components": {
            "schemas": schemas,
            "parameters": {"Limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}}},
            "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}},
        },
    }


class TheDraw(unittest.TestCase):
    def test_the_same_seed_draws_the_same_operations(self):
        doc = document(30)
        self.assertEqual(op_sample.draw(doc, 5, 7), op_sample.draw(doc, 5, 7))
        self.assertEqual(len(op_sample.draw(doc, 5, 7)), 5)

    def test_another_seed_draws_others(self):
        doc = document(30)
        self.assertNotEqual(op_sample.draw(doc, 5, 7), op_sample.draw(doc, 5, 8))

    def test_the_draw_does_not_depend_on_the_order_of_the_paths(self):
        doc = document(30)
        reordered = dict(doc, paths=dict(reversed(list(doc["paths"].items()))))
        self.assertEqual(op_sample.draw(doc, 5, 7), op_sample.draw(reordered, 5, 7))

    def test_a_small_document_is_whole(self):
        self.assertEqual(len(op_sample.draw(document(4), 5, 7)), 4)


class TheCopy(unittest.TestCase):
    def test_keeps_the_sampled_operations_and_what_they_reach(self):
        doc = document(10)
        sample = [("/things/03", "get")]
        copy = op_sample.trimmed(doc, sample)
        self.assertEqual(list(copy["paths"]), ["/things/03"])
        self.assertEqual(sorted(copy["components"]["schemas"]), ["Owner", "Thing03"])
        self.assertEqual(list(copy["components"]["parameters"]), ["Limit"])
        self.assertEqual(list(copy["components"]["securitySchemes"]), ["key"])
        # The original is left as it was.
        self.assertEqual(len(doc["components"]["schemas"]), 12)

    def test_leaves_out_the_unsampled_methods_of_a_kept_path(self):
        doc = document(2)
        doc["paths"]["/things/00"]["delete"] = {"responses": {"204": {"description": "gone"}}}
        copy = op_sample.trimmed(doc, [("/things/00", "delete")])
        self.assertEqual(sorted(copy["paths"]["/things/00"]), ["delete", "parameters"])
        self.assertEqual(copy["components"]["schemas"], {})


class TheCommand(unittest.TestCase):
    def run_sample(self, count, seed=1):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "doc.json")
            with open(path, "w") as f:
                json.dump(document(12), f)
            out = os.path.join(tmp, "sample")
            line = subprocess.run([sys.executable, os.path.join(HERE, "op_sample.py"), path, str(count), str(seed), out],
                                  capture_output=True, text=True, check=True).stdout
            written = sorted(os.listdir(out)) if os.path.isdir(out) else []
            if not written:
                return line, written, ""
            with open(os.path.join(out, "operations.txt")) as f:
                return line, written, f.read()

    def test_writes_the_copy_and_the_operations_schemathesis_includes(self):
        line, written, operations = self.run_sample(3)
        self.assertEqual(line, "sampled\t3\t12\t1\n")
        self.assertEqual(written, ["operations.txt", "sampled.json"])
        self.assertEqual(len(operations.splitlines()), 3)
        self.assertTrue(all(op.startswith("GET /things/") for op in operations.splitlines()))

    def test_a_document_within_the_count_is_judged_whole(self):
        self.assertEqual(self.run_sample(12), ("whole\t12\t12\t1\n", [], ""))


class TheLabels(unittest.TestCase):
    def labels(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
            f.write(text)
        try:
            return op_sample.sample_labels(f.name)
        finally:
            os.unlink(f.name)

    def test_a_sampled_document_is_labelled_and_a_whole_one_is_not(self):
        labels = self.labels("stripe.com.json\tsampled\t100\t452\t1\nsmall.json\twhole\t7\t7\t1\n")
        self.assertEqual(labels, ["SAMPLE: stripe.com.json: 100 of 452 operations (seed 1); its figures are of the sample"])

    def test_both_reports_print_the_label(self):
        with tempfile.TemporaryDirectory() as tmp:
            samples = os.path.join(tmp, "samples.tsv")
            with open(samples, "w") as f:
                f.write("big.json\tsampled\t2\t9\t5\n")
            server = os.path.join(tmp, "server.tsv")
            with open(server, "w") as f:
                f.write("big.json\tGET /a\tpass\t\n")
            calls, docs = os.path.join(tmp, "calls.tsv"), os.path.join(tmp, "documents.tsv")
            with open(calls, "w") as f:
                f.write("big.json\tgetA\tok\t0\t\n")
            with open(docs, "w") as f:
                f.write("big.json\tjudged\tbig.json\n")
            label = "SAMPLE: big.json: 2 of 9 operations (seed 5); its figures are of the sample"
            for command in ([os.path.join(HERE, "server_report.py"), server, "", "", "", "", samples],
                            [os.path.join(HERE, "report.py"), calls, docs, "0", samples]):
                printed = subprocess.run([sys.executable] + command, capture_output=True, text=True).stdout
                self.assertIn(label, printed.splitlines(), command[0])


if __name__ == "__main__":
    unittest.main()
