"""Classifies the calls bench/conformance.sh made: rates per outcome, failure classes with an
example each, one line per document. Usage: report.py calls.tsv documents.tsv [MIN_RATE] [samples.tsv]: exits 1
when the pass rate is below MIN_RATE percent or a call hung."""
import collections
import json
import re
import sys

import op_sample

calls_path, docs_path = sys.argv[1], sys.argv[2]
min_rate = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
samples_path = sys.argv[4] if len(sys.argv) > 4 else None
PRISM = "stoplight.io/prism/errors#"


def violations_of(text):
    """The violations of a JSON list or object Prism wrote, or those found in text cut short."""
    try:
        value = json.loads(text)
        return value if isinstance(value, list) else value.get("validation") or []
    except ValueError:
        found = []
        for m in re.finditer(r'"location":\[([^\]]*)\],"severity":"[^"]*","code":("?[^,"]*"?),"message":"((?:[^"\\]|\\.)*)"', text):
            location = [part.strip('"') for part in m.group(1).split(",")]
            found.append({"location": location, "code": m.group(2).strip('"'), "message": m.group(3)})
        return found


def classify(kind, status, detail):
    """(outcome, class) of one call."""
    if kind == "ok":
        return "ok", "ok"
    if kind == "hung":
        return "hung", "hung"
    if kind == "decode":
        return "undecoded", "decode: " + re.sub(r"\(near .*", "", detail)[:120]
    if kind == "api" and detail.startswith("sl-violations: "):
        violations = violations_of(detail[len("sl-violations: "):])
        # Violations of the request are ours; those of the answer alone are Prism's own answer
        # failing the document (counted apart, not against the client).
        request = [v for v in violations if v.get("location", [""])[0] == "request"]
        v = (request or violations or [{}])[0]
        where = ".".join(str(part) for part in v.get("location", [])[:2])
        message = re.sub(r"'[^']*'|\"[^\"]*\"|\b\d+\b", "_", v.get("message", ""))
        outcome = "refused" if request else "prism-flagged"
        return outcome, f"{where}: {v.get('code', '')} {message}"[:160]
    if kind == "api" and PRISM in detail:
        kind_name = detail.split(PRISM, 1)[1].split('"', 1)[0]
        violations = violations_of(detail)
        if violations:
            v = violations[0]
            where = ".".join(str(part) for part in v.get("location", [])[:1])
            message = re.sub(r"'[^']*'|\"[^\"]*\"|\b\d+\b", "_", v.get("message", ""))
            return "refused", f"{kind_name} {where}: {v.get('code', '')} {message}"[:160]
        if kind_name in ("NO_PATH_MATCHED_ERROR", "NO_METHOD_MATCHED_ERROR", "UNAUTHORIZED", "UNPROCESSABLE_ENTITY", "INVALID_CONTENT_TYPE", "NOT_ACCEPTABLE"):
            return "refused", kind_name
        return "other", kind_name
    if kind == "api" and status == "401":
        return "refused", "401 without Prism's body"
    return "other", f"{kind} {status}: {detail[:100]}"


def load(path):
    """The document at `path` as a mapping, `{}` when it cannot be read (each read once)."""
    if path not in load.cache:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            doc = {}
        load.cache[path] = doc if isinstance(doc, dict) else {}
    return load.cache[path]


load.cache = {}


def operations(doc):
    """Every operation object of the document."""
    for item in (doc.get("paths") or {}).values():
        for op in item.values() if isinstance(item, dict) else []:
            if isinstance(op, dict):
                yield op


def fragment_keyed(path):
    """True when the document's path keys hold a fragment (AWS's `/#X-Amz-Target=...`): no
    HTTP request carries a fragment, so Prism, which matches the key as a literal path, routes
    none of these operations (NO_PATH_MATCHED_ERROR for the `/` the service is called on, or
    NO_METHOD_MATCHED_ERROR where another key holds the same path without the fragment)."""
    return any("#" in key for key in (load(path).get("paths") or {}))


