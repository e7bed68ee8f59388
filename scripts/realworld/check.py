#!/usr/bin/env python3
"""Real-world check (issue 41, point 5): public SurveyJS surveys, survey-core 3.0.4 against our engine.

    python3 check.py [--survey-binary PATH] [--seeds 5] [--jobs 2] [--only NAME]... [--paths-time-limit 10]

For every corpus/<name>/surveyjs.json:
  1. survey-core loads it (`new Survey.Model`); a throw is "survey-core refuses" and the survey is skipped.
  2. ours: `survey validate` (loads directly?), `survey import surveyjs` (converts whole? notes),
     `survey lint --format json` (errors; "false errors" = errors about a step survey-core showed),
     `survey paths` + `survey test` of the scripts it wrote (coverage, scripts passing).
  3. seeded random respondents answer inside survey-core (tools/respondent.js) and write
     cases/<name>/answers.json (seed 1) and answers-<seed>.json; each script is then played by both
     engines exactly as Tests/differential.py plays a `--cases` directory (tools/peer.js, a copy of the
     project's Tests/Differential/peer.js that also answers a start page; `survey test --answers`).
Writes results/runs.jsonl, results/surveys.json and results/report.md (table + failures grouped by cause).
cases/ is also a valid `--cases` directory for the project's Tests/differential.py.
Third-party surveys: nothing here goes into the project repository.
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import datetime
import functools
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TOOLS = HERE
WORK = Path(os.environ.get("SURVEY_REALWORLD_DIR", "/tmp/survey-realworld"))

# The project's own differential runner, and its survey-core player with one change: a start page
# (firstPageIsStartPage) is answered like any page, then start() (the project's peer starts at once).
spec = importlib.util.spec_from_file_location("differential_lib", ROOT / "Tests" / "differential.py")
lib = importlib.util.module_from_spec(spec)
sys.modules["differential_lib"] = lib
spec.loader.exec_module(lib)


def patched_peer() -> Path:
    text = (ROOT / "Tests" / "Differential" / "peer.js").read_text()
    for old, new in [
        ('  if (survey.state === "starting") survey.start();\n', ""),
        ("const answerPage = (page) => {", "const answerPage = (page, starting) => {"),
        ('if (survey.state !== "running" || survey.currentPage !== page) return false;',
         'if (!starting && (survey.state !== "running" || survey.currentPage !== page)) return false;'),
        ('while (survey.state === "running" && visited.length < maximumVisits) {\n    const page = survey.currentPage;',
         'while ((survey.state === "running" || survey.state === "starting") && visited.length < maximumVisits) {\n'
         '    const starting = survey.state === "starting";\n'
         '    const page = starting ? (survey.startedPage || survey.pages[0]) : survey.currentPage;'),
        ("if (!answerPage(page)) continue;\n    const moved = survey.isLastPage",
         "if (!answerPage(page, starting)) continue;\n    const moved = starting ? survey.start() : survey.isLastPage"),
    ]:
        if old not in text:
            sys.exit(f"check.py: Tests/Differential/peer.js changed; cannot patch: {old[:60]}")
        text = text.replace(old, new)
    path = WORK / "peer.js"
    WORK.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


lib.PEER_SCRIPT = patched_peer()


def run(command, timeout=300):
    try:
        r = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return -1, "", f"timeout after {timeout} s"


# MARK: normalising messages into causes

def normalise(message: str) -> str:
    m = re.sub(r"^\S*?surveyjs\.json(:\d+:\d+)?:\s*", "", message.strip())
    m = re.sub(r"\(in the converted survey at [^)]*\)", "", m)
    m = re.sub(r"\bat column \d+", "at column N", m)
    m = re.sub(r"invalid (\w+) \".*?\" at column \d+", r"invalid \1 \"…\" at column N", m)
    m = re.sub(r"invalid (\w+) \".*?\":", r"invalid \1 \"…\":", m)
    m = re.sub(r"\s*\(step '[^']*'(, at [^)]*)?\)\s*$", "", m)
    m = re.sub(r"\s*\(at \$[^)]*\)\s*$", "", m)
    m = re.sub(r"\{[^{}]*\}", "{X}", m)
    m = re.sub(r"'[^']*'", "'X'", m)
    m = re.sub(r"\"(?:[^\"\\]|\\.)*\"", "\"X\"", m)
    m = re.sub(r"\b\d+(\.\d+)?\b", "N", m)
    m = re.sub(r"did you mean [^?]*\?", "did you mean …?", m)
    return re.sub(r"\s+", " ", m).strip()


# MARK: our side, per survey

def our_static(binary: str, name: str, path: Path, workdir: Path, paths_limit: int, today: str) -> dict:
    info: dict = {"name": name}
    rc, out, err = run([binary, "validate", str(path)], 120)
    info["validate_ok"] = rc == 0
    info["validate_errors"] = [l for l in (err + out).splitlines()
                               if l.strip() and not l.rstrip().endswith(": valid") and not l.startswith("warning:")][:200]
    converted = workdir / f"{name}.survey.json"
    rc, out, err = run([binary, "import", "surveyjs", str(path), "--out", str(converted)], 120)
    lines = err.splitlines()
    info["import_rc"] = rc
    info["not_converted"] = [l for l in lines if ": not converted: " in l]
    info["ignored_layout"] = sum(1 for l in lines if "ignored (layout only)" in l)
    info["renamed"] = [l for l in lines if "renamed" in l and "not converted" not in l]
    info["import_other"] = [l for l in lines if l.strip() and ": not converted: " not in l and "ignored (layout only)" not in l
                            and "renamed" not in l and "converted from SurveyJS" not in l]
    info["converts_whole"] = rc == 0 and not info["not_converted"]
    rc, out, err = run([binary, "lint", str(path), "--format", "json", "--today", today], 120)
    try:
        findings = json.loads(out)["findings"]
    except (ValueError, KeyError):
        findings = []
        info["lint_crash"] = f"exit {rc}: {err.strip()[:300]}"
    info["lint_errors"] = [f for f in findings if f.get("severity") == "error" and f.get("rule") != "invalid-survey"]
    info["lint_warnings"] = sum(1 for f in findings if f.get("severity") == "warning")
    info["lint_invalid"] = sum(1 for f in findings if f.get("rule") == "invalid-survey")
    pdir = workdir / f"{name}.paths"
    shutil.rmtree(pdir, ignore_errors=True)
    rc, out, err = run([binary, "paths", str(path), "--out", str(pdir), "--time-limit", str(paths_limit),
                        "--format", "json", "--today", today], paths_limit + 120)
    info["paths_rc"] = rc
    try:
        cov = json.loads(out)
        infeasible = sum(1 for u in cov.get("uncovered", []) if u.get("infeasible"))
        info["coverage"] = {"covered": cov.get("covered"), "goals": cov.get("goals"), "percent": cov.get("percent"),
                            "infeasible": infeasible, "all_feasible": rc == 0}
    except ValueError:
        info["coverage"] = None
        info["paths_error"] = next((l for l in (err + out).splitlines() if l.strip() and not l.startswith("warning")), "")[:300]
    scripts = sorted(pdir.glob("*.json")) if pdir.is_dir() else []
    info["path_scripts"] = len(scripts)
    if scripts:
        rc, out, err = run([binary, "test", str(path), "--answers", str(pdir), "--quiet", "--today", today], 600)
        m = re.search(r"(\d+) scripts?: (\d+) passed, (\d+) failed", out + err)
        if m:
            info["path_tests"] = {"scripts": int(m.group(1)), "passed": int(m.group(2)), "failed": int(m.group(3))}
        elif len(scripts) == 1:
            info["path_tests"] = {"scripts": 1, "passed": int(rc == 0), "failed": int(rc != 0)}
        else:
            info["path_tests"] = {"scripts": len(scripts), "passed": 0, "failed": len(scripts)}
        tl = (out + err).splitlines()
        info["path_test_failures"] = [tl[i + 1].strip() for i, l in enumerate(tl[:-1]) if l.startswith("FAIL")][:5]
        if info["path_tests"]["failed"] and not info["path_test_failures"]:
            info["path_test_failures"] = [l for l in (out + err).splitlines() if l.strip()][:5]
    return info


# MARK: the SurveyJS side of the comparison (as Tests/differential.py, but survey-core's complaints about
# unknown properties are recorded instead of making the run BROKEN: real surveys are full of them)

def run_peer(node: str, core: Path, cases: list) -> dict:
    request = [{"name": c.name, "surveyjs": str(c.file("surveyjs.json")), "answers": str(c.file(c.answers_file))} for c in cases]
    r = subprocess.run([node, str(lib.PEER_SCRIPT), str(core)], input=json.dumps(request), capture_output=True,
                       text=True, timeout=3600)
    if r.returncode != 0:
        raise RuntimeError(f"peer.js failed: {r.stderr.strip()[:500]}")
    outcomes = {}
    for line in r.stdout.splitlines():
        rep = json.loads(line)
        if not rep["ok"]:
            outcomes[rep["name"]] = (lib.Outcome(broken=f"survey-core: {rep['error'][:300]}"), rep)
            continue
        o = lib.Outcome(completed=rep["completed"], visited=rep["visited"], data=rep["data"])
        if rep["blocked"]:
            errors = "; ".join(f"{e['name']}: {e['error']}" for e in rep["blocked"]["errors"])
            o.stopped = f"blocked on page '{rep['blocked']['page']}' ({errors or 'no question errors'})"
            o.blockers = sorted({e["name"] for e in rep["blocked"]["errors"]})
        elif not o.completed:
            o.stopped = f"ended in state '{rep['state']}'"
            o.empty = rep["state"] == "empty"
        outcomes[rep["name"]] = (o, rep)
    return outcomes


def through_chains(renames: dict) -> dict:
    """`renames` (new name → old) with each name renamed twice mapped to its first name (a second page
    of a name that questionPerPage then splits is renamed twice)."""
    result = {}
    for new, old in renames.items():
        seen = {new}
        while old in renames and old not in seen:
            seen.add(old)
            old = renames[old]
        result[new] = old
    return result


@functools.lru_cache(maxsize=None)
def page_renames(binary: str, survey: str) -> dict:
    """Pages the conversion of `survey` renamed: new id → SurveyJS name (one import per survey)."""
    imported = subprocess.run([binary, "import", "surveyjs", survey], capture_output=True, text=True, timeout=120)
    renames = {}
    for line in imported.stderr.splitlines():
        m = re.search(r"renamed: (?:a second )?page (?:named )?'(.+?)' is now '(.+?)'", line)
        if m:
            renames[m.group(2)] = m.group(1)
    return through_chains(renames)


@functools.lru_cache(maxsize=None)
def element_renames(binary: str, survey: str) -> dict:
    """Second elements of a name the conversion renamed: new id → SurveyJS name (a step that stops a
    run is compared under the name survey-core reports)."""
    imported = subprocess.run([binary, "import", "surveyjs", survey], capture_output=True, text=True, timeout=120)
    renames = {}
    for line in imported.stderr.splitlines():
        m = re.search(r"a second element named '(.+?)' \(it is named '(.+?)' here", line) or re.search(
            r"renamed: a question named '(.*?)' \(.*?it is '(.+?)' here", line) or re.search(  # named "": keyed so in survey-core
            r"renamed: required page '(.+?)' is panel '(.+?)'", line)
        if m:
            renames[m.group(2)] = m.group(1)
    return through_chains(renames)


def run_ours(binary, case, today):
    """Tests/differential.py's run_ours (imported: ours reads surveyjs.json), with the conversion's
    `warning:` lines kept out of the stop message."""
    command = [binary, "test", str(case.file("surveyjs.json")), "--answers", str(case.file(case.answers_file)),
               "--today", today, "--locale", "en"]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return lib.Outcome(broken="survey test did not finish within 120 s")
    if result.returncode not in (0, 1):
        return lib.Outcome(broken=f"survey test exited {result.returncode}: {' '.join(result.stderr.split())[-300:]}")
    o = lib.outcome_of_events(result)
    if o.broken:
        return o
    # Pages renamed by the conversion (pages hold no data): compared under their SurveyJS names,
    # whether the run completed or stopped.
    renames = page_renames(binary, str(case.file("surveyjs.json")))
    if renames and o.visited:
        o.visited = [renames.get(v, v) for v in o.visited]
    if o.blockers:
        elements = element_renames(binary, str(case.file("surveyjs.json")))
        o.blockers = sorted({elements.get(b, b) for b in o.blockers})
    if not o.completed:
        errlines = result.stderr.splitlines()
        msg = " ".join(l for l in errlines if not l.startswith("warning: ")) or f"exit {result.returncode}"
        o.stopped = msg.replace(str(case.file(case.answers_file)) + ": ", "").replace(str(case.directory) + os.sep, "")
    return o


def classify_difference(detail: str) -> str:
    d = detail
    m = re.match(r"SurveyJS completed; ours did not complete: (.*)", d)
    if m:
        return "ours stopped, SurveyJS completed: " + normalise(m.group(1))[:160]
    m = re.match(r"SurveyJS did not complete: (.*); ours completed", d)
    if m:
        return "SurveyJS stopped, ours completed: " + normalise(m.group(1))[:160]
    if d.startswith("stopped by:"):
        return "both stopped, on different questions"
    if d.startswith("pages visited:"):
        return "pages visited differ"
    m = re.match(r"data '([^']*)': SurveyJS (.*), ours has none$", d)
    if m:
        return "data: key only in SurveyJS's data"
    m = re.match(r"data '([^']*)': SurveyJS has none, ours (.*)$", d)
    if m:
        return "data: key only in ours"
    m = re.match(r"data '([^']*)': SurveyJS (.*), ours (.*)$", d)
    if m:
        a, b = m.group(2), m.group(3)
        try:
            ja, jb = json.loads(a), json.loads(b)
        except ValueError:
            return "data: values differ"
        def kind(v):
            return type(v).__name__
        if kind(ja) != kind(jb):
            return f"data: value of another type (SurveyJS {kind(ja)}, ours {kind(jb)})"
        if isinstance(ja, list) and sorted(map(json.dumps, ja)) == sorted(map(json.dumps, jb)):
            return "data: same items, other order"
        if isinstance(ja, dict):
            return "data: object values differ"
        if isinstance(ja, list):
            return "data: list values differ"
        return "data: values differ"
    return "other: " + normalise(d)[:120]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--survey-binary", default=str(ROOT / ".build" / "debug" / "survey"), metavar="PATH")
    ap.add_argument("--corpus", type=Path, default=WORK / "corpus")
    ap.add_argument("--cases", type=Path, default=WORK / "cases", help="where the answer scripts are written")
    ap.add_argument("--results", type=Path, default=WORK / "results")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2, help="our engine's processes at once (default 2)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME")
    ap.add_argument("--paths-time-limit", type=int, default=10)
    ap.add_argument("--keep-scripts", action="store_true", help="reuse existing answer scripts instead of regenerating")
    ap.add_argument("--lenient-expressions", action="store_true",
                    help="give every command of ours --lenient-expressions (a SurveyJS expression survey-core "
                         "cannot parse either is left out, as survey-core ignores it)")
    a = ap.parse_args()

    binary = os.path.abspath(a.survey_binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"check.py: {binary} is not an executable")
    if a.lenient_expressions:
        # Every command runs through a wrapper that adds the option after the subcommand's name.
        a.results.mkdir(parents=True, exist_ok=True)
        wrapper = a.results / "survey-lenient"
        wrapper.write_text(f'#!/bin/sh\ncommand="$1"; shift\nexec "{binary}" "$command" --lenient-expressions "$@"\n')
        wrapper.chmod(0o755)
        binary = str(wrapper)
    node = lib.find_node()
    core = lib.fetch_survey_core()
    today = datetime.date.today().isoformat()
    names = sorted(p.name for p in a.corpus.iterdir() if (p / "surveyjs.json").is_file())
    if a.only:
        names = [n for n in names if n in a.only]
    a.results.mkdir(parents=True, exist_ok=True)
    seeds = list(range(1, a.seeds + 1))

    # 1 + 3a: survey-core loads, and writes the answer scripts.
    print(f"survey-core {core}; {len(names)} surveys, seeds {seeds}", flush=True)
    jobs = []
    for n in names:
        d = a.cases / n
        if not a.keep_scripts:
            shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(a.corpus / n / "surveyjs.json", d / "surveyjs.json")
        jobs.append({"name": n, "surveyjs": str(d / "surveyjs.json"), "seeds": seeds, "out": str(d / "_gen")})
    r = subprocess.run([node, str(TOOLS / "respondent.js"), str(core)], input=json.dumps(jobs), capture_output=True,
                       text=True, timeout=7200)
    if r.returncode != 0:
        sys.exit(f"respondent.js failed: {r.stderr[-1000:]}")
    gen = {}
    for line in r.stdout.splitlines():
        g = json.loads(line)
        gen[g["name"]] = g
    for n in names:
        d = a.cases / n
        for s in seeds:
            src = d / "_gen" / f"answers-{s}.json"
            if src.is_file():
                shutil.copyfile(src, d / ("answers.json" if s == 1 else f"answers-{s}.json"))
        shutil.rmtree(d / "_gen", ignore_errors=True)
        if gen.get(n, {}).get("load") != "ok":
            shutil.rmtree(d, ignore_errors=True)  # survey-core refuses: nothing to compare
    loaded = [n for n in names if gen.get(n, {}).get("load") == "ok"]
    print(f"survey-core loads {len(loaded)} of {len(names)}", flush=True)

    # 2: our static checks.
    work = Path(tempfile.mkdtemp(prefix="realworld-"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        static = dict(zip(loaded, pool.map(
            lambda n: our_static(binary, n, a.corpus / n / "surveyjs.json", work, a.paths_time_limit, today), loaded)))
    print("static checks done", flush=True)

    # 3b: the runs, both engines.
    cases = []
    for n in loaded:
        d = a.cases / n
        surveyjs = json.loads((d / "surveyjs.json").read_text())
        for s in seeds:
            f = "answers.json" if s == 1 else f"answers-{s}.json"
            if (d / f).is_file():
                cases.append(lib.Case(f"{n}:{s}", d, surveyjs, json.loads((d / f).read_text()), f))
    theirs = run_peer(node, core, cases)
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        ours = dict(zip((c.name for c in cases), pool.map(lambda c: run_ours(binary, c, today), cases)))
    print(f"{len(cases)} runs played", flush=True)

    runs = []
    with open(a.results / "runs.jsonl", "w") as out:
        for c in cases:
            t, rep = theirs.get(c.name, (lib.Outcome(broken="survey-core reported nothing"), {}))
            o = ours[c.name]
            if t.broken or o.broken:
                status, details = "broken", [t.broken or o.broken]
            else:
                details = lib.differences(t, o, fold_others=False)
                status = "same" if not details else "different"
                # A survey ours refuses is never "same", even when both sides end with nothing.
                if not static.get(c.name.split(":")[0], {}).get("validate_ok"):
                    status = "different"
                    details = details or ["ours does not load the survey"]
            row = {"run": c.name, "survey": c.name.split(":")[0], "status": status, "details": details,
                   "causes": (["ours does not load the survey (its load errors are grouped above)"]
                              if not static.get(c.name.split(":")[0], {}).get("validate_ok") else
                              sorted({classify_difference(d) for d in details})) if status == "different" else [],
                   "surveyjs": {"completed": t.completed, "visited": t.visited, "stopped": t.stopped},
                   "ours": {"completed": o.completed, "visited": o.visited, "stopped": o.stopped,
                            "not_converted": o.not_converted},
                   "answered": sorted(set(c.answers) - set(rep.get("unused", []))),
                   "surveyjs_warnings": rep.get("warnings", [])[:5]}
            runs.append(row)
            out.write(json.dumps(row, ensure_ascii=False) + "\n")

    # Lint false errors: an error about a step survey-core showed to a respondent. An error about one
    # choice, row or column of that step (its own condition never holds) is not one: survey-core
    # showing the step says nothing of that item.
    shown = collections.defaultdict(set)
    for row in runs:
        shown[row["survey"]] |= set(row["surveyjs"]["visited"]) | set(row["answered"])
    item = re.compile(r"\.(?:choices|rows|columns)\[\d+\]")
    for n, info in static.items():
        info["lint_false_errors"] = [f for f in info["lint_errors"]
                                     if f.get("stepId") in shown[n] and not item.search(f.get("path") or "")]

    surveys = {}
    for n in names:
        g = gen.get(n, {})
        s = {"name": n, "source": (a.corpus / n / "SOURCE.txt").read_text().splitlines()[0].split(": ", 1)[-1],
             "surveycore_load": g.get("load", "missing"), "surveycore_error": g.get("error"),
             "questions": g.get("questions"), "pages": g.get("pages"),
             "surveycore_jsonErrors": g.get("jsonErrors", [])[:20], "surveycore_warnings": g.get("warnings", [])[:10]}
        s.update(static.get(n, {}))
        s["runs"] = {st: sum(1 for r in runs if r["survey"] == n and r["status"] == st) for st in ("same", "different", "broken")}
        surveys[n] = s
    (a.results / "surveys.json").write_text(json.dumps(surveys, indent=1, ensure_ascii=False))
    report = make_report(surveys, runs, binary, core)
    (a.results / "report.md").write_text(report)
    print(report)
    shutil.rmtree(work, ignore_errors=True)
    return 0


def make_report(surveys: dict, runs: list, binary: str, core: Path) -> str:
    S = list(surveys.values())
    L = [s for s in S if s["surveycore_load"] == "ok"]
    n = len(S)
    valid = sum(1 for s in L if s.get("validate_ok"))
    whole = sum(1 for s in L if s.get("converts_whole"))
    imp_ok = sum(1 for s in L if s.get("import_rc") == 0)
    lint_err_surveys = sum(1 for s in L if s.get("lint_errors"))
    lint_errs = sum(len(s.get("lint_errors", [])) for s in L)
    lint_false = sum(len(s.get("lint_false_errors", [])) for s in L)
    lint_false_surveys = sum(1 for s in L if s.get("lint_false_errors"))
    cov = [s["coverage"] for s in L if s.get("coverage")]
    full_cov = sum(1 for c in cov if c.get("percent") == 100)
    feasible_cov = sum(1 for c in cov if c.get("all_feasible"))
    infeasible_goals = sum(c.get("infeasible") or 0 for c in cov)
    goals = sum(c["goals"] or 0 for c in cov); covered = sum(c["covered"] or 0 for c in cov)
    pt = [s["path_tests"] for s in L if s.get("path_tests")]
    pt_scripts = sum(p["scripts"] for p in pt); pt_passed = sum(p["passed"] for p in pt)
    pt_all = sum(1 for p in pt if p["failed"] == 0)
    st = collections.Counter(r["status"] for r in runs)
    surveys_all_same = sum(1 for s in L if s["runs"]["same"] and not s["runs"]["different"] and not s["runs"]["broken"])
    sj_completed = sum(1 for r in runs if r["surveyjs"]["completed"])
    lines = [f"# Real-world check: {n} public SurveyJS surveys", "",
             f"binary: `{binary}`; survey-core 3.0.4 (`{core}`); {datetime.datetime.now().isoformat(timespec='minutes')}", "",
             "| measure | result |", "|---|---|",
             f"| surveys collected | {n} ({sum(s['questions'] or 0 for s in L)} questions in all; largest {max((s['questions'] or 0) for s in L) if L else 0}) |",
             f"| survey-core loads | {len(L)} of {n} |",
             f"| ours loads directly (`survey validate`) | {valid} of {len(L)} |",
             f"| `survey import` exits 0 | {imp_ok} of {len(L)} |",
             f"| converts whole (exit 0, no `not converted`) | {whole} of {len(L)} |",
             f"| lint: surveys with errors (not counting load errors) | {lint_err_surveys} ({lint_errs} errors) |",
             f"| lint: false errors (an error about a step survey-core showed) | {lint_false} in {lint_false_surveys} surveys |",
             f"| `survey paths`: coverage | {len(cov)} surveys measured, {full_cov} at 100 %; {covered}/{goals} goals |",
             f"| `survey paths`: every goal not proven infeasible covered (exit 0) | {feasible_cov} of {len(cov)}; {infeasible_goals} goals proven infeasible |",
             f"| `survey test` of the generated scripts | {pt_passed}/{pt_scripts} scripts pass; all pass in {pt_all} of {len(pt)} surveys |",
             f"| random-respondent runs | {len(runs)} ({sj_completed} completed in survey-core) |",
             f"| runs same / different / broken | {st['same']} / {st['different']} / {st['broken']} |",
             f"| surveys whose every run is the same | {surveys_all_same} of {len(L)} |", ""]

    def group(title, items):
        # items: (cause, survey, example-text)
        by = collections.defaultdict(lambda: {"surveys": set(), "count": 0, "example": None})
        for cause, sv, ex in items:
            g = by[cause]; g["surveys"].add(sv); g["count"] += 1
            if g["example"] is None:
                g["example"] = ex
        out = [f"## {title}", ""]
        if not by:
            return out + ["(none)", ""]
        out += ["| cause | surveys | occurrences | examples |", "|---|---|---|---|"]
        for cause, g in sorted(by.items(), key=lambda kv: (-len(kv[1]["surveys"]), -kv[1]["count"])):
            ex = ", ".join(sorted(g["surveys"])[:3])
            out.append(f"| {cause.replace('|', '/')} | {len(g['surveys'])} | {g['count']} | {ex} — `{(g['example'] or '')[:200].replace('|', '/')}` |")
        return out + [""]

    lines += group("survey-core refuses", [(normalise(s.get("surveycore_error") or ""), s["name"], s.get("surveycore_error") or "")
                                           for s in S if s["surveycore_load"] != "ok"])
    lines += group("Load errors of ours (`survey validate`), by message pattern",
                   [(normalise(e), s["name"], e) for s in L for e in dict.fromkeys(s.get("validate_errors", []))
                    if not e.startswith("warning")])
    lines += group("Not converted by `survey import` (behaviour-changing notes)",
                   [(normalise(e.split(": not converted: ", 1)[1]), s["name"], e) for s in L for e in s.get("not_converted", [])])
    lines += group("Lint errors (not load errors); * = false (survey-core showed the step)",
                   [(("* " if f in s.get("lint_false_errors", []) else "") + f"[{f.get('rule')}] " + normalise(f.get("message", "")),
                     s["name"], f.get("message", "")) for s in L for f in s.get("lint_errors", [])])
    lines += group("`survey paths` / `survey test` of generated scripts",
                   [("paths: " + normalise(s.get("paths_error", "")), s["name"], s.get("paths_error", "")) for s in L if s.get("paths_error")]
                   + [("test failed: " + normalise(x)[:150], s["name"], x) for s in L for x in s.get("path_test_failures", [])])
    lines += group("Runs: differences by kind (a run can have several)",
                   [(c, r["survey"], next((d for d in r["details"] if classify_difference(d) == c), r["details"][0] if r["details"] else "")) for r in runs for c in r["causes"]])
    lines += group("Runs: broken", [(normalise(r["details"][0])[:160], r["survey"], r["details"][0]) for r in runs if r["status"] == "broken"])
    lines += ["## Per survey", "", "| survey | q | sc load | validate | whole | lint err (false) | coverage | path tests | runs same/diff/broken |",
              "|---|---|---|---|---|---|---|---|---|"]
    for s in S:
        if s["surveycore_load"] != "ok":
            lines.append(f"| {s['name']} | – | refuses | | | | | | |"); continue
        c = s.get("coverage") or {}
        p = s.get("path_tests") or {}
        lines.append(f"| {s['name']} | {s['questions']} | ok | {'ok' if s.get('validate_ok') else 'FAIL'} | "
                     f"{'yes' if s.get('converts_whole') else 'no (' + str(len(s.get('not_converted', []))) + ')'} | "
                     f"{len(s.get('lint_errors', []))} ({len(s.get('lint_false_errors', []))}) | "
                     f"{c.get('percent', '–')} %{' (rest infeasible)' if c.get('all_feasible') and c.get('percent') != 100 else ''} | {p.get('passed', '–')}/{p.get('scripts', '–')} | "
                     f"{s['runs']['same']}/{s['runs']['different']}/{s['runs']['broken']} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
