#!/usr/bin/env python3
"""Writes docs/question-kinds.md, the reference of every built-in question kind, from the `///`
documentation of each type in Sources/SurveyBuiltins (the one place it is written).

    python3 scripts/question-kinds.py          # rewrite docs/question-kinds.md
    python3 scripts/question-kinds.py --check  # exit 1 if it is out of date (CI runs this)
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources" / "SurveyBuiltins"
OUTPUT = ROOT / "docs" / "question-kinds.md"

HEADER = """# Question kinds

Every built-in kind, with its options, the answer it takes and what its summary reports. This
page is generated from the documentation of each type in `Sources/SurveyBuiltins/` by
`python3 scripts/question-kinds.py` (CI checks that it is current); `survey types` lists the same
kinds with a one-line summary, and [schema/survey.schema.json](../schema/survey.schema.json) has
each kind's `options` for editors.

A question is a step `{"id", "type", "title"?, "options"?, …}`; the members every step takes
(`required`, `visibleIf`, `validators`, …) are in the README and [rules.md](rules.md). Error codes
are stable; the messages exist in the engine's 10 locales.

"""

DECLARATION = re.compile(r"^public struct (\w+): (?:QuestionType|SummarizedByInput|SummarizesTallies) \{", re.M)
TYPE_ID = re.compile(r'public var typeID: String \{ "([^"]+)" \}')


def kinds() -> list[tuple[str, str]]:
    """(type id, Markdown) for every built-in type."""
    found = []
    for path in sorted(SOURCES.glob("*.swift")):
        text = path.read_text(encoding="utf-8")
        for match in DECLARATION.finditer(text):
            before = text[: match.start()].splitlines()
            doc: list[str] = []
            while before and before[-1].startswith("///"):
                doc.insert(0, before.pop()[3:].removeprefix(" "))
            body = text[match.end():]
            type_id = TYPE_ID.search(body)
            if not type_id or not doc:
                raise SystemExit(f"{path}: {match.group(1)} needs a /// comment and a typeID")
            markdown = "\n".join(doc)
            # DocC symbol links read as code here.
            markdown = re.sub(r"``([^`]+)``", r"`\1`", markdown)
            found.append((type_id.group(1), f"## `{type_id.group(1)}`\n\n{markdown}\n"))
    return sorted(found)


def render() -> str:
    entries = kinds()
    index = ", ".join(f"[`{name}`](#{name.replace('-', '-')})" for name, _ in entries)
    return HEADER + f"{len(entries)} kinds: {index}.\n\n" + "\n".join(markdown for _, markdown in entries)


def main() -> int:
    text = render()
    if "--check" in sys.argv[1:]:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.is_file() else ""
        if current != text:
            print(f"{OUTPUT.relative_to(ROOT)} is out of date: run python3 scripts/question-kinds.py",
                  file=sys.stderr)
            return 1
        print(f"{OUTPUT.relative_to(ROOT)} is current ({text.count(chr(10) + '## ')} kinds)")
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
