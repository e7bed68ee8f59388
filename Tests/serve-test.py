#!/usr/bin/env python3
"""`survey serve` end to end, against the built binary and a real store (SQLite file or PostgreSQL).

Three modes:

    Tests/serve-test.py --scale-out 40     # two servers over one store, each respondent's commands
                                           # sent to them alternately; the same results as one server
    Tests/serve-test.py --kill 3           # many respondents at once; the server is killed with
                                           # SIGKILL 3 times mid-load and restarted: every answer
                                           # acknowledged with a 2xx is in the store, every session
                                           # continues under its token and completes

    Tests/serve-test.py --race 40          # two servers; each respondent's Next to one and Back to
                                           # the other at the same moment: at most one is refused,
                                           # both servers then agree, the respondent completes
    Tests/serve-test.py --kill 3 --store postgresql:///survey_test?host=/tmp/pg   # PostgreSQL

Respondents take Examples/onboarding.json along its longest path, one command per request. The
servers share a session secret (SURVEY_SERVE_SESSION_SECRET), so a token handed out by one is taken
by the other, and by a restarted one. Prints a summary line and exits 1 unless every check passed.
Every server it starts is killed before it exits.
"""

import argparse
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SURVEY = os.path.join(ROOT, "Examples", "onboarding.json")
SURVEY_ID = "habitly-onboarding"
SECRET = "serve-test session secret, thirty-two bytes or more"


def answers_for(respondent):
    """The answer each unit of the onboarding survey gets from `respondent` (None: only Next)."""
    digits = re.findall(r"\d+", respondent)
    number = int(digits[-1]) if digits else 0
    return {
        "welcome": None,
        "discovery": ("discovery", ["google", "reddit"][number % 2]),
        "about-you": ("goals", [["fitness"], ["sleep"], ["fitness", "sleep"]][number % 3]),
        "experience": ("experience", "sometimes"),
        "tips-opt-in": ("tips-opt-in", True),
        "tips-email": ("tips-email", f"user{number}@example.com"),
        "thank-you": None,
    }


