"""add_operation.py FILE SUFFIX PREFIX: the first operation of the spec file FILE copied as
`<name><SUFFIX>`, its path put under PREFIX (`/orgs/{org}` -> `PREFIX/orgs/{org}`, quoted or
not). Shared by bench/edit-loop.sh and bench/user-build.sh, which measure an added operation."""

import re
import sys


def add_operation(text, suffix, prefix):
    lines = text.split("\n")
    start = lines.index("operations:") + 1
    # The operation's block: its lines indented under it, a blank line inside a text block too.
    end = next(i for i in range(start + 1, len(lines)) if lines[i].strip() and not lines[i].startswith("   "))
    block = lines[start:end]
    block[0] = re.sub(r"^  (\w+):", lambda m: f"  {m.group(1)}{suffix}:", block[0])
    block = [re.sub(r'^(    path: "?)/(?=[^\s"])', lambda m: f"{m.group(1)}{prefix}/", line) for line in block]
    block = [re.sub(r'^(    path: "?)/(?=["\s]|$)', lambda m: f"{m.group(1)}{prefix}", line) for line in block]
    lines[start:start] = block
    return "\n".join(lines)


if __name__ == "__main__":
    path, suffix, prefix = sys.argv[1:4]
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(add_operation(text, suffix, prefix))
