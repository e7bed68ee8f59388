#!/usr/bin/env python3
"""Load generator for `survey serve`: N respondents at once, each on its own keep-alive connection,
take Benchmarks/serve/twenty-questions.json (20 required questions, one per page) over and over, one
command per request (start, then answer + next per question), for a fixed time per level. With
`--together` each answer and its Next go in one request (two commands), as the web front end posts a page.
With `--page-size K` the same 20 questions are served in pages of K, and each page goes in one request
(its K answers and the Next), as a browser posts a form: the server commits each request as one write.

    python3 Benchmarks/serve-load.py                                # 1, 8, 64, 200 respondents, SQLite
    python3 Benchmarks/serve-load.py --page-size 5                  # 4 pages of 5 questions, a request each
    python3 Benchmarks/serve-load.py --store postgresql:///survey_test?host=/tmp/pg --levels 1,8,64,200
    scripts/with-postgres.sh bash -c 'python3 Benchmarks/serve-load.py --store "$SURVEY_TEST_POSTGRES_URL"'

For each level it prints durable answers per second (answer commands acknowledged with 2xx, each
committed to the store before its reply), all requests per second, p50/p99 latency of the requests
carrying answers and of every request, surveys completed, and `lost`: completed surveys the client saw minus
completed responses in the store (through `survey responses list`), which must be 0, and the CPU
the server and this client used (100% = one core). The server is started by the script (`--threads`,
default 8) on a free port of 127.0.0.1 and killed at the end. The client is one Python process
(asyncio); on a small machine it competes with the server for CPU, so the figures are a lower bound
of the server's. With `--pgbench` (PostgreSQL only) each level is followed by `pgbench -N` (the
simple-update transactions, each one durable commit) with as many clients on the same database, for
the reference of what the cluster commits per second.
"""

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SURVEY = os.path.join(ROOT, "Benchmarks", "serve", "twenty-questions.json")
SURVEY_ID = "twenty-questions"


def answer_for(index, respondent):
    kind = index % 4
    if kind == 1:
        return ["never", "sometimes", "often"][respondent % 3]
    if kind == 2:
        return (respondent * 7 + index) % 101
    if kind == 3:
        return (respondent + index) % 2 == 0
    return f"answer {index} of respondent {respondent}"


class Connection:
    def __init__(self, port):
        self.port = port
        self.reader = None
        self.writer = None

    async def call(self, method, path, body):
        data = json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\n\r\n").encode()
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            started = time.perf_counter()
            try:
                self.writer.write(head + data)
                await self.writer.drain()
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionError("closed")
                length = 0
                close = False
                while True:
                    line = await self.reader.readline()
                    if line in (b"\r\n", b""):
                        break
                    name, _, value = line.decode().partition(":")
                    if name.lower() == "content-length":
                        length = int(value.strip())
                    if name.lower() == "connection" and value.strip().lower() == "close":
                        close = True
                payload = await self.reader.readexactly(length) if length else b""
                elapsed = time.perf_counter() - started
                if close:
                    self.close()
                return int(status_line.split()[1]), json.loads(payload) if payload else None, elapsed
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 1:
                    raise
        raise ConnectionError("unreachable")

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def paged_survey(page_size, directory):
    """The load survey with its questions in pages of `page_size`, written in `directory`; its path."""
    with open(SURVEY) as file:
        survey = json.load(file)
    questions = survey["steps"]
    survey.pop("$schema", None)
    survey["description"] = f"The twenty questions of Benchmarks/serve-load.py in pages of {page_size}."
    survey["steps"] = [{"id": f"page-{start // page_size + 1}", "type": "page", "title": f"Page {start // page_size + 1}",
                        "steps": questions[start:start + page_size]} for start in range(0, len(questions), page_size)]
    path = os.path.join(directory, f"twenty-questions-in-pages-of-{page_size}.json")
    with open(path, "w") as file:
        json.dump(survey, file)
    return path


async def respondent_loop(number, port, deadline, stats, prefix, together=False, page_size=1):
    connection = Connection(port)
    round_number = 0
    try:
        while time.perf_counter() < deadline:
            respondent = f"{prefix}-{number}-{round_number}"
            round_number += 1
            status, body, elapsed = await connection.call(
                "POST", "/v1/sessions", {"surveyId": SURVEY_ID, "respondentId": respondent})
            stats["all"].append(elapsed)
            if status != 201:
                stats["errors"].append(f"start {status} {body}")
                return
            token = body["token"]
            path = f"/v1/sessions/{token}/commands"
            completed = None
            for first in range(1, 21, page_size):
                commands = [{"command": "answer", "stepId": f"q{index}", "value": answer_for(index, number)}
                            for index in range(first, min(first + page_size, 21))]
                # With --together (or pages), the answers and Next in one request, as a web page posts a form.
                status, body, elapsed = await connection.call(
                    "POST", path, commands + ["next"] if together else commands[0])
                stats["all"].append(elapsed)
                answered = sum(1 for event in (body or {}).get("events", []) if event["event"] == "answered")
                if status != 200 or answered != len(commands):
                    stats["errors"].append(f"answer {status} {body}")
                    return
                stats["answers"].append(elapsed)
                stats["answered"] += answered
                if not together:
                    status, body, elapsed = await connection.call("POST", path, "next")
                    stats["all"].append(elapsed)
                    if status != 200:
                        stats["errors"].append(f"next {status} {body}")
                        return
                completed = next((e for e in body["events"] if e["event"] == "completed"), completed)
            if completed is None or len(completed.get("answers", {})) != 20:
                stats["errors"].append(f"{respondent}: not completed with 20 answers: {completed}")
                return
            stats["completed"] += 1
    finally:
        connection.close()


