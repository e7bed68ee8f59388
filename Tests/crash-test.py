#!/usr/bin/env python3
"""Crash test of the response store: no acknowledged answer is ever lost.

Drives `survey run --renderer json --store STORE` with random valid answers from a seeded
generator and kills it with SIGKILL at a random moment, SESSIONS times. After each kill it checks,
through `survey responses show`, that every action the engine had acknowledged (an `answered`
event, or the `step` event after a next/back) is in the store in order (a Back that a Next undid may
have left the store with that Next, and an answer replacing the one just given to its step may have
taken its place: see compacted), then runs the survey again
as the same respondent and checks that it continues from exactly that point (same unit, same
answers shown). Prints `killed N sessions, acknowledged A answers, lost L` and exits 1 unless L is 0
and every check passed.

    Tests/crash-test.py                       # 200 sessions (what .ci/run does)
    Tests/crash-test.py --sessions 1000       # the long version
    Tests/crash-test.py --concurrent 8        # 8 writers at once on one store, nothing lost or doubled
    Tests/crash-test.py --store postgresql:///survey_test?host=/tmp/pg   # the same against PostgreSQL

The survey binary is `swift build --show-bin-path`/survey unless --binary is given.
"""

import argparse
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def random_text(rng, low=1, high=30):
    letters = "abcdefghijklmnopqrstuvwxyz éü"
    return "".join(rng.choice(letters) for _ in range(rng.randint(low, high))).strip() or "x"


def random_value(rng, question):
    """A value that answers the question's input primitive (see docs/json-event-protocol.md)."""
    spec = question["input"]
    kind = spec["kind"]
    if kind == "free-text":
        low = max(1, spec.get("minLength", 1))
        high = min(spec.get("maxLength", 40), low + 40)
        presentation = spec.get("presentation")
        if presentation == "email":
            return f"user{rng.randint(1, 999)}@example.com"
        if presentation == "phone":
            return f"+1 555 {rng.randint(1000000, 9999999)}"
        return random_text(rng, low, high)
    if kind in ("single-choice", "multiple-choice"):
        choices = [c for c in spec["choices"] if not c.get("isOther")]
        if not choices:
            return None
        if kind == "single-choice":
            return rng.choice(choices)["value"]
        if spec.get("ordered"):
            values = [c["value"] for c in spec["choices"]]
            rng.shuffle(values)
            return values
        low = spec.get("minSelections", 1)
        high = min(spec.get("maxSelections", len(choices)), len(choices))
        count = rng.randint(min(low, high), high) if high >= 1 else 0
        return [c["value"] for c in rng.sample(choices, count)]
    if kind == "number":
        low = spec.get("min", 0)
        high = spec.get("max", low + 100)
        step = spec.get("step", 1)
        steps = int((high - low) / step)
        return low + step * rng.randint(0, max(0, steps))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "date":
        return f"{rng.randint(1950, 2020)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if kind == "composite":
        answer = {}
        for field in spec["fields"]:
            value = random_value(rng, {"input": field["input"]})
            if value is not None:
                answer[field["name"]] = value
        return answer
    if kind == "file-reference":
        formats = spec.get("formats") or ["m4a"]
        return {"file": f"recordings/note-{rng.randint(1, 99)}.{formats[0]}", "durationSeconds": 1}
    return None


