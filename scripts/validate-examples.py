#!/usr/bin/env python3
"""Validate the survey JSON Schema, every example survey, and the negative fixtures.

1. schema/survey.schema.json must itself be a valid draft 2020-12 schema.
2. Every Examples/*.json must validate against it.
3. Every Tests/SchemaFixtures/invalid/*.json must FAIL validation (proving the schema rejects
   wrong files), with an error at or below the JSON path that Tests/SchemaFixtures/expectations.json
   gives for it (so a fixture cannot pass by failing for an unrelated reason). Every fixture must be
   listed there.

Exits non-zero if any of these does not hold. Needs the `jsonschema` package (>= 4.18).
"""

import json
import sys
from pathlib import Path

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
except ImportError:
    sys.exit("validate-examples: the 'jsonschema' package is missing; run: python3 -m pip install 'jsonschema>=4.18'")

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "schema" / "survey.schema.json"
EXAMPLES = ROOT / "Examples"
INVALID = ROOT / "Tests" / "SchemaFixtures" / "invalid"
EXPECTATIONS = ROOT / "Tests" / "SchemaFixtures" / "expectations.json"


def load(path):
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)


def location(error):
    return "/".join(str(part) for part in error.absolute_path)


def describe(error):
    return f"at {location(error) or '(root)'}: {error.message}"


def is_at_or_below(path, expected):
    return expected == "" or path == expected or path.startswith(expected + "/")


def main():
    failures = 0
    try:
        schema = load(SCHEMA_PATH)
        Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, SchemaError) as error:
        print(f"FAIL {SCHEMA_PATH.relative_to(ROOT)}: not a valid draft 2020-12 schema: {error}")
        return 1
    print(f"ok   {SCHEMA_PATH.relative_to(ROOT)} is a valid draft 2020-12 schema")
    validator = Draft202012Validator(schema)

    examples = sorted(EXAMPLES.glob("*.json"))
    if not examples:
        print(f"FAIL no example surveys in {EXAMPLES.relative_to(ROOT)}")
        failures += 1
    for path in examples:
        name = path.relative_to(ROOT)
        try:
            instance = load(path)
        except ValueError as error:
            print(f"FAIL {name}: invalid JSON: {error}")
            failures += 1
            continue
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
        if errors:
            failures += 1
            print(f"FAIL {name}:")
            for error in errors:
                print(f"       {describe(error)}")
        else:
            print(f"ok   {name}")

    expectations = load(EXPECTATIONS)
    fixtures = sorted(INVALID.glob("*.json"))
    if not fixtures:
        print(f"FAIL no negative fixtures in {INVALID.relative_to(ROOT)}")
        failures += 1
    for stale in sorted(set(expectations) - {"//"} - {path.name for path in fixtures}):
        print(f"FAIL {EXPECTATIONS.relative_to(ROOT)} lists {stale}, which is not in {INVALID.relative_to(ROOT)}")
        failures += 1
    for path in fixtures:
        name = path.relative_to(ROOT)
        expected = expectations.get(path.name, {}).get("schemaErrorAt")
        if expected is None:
            print(f"FAIL {name}: not listed (with 'schemaErrorAt') in {EXPECTATIONS.relative_to(ROOT)}")
            failures += 1
            continue
        try:
            instance = load(path)
        except ValueError as error:
            print(f"FAIL {name}: a negative fixture must be well-formed JSON that the schema rejects: {error}")
            failures += 1
            continue
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
        if not errors:
            failures += 1
            print(f"FAIL {name}: expected the schema to reject it, but it validates")
            continue
        matching = [error for error in errors if is_at_or_below(location(error), expected)]
        if not matching:
            failures += 1
            print(f"FAIL {name}: rejected, but not at {expected or '(root)'}:")
            for error in errors:
                print(f"       {describe(error)}")
        else:
            print(f"ok   {name} is rejected ({describe(matching[0])})")

    if failures:
        print(f"{failures} problem(s)")
        return 1
    print(f"all {len(examples)} examples valid; all {len(fixtures)} invalid fixtures rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