class Server:
    """One `survey serve` process on a free port of 127.0.0.1."""

    def __init__(self, binary, store, environment, threads=8):
        self.process = subprocess.Popen(
            [binary, "serve", SURVEY, "--listen", "127.0.0.1:0", "--store", store, "--threads", str(threads)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
        line = self.process.stdout.readline().decode()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.kill()
            raise RuntimeError(f"survey serve printed no URL: {line!r} {self.process.stderr.read().decode()}")
        self.port = int(match.group(1))

    def kill(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        for stream in (self.process.stdout, self.process.stderr):
            if stream:
                stream.close()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        self.kill()


def request(port, method, path, body=None, timeout=20):
    """(status, JSON body); raises OSError when the server cannot be reached."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        raw = response.read()
        try:
            return response.status, json.loads(raw) if raw else None
        except ValueError:
            return response.status, None
    except http.client.HTTPException as error:
        raise OSError(str(error)) from error
    finally:
        connection.close()


def unit_of(events):
    steps = [e for e in events if e.get("event") == "step"]
    return steps[-1]["step"]["unitId"] if steps else None


def commands_for(unit, respondent):
    answer = answers_for(respondent).get(unit)
    commands = []
    if answer:
        commands.append({"command": "answer", "stepId": answer[0], "value": answer[1]})
    commands.append("next")
    return commands


def take_survey(respondent, port_of, record=None, on_failure=None):
    """Takes `respondent` through the survey, command `i` to `port_of(i)`.

    Returns (token, transcript, completed event). `record(stepId, value)` is called for every answer
    acknowledged with a 2xx; `on_failure()` is called when a request fails (the server is down), and
    the respondent then goes on from where the server says the session is.
    """
    count = 0
    transcript = []
    token = None
    while token is None:
        try:
            status, body = request(port_of(count), "POST", "/v1/sessions",
                                   {"surveyId": SURVEY_ID, "respondentId": respondent, "locale": "en"})
        except OSError:
            if on_failure is None:
                raise
            on_failure()
            continue
        if status not in (200, 201):
            raise RuntimeError(f"{respondent}: start gave {status} {body}")
        if status == 200:
            return None, transcript, next((e for e in body["events"] if e["event"] == "completed"), None)
        token = body["token"]
        unit = unit_of(body["events"])
    count += 1
    while True:
        pending = commands_for(unit, respondent)
        for command in pending:
            try:
                status, body = request(port_of(count), "POST", f"/v1/sessions/{token}/commands", command)
            except OSError:
                if on_failure is None:
                    raise
                on_failure()
                # Where is the session now? (The command may or may not have been applied.)
                while True:
                    try:
                        status, body = request(port_of(count), "GET", f"/v1/sessions/{token}")
                        break
                    except OSError:
                        on_failure()
                if status == 404:
                    # Completed by the command that got no answer: the start says so.
                    status, body = request(port_of(count), "POST", "/v1/sessions",
                                           {"surveyId": SURVEY_ID, "respondentId": respondent})
                    return token, transcript, {"event": "completed", "unknown": True} if status == 200 else None
                if status != 200:
                    raise RuntimeError(f"{respondent}: GET session gave {status} {body}")
                unit = unit_of(body["events"])
                break
            count += 1
            if status != 200:
                raise RuntimeError(f"{respondent}: {command} gave {status} {body}")
            events = body["events"]
            kinds = [e["event"] for e in events]
            transcript.append(",".join(kinds) + " " + str(unit_of(events)))
            for event in events:
                if event["event"] == "answered" and record:
                    record(event["stepId"], event.get("value"))
                if event["event"] in ("validation-error", "error"):
                    raise RuntimeError(f"{respondent}: {command} was refused: {events}")
            completed = next((e for e in events if e["event"] == "completed"), None)
            if completed:
                return token, transcript, completed
            if unit_of(events):
                unit = unit_of(events)
                break


def scale_out(args, binary, store, environment):
    servers = [Server(binary, store, environment), Server(binary, store, environment)]
    problems = []
    try:
        results = {}

        def respondent_run(index):
            try:
                alone = take_survey(f"alone-{index}", lambda _: servers[0].port)
                offset = index % 2
                alternating = take_survey(f"alternating-{index}", lambda i: servers[(i + offset) % 2].port)
                results[index] = (alone, alternating)
            except Exception as error:  # noqa: BLE001 - reported as a problem
                problems.append(f"respondent {index}: {error}")

        threads = [threading.Thread(target=respondent_run, args=(i,)) for i in range(args.scale_out)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        for index, (alone, alternating) in sorted(results.items()):
            if alone[1] != alternating[1]:
                problems.append(f"respondent {index}: events differ:\n  {alone[1]}\n  {alternating[1]}")
            a, b = alone[2], alternating[2]
            if not a or not b:
                problems.append(f"respondent {index}: not completed ({a}, {b})")
                continue
            if a["path"] != b["path"] or json.dumps(strip_email(a["answers"]), sort_keys=True) != json.dumps(
                    strip_email(b["answers"]), sort_keys=True):
                problems.append(f"respondent {index}: results differ: {a} / {b}")
        # The store agrees: every respondent is completed there (askAgain never: not asked again),
        # whichever server is asked.
        for index in results:
            for name, server in (("alone", servers[1]), ("alternating", servers[0])):
                status, body = request(server.port, "POST", "/v1/sessions",
                                       {"surveyId": SURVEY_ID, "respondentId": f"{name}-{index}"})
                if status != 200 or body["events"][0].get("reason") != "completed":
                    problems.append(f"{name}-{index} is not completed in the store: {status} {body}")
        print(f"scale-out: {len(results)} respondents alone and alternating between 2 servers over {kind(store)}, "
              f"{len(problems)} problems")
    finally:
        for server in servers:
            server.stop()
    return problems


def race(args, binary, store, environment):
    """Next and Back of one respondent sent at the same moment to two servers of one store.

    Each respondent answers the About you page, then its Next goes to one server and a Back to the
    other at once. One may be refused (`storeFailed`: the other stored its action under the same
    number first), never both; then both servers must show the same unit, the one the applied
    commands lead to, and the respondent completes the survey through both servers alternately.
    """
    servers = [Server(binary, store, environment), Server(binary, store, environment)]
    problems = []
    outcomes = {}
    # The unit each outcome leads to, from About you: Next to experience, Back to discovery, both
    # (in either order) back to About you.
    expected = {("moved", "storeFailed"): "experience", ("storeFailed", "moved"): "discovery",
                ("moved", "moved"): "about-you"}

    def outcome(reply):
        status, body = reply
        events = (body or {}).get("events", [])
        if status == 200 and unit_of(events):
            return "moved"
        if status == 200 and [e.get("code") for e in events if e["event"] == "error"] == ["storeFailed"]:
            return "storeFailed"
        return f"{status} {body}"

    try:
        for index in range(args.race):
            respondent = f"race-{index}"
            status, body = request(servers[0].port, "POST", "/v1/sessions",
                                   {"surveyId": SURVEY_ID, "respondentId": respondent, "locale": "en"})
            path = f"/v1/sessions/{body['token']}/commands"
            goals = answers_for(respondent)["about-you"][1]
            for number, commands in enumerate((["next"], commands_for("discovery", respondent),
                                               [{"command": "answer", "stepId": "goals", "value": goals}])):
                request(servers[number % 2].port, "POST", path, commands)
            barrier = threading.Barrier(2)
            replies = {}

            def send(slot, command):
                barrier.wait(timeout=20)
                replies[slot] = request(servers[slot].port, "POST", path, command)

            threads = [threading.Thread(target=send, args=(0, "next")), threading.Thread(target=send, args=(1, "back"))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            kinds = (outcome(replies.get(0, (0, None))), outcome(replies.get(1, (0, None))))
            outcomes[kinds] = outcomes.get(kinds, 0) + 1
            if kinds not in expected:
                problems.append(f"{respondent}: Next and Back at once gave {kinds}")
                continue
            units = [unit_of(request(server.port, "GET", f"/v1/sessions/{body['token']}")[1]["events"])
                     for server in servers]
            if units != [expected[kinds], expected[kinds]]:
                problems.append(f"{respondent}: after {kinds} the servers show {units}, not {expected[kinds]}")
            _, _, completed = take_survey(respondent, lambda i: servers[i % 2].port)
            if not completed or completed.get("answers", {}).get("goals") != goals:
                problems.append(f"{respondent}: not completed with its answers after the race: {completed}")
        summary = ", ".join(f"{a}/{b} ×{n}" for (a, b), n in sorted(outcomes.items()))
        print(f"race: {args.race} respondents' Next and Back at once on 2 servers over {kind(store)} "
              f"(Next/Back: {summary}), {len(problems)} problems")
    finally:
        for server in servers:
            server.stop()
    return problems


def strip_email(answers):
    """The answers without the e-mail address, which differs by respondent name."""
    return {k: v for k, v in answers.items() if k != "tips-email"}


def kill_under_load(args, binary, store, environment):
    lock = threading.Lock()
    state = {"server": Server(binary, store, environment), "generation": 0}
    acknowledged = {}  # respondent -> {stepId: value}
    completed = {}
    interrupted = set()  # respondents a kill cut off mid-survey, who went on after the restart
    problems = []
    stop = threading.Event()

    def port_of(_):
        with lock:
            return state["server"].port

    def wait_for_restart():
        with lock:
            seen = state["generation"]
        deadline = time.time() + 60
        while time.time() < deadline:
            with lock:
                if state["generation"] != seen:
                    return
            time.sleep(0.05)

    def worker(index):
        number = 0
        while not stop.is_set():
            respondent = f"load-{index}-{number}"
            number += 1
            answers = acknowledged.setdefault(respondent, {})

            def record(step, value):
                answers[step] = value

            def on_failure():
                interrupted.add(respondent)
                wait_for_restart()

            try:
                _, _, done = take_survey(respondent, port_of, record=record, on_failure=on_failure)
                completed[respondent] = done
            except Exception as error:  # noqa: BLE001 - reported as a problem
                problems.append(f"{respondent}: {error}")
                return

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.concurrent)]
    for thread in threads:
        thread.start()
    kills = 0
    try:
        for _ in range(args.kill):
            time.sleep(args.seconds)
            with lock:
                state["server"].kill()
                kills += 1
            time.sleep(0.2)
            replacement = Server(binary, store, environment)
            with lock:
                state["server"] = replacement
                state["generation"] += 1
        time.sleep(args.seconds)
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
        if any(thread.is_alive() for thread in threads):
            problems.append("a respondent did not finish within 120 s after the load stopped")
    finally:
        stop.set()
        with lock:
            state["server"].stop()
    # Every acknowledged answer is in the store.
    answered = sum(len(v) for v in acknowledged.values())
    lost = 0
    for respondent, answers in sorted(acknowledged.items()):
        actions = stored_actions(binary, store, environment, respondent)
        for step, value in answers.items():
            found = any(a.get("action") == "answer" and a.get("stepId") == step and a.get("value") == value
                        for a in actions)
            if not found:
                lost += 1
                problems.append(f"{respondent}: acknowledged {step}={value!r} is not in the store")
        if respondent not in completed:
            problems.append(f"{respondent}: did not complete")
    if kills and not interrupted:
        problems.append("no respondent was cut off by a kill: the test did not test anything")
    print(f"kill -9 under load: {args.concurrent} concurrent respondents, {kills} kills, {len(acknowledged)} "
          f"respondents ({len(interrupted)} cut off by a kill, continued after the restart), {len(completed)} completed, "
          f"acknowledged {answered} answers, lost {lost} ({kind(store)})")
    return problems


def stored_actions(binary, store, environment, respondent):
    listing = subprocess.run(
        [binary, "responses", "list", "--store", store, "--respondent", respondent, "--format", "jsonl"],
        capture_output=True, text=True, env=environment, check=True)
    actions = []
    for line in listing.stdout.splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        shown = subprocess.run([binary, "responses", "show", row["responseId"], "--store", store],
                               capture_output=True, text=True, env=environment, check=True)
        actions += json.loads(shown.stdout)["actions"]
    return actions


def kind(store):
    return "PostgreSQL" if store.startswith("postgres") else "SQLite"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary")
    parser.add_argument("--store", help="a SQLite file or postgresql:// URL (default: a new temporary file)")
    parser.add_argument("--scale-out", type=int, default=0, metavar="N", help="N respondents over two servers")
    parser.add_argument("--race", type=int, default=0, metavar="N",
                        help="N respondents each sending Next and Back at once to two servers")
    parser.add_argument("--kill", type=int, default=0, metavar="K", help="kill the server K times under load")
    parser.add_argument("--concurrent", type=int, default=32, help="respondents at once under --kill")
    parser.add_argument("--seconds", type=float, default=2.0, help="load between kills")
    args = parser.parse_args()
    binary = args.binary or os.path.join(
        subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                       check=True).stdout.strip(), "survey")
    scratch = tempfile.mkdtemp(prefix="survey-serve-test-")
    store = args.store or os.path.join(scratch, "responses.sqlite")
    environment = dict(os.environ, XDG_DATA_HOME=os.path.join(scratch, "xdg"), NO_COLOR="1",
                       SURVEY_SERVE_SESSION_SECRET=SECRET)
    problems = []
    if args.scale_out:
        problems += scale_out(args, binary, store, environment)
    if args.race:
        problems += race(args, binary, store, environment)
    if args.kill:
        problems += kill_under_load(args, binary, store, environment)
    for problem in problems[:20]:
        print("  " + problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
