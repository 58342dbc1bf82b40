"""What the import of a document says, read from the imported spec's text (no YAML parser:
the judge needs only a few facts): the gap ids it recorded, the operations it left out, the
bodies and answers it typed `json`, its nullable enumerations, and the fields it typed as a
union or as any JSON. A failure counts as a gap only where the import says so."""
import glob
import os
import re
from dataclasses import dataclass, field


@dataclass
class Imported:
    """The facts of one import that the rules read (rules.toml's `gaps` and `test`)."""

    recorded: set = field(default_factory=set)
    # "METHOD /path" -> the gap kind it was left out for (`methods`, `routes`...).
    left_out: dict = field(default_factory=dict)
    # ("METHOD /path", "body" | "body-keywords" | "body-compositions" | "response" |
    # "response-compositions").
    untyped: set = field(default_factory=set)
    nullable_enums: set = field(default_factory=set)
    union_fields: set = field(default_factory=set)
    json_fields: set = field(default_factory=set)


def spec_texts(api_yaml):
    """The text of every file of the imported spec (beside `api.yaml`), each read once."""
    texts = []
    for name in sorted(glob.glob(os.path.join(os.path.dirname(api_yaml), "*.yaml"))) if api_yaml else []:
        try:
            texts.append(open(name).read())
        except OSError:
            continue
    return texts


def gaps_section(texts):
    """The text of the spec's `gaps:` mapping, or ""."""
    for text in texts:
        section = re.search(r"^gaps:\n((?:[ #].*\n|\n)*)", text, re.M)
        if section:
            return section.group(1)
    return ""


def recorded_gaps(section):
    """The gap ids the import recorded."""
    return set(re.findall(r"^  ([a-z0-9-]+):$", section, re.M))


def left_out_operations(section):
    """The operations the import left out (gap `left-out-<name>`: "operation `POST /path`
    (name): why"), each with the kind it names in its decision (`... (methods)`)."""
    found = {}
    for entry in re.finditer(r"^  left-out-[a-z0-9-]+:\n((?:    .*\n)*)", section, re.M):
        operation = re.search(r'^    gap: "?operation `([A-Z]+ [^`]+)`', entry.group(1), re.M)
        kind = re.search(r"^    decision: .*\(([a-z0-9-]+)\)\"?\s*$", entry.group(1), re.M)
        if operation:
            found[operation.group(1)] = kind.group(1) if kind else "left-out"
    return found


def untyped_operations(texts):
    """("METHOD /path", "body" or "response") of each operation of the imported spec whose
    request body or success response the import typed `json` (any JSON): a shape the format
    cannot say (gaps union-overlaps, compositions), which the router does not check and the
    mock answers with a made-up value."""
    found = set()
    for text in texts:
        for block in re.split(r"\n(?=  [A-Za-z0-9_]+:\n)", text):
            method = re.search(r"^    method: (\w+)", block, re.M)
            route = re.search(r'^    path: "?([^"\n]+)"?', block, re.M)
            if method and route:
                key = f"{method.group(1)} {route.group(1)}"
                found |= {(key, kind) for kind in untyped_parts(block)}
    return found


def untyped_parts(block):
    """Which parts of one operation's block the import typed `json` or reduced."""
    parts = set()
    if re.search(r"^    body: \{ type: (list<|map<)?json\b|^    body:\n      type: (list<|map<)?json>?$", block, re.M):
        parts.add("body")
    # A body whose schema keywords the import left out (`anyOf` of `required` lists: "at least
    # one of these fields"): gap schema-keywords on the body.
    if re.search(r"^    body:\n(      .*\n)*?      gaps: \[[^\]]*\bschema-keywords\b", block, re.M):
        parts.add("body-keywords")
    # A body whose composition (`allOf` of parts the format cannot merge) the import reduced.
    if re.search(r"^    body:\n(      .*\n)*?      gaps: \[[^\]]*\bcompositions\b", block, re.M):
        parts.add("body-compositions")
    # A success response with a composition reduced anywhere in it (a field whose `allOf`
    # parts contradict each other: sendgrid's `last_event_time`, a string in one part and an
    # integer in the other, which no value can be).
    if re.search(r"^    response:\n(      .*\n)*?      +gaps: \[[^\]]*\bcompositions\b", block, re.M):
        parts.add("response-compositions")
    if re.search(r"^    response: \{[^\n]*\btype: (list<|map<)?json>? \}|^    response:\n(      .*\n)*?      type: (list<|map<)?json>?$", block, re.M):
        parts.add("response")
    return parts


