"""Writes a text file into a Swift source as a raw string literal, or checks that the copy is
current. Shared by scripts/openapi.py and scripts/abi-header.py (a binary that serves or writes such
a text then needs no resource bundle)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def raw_string_lines(source, indent):
    """The lines of `source` (a path under ROOT) indented for a `#\"\"\"` literal; blank lines stay empty."""
    text = open(os.path.join(ROOT, source), encoding="utf-8").read()
    if '"""#' in text:
        sys.exit(f"{source} holds '\"\"\"#', which cannot go into a raw Swift string")
    return "".join((indent + line) if line.strip() else line for line in text.splitlines(keepends=True))


def write_or_check(target, wanted, script):
    """Writes `wanted` to `target` (a path under ROOT), or with --check exits 1 when it differs."""
    path = os.path.join(ROOT, target)
    current = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    if "--check" in sys.argv[1:]:
        if current != wanted:
            print(f"{target} is out of date: run python3 {script}", file=sys.stderr)
            sys.exit(1)
        return
    with open(path, "w", encoding="utf-8") as out:
        out.write(wanted)