def resolve(doc, value):
    """`value`, its local `$ref`s followed (a few levels); `{}` for anything but an object."""
    for _ in range(8):
        ref = value.get("$ref") if isinstance(value, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#/"):
            break
        value = doc
        for part in ref[2:].split("/"):
            value = value.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(value, dict) else {}
    return value if isinstance(value, dict) else {}


def answers_a_range(path):
    """True when some success response of the document is given only under a media range
    (`*/*`): Prism cannot produce such a body (it answers 406 to `Accept: application/json`,
    "Unable to find content for application/json", and 500 NO_COMPLEX_OBJECT_TEXT, "Cannot
    serialise complex objects as text", to `Accept: */*`), whatever the client asks."""
    doc = load(path)
    for op in operations(doc):
        responses = op.get("responses") if isinstance(op.get("responses"), dict) else {}
        for status, response in responses.items():
            content = resolve(doc, response).get("content")
            if str(status).startswith("2") and content and all("*" in media for media in content):
                return True
    return False


def form_lists(path):
    """The names of the list properties of the document's urlencoded and multipart request
    bodies. OpenAPI's `form` style (exploded, the default) writes a one-item list as one key
    (`tags=a`), which Prism reads as a string and refuses ("must be array"): a form has no
    types, and only a repeated key tells Prism it holds a list."""
    doc = load(path)
    found = set()
    for op in operations(doc):
        body = resolve(doc, op.get("requestBody", {}))
        for media, entry in (body.get("content") or {}).items():
            if media.split(";")[0].strip() not in ("application/x-www-form-urlencoded", "multipart/form-data"):
                continue
            properties = resolve(doc, (entry or {}).get("schema", {})).get("properties") or {}
            found.update(name for name, prop in properties.items() if resolve(doc, prop).get("type") == "array")
    return found


JSON_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool}


def accepts(doc, schema, value, depth=0):
    """True when `schema` accepts `value` by its types, enums, required and declared
    properties (no formats, patterns or bounds: a lenient reading, so that a variant said to
    accept a value does; `oneOf`/`anyOf` inside are taken as accepting)."""
    schema = resolve(doc, schema)
    if depth > 6:
        return True
    if not all(accepts(doc, part, value, depth + 1) for part in schema.get("allOf") or []):
        return False
    kind = schema.get("type")
    if kind in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind == "integer" and not float(value).is_integer()):
            return False
    elif kind in JSON_TYPES and (not isinstance(value, JSON_TYPES[kind]) or (kind != "boolean" and isinstance(value, bool))):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if not isinstance(value, dict):
        return True
    properties = schema.get("properties") or {}
    if any(name not in value for name in schema.get("required") or []):
        return False
    for name, item in value.items():
        if name in properties:
            if not accepts(doc, properties[name], item, depth + 1):
                return False
        elif schema.get("additionalProperties") is False:
            return False
    return True


def overlapping_one_ofs(path):
    """The operationIds whose JSON request body is a `oneOf` that the document's own example
    of that body matches several variants of, with the evidence (the body's pointer, the
    example, the variants): OpenAPI's `oneOf` asks for exactly one, so Prism refuses the
    document's own example ("must match exactly one schema in oneOf"), and the import, which
    sends that example as the body's sample, cannot choose a variant the document does not
    tell apart (gap `union-overlaps`)."""
    doc = load(path)
    found = {}
    for key, item in (doc.get("paths") or {}).items():
        for method, op in item.items() if isinstance(item, dict) else []:
            if not isinstance(op, dict) or not isinstance(op.get("operationId"), str):
                continue
            entry = (resolve(doc, op.get("requestBody", {})).get("content") or {}).get("application/json") or {}
            variants = resolve(doc, entry.get("schema", {})).get("oneOf") or []
            examples = [("example", entry["example"])] if "example" in entry else []
            examples += [(name, resolve(doc, ex).get("value")) for name, ex in (entry.get("examples") or {}).items()]
            for name, example in examples:
                matched = [v.get("$ref", f"variant {i}") for i, v in enumerate(variants) if accepts(doc, v, example)]
                if example is not None and len(matched) > 1:
                    pointer = "#/paths/" + key.replace("~", "~0").replace("/", "~1") + f"/{method}/requestBody"
                    found[canonical(op["operationId"])] = f"{pointer}: its example `{name}` matches {' and '.join(matched)}"
                    break
    return found