def nullable_enumerations(texts):
    """The names of the fields the imported spec keeps as nullable enumerations: OpenAPI 3.0's
    `nullable: true` beside an `enum` that does not list `null`."""
    # Enumerations declared as types of their own (`EncryptedMedia: {enum: [SRTP, ZRTP]}`).
    enum_types = {m.group(1) for t in texts for m in re.finditer(r"^  (\w+):\n(?:    .*\n)*?    enum:", t, re.M)}
    enum_types |= {m.group(1) for t in texts for m in re.finditer(r"^  (\w+): \{[^\n]*\benum:", t, re.M)}
    # An inline enumeration is named where first declared and referred to by that name
    # elsewhere (`type: CreateInboundIpRequestDefaultRoutingMethod`): a type name declared
    # nowhere as a type of its own with fields or variants.
    shaped = {m.group(1) for t in texts for m in re.finditer(r"^  (\w+):(?: \{[^\n]*\b(?:fields|union|items):|\n(?:    .*\n)*?    (?:fields|union|items|type):)", t, re.M)}
    scalars = {"string", "integer", "number", "boolean", "url", "json", "bytes", "date", "time", "file"}
    not_enums = shaped | scalars
    found = set()
    for text in texts:
        lines = text.split("\n")
        for i, line in enumerate(lines):
            head = re.match(r"^( +)([^ :]+): *(\{.*)?$", line)
            if head and nullable_enum_node(node_below(lines, i, head), enum_types, not_enums):
                found.add(head.group(2))
    return found


def node_below(lines, i, head):
    """The text of the node whose key is on line i: its inline part and the lines indented
    deeper below it."""
    indent = len(head.group(1))
    body = [head.group(3) or ""]
    for below in lines[i + 1 :]:
        if below.strip() and len(below) - len(below.lstrip()) <= indent:
            break
        body.append(below)
    return "\n".join(body)


def nullable_enum_node(node, enum_types, not_enums):
    """Whether a node is `nullable: true` and an enumeration (inline or by its type's name)."""
    typed = re.search(r"\btype: (\w+)", node)
    enumerated = re.search(r"\benum:", node) or (
        typed and (typed.group(1) in enum_types or (typed.group(1) not in not_enums and typed.group(1)[0].isupper()))
    )
    return bool(re.search(r"\bnullable: true\b", node) and enumerated)


def union_fields_of(texts):
    """Fields the imported spec types as a union (`delay_days: { type: ...DelayDays }` with
    `union:`): in a form's text a union's variants may not be told apart (`"0"` is the integer
    0 and the string `0`, one value is a list of one)."""
    union_types = {m.group(1) for t in texts for m in re.finditer(r"^  (\w+):(?: \{ ?union:|\n(?:    .*\n)*?    union:)", t, re.M)}
    return {
        m.group(1)
        for t in texts
        for m in re.finditer(r"^ +([\w.-]+):(?: \{ type: (\w+)|\n +type: (\w+))", t, re.M)
        if (m.group(2) or m.group(3)) in union_types
    }


def json_fields_of(texts):
    """Fields the imported spec types any JSON (`criteria: { type: json }`): a union whose
    variants overlap, a composition the format cannot say (gaps union-overlaps, compositions)."""
    return {m.group(1) for t in texts for m in re.finditer(r"^ +([\w.-]+): \{ type: (?:list<|map<)?json\b", t, re.M)}


def read_import(api_yaml):
    """The facts of the import whose `api.yaml` is at this path ("" or missing: none)."""
    texts = spec_texts(api_yaml)
    try:
        section = gaps_section([open(api_yaml).read()]) if api_yaml else ""
    except OSError:
        section = ""
    return Imported(
        recorded=recorded_gaps(section),
        left_out=left_out_operations(section),
        untyped=untyped_operations(texts),
        nullable_enums=nullable_enumerations(texts),
        union_fields=union_fields_of(texts),
        json_fields=json_fields_of(texts),
    )