class Session:
    """One `survey run` process and what it acknowledged."""

    def __init__(self, binary, survey, store, respondent, environment):
        self.process = subprocess.Popen(
            [binary, "run", survey, "--renderer", "json", "--store", store, "--respondent", respondent],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
        self.buffer = b""
        self.step = None
        self.visit = None
        self.started = None
        self.completed = False
        self.acknowledged = []  # actions the engine confirmed, in order, as stored: {"action": ...}
        self.pending = None  # the last command sent whose reply was not read yet
        self.answers_acknowledged = 0

    def read_event(self, timeout=20.0):
        deadline = time.time() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.time()
            if remaining <= 0:
                raise RuntimeError("no event within %.0f s" % timeout)
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def read_until_prompt(self):
        """Reads events until the engine waits for a command (after step/progress or a reply)."""
        while True:
            event = self.read_event()
            if event is None:
                return None
            kind = event["event"]
            if kind == "started":
                self.started = event
            elif kind == "step":
                if self.pending is not None and self.pending["command"] in ("next", "back") and event["visit"] != self.visit:
                    self.acknowledged.append({"action": self.pending["command"]})
                    self.pending = None
                self.step = event["step"]
                self.visit = event["visit"]
            elif kind == "progress":
                return event
            elif kind == "answered":
                pending = self.pending
                if pending is not None and pending["command"] == "answer" and pending["stepId"] == event["stepId"]:
                    self.acknowledged.append(
                        {"action": "answer", "stepId": pending["stepId"], "value": pending["value"]})
                    self.answers_acknowledged += 1
                    self.pending = None
                return event
            elif kind in ("validation-error", "error"):
                self.pending = None
                return event
            elif kind == "completed":
                if self.pending is not None and self.pending["command"] == "next":
                    self.acknowledged.append({"action": "next"})
                self.pending = None
                self.completed = True
                return event

    def send(self, command):
        self.pending = command
        self.process.stdin.write((json.dumps(command) + "\n").encode())
        self.process.stdin.flush()

    def random_command(self, rng):
        questions = [q for q in self.step["questions"] if q.get("collectsAnswer")]
        roll = rng.random()
        if questions and roll < 0.7:
            question = rng.choice(questions)
            value = random_value(rng, question)
            if value is not None:
                return {"command": "answer", "stepId": question["id"], "value": value}
        if self.step.get("canGoBack") and roll > 0.93:
            return {"command": "back"}
        return {"command": "next"}

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def close(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        self.process.wait(timeout=30)
        self.process.stdout.close()
        self.process.stderr.close()


def stored(binary, store, respondent, environment):
    """The respondent's latest response and its actions, from `survey responses`."""
    listing = subprocess.run(
        [binary, "responses", "list", "--store", store, "--respondent", respondent, "--format", "jsonl"],
        capture_output=True, text=True, env=environment, check=True)
    rows = [json.loads(line) for line in listing.stdout.splitlines() if line.strip()]
    if not rows:
        return None, []
    latest = rows[-1]
    shown = subprocess.run(
        [binary, "responses", "show", latest["responseId"], "--store", store],
        capture_output=True, text=True, env=environment, check=True)
    actions = json.loads(shown.stdout)["actions"]
    for action in actions:
        action.pop("sequence", None)
        action.pop("at", None)
    return latest, actions


def same_action(a, b):
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def without_back_next_pairs(actions):
    """`actions` with each Back that a later Next undid taken out with that Next (innermost first).

    The engine drops a Back and the Next that returns to where it left, no answer changed, from the
    session's log and from the store (docs/response-store.md, "Bounded logs"); whether it did for a
    given pair depends on where the Next went and on answers the test does not see. Both lists are
    compared in this form, so a pair the engine kept and a pair it dropped look the same, while every
    answer, and every Back or Next that is not part of such a pair, is still compared in order.
    """
    kept = []
    for action in actions:
        if action["action"] == "next" and kept and kept[-1]["action"] == "back":
            kept.pop()
        else:
            kept.append(action)
    return kept


def compacted(actions):
    """`actions` without Back/Next pairs (without_back_next_pairs), and of answers to one step in a
    row only the last.

    The engine lets an answer take the place of the answer just given to the same step when that
    answer left no other trace (docs/response-store.md); whether it did depends on what reads the
    step. Both lists are compared in this form: every step's latest answer, and the order of
    answers to different steps and of moves, are still compared.
    """
    kept = []
    for action in without_back_next_pairs(actions):
        if (action["action"] == "answer" and kept and kept[-1]["action"] == "answer"
                and kept[-1]["stepId"] == action["stepId"]):
            kept[-1] = action
        else:
            kept.append(action)
    return kept


def crash_sessions(args, binary, store, environment, rng):
    killed = acknowledged = lost = completed = 0
    problems = []
    for number in range(args.sessions):
        respondent = f"crash-{args.seed}-{number}"
        session = Session(binary, args.survey, store, respondent, environment)
        if session.read_until_prompt() is None:
            problems.append(f"{respondent}: the run ended before its first step: {session.process.stderr.read()!r}")
            session.kill()
            continue
        budget = rng.randint(1, args.max_actions)
        for sent in range(budget):
            command = session.random_command(rng)
            session.send(command)
            if sent == budget - 1 and rng.random() < 0.5:
                time.sleep(rng.random() * 0.004)  # kill while the command may be half done
                break
            if session.read_until_prompt() is None or session.completed:
                break
        was_completed = session.completed
        inflight = session.pending is not None
        inflight_next = inflight and session.pending["command"] == "next"
        session.kill()
        killed += 1
        acknowledged += session.answers_acknowledged
        response, actions = stored(binary, store, respondent, environment)
        actions = compacted(actions)
        acked = compacted(session.acknowledged)
        missing = [a for a in acked if not any(same_action(a, b) for b in actions)]
        prefix_ok = len(actions) >= len(acked) and all(same_action(a, b) for a, b in zip(acked, actions))
        extra = len(actions) - len(acked)
        # A Next in flight may have undone the last acknowledged Back: both left the store.
        if not prefix_ok and inflight_next and acked and acked[-1]["action"] == "back":
            prefix_ok = len(actions) == len(acked) - 1 and all(same_action(a, b) for a, b in zip(acked, actions))
        # An answer in flight may have taken the place of the last acknowledged one, to the same step.
        pending = session.pending
        if (not prefix_ok and inflight and pending["command"] == "answer" and acked
                and acked[-1]["action"] == "answer" and acked[-1]["stepId"] == pending["stepId"]):
            replaced = acked[:-1] + [{"action": "answer", "stepId": pending["stepId"], "value": pending["value"]}]
            prefix_ok = len(actions) == len(replaced) and all(same_action(a, b) for a, b in zip(replaced, actions))
            if prefix_ok:
                missing = []
        if not prefix_ok or (extra > (1 if inflight else 0)):
            lost += sum(1 for a in missing if a["action"] == "answer")
            problems.append(
                f"{respondent}: acknowledged {len(acked)} actions, stored {len(actions)} "
                f"(in flight: {inflight}); first difference: "
                + next((f"{json.dumps(a)} vs {json.dumps(b)}" for a, b in zip(acked, actions) if not same_action(a, b)),
                       "(length)"))
            continue
        if was_completed or (response and response["status"] == "completed"):
            completed += 1
            if response["status"] != "completed":
                problems.append(f"{respondent}: completed, but stored as {response['status']}")
            continue
        # Resume: the same respondent continues exactly where the store says.
        resumed = Session(binary, args.survey, store, respondent, environment)
        if resumed.read_until_prompt() is None:
            problems.append(f"{respondent}: the resumed run ended at once: {resumed.process.stderr.read()!r}")
            resumed.kill()
            continue
        if not resumed.started or resumed.started.get("resumed") is not True:
            problems.append(f"{respondent}: the second run did not continue the response")
        elif extra == 0 and resumed.step["unitId"] != session.step["unitId"]:
            problems.append(
                f"{respondent}: resumed on '{resumed.step['unitId']}', stopped on '{session.step['unitId']}'")
        elif extra == 0:
            before = {q["id"]: q.get("answer") for q in session.step["questions"]}
            after = {q["id"]: q.get("answer") for q in resumed.step["questions"]}
            # Answers acknowledged on the unit after its step event was shown are in `acked`.
            for action in acked:
                if action["action"] == "answer" and action["stepId"] in before:
                    before[action["stepId"]] = "?"
            for key, value in after.items():
                if before.get(key) not in ("?", value):
                    problems.append(f"{respondent}: after resuming, '{key}' shows {value!r}, before {before.get(key)!r}")
        resumed.close()
    return killed, acknowledged, lost, completed, problems


def concurrent_writers(args, binary, store, environment):
    """N processes answer at once into one store; each must find exactly its own actions stored."""
    results = {}

    def writer(index):
        rng = random.Random(args.seed * 1000 + index)
        respondent = f"writer-{args.seed}-{index}"
        session = Session(binary, args.survey, store, respondent, environment)
        session.read_until_prompt()
        for _ in range(args.max_actions):
            if session.completed:
                break
            session.send(session.random_command(rng))
            if session.read_until_prompt() is None:
                break
        session.close()
        results[index] = (respondent, session.acknowledged)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(args.concurrent)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    problems = []
    total = 0
    for index, (respondent, acked) in sorted(results.items()):
        _, actions = stored(binary, store, respondent, environment)
        total += len(acked)
        actions = compacted(actions)
        acked = compacted(acked)
        if len(actions) != len(acked) or not all(same_action(a, b) for a, b in zip(acked, actions)):
            problems.append(f"{respondent}: acknowledged {len(acked)} actions, stored {len(actions)}")
    print(f"{args.concurrent} concurrent writers, {total} acknowledged actions, "
          f"{len(problems)} responses differ")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--survey", default=os.path.join(ROOT, "Examples", "kitchen-sink.json"))
    parser.add_argument("--store", help="a SQLite file or postgresql:// URL (default: a new temporary file)")
    parser.add_argument("--binary")
    parser.add_argument("--max-actions", type=int, default=40)
    parser.add_argument("--concurrent", type=int, default=0, help="run N writers at once instead of killing")
    args = parser.parse_args()
    binary = args.binary or os.path.join(
        subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                       check=True).stdout.strip(), "survey")
    scratch = tempfile.mkdtemp(prefix="survey-crash-")
    store = args.store or os.path.join(scratch, "responses.sqlite")
    environment = dict(os.environ, XDG_DATA_HOME=os.path.join(scratch, "xdg"), NO_COLOR="1")
    rng = random.Random(args.seed)
    if args.concurrent:
        problems = concurrent_writers(args, binary, store, environment)
    else:
        killed, acknowledged, lost, completed, problems = crash_sessions(args, binary, store, environment, rng)
        print(f"killed {killed} sessions, acknowledged {acknowledged} answers, lost {lost} "
              f"({completed} completed before the kill)")
    for problem in problems[:20]:
        print("  " + problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
