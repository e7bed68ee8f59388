#!/usr/bin/env python3
"""What `survey serve` does when things go wrong, each case on a fresh server over 127.0.0.1:

    python3 Benchmarks/serve-failures.py --binary .build/release/survey            # the SQLite cases
    scripts/with-postgres.sh bash -c \\
        'python3 Benchmarks/serve-failures.py --binary .build/release/survey --postgres "$SURVEY_TEST_POSTGRES_URL"'

- `oversized`: bodies over the 1 MiB limit (with and without Content-Length), a 100 KiB header.
- `disconnect`: clients that close mid-headers, mid-body, or after sending a whole command without
  reading the reply; then the same respondents go on.
- `slow`: 200 connections sending a request one byte a second (slowloris), then 1,100 idle
  connections, while a respondent answers: its latency, and when the slow ones are closed.
- `disk-full` (root: a 4 MiB tmpfs; SQLite): respondents answer until the store's disk is full, then
  space is freed. And a store that cannot be created (a path under a file) at start.
- `store-down` (with --postgres): respondents answer while the PostgreSQL server is stopped
  (immediate shutdown) for 5 s and started again.

Where respondents answer, each retries a refused command every 0.2 s, and at the end every answer
acknowledged (a 200 with its `answered` event) must be in the store (`lost 0`). Each case prints what
the clients saw; a broken promise (an answer lost, a 5xx for an oversized body, a respondent stuck,
no recovery) is a PROBLEM line and exit status 1. Slow clients are measured, not judged. Every server started is stopped; every case is bounded in time (about 3 minutes in
all).
"""

import argparse
import glob
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

PROBLEMS = []


def expect(condition, message):
    """Notes a broken promise of the server (the run then exits 1)."""
    if not condition:
        PROBLEMS.append(message)
        print("PROBLEM: " + message, file=sys.stderr)


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SURVEY = os.path.join(ROOT, "Benchmarks", "serve", "twenty-questions.json")
SURVEY_ID = "twenty-questions"


def answer_for(index, number):
    kind = index % 4
    if kind == 1:
        return ["never", "sometimes", "often"][number % 3]
    if kind == 2:
        return (number * 7 + index) % 101
    if kind == 3:
        return (number + index) % 2 == 0
    return f"answer {index} of respondent {number}"


