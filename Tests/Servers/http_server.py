#!/usr/bin/env python3
"""A small HTTP server for the delivery tests, on 127.0.0.1 and a random port.

It serves the files of --root with a strong ETag and Last-Modified, answers conditional requests
(If-None-Match, If-Modified-Since) with 304, and can be told to misbehave. It prints
`port N` on its first line of stdout, and stops by itself when its stdin closes (the test that
started it ended, or died) or after --idle seconds without a request.

Control (JSON bodies, from the test):
  POST /_control {"fail": 503}        every following request answers 503 (0 turns it off)
  POST /_control {"down": true}       every following request has its connection closed at once
  POST /_control {"put": "path", "body": "..."}   replaces a served file's content
  POST /_control {"faults": {"rate": 0.3, "seed": 7, "stall": 1.0}}   from now on, that share of
                                      delivery requests misbehaves (see below); rate 0 turns it off
  GET  /_stats                        {"requests": n, "notModified": n, "byPath": {path: n}}
  GET  /_stored                       {"records": {key: creations}, "replays": n, "faults": {kind: n}}

Delivery targets (what the deliverer talks to), each keeping what it stored:
  POST /hook                          a webhook: the record is keyed by its Idempotency-Key header;
                                      a key seen before is a replay (200, nothing created again)
  PUT  /responses/<id>.json           Firebase-style: the record is <id>, written again in place
  PATCH /v0/<base>/<table>            AirTable-style upsert ({"performUpsert": {"fieldsToMergeOn": [...]},
                                      "records": [{"fields": {...}}]}); more than 10 records is a 422;
                                      a record is keyed by its merge fields
  GET  /v0/<base>/<table>             AirTable-style list of the records put with
                                      POST /_control {"table": "v0/<base>/<table>", "records": [...]},
                                      paged by pageSize (default 100) and offset
  POST /_control {"token": "T"}       from now on the /v0 endpoints want "Authorization: Bearer T"
Injected faults, one drawn per faulty request: "drop" (connection closed before anything is
stored), "500", "503", "429" (with Retry-After: 1), "stall" (stored, but the reply comes only after
the client's timeout), "midbody" (stored, then the reply is cut off in the middle of its body),
"lostReply" (stored, then the connection is closed with no reply).

Usage: python3 Tests/Servers/http_server.py --root DIR [--idle 300]
"""

import argparse
import email.utils
import hashlib
import http.server
import json
import os
import random
import sys
import threading
import time

FAULTS = ["drop", "500", "503", "429", "stall", "midbody", "lostReply"]


