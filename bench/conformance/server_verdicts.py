"""One line per operation schemathesis tested, from its JUnit report: the document, the
operation, `pass` or `fail`, and each failure as `class<TAB>example` (bench/conformance.sh).

A failure is `<code> <title>` as schemathesis names it (`ST103 Undocumented status code`). An
undocumented status that is a refusal the router must make (400 for a request breaking the
document's rules, 401, 404, 405, 406, 413, 415, and 414 or 431 for a target or headers past
the server's limits) is `undocumented-refusal <status>`: the document's own incompleteness,
counted apart. A request schemathesis calls accepted (ST201) that was answered 413, 414 or 431
was refused too (schemathesis' list of rejections lacks those): it counts the same way. A failure the format cannot express yet is a
named gap, counted apart too, as is the document's own imprecision:
  document untyped-object
                     a body that is not an object (`null`, `true`, a list) refused where the
                     document's schema gives `properties` (often `required` ones) without
                     `type: object`: by JSON Schema any non-object then fits vacuously, which
                     no API means (Discourse's bodies need their required fields); the format
                     reads such a schema as an object, as the API does; so is a `null` refused
                     where the document's schema at that place (read from the DOCUMENT) has
                     properties and neither `type` nor `nullable` (Azure's `customProfile`);
  gap open-objects   a request object holding fields its schema does not declare is refused
                     (the format's objects are closed to requests; OpenAPI's are open unless
                     `additionalProperties: false`);
  gap dropped-body   a body sent to an operation whose document body the import left out
                     (a GET or HEAD body, gap `bodies-on-get-delete`);
  gap big-integers   an integer of 19 digits or more (or written with an exponent past
                     that, `9.2e+28`) refused where the document gives `type: integer` with no
                     format or bounds (JSON Schema's integers are unbounded; the format's are
                     64-bit);
  gap form-text      a urlencoded or multipart form, or a query parameter, "of the wrong type"
                     accepted: their values are text only, so schemathesis' mistyped value (a
                     number for a string, a string for a list) arrives as text the field takes;
                     so does a value breaking one variant of a union in a form that another
                     variant takes as text (`"000…0"` the integer 0, one value a list of one);
  gap item-constraints
                     a parameter's list item past its own bounds accepted (the format keeps
                     constraints on the list, not its items: gap of that name in the imported
                     spec);
  gap number-as-integer
                     a fraction refused where the document gives `type: number` with an
                     integer format (`int32`), which the import reads as an integer (as Prism
                     does; schemathesis ignores the format): gap of that name;
  gap error-body     a refusal of the router answered in the built-in error body where the
                     document's error schema wants another the import could not map (gap
                     `error-body`, `error-body-no-message` or `error-body-unfillable` in the
                     imported spec);
  gap request-media-alternatives
                     a body in a media type the import left out (gap of that name in the
                     imported spec: XML, an object as `application/octet-stream`) refused with
                     415, or sent as nothing (schemathesis has no bytes for an object as
                     `application/octet-stream`) and refused as missing or, with a JSON
                     `Content-Type`, as empty JSON;
  gap error-media    a refusal of the router answered in JSON where the document gives that
                     error response only as text (gap of that name in the imported spec);
  gap unique-items   a list with repeated items accepted where the document says
                     `uniqueItems` (gap of that name in the imported spec);
  gap patterns       a value breaking a pattern with look-around (which the regex engine has
                     not) accepted: gap of that name in the imported spec;
  gap exclusive-bounds
                     a number on an exclusive bound of a `number` accepted (the format's
                     ranges are inclusive): gap of that name in the imported spec;
  document nullable-enum
                     `null` accepted for a `nullable: true` enumeration that does not list it:
                     OpenAPI 3.0.3 lets `enum` apply, the document says nullable;
  document form-empty-list
                     a form without a key for a required list accepted: a form writes the
                     empty list, which the schema allows, as no key at all;
  document empty-list-text
                     a list parameter sent as `ids=` refused for holding too few items:
                     OpenAPI's style table writes the empty list so, and schemathesis writes
                     `[""]` the same way (the router reads the table);
  document content-on-204
                     a 204 answered without the content the document gives it (RFC 9110,
                     15.3.5: a 204 cannot contain content);
  gap property-counts
                     an object of more (fewer) properties than `maxProperties` (`minProperties`)
                     allows accepted: gap of that name in the imported spec;
  gap nullable-items a `null` value of a map or list whose items the document lets be null
                     refused (gap of that name in the imported spec);
  gap schema-keywords
                     a body missing fields that only a keyword the import left out requires
                     (`anyOf` of `required` lists: at least one of them) accepted: gap of that
                     name on the body in the imported spec;
  gap json-body      a body breaking the document's schema accepted where the import typed the
                     body, or the body's field the value breaks, `json` (any JSON: a union
                     whose variants overlap, a composition the format cannot say; gaps
                     union-overlaps, compositions): the router checks JSON, not the shape;
  gap compositions   a body breaking the document's schema accepted where the import reduced
                     the body's composition (gap of that name on the body: parts typed any
                     JSON, sendgrid's `reply_to`), or the mock's answer refused where the
                     import reduced a composition in the response (parts that contradict
                     each other);
  gap json-response  the mock's made-up answer (`{"key": "value"}`) refused by the schema of a
                     success response the import typed `json` for the same reasons;
  gap no-success-response
                     a 200 answered by an operation whose document lists no success status
                     (only 3xx, 4xx or 5xx): the import declares it answering 200 without a
                     body (gap of that name in the imported spec);
  document closed-allof
                     an answer refused by `additionalProperties: false` beside `allOf`: JSON
                     Schema checks it against the schema's own `properties` only, so every
                     property the `allOf` brings is "additional" and no object with them fits
                     (Azure's logic-apps `ConnectionGatewayDefinition`);
  document ignored-header
                     an `Accept` or `Content-Type` header the document declares as a
                     parameter, which OpenAPI says "SHALL be ignored" (3.0.3 and 3.1.0,
                     Parameter Object, `name`): a request without `Accept` accepted (an absent
                     `Accept` takes any answer), or one with a value schemathesis made up from
                     the parameter's schema refused (406 for `Accept`; 415, or the body read
                     as missing, for a `Content-Type` that is no media type; the import leaves
                     the parameter out, gap header-params).
An operation schemathesis's log lists under "Authentication failed" (every request answered
401 or 403) fails as `auth-refused`: no check judged it.
  document malformed-media-type
                     an answer without the `Content-Type` the document names where that name is
                     no media type (telnyx's `*`; RFC 9110, 8.3.1: `type "/" subtype`), which
                     schemathesis cannot parse either;
  document contradictory-allof
                     an answer refused by an enumeration inside one part of an `allOf` where
                     the schema beside the `allOf` lists other values for the same property,
                     none in common: no value fits both (sendgrid's `bounce_type`);
  document oneof-discriminated
                     an answer "valid under more than one" variant of a `oneOf` whose variants
                     only its `discriminator` tells apart: JSON Schema ignores the
                     discriminator, so every instance of one variant fits the others too and no
                     answer is valid (telnyx's `DetailRecord`);
  gap left-out-operation
                     any failure of an operation the import left out (gap `left-out-<name>`:
                     a route the format cannot say, a body it cannot take): the generated
                     server does not serve it, so another operation's route or a 404 answers;
  gap form-objects   a urlencoded form whose object the request wrote in OpenAPI's default
                     `form` style (its fields as keys of their own) refused as missing: the
                     format reads nested objects in brackets (gap of that name);
  gap object-params  a query parameter the import left out (gap of that name: an exploded
                     object of nested values, a union) refused as not a parameter of the
                     operation.
A failure that is the judge's own is counted apart too, like the document's:
  judge form-objects a list of objects in a urlencoded form refused as strings: schemathesis
                     (python's `urlencode`) writes each object as its keys
                     (`lines=amount&lines=description`), not in the brackets of the
                     document's `encoding` (`style: deepObject`), so the request does not hold
                     the value it meant;
  judge form-null    a form field given as the text `null` refused (not a URL, not a number):
                     schemathesis writes a `null` into a form so, and a form has no null;
  judge pattern-unchecked
                     a header or query value refused for breaking the document's `pattern`
                     that breaks it by Python's own `re` too: schemathesis's coverage phase
                     sent it as valid (mediastore-data's `Range: 0` for `^bytes=...$`);
  judge form-empty   a urlencoded form refused for lacking required fields it gives no key
                     for: schemathesis held them (it calls the request valid), but python's
                     urlencode writes an empty object or list as nothing (Stripe's
                     `business_profile`, `features`);
  judge byte-format  a string breaking OpenAPI's `format: byte` (base64, OpenAPI 3.0.3, Data
                     Types) refused: schemathesis does not check that format, and sends the
                     document's example (`[Base64 encoded content]`) as valid;
  judge no-serializer
                     schemathesis could not write a request body in the document's media type
                     (`application/tar`): no request was sent;
  judge unknown-header
                     a request with a header the document does not declare accepted: HTTP's
                     recipients ignore header fields they do not recognise (RFC 9110, 5.1:
                     "Other recipients SHOULD ignore unrecognized header and trailer fields"),
                     which is how HTTP is extended; no server refuses one.
Usage: server_verdicts.py DOC_NAME junit.xml [IMPORTED_API_YAML [DOCUMENT]]"""
import re
import sys
import xml.etree.ElementTree as ET

