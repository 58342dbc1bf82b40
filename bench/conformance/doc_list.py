"""Reads a list of documents for bench/conformance.sh (`LIST=file`): one document a line, either
a path (absolute, or relative to the directory the run starts in) or a document id of the
public API directory (its path under api/, `amazonaws.com/fsx.json`, as heldout.txt lists
them); blank lines and lines starting with `#` are skipped, and so is a ` #` comment ending a
line.

Usage: doc_list.py LIST [DIRECTORY_API_ROOT]: prints `name<TAB>path` per document, where the
name is what the reports call it (a directory id with `/` written `_`, as CI's slice names its
files; a path's file name). Exits 2 when a line is no path and no root was given (the caller
fetches the directory, bench/directory.sh, and asks again), 1 on a line naming nothing."""
import os
import re
import sys

NEEDS_DIRECTORY = 2


class NeedsDirectory(Exception):
    pass


def entries(text):
    """The list's lines that name a document, as (line number, text)."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        if line:
            found.append((number, line))
    return found


def resolve(line, number, root):
    """(name, path) of one line; NeedsDirectory or ValueError when it names nothing."""
    if os.path.isfile(line):
        return os.path.basename(line), line
    if not root:
        raise NeedsDirectory(line)
    path = os.path.join(root, line)
    if not os.path.isfile(path):
        raise ValueError(f"line {number}: `{line}` is neither a file nor a document of the directory")
    return line.replace("/", "_"), path


def read(text, root=None):
    """(name, path) of every document the list names, in its order; names are unique."""
    documents = [resolve(line, number, root) for number, line in entries(text)]
    names = [name for name, _ in documents]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"documents named twice: {', '.join(twice)}")
    return documents


def main(argv):
    with open(argv[1]) as f:
        text = f.read()
    try:
        documents = read(text, argv[2] if len(argv) > 2 else None)
    except NeedsDirectory:
        return NEEDS_DIRECTORY
    except ValueError as error:
        print(f"{argv[1]}: {error}", file=sys.stderr)
        return 1
    for name, path in documents:
        print(f"{name}\t{path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
