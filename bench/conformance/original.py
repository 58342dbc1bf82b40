"""Lookups in the ORIGINAL document a failure was judged on: the schema of an operation's
request body at a pointer, and the enumerations of an answer's `allOf`. The rules that read the
document (rules.toml's `test = "..."`) find their evidence here; every function takes the
document (a dict, or None when it could not be read)."""
import json


def load_document(doc_path):
    """The original document (JSON or YAML), or None."""
    try:
        text = open(doc_path).read()
    except (OSError, TypeError):
        return None
    try:
        return json.loads(text)
    except ValueError:
        try:
            import yaml

            return yaml.safe_load(text)
        except Exception:
            return None


def follow(document, ref):
    """The node a local `$ref` (`#/components/schemas/A`) names, {} when there is none."""
    target = document
    for key in ref[2:].split("/"):
        key = key.replace("~1", "/").replace("~0", "~")
        target = target.get(key, {}) if isinstance(target, dict) else {}
    return target


def resolve(document, schema, depth=0):
    """A schema with its `$ref` followed and its `allOf` parts' properties and types merged."""
    if not isinstance(schema, dict) or depth > 20:
        return {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/") and document is not None:
        return resolve(document, follow(document, ref), depth + 1)
    merged = dict(schema)
    for part in schema.get("allOf") or []:
        part = resolve(document, part, depth + 1)
        merged.setdefault("properties", {})
        merged["properties"] = {**part.get("properties", {}), **merged["properties"]}
        for key in ("type", "nullable", "items", "additionalProperties"):
            if key in part and key not in merged:
                merged[key] = part[key]
    return merged


def operation_of(document, name):
    """The operation object of `name` ("PUT /path"), or None."""
    method, _, route = name.partition(" ")
    operation = ((document or {}).get("paths") or {}).get(route, {}).get(method.lower())
    return operation if isinstance(operation, dict) else None


def body_schema_at(document, name, pointer):
    """The schema of the request body of operation `name` ("PUT /path") at the JSON pointer
    `pointer` (`/properties/customProfile`), resolved; None when it cannot be told."""
    operation = operation_of(document, name)
    if operation is None:
        return None
    body = resolve(document, operation.get("requestBody") or {})
    content = body.get("content") or {}
    media = next((m for m in content if "json" in m), None)
    if media is None:
        return None
    schema = resolve(document, content[media].get("schema") or {})
    for key in [k.replace("~1", "/").replace("~0", "~") for k in pointer.split("/")[1:]]:
        if key.isdigit() and "items" in schema:
            schema = resolve(document, schema["items"])
        elif key in (schema.get("properties") or {}):
            schema = resolve(document, schema["properties"][key])
        elif isinstance(schema.get("additionalProperties"), dict):
            schema = resolve(document, schema["additionalProperties"])
        else:
            return None
    return schema


def deref(document, schema, depth=0):
    """A schema with its `$ref` followed (nothing merged)."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and depth < 20 and document is not None:
        schema, depth = follow(document, schema["$ref"]), depth + 1
    return schema if isinstance(schema, dict) else {}


def walk(document, schema, steps):
    """The schema at `steps` (`properties`, a name, `items`, `allOf`, an index...) below
    `schema`, references followed; {} when there is none."""
    for step in steps:
        if isinstance(schema, list):
            node = schema[int(step)] if step.isdigit() and int(step) < len(schema) else None
        else:
            node = deref(document, schema).get(step)
        schema = node if node is not None else {}
    return deref(document, schema)


def answer_schema(document, name, status):
    """The schema of the first media type of operation `name`'s answer `status`, or {}."""
    operation = operation_of(document, name) or {}
    response = deref(document, (operation.get("responses") or {}).get(status) or {})
    media = next(iter((response.get("content") or {}).values()), {})
    return deref(document, media.get("schema") or {})


def enums_disjoint(document, name, status, part, steps):
    """Whether the enumeration at `steps` inside `allOf` part `part` of the answer's schema and
    the one at `steps` beside the `allOf` both exist and share no value."""
    root = answer_schema(document, name, status)
    one = walk(document, root, ["allOf", part] + steps).get("enum")
    other = walk(document, root, steps).get("enum")
    return bool(one and other and not set(map(str, one)) & set(map(str, other)))


def untyped_at(document, name, pointer):
    """Whether the body schema at `pointer` takes `null` by JSON Schema: properties given,
    but neither a `type` nor `nullable`."""
    schema = body_schema_at(document, name, pointer)
    return bool(schema) and "properties" in schema and "type" not in schema and not schema.get("nullable")