# An integer past 64 bits: 19 digits or more, or a whole number written with an exponent of
# 19 or more (`9.246641566121596e+28`).
BIG_INTEGER = r'expected (an integer, found \\"-?\d{19,}|a whole number, found the number -?\d(\.\d+)?e\+(19|[2-9]\d|\d{3}))'
REFUSALS = {"400", "401", "404", "405", "406", "413", "414", "415", "431"}
doc, path = sys.argv[1], sys.argv[2]
# The gap ids the import recorded: a failure counts as a gap only where the import says so.
try:
    spec = open(sys.argv[3]).read() if len(sys.argv) > 3 else ""
except OSError:
    spec = ""
section = re.search(r"^gaps:\n((?:[ #].*\n|\n)*)", spec, re.M)
recorded = set(re.findall(r"^  ([a-z0-9-]+):$", section.group(1), re.M)) if section else set()
# Operations the import left out (gap `left-out-<name>`: "operation `POST /path` (name): why"):
# the generated server does not serve them, so whatever answers there is a named gap.
left_out = set(re.findall(r'^    gap: "operation `([A-Z]+ [^`]+)`', section.group(1), re.M)) if section else set()


def spec_texts(api_yaml):
    """The text of every file of the imported spec (beside `api.yaml`), each read once."""
    import glob
    import os

    texts = []
    for name in sorted(glob.glob(os.path.join(os.path.dirname(api_yaml), "*.yaml"))) if api_yaml else []:
        try:
            texts.append(open(name).read())
        except OSError:
            continue
    return texts


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
            if not (method and route):
                continue
            key = f"{method.group(1)} {route.group(1)}"
            if re.search(r"^    body: \{ type: (list<|map<)?json\b|^    body:\n      type: (list<|map<)?json>?$", block, re.M):
                found.add((key, "body"))
            # A body whose schema keywords the import left out (`anyOf` of `required` lists:
            # "at least one of these fields"): gap schema-keywords on the body.
            if re.search(r"^    body:\n(      .*\n)*?      gaps: \[[^\]]*\bschema-keywords\b", block, re.M):
                found.add((key, "body-keywords"))
            # A body whose composition (`allOf` of parts the format cannot merge) the import
            # reduced: gap compositions on the body.
            if re.search(r"^    body:\n(      .*\n)*?      gaps: \[[^\]]*\bcompositions\b", block, re.M):
                found.add((key, "body-compositions"))
            # A success response with a composition reduced anywhere in it (a field whose
            # `allOf` parts contradict each other: sendgrid's `last_event_time`, a string in
            # one part and an integer in the other, which no value can be).
            if re.search(r"^    response:\n(      .*\n)*?      +gaps: \[[^\]]*\bcompositions\b", block, re.M):
                found.add((key, "response-compositions"))
            if re.search(r"^    response: \{[^\n]*\btype: (list<|map<)?json>? \}|^    response:\n(      .*\n)*?      type: (list<|map<)?json>?$", block, re.M):
                found.add((key, "response"))
    return found


