#!/usr/bin/env python3
"""`survey audit` on data SurveyJS survey-core 3.0.4 produced (issue 48, docs/audit.md).

For every case of the differential suite (Tests/Differential/cases), seeded random respondents
answer the SurveyJS survey through survey-core (Tests/Differential/peer.js, as Tests/differential.py
drives it): respondent 0 gives the case's own answers, each other one a copy where every answer is
dropped or replaced by another of the question's choices with some probability. The `data` of every
run that completes is then audited against the same SurveyJS file with `survey audit --data-shape
surveyjs`: a respondent's data must audit clean. Cases whose runs differ between the two engines by
design (Tests/Differential/expectations*.json) are reported apart and do not fail.

    python3 Tests/audit-differential.py [--survey-binary PATH] [--respondents 4] [--seed 48] [--case NAME]...

Exit status: 0 when every completed run of an undocumented case audits clean, 1 otherwise. Without
node or survey-core it says that it did NOT run and exits 0, as differential.py does.
Standard library only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import differential as D  # noqa: E402


def questions_by_name(surveyjs: dict) -> dict[str, dict]:
    return {e["name"].strip(): e for e in D.surveyjs_elements(surveyjs) if isinstance(e.get("name"), str)}


def respondent(answers: dict, questions: dict[str, dict], rng: random.Random) -> dict:
    """A copy of `answers` where each answer is dropped (1 in 5) or, for a question with a list of
    choices, replaced by another choice (1 in 4)."""
    result: dict = {}
    for key, value in answers.items():
        if key.endswith("-Comment"):
            result[key] = value
            continue
        roll = rng.random()
        if roll < 0.2:
            continue
        choices = questions.get(key, {}).get("choices")
        if roll < 0.45 and isinstance(choices, list) and choices and isinstance(value, (str, int, float)):
            choice = rng.choice(choices)
            value = choice.get("value") if isinstance(choice, dict) else choice
        result[key] = value
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--survey-binary", metavar="PATH")
    parser.add_argument("--respondents", type=int, default=4, help="respondents per case (default 4)")
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--case", action="append", default=[], metavar="NAME")
    parser.add_argument("--verbose", action="store_true")
    arguments = parser.parse_args()
    if not 1 <= arguments.respondents <= 100:
        print("audit-differential.py: --respondents must be 1…100", file=sys.stderr)
        return 1
    binary = arguments.survey_binary or D.default_binary()
    directories = sorted(path for path in D.CASES.iterdir() if path.is_dir())
    if arguments.case:
        directories = [path for path in directories if path.name in arguments.case]
    try:
        node = D.find_node()
        core = D.fetch_survey_core()
    except D.PeerUnavailable as error:
        D.warn_not_run(str(error))
        return 0
    # Cases whose runs differ between the engines by design (differential.py checks these files).
    documented: set[str] = set()
    for file in (D.EXPECTATIONS, D.IMPORTED_EXPECTATIONS):
        if file.is_file():
            documented |= {name.split(":")[0] for name in D.read_json(file) if not name.startswith("$")}
    today = datetime.date.today().isoformat()

    with tempfile.TemporaryDirectory(prefix="audit-differential-") as work:
        runs: list[D.Case] = []
        for directory in directories:
            try:
                case = D.load_cases(directory, imported=True)[0]
            except D.CaseError as error:
                print(f"audit-differential.py: {error}", file=sys.stderr)
                return 1
            folder = Path(work) / directory.name
            folder.mkdir()
            (folder / "surveyjs.json").write_text(json.dumps(case.surveyjs), encoding="utf-8")
            questions = questions_by_name(case.surveyjs)
            for index in range(arguments.respondents):
                rng = random.Random(f"{arguments.seed}:{directory.name}:{index}")
                answers = case.answers if index == 0 else respondent(case.answers, questions, rng)
                script = f"answers-{index}.json"
                (folder / script).write_text(json.dumps(answers), encoding="utf-8")
                runs.append(D.Case(f"{directory.name}#{index}", folder, case.surveyjs, answers, script))
        theirs = D.run_surveyjs(node, core, runs)

        completed = 0
        failures: list[str] = []
        differing: list[str] = []
        by_case: dict[str, list[dict]] = {}
        for run in runs:
            outcome = theirs.get(run.name)
            if outcome is None or outcome.broken or not outcome.completed:
                continue
            by_case.setdefault(run.name.split("#")[0], []).append(outcome.data)
        for name, datas in sorted(by_case.items()):
            completed += len(datas)
            result = subprocess.run(
                [binary, "audit", str(D.CASES / name / "surveyjs.json"), "--responses", "-", "--format", "json",
                 "--today", today, "--data-shape", "surveyjs"],
                input="\n".join(json.dumps(data) for data in datas) + "\n", capture_output=True, text=True,
                timeout=120)
            if result.returncode not in (0, 1):
                failures.append(f"{name}: survey audit failed (exit {result.returncode}): {result.stderr.strip()}")
                continue
            report = json.loads(result.stdout)
            if report["failed"] == 0:
                continue
            lines = [f"  {problem['response']}: {problem['code']} {problem['path']}: {problem['message']}"
                     for problem in report["problems"]]
            entry = f"{name}: {report['failed']} of {report['responses']} runs not clean\n" + "\n".join(lines)
            (differing if name in documented else failures).append(entry)
    print(f"audit-differential.py: {completed} completed survey-core runs on {len(by_case)} cases audited; "
          f"{len(failures)} cases not clean, {len(differing)} more among cases documented as differing")
    for entry in failures:
        print(entry)
    if arguments.verbose:
        for entry in differing:
            print("(documented) " + entry)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
