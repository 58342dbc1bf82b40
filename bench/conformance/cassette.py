"""Reading schemathesis's VCR cassette (`--report vcr`): the generation mode of each test case,
by the case id its JUnit failure text shows (`1. Test Case ID: 0ALWp0`). schemathesis says
there whether it meant a request to follow the document (`positive`) or to break it
(`negative`): a refusal is fair only of a negative one. Nothing here judges."""
import re

INTERACTION = re.compile(r"^- id: '([^']*)'\n  status: '[A-Z]+'\n  generation:\n    time: [^\n]*\n    mode: (\w+)", re.M)


def modes_of_text(text):
    """{case id: "positive" | "negative"} of a cassette's text (cases without metadata absent)."""
    return {case: mode for case, mode in INTERACTION.findall(text)}


def modes_of(path):
    """The modes of the cassette at `path`; {} when there is none (no case is then negative)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return modes_of_text(f.read())
    except (OSError, TypeError):
        return {}


def case_id_of(case_text):
    """The id of the test case a JUnit failure text shows, or None."""
    found = re.match(r"\s*\d+\. Test Case ID: (\S+)", case_text)
    return found.group(1) if found else None