texts = spec_texts(sys.argv[3] if len(sys.argv) > 3 else "")


def load_document(doc_path):
    """The original document (JSON or YAML), or None."""
    try:
        text = open(doc_path).read()
    except (OSError, TypeError):
        return None
    try:
        import json

        return json.loads(text)
    except ValueError:
        try:
            import yaml

            return yaml.safe_load(text)
        except Exception:
            return None


document = load_document(sys.argv[4] if len(sys.argv) > 4 else None)


def resolve(schema, depth=0):
    """A schema with its `$ref` followed and its `allOf` parts' properties and types merged."""
    if not isinstance(schema, dict) or depth > 20:
        return {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/") and document is not None:
        target = document
        for key in ref[2:].split("/"):
            key = key.replace("~1", "/").replace("~0", "~")
            target = target.get(key, {}) if isinstance(target, dict) else {}
        return resolve(target, depth + 1)
    merged = dict(schema)
    for part in schema.get("allOf") or []:
        part = resolve(part, depth + 1)
        merged.setdefault("properties", {})
        merged["properties"] = {**part.get("properties", {}), **merged["properties"]}
        for key in ("type", "nullable", "items", "additionalProperties"):
            if key in part and key not in merged:
                merged[key] = part[key]
    return merged


def body_schema_at(name, pointer):
    """The schema of the request body of operation `name` ("PUT /path") at the JSON pointer
    `pointer` (`/properties/customProfile`), resolved; None when it cannot be told."""
    if document is None:
        return None
    method, _, route = name.partition(" ")
    operation = (document.get("paths") or {}).get(route, {}).get(method.lower())
    if not isinstance(operation, dict):
        return None
    body = resolve(operation.get("requestBody") or {})
    content = body.get("content") or {}
    media = next((m for m in content if "json" in m), None)
    if media is None:
        return None
    schema = resolve(content[media].get("schema") or {})
    for key in [k.replace("~1", "/").replace("~0", "~") for k in pointer.split("/")[1:]]:
        if key.isdigit() and "items" in schema:
            schema = resolve(schema["items"])
        elif key in (schema.get("properties") or {}):
            schema = resolve(schema["properties"][key])
        elif isinstance(schema.get("additionalProperties"), dict):
            schema = resolve(schema["additionalProperties"])
        else:
            return None
    return schema


def deref(schema, depth=0):
    """A schema with its `$ref` followed (nothing merged)."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and depth < 20 and document is not None:
        target = document
        for key in schema["$ref"][2:].split("/"):
            target = target.get(key.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
        schema, depth = target, depth + 1
    return schema if isinstance(schema, dict) else {}


def walk(schema, steps):
    """The schema at `steps` (`properties`, a name, `items`, `allOf`, an index...) below
    `schema`, references followed; {} when there is none."""
    for step in steps:
        if isinstance(schema, list):
            node = schema[int(step)] if step.isdigit() and int(step) < len(schema) else None
        else:
            node = deref(schema).get(step)
        schema = node if node is not None else {}
    return deref(schema)


def contradictory_enum(name, block):
    """Whether the answer was refused by an `enum` inside one part of an `allOf` while the
    schema beside that `allOf` lists other values for the same property, none in common: no
    value fits both (sendgrid's `bounce_type`: `soft`, `hard` in one, `bounced`, `blocked`,
    `expired` in the other)."""
    found = re.search(r"Schema at /allOf/(\d+)/((?:[^\s:]+/)*[^\s:/]+):", block)
    if document is None or not found or "is not one of" not in block:
        return False
    method, _, route = name.partition(" ")
    operation = (document.get("paths") or {}).get(route, {}).get(method.lower()) or {}
    status = re.search(r"status code (\d{3})", block)
    response = deref(((operation.get("responses") or {}).get(status.group(1) if status else "200")) or {})
    media = next(iter((response.get("content") or {}).values()), {})
    root = deref(media.get("schema") or {})
    steps = found.group(2).split("/")
    part = walk(root, ["allOf", found.group(1)] + steps)
    beside = walk(root, steps)
    one, other = part.get("enum"), beside.get("enum")
    return bool(one and other and not set(map(str, one)) & set(map(str, other)))


def untyped_at(name, pointer):
    """Whether the body schema at `pointer` takes `null` by JSON Schema: properties given,
    but neither a `type` nor `nullable`."""
    schema = body_schema_at(name, pointer)
    return bool(schema) and "properties" in schema and "type" not in schema and not schema.get("nullable")
untyped = untyped_operations(texts)


def nullable_enumerations(texts):
    """The names of the fields the imported spec keeps as nullable enumerations: OpenAPI 3.0's
    `nullable: true` beside an `enum` that does not list `null`."""
    found = set()
    # Enumerations declared as types of their own (`EncryptedMedia: {enum: [SRTP, ZRTP]}`).
    enum_types = {m.group(1) for t in texts for m in re.finditer(r"^  (\w+):\n(?:    .*\n)*?    enum:", t, re.M)}
    enum_types |= {m.group(1) for t in texts for m in re.finditer(r"^  (\w+): \{[^\n]*\benum:", t, re.M)}
    # An inline enumeration is named where first declared and referred to by that name
    # elsewhere (`type: CreateInboundIpRequestDefaultRoutingMethod`): a type name declared
    # nowhere as a type of its own with fields or variants.
    shaped = {m.group(1) for t in texts for m in re.finditer(r"^  (\w+):(?: \{[^\n]*\b(?:fields|union|items):|\n(?:    .*\n)*?    (?:fields|union|items|type):)", t, re.M)}
    scalars = {"string", "integer", "number", "boolean", "url", "json", "bytes", "date", "time", "file"}
    for text in texts:
        lines = text.split("\n")
        for i, line in enumerate(lines):
            head = re.match(r"^( +)([^ :]+): *(\{.*)?$", line)
            if not head:
                continue
            indent, inline = len(head.group(1)), head.group(3) or ""
            body = [inline]
            for below in lines[i + 1 :]:
                if below.strip() and len(below) - len(below.lstrip()) <= indent:
                    break
                body.append(below)
            node = "\n".join(body)
            typed = re.search(r"\btype: (\w+)", node)
            enumerated = re.search(r"\benum:", node) or (
                typed and (typed.group(1) in enum_types or (typed.group(1) not in shaped | scalars and typed.group(1)[0].isupper()))
            )
            if re.search(r"\bnullable: true\b", node) and enumerated:
                found.add(head.group(2))
    return found


nullable_enums = nullable_enumerations(texts)

# Fields the imported spec types as a union (`delay_days: { type: ...DelayDays }` with
# `union:`): in a form's text a union's variants may not be told apart (`"0"` is the integer 0
# and the string `0`, one value is a list of one).
union_types = {m.group(1) for t in texts for m in re.finditer(r"^  (\w+):(?: \{ ?union:|\n(?:    .*\n)*?    union:)", t, re.M)}
union_fields = {
    m.group(1)
    for t in texts
    for m in re.finditer(r"^ +([\w.-]+):(?: \{ type: (\w+)|\n +type: (\w+))", t, re.M)
    if (m.group(2) or m.group(3)) in union_types
}

# Fields the imported spec types any JSON (`criteria: { type: json }`): a union whose variants
# overlap, a composition the format cannot say (gaps union-overlaps, compositions).
json_fields = {m.group(1) for t in texts for m in re.finditer(r"^ +([\w.-]+): \{ type: (?:list<|map<)?json\b", t, re.M)}


def refused_credentials(junit_path):
    """The operations schemathesis's log lists under "Authentication failed": every request it
    sent answered 401 or 403, so no other check judged anything (a vacuous pass)."""
    try:
        log = open(re.sub(r"\.junit\.xml$", ".schemathesis.log", junit_path)).read()
    except OSError:
        return set()
    section = re.search(r"^Authentication failed:.*\n((?:\n|\d{3} .*\n|  - .*\n)*)", log, re.M)
    return set(re.findall(r"^  - (.+)$", section.group(1), re.M)) if section else set()


refused = refused_credentials(path)
try:
    suites = ET.parse(path).getroot()
except (OSError, ET.ParseError) as error:
    print(f"{doc}\t*\tno-report\tno report: {error}")
    sys.exit(0)


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
    from urllib.parse import unquote_plus

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


def breaks_own_pattern(text, path, message):
    """Whether a header or query value the refusal names (`header.Range`) breaks the pattern
    it names, by Python's own `re` (the judge's engine): schemathesis sent it as valid anyway."""
    pattern = re.match(r"must match the pattern (.+)$", message.replace("\\\\", "\\"))
    place, _, field = path.partition(".")
    if not pattern or not field:
        return False
    if place == "header":
        sent = re.search(rf"-H '{re.escape(field)}: ([^']*)'", text, re.I)
        value = sent.group(1) if sent else None
    elif place == "query":
        from urllib.parse import parse_qs, urlsplit

        url = re.search(r"'(http://[^']+)'|(http://\S+)", text)
        query = parse_qs(urlsplit((url.group(1) or url.group(2)) if url else "").query, keep_blank_values=True)
        value = (query.get(field) or [None])[0]
    else:
        return False
    try:
        return value is not None and re.search(pattern.group(1), value) is None
    except re.error:
        return False


def failures_of(text, name=""):
    """(class, example) of each failure a JUnit failure text lists, case by case (`1. Test
    Case ID: ...`): a check that shows no response of its own is judged by its own case's."""
    cases = [c for c in re.split(r"\n(?=\d+\. Test Case ID)", text) if c.strip()]
    return [found for case in cases or [text] for found in failures_of_case(case, name)]