class Server:
    def __init__(self, binary, store, work, extra=()):
        self.log = open(os.path.join(work, f"serve-{time.monotonic_ns()}.log"), "wb")
        self.process = subprocess.Popen(
            [binary, "serve", SURVEY, "--listen", "127.0.0.1:0", "--store", store, *extra],
            stdout=subprocess.PIPE, stderr=self.log, env=dict(os.environ, XDG_DATA_HOME=os.path.join(work, "xdg")))
        line = self.process.stdout.readline().decode()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"no URL: {line!r}")
        self.port = int(match.group(1))

    def fds(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def call(port, method, path, body=None, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        payload = response.read()
        return response.status, (json.loads(payload) if payload else None)
    finally:
        connection.close()


class Respondents:
    """N threads, each taking the survey again and again, retrying refused commands."""

    def __init__(self, port, count, prefix):
        self.port, self.prefix = port, prefix
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.acked = {}  # respondent id -> {step: value}
        self.outcomes = {}  # what a refused or failed command got -> count
        self.latencies = []
        self.successes = []  # monotonic times of acknowledged answers
        self.threads = [threading.Thread(target=self.run, args=(n,), daemon=True) for n in range(count)]

    def note(self, what):
        with self.lock:
            self.outcomes[what] = self.outcomes.get(what, 0) + 1

    def send(self, method, path, body):
        """The command until it is taken: (status, body), or None when stopped."""
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                status, reply = call(self.port, method, path, body)
            except (OSError, http.client.HTTPException) as error:
                self.note(f"connection error ({type(error).__name__})")
                time.sleep(0.2)
                continue
            elapsed = time.monotonic() - started
            events = (reply or {}).get("events", [])
            failed = [e for e in events if e.get("event") == "error"]
            if status >= 400 or failed:
                code = (reply or {}).get("error", {}).get("code") or (failed[0].get("code") if failed else "")
                self.note(f"HTTP {status} {code}")
                time.sleep(0.2)
                continue
            with self.lock:
                self.latencies.append(elapsed)
            return status, reply
        return None

    def run(self, number):
        round_number = 0
        while not self.stop.is_set():
            respondent = f"{self.prefix}-{number}-{round_number}"
            round_number += 1
            started = self.send("POST", "/v1/sessions", {"surveyId": SURVEY_ID, "respondentId": respondent})
            if started is None:
                return
            token = started[1]["token"]
            with self.lock:
                self.acked[respondent] = {}
            for index in range(1, 21):
                value = answer_for(index, number)
                reply = self.send("POST", f"/v1/sessions/{token}/commands",
                                  {"command": "answer", "stepId": f"q{index}", "value": value})
                if reply is None:
                    return
                if any(e.get("event") == "answered" for e in reply[1]["events"]):
                    with self.lock:
                        self.acked[respondent][f"q{index}"] = value
                        self.successes.append(time.monotonic())
                if self.send("POST", f"/v1/sessions/{token}/commands", "next") is None:
                    return

    def start(self):
        for thread in self.threads:
            thread.start()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def lost(self, binary, store):
        """Acknowledged answers that the store does not have."""
        result = subprocess.run(
            [binary, "responses", "export", SURVEY, "--store", store, "--format", "jsonl"],
            capture_output=True, text=True, timeout=120)
        rows = {}
        for line in result.stdout.splitlines():
            if line.strip():
                row = json.loads(line)
                rows[row["respondentId"]] = row
        lost = 0
        for respondent, answers in self.acked.items():
            stored = rows.get(respondent, {}).get("answers", {})
            lost += sum(1 for step, value in answers.items() if stored.get(step) != value)
        return lost, sum(len(a) for a in self.acked.values())

    def summary(self):
        outcomes = ", ".join(f"{what} ×{count}" for what, count in sorted(self.outcomes.items())) or "none"
        return f"refused or failed commands (each retried): {outcomes}"


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000 if ordered else float("nan")


def raw(port, data, read=True, timeout=10):
    """Sends `data` on a new connection; the status of the reply (0: closed without one)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        try:
            connection.sendall(data)
        except OSError:
            pass
        if not read:
            return None
        received = b""
        try:
            while b"\r\n" not in received:
                chunk = connection.recv(4096)
                if not chunk:
                    break
                received += chunk
        except OSError:
            pass
        match = re.match(rb"HTTP/1\.[01] (\d+)", received)
        return int(match.group(1)) if match else 0


# The cases.

def oversized(args, work):
    server = Server(args.binary, os.path.join(work, "oversized.sqlite"), work)
    try:
        body = b'{"surveyId": "' + b"x" * (2 << 20) + b'"}'
        started = time.monotonic()
        declared = raw(server.port, b"POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body))
        declared_ms = (time.monotonic() - started) * 1000
        started = time.monotonic()
        with_body = raw(server.port, b"POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        with_body_ms = (time.monotonic() - started) * 1000
        chunks = b"".join(b"%x\r\n" % len(body[i:i + 65536]) + body[i:i + 65536] + b"\r\n"
                          for i in range(0, len(body), 65536)) + b"0\r\n\r\n"
        chunked = raw(server.port, b"POST /v1/sessions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)
        header = raw(server.port, b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 100_000 + b"\r\n\r\n")
        health = call(server.port, "GET", "/v1/health")[0]
        expect((declared, with_body, chunked, health) == (413, 413, 413, 200), "oversized bodies get 413, then health 200")
        expect(400 <= header < 500, f"a 100 KiB header gets a 4xx: {header}")
        print(f"oversized: 2 MiB body with Content-Length: {declared} after {declared_ms:.0f} ms, body unsent "
              f"(and {with_body} in {with_body_ms:.0f} ms with it sent); 2 MiB chunked: {chunked}; 100 KiB header: "
              f"{header}; health afterwards {health}; RSS {rss_mib(server):.0f} MiB")
    finally:
        server.stop()


def rss_mib(server):
    with open(f"/proc/{server.process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def disconnect(args, work):
    store = os.path.join(work, "disconnect.sqlite")
    server = Server(args.binary, store, work)
    try:
        baseline = server.fds()
        results = {"applied": 0, "not applied": 0, "went on": 0, "stuck": 0}
        for number in range(150):
            status, reply = call(server.port, "POST", "/v1/sessions", {"surveyId": SURVEY_ID, "respondentId": f"cut-{number}"})
            token = reply["token"]
            body = json.dumps({"command": "answer", "stepId": "q1", "value": "often"}).encode()
            head = (f"POST /v1/sessions/{token}/commands HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n").encode()
            cut = [head[:len(head) // 2], head + body[:len(body) // 2], head + body][number % 3]
            raw(server.port, cut, read=False)
            # The respondent goes on: where are they, and does the next command work?
            status, reply = call(server.port, "GET", f"/v1/sessions/{token}")
            step = next(e for e in reply["events"] if e["event"] == "step")
            answer = next((q.get("answer") for q in step["step"]["questions"] if q["id"] == "q1"), None)
            if number % 3 == 2:
                results["applied" if answer == "often" else "not applied"] += 1
            status, reply = call(server.port, "POST", f"/v1/sessions/{token}/commands",
                                 [{"command": "answer", "stepId": "q1", "value": "never"}, "next"])
            results["went on" if status == 200 and reply["events"][0]["event"] == "answered" else "stuck"] += 1
        time.sleep(1)
        soon = server.fds()
        time.sleep(31)  # past the 30 s idle timeout
        expect(results["stuck"] == 0, "every respondent cut off goes on")
        print(f"disconnect: 150 respondents cut off (50 mid-headers, 50 mid-body, 50 after a whole command): "
              f"the whole commands {results['applied']} applied, {results['not applied']} not; "
              f"{results['went on']} respondents went on, {results['stuck']} stuck; open files {baseline} before, "
              f"{soon} 1 s after, {server.fds()} 31 s after; health {call(server.port, 'GET', '/v1/health')[0]}")
    finally:
        server.stop()


def slow(args, work):
    server = Server(args.binary, os.path.join(work, "slow.sqlite"), work)
    sockets = []
    try:
        request = b"POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 30\r\n\r\n" + b"{" * 30
        for _ in range(200):
            sockets.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
        respondents = Respondents(server.port, 2, "slow")
        respondents.start()
        started = time.monotonic()
        closed_at = {}
        position = 0
        while time.monotonic() - started < 40 and len(closed_at) < len(sockets):
            for index, connection in enumerate(sockets):
                if index in closed_at:
                    continue
                try:
                    connection.send(request[position % len(request):position % len(request) + 1])
                except OSError:
                    closed_at[index] = time.monotonic() - started
            position += 1
            time.sleep(1)
        respondents.finish()
        latencies = respondents.latencies
        closed = sorted(closed_at.values())
        print(f"slow: 200 connections sending 1 byte/s for {time.monotonic() - started:.0f} s: {len(closed)} closed by "
              f"the server (first after {closed[0] if closed else float('nan'):.0f} s, last {closed[-1] if closed else float('nan'):.0f} s); "
              f"meanwhile 2 respondents: {len(latencies)} commands, p50 {percentile(latencies, 0.5):.1f} ms, "
              f"p99 {percentile(latencies, 0.99):.1f} ms; {respondents.summary()}")
        for connection in sockets:
            connection.close()
        sockets = []
        # More idle connections than the server takes (1,000).
        for _ in range(1100):
            try:
                sockets.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
            except OSError:
                break
        time.sleep(0.5)
        started = time.monotonic()
        try:
            status = call(server.port, "GET", "/v1/health", timeout=40)[0]
        except (OSError, http.client.HTTPException) as error:
            status = type(error).__name__
        waited = time.monotonic() - started
        print(f"slow: with {len(sockets)} idle connections open, a new request got {status} after {waited:.1f} s")
    finally:
        for connection in sockets:
            connection.close()
        server.stop()


def disk_full(args, work):
    mount = os.path.join(work, "small-disk")
    os.makedirs(mount)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount]).returncode != 0:
        print("disk-full: not run (mounting a tmpfs needs root)")
        return
    server = None
    try:
        store = os.path.join(mount, "responses.sqlite")
        server = Server(args.binary, store, work)
        respondents = Respondents(server.port, 8, "full")
        respondents.start()
        filler = os.path.join(mount, "filler")
        with open(filler, "wb") as handle:  # fill the disk but for about 256 KiB
            try:
                while os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize > 256 << 10:
                    handle.write(b"\0" * 65536)
                    handle.flush()
            except OSError:
                pass
        started = time.monotonic()
        while time.monotonic() - started < 20 and not any("HTTP" in k for k in respondents.outcomes):
            time.sleep(0.2)
        full_at = time.monotonic()
        time.sleep(3)
        ready = call(server.port, "GET", "/v1/ready")[0]
        health = call(server.port, "GET", "/v1/health")[0]
        during = sum(1 for t in respondents.successes if t > full_at)
        os.remove(filler)
        freed = time.monotonic()
        time.sleep(4)
        first = min((t for t in respondents.successes if t > freed), default=float("nan"))
        respondents.finish()
        lost, acked = respondents.lost(args.binary, store)
        expect(lost == 0 and server.process.poll() is None and first == first, "disk full: nothing lost, answers again")
        print(f"disk-full: SQLite on a 4 MiB disk, 8 respondents: disk full after {full_at - started:.1f} s; while full "
              f"/v1/ready {ready}, /v1/health {health}; {during} answers taken while full; space freed: answers again after "
              f"{(first - freed) * 1000:.0f} ms; {acked} answers acknowledged, lost {lost}; the server {'runs' if server.process.poll() is None else 'died'}; "
              f"{respondents.summary()}")
    finally:
        if server:
            server.stop()
        subprocess.run(["umount", mount])
    blocker = os.path.join(work, "a-file")
    open(blocker, "w").close()
    result = subprocess.run([args.binary, "serve", SURVEY, "--listen", "127.0.0.1:0", "--store",
                             os.path.join(blocker, "responses.sqlite")], capture_output=True, text=True, timeout=30)
    expect(result.returncode == 1, "a store that cannot be created ends serve with status 1")
    print(f"disk-full: a store that cannot be created at start: status {result.returncode}, "
          f"{result.stderr.strip().splitlines()[-1] if result.stderr.strip() else 'no message'}")


def store_down(args, work):
    url = args.postgres
    query = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)
    socket_dir = query["host"][0]
    data = os.path.join(os.path.dirname(socket_dir), "data")
    bindir = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]
    user = pwd.getpwuid(os.stat(data).st_uid).pw_name  # the cluster's owner (with-postgres.sh's choice)

    def pg_ctl(*words):
        command = [os.path.join(bindir, "pg_ctl"), "-D", data, *words]
        if os.getuid() == 0:
            command = ["runuser", "-u", user, "--"] + command
        return subprocess.run(command, capture_output=True, cwd=os.path.dirname(socket_dir)).returncode

    server = Server(args.binary, url, work)
    try:
        respondents = Respondents(server.port, 8, f"down{int(time.time())}")
        respondents.start()
        time.sleep(3)
        pg_ctl("-m", "immediate", "-w", "stop")
        stopped = time.monotonic()
        time.sleep(2)
        ready = call(server.port, "GET", "/v1/ready")[0]
        health = call(server.port, "GET", "/v1/health")[0]
        start = call(server.port, "POST", "/v1/sessions", {"surveyId": SURVEY_ID, "respondentId": "while-down"})
        time.sleep(3)
        during = sum(1 for t in respondents.successes if t > stopped)
        pg_ctl("-l", os.path.join(data, "server.log"), "-w", "-t", "60", "-o",
               f"-c listen_addresses='' -c unix_socket_directories='{socket_dir}'", "start")
        restarted = time.monotonic()
        time.sleep(5)
        respondents.finish()
        first = min((t for t in respondents.successes if t > restarted), default=float("nan"))
        lost, acked = respondents.lost(args.binary, url)
        expect(lost == 0 and first == first and ready == 503, "store down: ready 503, nothing lost, answers again")
        print(f"store-down: PostgreSQL stopped (immediate) for {restarted - stopped:.0f} s under 8 respondents: "
              f"{during} answers taken meanwhile; /v1/ready {ready}, /v1/health {health}, a new session "
              f"{start[0]} {(start[1] or {}).get('error', {}).get('code', '')}; answers again "
              f"{(first - restarted) * 1000:.0f} ms after the restart; {acked} answers acknowledged, lost {lost}; "
              f"{respondents.summary()}")
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--postgres", help="a postgresql:// URL of a with-postgres.sh cluster (for store-down)")
    parser.add_argument("--cases", default="oversized,disconnect,slow,disk-full,store-down")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="survey-serve-failures-")
    cases = {"oversized": oversized, "disconnect": disconnect, "slow": slow, "disk-full": disk_full,
             "store-down": store_down}
    try:
        for name in args.cases.split(","):
            if name == "store-down" and not args.postgres:
                print("store-down: not run (give --postgres, inside scripts/with-postgres.sh)")
                continue
            cases[name](args, work)
            sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"serve-failures: {len(PROBLEMS)} problems")
    sys.exit(1 if PROBLEMS else 0)


if __name__ == "__main__":
    main()
