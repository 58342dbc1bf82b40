#!/usr/bin/env python3
"""Bytes of a generated crate's Rust per operation: the average and the 90th percentile.

    bench/op-bytes.py OUT SIDE [--docs]

Reads every `.rs` file under OUT/SIDE/src but the samples and the mock (one sample body per
operation: data, not code), doc comments left out unless --docs. Each top-level item, and each
member of an `impl` or `trait` block, belongs to the operation whose `<Name>Request` (or, in a
client, `<Name>Builder`) it names first; what names none (handles, the router, tables, the
crate root) is shared, spread evenly over the operations. Prints `average p90 operations`.
"""
import pathlib
import re
import sys

OWNER = re.compile(r"\b([A-Z][A-Za-z0-9]*?)(?:Request|Builder)\b")


def files(src):
    for path in sorted(src.rglob("*.rs")):
        rel = path.relative_to(src).as_posix()
        if rel in ("samples.rs", "mock.rs") or rel.startswith(("samples/", "mock/")):
            continue
        yield path


def chunks(lines):
    """Top-level items, and the members of impl and trait blocks (at four spaces), in order."""
    current = []
    for line in lines:
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        starts = indent in (0, 4) and stripped and not stripped.startswith(("}", ")", "]", "where", "{"))
        if starts and current and not current[-1].lstrip(" ").startswith(("#[", "///", "//!")):
            yield current
            current = []
        current.append(line)
    if current:
        yield current


def main():
    out, side = pathlib.Path(sys.argv[1]), sys.argv[2]
    docs = "--docs" in sys.argv[3:]
    owned, shared = {}, 0
    for path in files(out / side / "src"):
        lines = path.read_text().splitlines(keepends=True)
        if not docs:
            lines = [line for line in lines if not re.match(r"\s*//[/!]", line)]
        for chunk in chunks(lines):
            size = sum(len(line.encode()) for line in chunk)
            found = OWNER.search("".join(chunk))
            if found and found.group(1) not in ("Router", "Client", "Mock"):
                owned[found.group(1)] = owned.get(found.group(1), 0) + size
            else:
                shared += size
    ops = sorted(size + shared / len(owned) for size in owned.values())
    average = sum(ops) / len(ops)
    p90 = ops[min(len(ops) - 1, int(0.9 * len(ops)))]
    print(f"{average:.0f} {p90:.0f} {len(ops)}")


if __name__ == "__main__":
    main()