def failures_of_case(text, name=""):
    """(class, example) of each failure one test case lists."""
    found = []
    blocks = [b for b in re.split(r"\n(?=- )", text) if re.match(r"- ", b)]
    # A check that shows no response (ST202 often does not) is judged by the refusal another
    # check of the same case shows.
    shown = [v for b in blocks if "[400]" in b for v in violations_in(b)]
    limit = re.search(r"\[(413|414|431)\] ", text)
    for block in blocks:
        head = re.match(r"- (?:([A-Z]+\d+) )?([^\n]+)", block)
        if not head:
            continue
        code, title = head.group(1) or "", head.group(2).strip()
        received = re.search(r"Received: (\d{3})", block)
        violations = violations_in(block) or ([] if "[400]" in block else shown)
        if code == "ST103" and received and received.group(1) in REFUSALS:
            cls = f"undocumented-refusal {received.group(1)}"
        elif (
            code == "ST103"
            and received
            and received.group(1) == "200"
            and "no-success-response" in recorded
            and not re.search(r"Documented: [^\[]*\b2\d\d\b", block)
        ):
            cls = "gap no-success-response"
        elif code in ("ST201", "ST202") and limit:
            # The router's bounds on a request's size (RFC 9110 lets a server refuse content
            # too large, 413, a URI too long, 414, or headers too large, 431): schemathesis
            # sent past them.
            cls = f"undocumented-refusal {limit.group(1)}"
        elif (
            code == "ST202"
            and violations
            and all(re.match(r"must hold at least \d+ items \(found 0\)", v) for v in violations)
            and re.search(r"[?&][^=&' ]+=(&|'|$)", block)
        ):
            # `ids=`: OpenAPI's style table writes an empty list so (form, not exploded), and
            # schemathesis writes `[""]` the same way; the router reads the table.
            cls = "document empty-list-text"
        elif code in ("ST104", "ST109") and re.search(r"\[400\] Bad Request:\s*<EMPTY>", text) and re.search(
            r"\$'[^']*\\x(0[0-8a-f]|1[0-9a-f]|7f)", text
        ):
            # A header holding a control character: no HTTP request (RFC 9110, 5.5), refused by
            # the HTTP parser before any router, with an empty 400.
            cls = "undocumented-refusal 400"
        elif code == "ST202" and re.search(r"\[400\] Bad Request:\s*`[^`]*the limit is \d+", text):
            cls = "undocumented-refusal 400"
        elif (
            code == "ST202"
            and "object-params" in recorded
            and violations
            and all(v == "is not a parameter of this operation" for v in violations)
        ):
            cls = "gap object-params"
        elif (
            code == "ST202"
            and (paths := violation_paths(text))
            and all(form_null(text, p.lstrip("/")) and not m.startswith("is not a field") for p, m in paths)
        ):
            cls = "judge form-null"
        elif (
            code == "ST202"
            and (paths := violation_paths(text))
            and all(breaks_own_pattern(text, p, m) for p, m in paths)
        ):
            cls = "judge pattern-unchecked"
        elif (
            code == "ST202"
            and re.search(r"-H 'Content-Type: application/x-www-form-urlencoded'", text)
            and (paths := refusal_paths(text))
            and all(m == "is required" and form_lacks(text, p.lstrip("/")) for p, m in paths)
        ):
            # Valid by schemathesis, so holding each required field: written as OpenAPI's
            # default form style (an object's fields as keys of their own), which the format
            # does not read (gap form-objects), or, as python's urlencode writes an empty
            # object or list, as nothing at all.
            cls = "gap form-objects" if "form-objects" in recorded else "judge form-empty"
        elif code == "ST202" and violations and all(v == "must be a valid byte" for v in violations):
            cls = "judge byte-format"
        elif code in ("ST104", "ST110") and re.search(r"Malformed media type: `[^`/]*`|documented in the schema:\s*- `\*`", text):
            cls = "document malformed-media-type"
        elif code.startswith("ST108") and contradictory_enum(name, block):
            cls = "document contradictory-allof"
        elif (
            code.startswith("ST108")
            and "is valid under more than one of the schemas listed in the 'oneOf' keyword" in block
            and '"discriminator"' in block
        ):
            cls = "document oneof-discriminated"
        elif code == "ST202" and violations and all(v.startswith("is not a field of this") for v in violations):
            cls = "gap open-objects"
        elif code == "ST202" and violations and all(v == "this operation takes no body" for v in violations):
            cls = "gap dropped-body"
        elif (
            code == "ST202"
            and violations
            and all(re.match(r'expected an object, found the string \\"', v) for v in violations)
            and re.search(r"-H 'Content-Type: application/x-www-form-urlencoded'", text)
        ):
            # python's urlencode writes each object of a list as its keys (`lines=amount&
            # lines=description`), not in the brackets the document's `encoding` asks
            # (`deepObject`): the request does not hold the value schemathesis meant.
            cls = "judge form-objects"
        elif code == "ST202" and violations and all(v.startswith("expected an object, found") for v in violations):
            cls = "document untyped-object"
        elif (
            code == "ST202"
            and (paths := violation_paths(text))
            and all(m == "must not be null" and untyped_at(name, p) for p, m in paths)
        ):
            cls = "document untyped-object"
        elif code == "ST202" and violations and all(re.match(BIG_INTEGER, v) for v in violations):
            cls = "gap big-integers"
        elif (
            code == "ST201"
            and re.search(r"Content-Type: (application/x-www-form-urlencoded|multipart/form-data)", block)
            and (field := re.search(r"Invalid component: in body - (?:[^:\n]* -> )?([\w.-]+): (Invalid enum value|String larger than maxLength|String shorter than minLength)", block))
            and field.group(1) in union_fields
        ):
            # A value of one variant that is also text another variant takes (`"000…0"`, the
            # integer 0; one value, a list of one): the form's text cannot tell them apart.
            cls = "gap form-text"
        elif code == "ST201" and "Incorrect type" in block and (
            re.search(r"Content-Type: (application/x-www-form-urlencoded|multipart/form-data)", block)
            or re.search(r"parameter `[^`]*` in query - [^:]*: Incorrect type", block)
        ):
            cls = "gap form-text"
        elif (
            code == "ST202"
            and "number-as-integer" in recorded
            and violations
            and all(re.match(r'expected an integer, found \\"-?\d+\.\d+(e[-+]?\d+)?\\"', v) for v in violations)
        ):
            cls = "gap number-as-integer"
        elif (
            code == "ST105"
            and "error-media" in recorded
            and re.search(r"Received: application/json\s+Documented: (?!application/json)", block)
            and re.search(r"\[4\d\d\]", block)
        ):
            cls = "gap error-media"
        elif code == "ST201" and "item-constraints" in recorded and re.search(
            r"parameter `[^`]*` in (path|query) - array with invalid items", block
        ):
            cls = "gap item-constraints"
        elif (
            code.startswith("ST108")
            and recorded & {"error-body", "error-body-no-message", "error-body-unfillable", "error-body-elsewhere"}
            and re.search(r"status code (4\d\d|5\d\d)|`default` response schema", block)
            # One of the router's own refusals (not the mock's sample answer).
            and re.search(
                r"the request is invalid|missing credentials|missing `Authorization|the `Authorization` header|"
                r"no operation matches|the body must be|`Accept` allows none",
                block,
            )
        ):
            cls = "gap error-body"
        elif code.startswith("ST108") and "Additional properties are not allowed" in block and re.search(
            r'"additionalProperties":\s*false,\s*"allOf"', block
        ):
            cls = "document closed-allof"
        elif (
            code == "ST202"
            and "request-media-alternatives" in recorded
            and (
                "[415]" in text
                or (violations and all(v == "a JSON body is required" for v in violations))
                or "the body is not valid JSON: EOF while parsing a value at line 1 column 0" in block
            )
        ):
            cls = "gap request-media-alternatives"
        elif (code == "ST104" and "[204] No Content" in block) or (
            # The empty body of the same 204, which the document says is JSON.
            code == "ST109" and "Expecting value: line 1 column 1 (char 0)" in block and "[204] No Content" in text
        ):
            # RFC 9110, 15.3.5: a 204 response cannot contain content; the document gives one.
            cls = "document content-on-204"
        elif code == "ST201" and "item-constraints" in recorded and re.search(
            r"array with invalid items|Object with invalid additional property|violates `\w+`(, `\w+`)* at /properties/[^/ ]+/items",
            block,
            re.I,
        ):
            cls = "gap item-constraints"
        elif code == "ST201" and "Invalid component: in header - object with unexpected properties" in block:
            cls = "judge unknown-header"
        elif code == "ST201" and "unique-items" in recorded and "Non-unique items" in block:
            cls = "gap unique-items"
        elif code == "ST201" and "patterns" in recorded and re.search(r"not matching the '[^']*\(\?[=!<]", block):
            cls = "gap patterns"
        elif code.startswith("ST108") and "patterns" in recorded and re.search(r'does not match "[^\n]*\(\?[=!<]', block):
            # The mock's sample of a value whose look-around pattern the import left out.
            cls = "gap patterns"
        elif code == "ST201" and "exclusive-bounds" in recorded and re.search(
            r"Value (smaller|greater) than (minimum|maximum)", block
        ):
            cls = "gap exclusive-bounds"
        elif (
            code == "ST201"
            and (field := re.search(r"Invalid component: in body - (?:[^:\n]* -> )?(\w+): Incorrect type", block))
            and field.group(1) in nullable_enums
        ):
            # OpenAPI 3.0.3 (the 2019 "Clarify nullable" proposal): `enum` still applies under
            # `nullable: true`, so `null` is valid only where the enumeration lists it; the
            # import keeps the `nullable` the document says (GitHub's `state_reason` is null).
            cls = "document nullable-enum"
        elif code == "ST201" and "property-counts" in recorded and re.search(
            r"Object with (more|fewer) properties than allowed by (max|min)Properties", block
        ):
            cls = "gap property-counts"
        elif (
            code == "ST202"
            and "nullable-items" in recorded
            and violations
            and all(re.search(r"found null", v) for v in violations)
        ):
            cls = "gap nullable-items"
        elif code.startswith("ST108") and "item-constraints" in recorded and re.search(r"Schema at /items:", block):
            cls = "gap item-constraints"
        elif (
            code == "ST201"
            and "Missing required property" in block
            and re.search(r"Content-Type: (application/x-www-form-urlencoded|multipart/form-data)", block)
        ):
            # Only a list can be missing from a form the router accepts (a required scalar
            # is refused): a form writes the empty list as no key at all, so an absent required
            # list is the empty one, which the schema allows.
            cls = "document form-empty-list"
        elif code == "ST201" and "Missing required property" in block and (name, "body-keywords") in untyped:
            cls = "gap schema-keywords"
        elif (
            code == "ST201"
            and re.search(r"Invalid component: (in body|Missing required property)", block)
            and (name, "body") in untyped
        ):
            cls = "gap json-body"
        elif (
            code == "ST201"
            and re.search(r"Invalid component: in body", block)
            and (name, "body-compositions") in untyped
        ):
            cls = "gap compositions"
        elif (
            code.startswith("ST108") and "status code 2" in block and (name, "response-compositions") in untyped
        ):
            cls = "gap compositions"
        elif (
            code == "ST201"
            and recorded & {"union-overlaps", "compositions"}
            and (field := re.search(r"Invalid component: in body - (?:violates `\w+` at /properties/([\w.-]+)|([\w.-]+)[ :])", block))
            and (field.group(1) or field.group(2)) in json_fields
        ):
            cls = "gap json-body"
        elif code.startswith("ST108") and "status code 2" in block and (name, "response") in untyped:
            cls = "gap json-response"
        elif (
            (code == "ST201" and "Invalid component: Missing `Accept` at header" in block)
            or (code == "ST202" and "[406] Not Acceptable" in text)
            or (
                code == "ST202"
                and "header-params" in recorded
                and re.search(r"-H 'Content-Type: (?![a-z]+/[a-z0-9.+-]+)", text)
                and re.search(r"\[415\]|a JSON body is required|the body is not valid JSON: EOF", text)
            )
        ):
            cls = "document ignored-header"
        else:
            cls = f"{code} {title}".strip()
        example = " ".join(block.split())[:600]
        found.append((cls, example))
    return found