def cpu_seconds(pid):
    """User and system CPU time of process `pid` so far, in seconds (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def pgbench(store, clients, seconds):
    """`pgbench -N`'s transactions per second with `clients` clients (at most 90: PostgreSQL's default
    max_connections is 100) on the store's database."""
    result = subprocess.run(
        ["pgbench", "-N", "-n", "-c", str(min(clients, 90)), "-j", str(min(clients, 2)), "-T", str(max(1, int(seconds))),
         store], capture_output=True, text=True)
    match = re.search(r"tps = ([0-9.]+)", result.stdout)
    return float(match.group(1)) if match else float("nan")


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def stored_completed(binary, store, environment, prefix):
    listing = subprocess.run(
        [binary, "responses", "list", "--store", store, "--survey", SURVEY_ID, "--status", "completed",
         "--format", "jsonl"], capture_output=True, text=True, env=environment)
    if listing.returncode != 0:
        # Older `responses list` without --status: filter here.
        listing = subprocess.run(
            [binary, "responses", "list", "--store", store, "--survey", SURVEY_ID, "--format", "jsonl"],
            capture_output=True, text=True, env=environment, check=True)
    rows = [json.loads(line) for line in listing.stdout.splitlines() if line.strip()]
    return sum(1 for row in rows
               if row.get("status") == "completed" and str(row.get("respondentId", "")).startswith(prefix + "-"))


async def level(count, port, seconds, prefix, together=False, page_size=1):
    stats = {"all": [], "answers": [], "answered": 0, "errors": [], "completed": 0}
    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(*(respondent_loop(i, port, deadline, stats, prefix, together, page_size)
                           for i in range(count)))
    return stats, time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary")
    parser.add_argument("--store", help="a SQLite file or postgresql:// URL (default: a new temporary file)")
    parser.add_argument("--levels", default="1,10,50,100,200")
    parser.add_argument("--pgbench", action="store_true",
                        help="PostgreSQL: after each level, pgbench -N with as many clients on the same database")
    parser.add_argument("--seconds", type=float, default=10.0, help="load time per level (surveys under way finish)")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--store-connections", type=int, default=1)
    parser.add_argument("--together", action="store_true",
                        help="send each answer and its Next in one request (two commands), as a web page does")
    parser.add_argument("--page-size", type=int, default=1, metavar="K",
                        help="serve the questions in pages of K and send each page (K answers and the Next) in one "
                             "request (implies --together)")
    args = parser.parse_args()
    if not 1 <= args.page_size <= 20:
        parser.error("--page-size must be from 1 to 20")
    together = args.together or args.page_size > 1
    binary = args.binary or os.path.join(
        subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                       check=True).stdout.strip(), "survey")
    scratch = tempfile.mkdtemp(prefix="survey-serve-load-")
    store = args.store or os.path.join(scratch, "responses.sqlite")
    environment = dict(os.environ, XDG_DATA_HOME=os.path.join(scratch, "xdg"), NO_COLOR="1")
    survey = SURVEY if args.page_size == 1 else paged_survey(args.page_size, scratch)
    command = [binary, "serve", survey, "--listen", "127.0.0.1:0", "--store", store, "--threads", str(args.threads)]
    if args.store_connections != 1:
        command += ["--store-connections", str(args.store_connections)]
    server = subprocess.Popen(command,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment)
    failed = False
    try:
        line = server.stdout.readline().decode()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            sys.exit(f"survey serve printed no URL: {line!r}")
        port = int(match.group(1))
        kind = "PostgreSQL" if store.startswith("postgres") else "SQLite"
        mode = (f", pages of {args.page_size}, a page's answers and Next in one request" if args.page_size > 1
                else ", answer and Next in one request" if together else "")
        print(f"survey serve over {kind}{mode}, {args.threads} threads, {args.store_connections} store connections, "
              f"{args.seconds:g} s per level")
        use_pgbench = args.pgbench and store.startswith("postgres")
        if use_pgbench:
            subprocess.run(["pgbench", "-i", "-q", "-s", "1", store], capture_output=True, check=True)
        print(f"{'respondents':>11} {'answers/s':>10} {'requests/s':>10} {'p50 ms':>7} {'p99 ms':>7} "
              f"{'all p50':>7} {'all p99':>7} {'completed':>9} {'lost':>4} {'server%':>7} {'client%':>7}"
              + (f" {'pgbench tps':>11}" if use_pgbench else ""))
        for count in [int(x) for x in args.levels.split(",")]:
            prefix = f"load{count}-{int(time.time())}"
            server_before, client_before = cpu_seconds(server.pid), time.process_time()
            stats, elapsed = asyncio.run(level(count, port, args.seconds, prefix, together, args.page_size))
            server_cpu = (cpu_seconds(server.pid) - server_before) / elapsed * 100
            client_cpu = (time.process_time() - client_before) / elapsed * 100
            stored = stored_completed(binary, store, environment, prefix)
            lost = stats["completed"] - stored
            reference = f" {pgbench(store, count, args.seconds):>11.0f}" if use_pgbench else ""
            print(f"{count:>11} {stats['answered'] / elapsed:>10.0f} {len(stats['all']) / elapsed:>10.0f} "
                  f"{percentile(stats['answers'], 0.5) * 1000:>7.1f} {percentile(stats['answers'], 0.99) * 1000:>7.1f} "
                  f"{percentile(stats['all'], 0.5) * 1000:>7.1f} {percentile(stats['all'], 0.99) * 1000:>7.1f} "
                  f"{stats['completed']:>9} {lost:>4} {server_cpu:>7.0f} {client_cpu:>7.0f}{reference}", flush=True)
            for error in stats["errors"][:5]:
                print("   error: " + error, file=sys.stderr)
            failed = failed or bool(stats["errors"]) or lost != 0
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