class State:
    def __init__(self, root):
        self.root = root
        self.lock = threading.Lock()
        self.fail = 0
        self.down = False
        self.files = {}  # path -> (bytes, mtime)
        self.requests = 0
        self.not_modified = 0
        self.by_path = {}
        self.last = time.time()
        self.fault_rate = 0.0
        self.stall = 1.0
        self.random = random.Random(0)
        self.records = {}  # key -> how many times it was created (must end at 1)
        self.bodies = {}
        self.replays = 0
        self.faults = {}
        self.tables = {}  # "/v0/base/table" -> list of records
        self.token = None
        self.upserts = {}  # merge key -> creations
        self.upsert_times = []
        self.largest_batch = 0

    def draw_fault(self):
        with self.lock:
            if self.fault_rate <= 0 or self.random.random() >= self.fault_rate:
                return None
            kind = self.random.choice(FAULTS)
            self.faults[kind] = self.faults.get(kind, 0) + 1
            return kind

    def store(self, key, body, overwrite):
        """Stores a record; returns True when it was new."""
        with self.lock:
            if key in self.records:
                if overwrite:
                    self.bodies[key] = body
                else:
                    self.replays += 1
                return False
            self.records[key] = 1
            self.bodies[key] = body
            return True

    def content(self, path):
        with self.lock:
            if path in self.files:
                return self.files[path]
        full = os.path.realpath(os.path.join(self.root, path.lstrip("/")))
        if not full.startswith(os.path.realpath(self.root) + os.sep) or not os.path.isfile(full):
            return None
        with open(full, "rb") as handle:
            return handle.read(), int(os.path.getmtime(full))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=None):
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def do_POST(self):
        state = self.server.state
        body = self.read_body()
        if self.path != "/_control" and self.path != "/hook":
            return self.reply(404)
        if self.path != "/_control":
            return self.deliver(body, key=self.headers.get("Idempotency-Key"), overwrite=False)
        command = json.loads(body or b"{}")
        with state.lock:
            if "faults" in command:
                faults = command["faults"]
                state.fault_rate = float(faults.get("rate", 0))
                state.stall = float(faults.get("stall", 1.0))
                state.random = random.Random(faults.get("seed", 0))
            if "fail" in command:
                state.fail = int(command["fail"])
            if "down" in command:
                state.down = bool(command["down"])
            if "table" in command:
                state.tables["/" + command["table"].lstrip("/")] = command["records"]
            if "token" in command:
                state.token = command["token"]
            if "put" in command:
                state.files["/" + command["put"].lstrip("/")] = (command["body"].encode("utf-8"), int(time.time()))
        self.reply(204)

    def read_body(self):
        self.server.state.last = time.time()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def fault_before_storing(self, fault):
        """Carries out a fault that leaves nothing stored; returns whether the request is answered."""
        if fault == "drop":
            self.close_connection = True
            self.connection.close()
            return True
        if fault in ("500", "503"):
            self.reply(int(fault), b"failing on purpose")
            return True
        if fault == "429":
            self.reply(429, b"slow down", {"Retry-After": "1"})
            return True
        return False

    def reply_after_storing(self, fault, status, body):
        """Replies to a request whose record is stored, through the fault drawn for it, if any."""
        if fault == "stall":
            time.sleep(self.server.state.stall)
        elif fault == "lostReply":
            self.close_connection = True
            self.connection.close()
            return
        elif fault == "midbody":
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body) + 100))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.close()
            return
        self.reply(status, body, {"Content-Type": "application/json"})

    def authorized(self):
        state = self.server.state
        if state.token is None:
            return True
        if self.headers.get("Authorization") == "Bearer " + state.token:
            return True
        self.reply(401, b'{"error": {"type": "AUTHENTICATION_REQUIRED"}}', {"Content-Type": "application/json"})
        return False

    def do_PATCH(self):
        state = self.server.state
        body = self.read_body()
        path = self.path.split("?", 1)[0]
        if not path.startswith("/v0/"):
            return self.reply(404)
        with state.lock:
            state.requests += 1
            state.upsert_times.append(time.time())
        if not self.authorized():
            return
        try:
            request = json.loads(body)
            merge = request["performUpsert"]["fieldsToMergeOn"]
            records = request["records"]
        except (ValueError, KeyError, TypeError):
            return self.reply(422, b'{"error": {"type": "INVALID_REQUEST_UNKNOWN"}}')
        if len(records) > 10:
            return self.reply(422, b'{"error": {"type": "INVALID_RECORDS", "message": "at most 10 records"}}')
        with state.lock:
            state.largest_batch = max(state.largest_batch, len(records))
        fault = state.draw_fault()
        if self.fault_before_storing(fault):
            return
        created = []
        with state.lock:
            for record in records:
                fields = record.get("fields", {})
                key = "|".join(str(fields.get(name)) for name in merge)
                if key not in state.upserts:
                    state.upserts[key] = 1
                    created.append(key)
                state.bodies["airtable:" + key] = fields
        self.reply_after_storing(fault, 200, json.dumps({"records": records, "createdRecords": created}).encode())

    def do_PUT(self):
        body = self.read_body()
        path = self.path.split("?", 1)[0]
        if not (path.startswith("/responses/") and path.endswith(".json")):
            return self.reply(404)
        self.deliver(body, key=path[len("/responses/"):-len(".json")], overwrite=True)

    def deliver(self, body, key, overwrite):
        """A delivery request: maybe a fault, else the record stored (or recognised as a replay)."""
        state = self.server.state
        with state.lock:
            state.requests += 1
        if not key:
            return self.reply(400, b"an Idempotency-Key header is required")
        try:
            json.loads(body)
        except ValueError:
            return self.reply(400, b"the body is not JSON")
        fault = state.draw_fault()
        if self.fault_before_storing(fault):
            return
        created = state.store(key, body, overwrite)
        self.reply_after_storing(fault, 201 if created else 200, b'{"ok": true}')

    def do_GET(self):
        state = self.server.state
        state.last = time.time()
        path = self.path.split("?", 1)[0]
        if path == "/_stored":
            with state.lock:
                times = sorted(state.upsert_times)
                busiest = 0
                start = 0
                for end in range(len(times)):
                    while times[end] - times[start] >= 1.0:
                        start += 1
                    busiest = max(busiest, end - start + 1)
                stored = {"records": dict(state.records), "replays": state.replays, "faults": dict(state.faults),
                          "requests": state.requests, "upserts": dict(state.upserts),
                          "upsertFields": {k[len("airtable:"):]: v for k, v in state.bodies.items()
                                           if k.startswith("airtable:")},
                          "bodies": {k: json.loads(v) for k, v in state.bodies.items()
                                     if not k.startswith("airtable:")},
                          "busiestSecond": busiest, "largestBatch": state.largest_batch}
            return self.reply(200, json.dumps(stored).encode(), {"Content-Type": "application/json"})
        if path == "/_stats":
            with state.lock:
                stats = {"requests": state.requests, "notModified": state.not_modified, "byPath": state.by_path}
            return self.reply(200, json.dumps(stats).encode(), {"Content-Type": "application/json"})
        with state.lock:
            state.requests += 1
            state.by_path[path] = state.by_path.get(path, 0) + 1
            fail, down = state.fail, state.down
        if down:
            self.close_connection = True
            self.connection.close()
            return
        if fail:
            return self.reply(fail, b"failing on purpose", {"Retry-After": "1"})
        if path.startswith("/v0/"):
            if not self.authorized():
                return
            with state.lock:
                records = state.tables.get(path)
            if records is None:
                return self.reply(404, b'{"error": "NOT_FOUND"}')
            query = dict(part.split("=", 1) for part in self.path.partition("?")[2].split("&") if "=" in part)
            size = min(100, int(query.get("pageSize", "100")))
            offset = int(query.get("offset", "0") or 0)
            page = {"records": records[offset:offset + size]}
            if offset + size < len(records):
                page["offset"] = str(offset + size)
            return self.reply(200, json.dumps(page).encode(), {"Content-Type": "application/json"})
        found = state.content(path)
        if found is None:
            return self.reply(404, b"not found")
        body, mtime = found
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        modified = email.utils.formatdate(mtime, usegmt=True)
        headers = {"ETag": etag, "Last-Modified": modified, "Content-Type": "application/json"}
        match = self.headers.get("If-None-Match")
        if match is not None and etag in [part.strip() for part in match.split(",")]:
            with state.lock:
                state.not_modified += 1
            return self.reply(304, b"", {"ETag": etag, "Last-Modified": modified})
        self.reply(200, body, headers)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--idle", type=float, default=300)
    arguments = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.state = State(arguments.root)
    print("port", server.server_address[1], flush=True)

    def watch_stdin():
        sys.stdin.read()
        os._exit(0)

    def watch_idle():
        while time.time() - server.state.last < arguments.idle:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    threading.Thread(target=watch_idle, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