for case in suites.iter("testcase"):
    name = case.get("name", "?")
    failures = []
    for failure in list(case.iter("failure")) + list(case.iter("error")):
        text = failure.text or failure.get("message", "")
        unparsed = [(failure.get("message", "error"), (failure.text or "")[:600])]
        if "No supported serializers for media types" in text:
            # schemathesis could not write the body (`application/tar`): no request was sent.
            unparsed = [("judge no-serializer", " ".join(text.split())[:600])]
        failures += failures_of(text, name) or unparsed
    if name in refused:
        failures.append(("auth-refused", "every request was answered 401 or 403: no check judged the operation"))
    if name in left_out:
        failures = [("gap left-out-operation", example) for _, example in failures]
    ours = [f for f in failures if not f[0].startswith(("undocumented-refusal", "gap ", "document ", "judge "))]
    gaps = [f for f in failures if f[0].startswith("gap ")]
    imprecise = [f for f in failures if f[0].startswith("document ")]
    judged = [f for f in failures if f[0].startswith("judge ")]
    verdict = (
        "fail"
        if ours
        else "gap"
        if gaps
        else "document"
        if imprecise
        else "judge"
        if judged
        else "refusal-undocumented"
        if failures
        else "pass"
    )
    fields = [doc, name, verdict] + [f"{cls}\x1f{example}" for cls, example in failures]
    print("\t".join(field.replace("\t", " ").replace("\n", " ") for field in fields))