def without_success(path):
    """The operationIds of the document's operations that list no success response (no 2xx,
    no 3xx the client follows, no `default`): Kubernetes' `/logs/` lists only 401, GitHub's
    migration archives only a 302 without a `Location`. Prism answers the status listed, and
    no client call can succeed."""
    found = set()
    for op in operations(load(path)):
        responses = op.get("responses")
        if not isinstance(responses, dict) or not isinstance(op.get("operationId"), str):
            continue
        if not any(str(s).startswith("2") or str(s) == "default" for s in responses):
            found.add(canonical(op["operationId"]))
    return found


def canonical(name):
    """An operation's name as both the document and the imported spec write it: GitHub's
    `migrations/download-archive-for-org` is the spec's `migrationsDownloadArchiveForOrg`."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


unroutable_docs = set()
range_docs = set()
form_list_names = {}
no_success = {}
overlaps = {}

def document_lines(path):
    """(path, status, name) of each line of documents.tsv: `path<TAB>status[<TAB>name]`, the name
    the calls are written under (the file name when the line gives none)."""
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2:
                yield parts[0], parts[1], parts[2] if len(parts) > 2 else parts[0].rsplit("/", 1)[-1]


for path, _, name in document_lines(docs_path):
    if fragment_keyed(path):
        unroutable_docs.add(name)
    if answers_a_range(path):
        range_docs.add(name)
    form_list_names[name] = form_lists(path)
    no_success[name] = without_success(path)
    overlaps[name] = overlapping_one_ofs(path)

# What the client's headline sets aside (each call named in the report): Prism's own limits and
# the document's operations without a success response, none of them the client's doing.
SET_ASIDE = ("prism-flagged", "prism-unroutable", "prism-unproducible", "prism-form-list", "prism-redirect-outside", "document-no-success", "document-overlapping-one-of")
counts = collections.Counter()
classes = collections.defaultdict(list)
set_aside = collections.defaultdict(list)
per_doc = collections.defaultdict(collections.Counter)
with open(calls_path) as f:
    for line in f:
        parts = line.rstrip("\n").split("\t")
        if len(parts) < 5:
            continue
        doc, op, kind, status, detail = parts[0], parts[1], parts[2], parts[3], "\t".join(parts[4:])
        outcome, cls = classify(kind, status, detail)
        if outcome == "refused" and cls in ("NO_PATH_MATCHED_ERROR", "NO_METHOD_MATCHED_ERROR") and doc in unroutable_docs:
            outcome, cls = "prism-unroutable", "the document's path keys hold a fragment Prism matches literally"
        if outcome == "refused" and cls == "NOT_ACCEPTABLE" and doc in range_docs and "Unable to find content" in detail:
            outcome, cls = "prism-unproducible", "an answer given only as a media range (`*/*`), which Prism cannot produce"
        one_item = re.search(r"Request body property ([^ \"]+) must be array", detail)
        if outcome == "refused" and one_item and one_item.group(1) in form_list_names.get(doc, set()):
            outcome, cls = "prism-form-list", "a one-item list of a form, one key as OpenAPI's `form` writes it, which Prism reads as a string"
        if outcome == "refused" and re.search(r"Request query must have required property '[^']*%5b", detail):
            # Prism looks a required query parameter whose name holds brackets (telnyx's
            # `filter[tag]`) up percent-encoded: it refuses `filter[tag]=a`, `filter%5Btag%5D=a`
            # and `filter%5btag%5d=a` alike (tried by hand, Prism 5.16.0), so no request passes.
            outcome, cls = "prism-unroutable", "a required query parameter named with brackets, which Prism never finds"
        if outcome == "other" and cls == "UNKNOWN" and "but schema is not defined" in detail:
            # Prism: "Tried to force a dynamic response for: application/pdf but schema is not
            # defined" (a file answered without a schema, which it cannot invent).
            outcome, cls = "prism-unproducible", "an answer without a schema (a PDF), which Prism cannot invent"
        overlap = overlaps.get(doc, {}).get(canonical(op))
        refused_one_of = any(v.get("code") == "oneOf" and "body" in v.get("location", []) for v in violations_of(detail.removeprefix("sl-violations: ")))
        if outcome == "refused" and overlap and refused_one_of:
            # The document's own example is refused too: no request the document tells apart.
            outcome, cls = "document-overlapping-one-of", f"the request body's oneOf variants overlap ({overlap})"
        if outcome in ("refused", "other") and canonical(op) in no_success.get(doc, set()) and kind == "api":
            outcome, cls = "document-no-success", "the operation lists no success response: Prism answers the status it lists"
        if outcome == "other" and kind == "transport" and re.search(r"error sending request for url \(https?://(?!127\.0\.0\.1|localhost)", detail):
            # Prism answers a documented redirect with the document's own `Location` example
            # (GitHub's downloads: `https://codeload.github.com/...`); the client follows it, as
            # GitHub's users' clients do, and this machine reaches no host but the mock.
            outcome, cls = "prism-redirect-outside", "a redirect to the document's example host, which this machine cannot reach"
        counts[outcome] += 1
        per_doc[doc][outcome] += 1
        if outcome in SET_ASIDE:
            set_aside[(outcome, cls)].append(f"{doc} {op}")
        if outcome != "ok":
            classes[(outcome, cls)].append(f"{doc} {op}: {detail[:300]}")
documents = collections.Counter(status for _, status, _ in document_lines(docs_path))
total = sum(counts.values())
judged = total - sum(counts[k] for k in SET_ASIDE)
print(f"documents: {dict(documents)}")
for label in op_sample.sample_labels(samples_path):
    print(label)
for doc, c in sorted(per_doc.items()):
    n = sum(c.values())
    print(f"  {doc}: {c['ok']}/{n} ok" + "".join(f", {k} {v}" for k, v in sorted(c.items()) if k != "ok"))
print(f"calls: {total}; " + ", ".join(f"{k} {v} ({100 * v / max(total, 1):.1f}%)" for k, v in counts.most_common()))
print(f"HEADLINE (client), calls accepted by Prism and decoded over calls judged: {counts['ok']}/{judged} = {100 * counts['ok'] / max(judged, 1):.1f}%")
print("  counted against it: refused, undecoded, hung and other calls; set aside (not judged), each call named:")
for (outcome, cls), calls in sorted(set_aside.items()):
    print(f"    {outcome} ({len(calls)}): {cls}")
    for call in calls:
        print(f"      {call}")
if not set_aside:
    print("    (none)")
print("failure classes (calls, documents):")
for (outcome, cls), examples in sorted(classes.items(), key=lambda kv: -len(kv[1])):
    docs = len({e.split(" ", 1)[0] for e in examples})
    print(f"  {len(examples):4} {docs:3}  {outcome}: {cls}")
    print(f"             e.g. {examples[0][:400]}")
rate = 100 * counts["ok"] / max(judged, 1)
if rate < min_rate or counts["hung"]:
    print(f"FAILED: client pass rate {rate:.1f}% (at least {min_rate}% wanted), {counts['hung']} hung calls")
    sys.exit(1)
