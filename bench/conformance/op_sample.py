"""A seeded sample of a document's operations (bench/conformance.sh's `OPS=N SEED=S`), for the
largest APIs: GitHub's and Kubernetes' 845 operations are hours of harness build, Prism and
schemathesis on a shared 2-core machine, a sample of 100 minutes.

The sample is N operations drawn with `random.Random(SEED)` from the document's operations
sorted by path then method (`GET /repos/{owner}/{repo}`), so the same document, N and SEED
always draw the same ones. A document of N operations or fewer is judged whole.

What is sampled is what apigen sees, never what the judges see: the import reads a copy of the
document holding only the sampled operations (their path items' parameters kept) and the
components they reach through `$ref` (every security scheme kept); Prism mocks the ORIGINAL
document, and schemathesis runs on the ORIGINAL document with `--include-name` naming each
sampled operation. So every verdict is the judges' reading of the original; what the sample
changes is the import's view of the whole (a decision the import takes over all operations,
such as the error body most of them share, is taken over the sample).

Usage: op_sample.py DOC N SEED OUT_DIR writes OUT_DIR/sampled.json (the copy to import) and
OUT_DIR/operations.txt (`METHOD /path`, one a line, for schemathesis) when the document has
more than N operations, and prints one line `sampled<TAB>N<TAB>TOTAL<TAB>SEED`, or
`whole<TAB>TOTAL<TAB>TOTAL<TAB>SEED` (nothing written)."""
import json
import os
import random
import sys

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# The collections a `$ref` points into, by format: entries no sampled operation reaches are left
# out of the copy (OpenAPI 3's components, Swagger 2's top-level maps).
PRUNED = {"components": ("schemas", "responses", "parameters", "examples", "requestBodies", "headers", "links", "callbacks", "pathItems")}
PRUNED_SWAGGER = ("definitions", "parameters", "responses")


def load(path):
    """The document as a mapping (JSON, else YAML)."""
    with open(path) as f:
        text = f.read()
    try:
        return json.loads(text)
    except ValueError:
        import yaml

        return yaml.safe_load(text)


def operations(document):
    """Every operation as (path, method), sorted: the order the seed draws from."""
    found = []
    for route, item in (document.get("paths") or {}).items():
        if isinstance(item, dict):
            found += [(route, method) for method in METHODS if isinstance(item.get(method), dict)]
    return sorted(found)


def draw(document, count, seed):
    """The sampled operations, sorted (all of them when the document has `count` or fewer)."""
    every = operations(document)
    if len(every) <= count:
        return every
    return sorted(random.Random(seed).sample(every, count))


def refs_in(value):
    """Every local `$ref` (`#/components/schemas/X`) inside a value."""
    if isinstance(value, dict):
        ref = value.get("$ref")
        found = [ref] if isinstance(ref, str) and ref.startswith("#/") else []
        for inner in value.values():
            found += refs_in(inner)
        return found
    if isinstance(value, list):
        return [ref for inner in value for ref in refs_in(inner)]
    return []


def entry_of(ref):
    """The pruned collection entry a `$ref` lands in (`("components", "schemas", "X")`), or None."""
    parts = [part.replace("~1", "/").replace("~0", "~") for part in ref[2:].split("/")]
    if len(parts) >= 3 and parts[0] in PRUNED and parts[1] in PRUNED[parts[0]]:
        return tuple(parts[:3])
    if len(parts) >= 2 and parts[0] in PRUNED_SWAGGER:
        return tuple(parts[:2])
    return None


def lookup(document, key):
    """The entry at `key` (a tuple of names), or None."""
    value = document
    for part in key:
        value = value.get(part) if isinstance(value, dict) else None
    return value


def reached(document, roots):
    """The pruned entries the roots reach through `$ref`, transitively."""
    seen, pending = set(), [ref for root in roots for ref in refs_in(root)]
    while pending:
        key = entry_of(pending.pop())
        if key is None or key in seen:
            continue
        seen.add(key)
        pending += refs_in(lookup(document, key))
    return seen


def trimmed(document, sample):
    """A copy holding only the sampled operations and the entries they reach."""
    kept = set(sample)
    paths = {}
    for route, item in (document.get("paths") or {}).items():
        if not isinstance(item, dict) or not any((route, m) in kept for m in METHODS):
            continue
        paths[route] = {k: v for k, v in item.items() if k not in METHODS or (route, k) in kept}
    copy = {k: v for k, v in document.items() if k != "paths"}
    copy["paths"] = paths
    # Roots: the kept paths and everything outside the pruned collections.
    outside = [v for k, v in copy.items() if k not in PRUNED and k not in PRUNED_SWAGGER and k != "paths"]
    outside += [v for k, v in (copy.get("components") or {}).items() if k not in PRUNED["components"]]
    keep = reached(copy, [paths] + outside)
    for top, names in PRUNED.items():
        for name in names:
            if isinstance(lookup(copy, (top, name)), dict):
                copy[top] = dict(copy[top])
                copy[top][name] = {k: v for k, v in copy[top][name].items() if (top, name, k) in keep}
    for top in PRUNED_SWAGGER:
        if isinstance(copy.get(top), dict):
            copy[top] = {k: v for k, v in copy[top].items() if (top, k) in keep}
    return copy


def sample_labels(path):
    """The lines a report prints above its figures for each sampled document of a run (its
    samples.tsv: `document<TAB>sampled|whole<TAB>N<TAB>TOTAL<TAB>SEED`), so that no figure of a
    sample reads as the whole document's; none when nothing was sampled."""
    try:
        with open(path) as f:
            rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    except (OSError, TypeError):
        return []
    return [
        f"SAMPLE: {doc}: {n} of {total} operations (seed {seed}); its figures are of the sample"
        for doc, kind, n, total, seed in (row[:5] for row in rows if len(row) >= 5)
        if kind == "sampled"
    ]


def main(argv):
    path, count, seed, out_dir = argv[1], int(argv[2]), int(argv[3]), argv[4]
    document = load(path)
    total = len(operations(document))
    if total <= count:
        print(f"whole\t{total}\t{total}\t{seed}")
        return 0
    sample = draw(document, count, seed)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "sampled.json"), "w") as f:
        json.dump(trimmed(document, sample), f)
    with open(os.path.join(out_dir, "operations.txt"), "w") as f:
        f.write("".join(f"{method.upper()} {route}\n" for route, method in sample))
    print(f"sampled\t{count}\t{total}\t{seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
