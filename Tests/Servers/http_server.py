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
  GET  /_stats                        {"requests": n, "notModified": n, "byPath": {path: n}}

Usage: python3 Tests/Servers/http_server.py --root DIR [--idle 300]
"""

import argparse
import email.utils
import hashlib
import http.server
import json
import os
import sys
import threading
import time


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
        state.last = time.time()
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path != "/_control":
            return self.reply(404)
        command = json.loads(body or b"{}")
        with state.lock:
            if "fail" in command:
                state.fail = int(command["fail"])
            if "down" in command:
                state.down = bool(command["down"])
            if "put" in command:
                state.files["/" + command["put"].lstrip("/")] = (command["body"].encode("utf-8"), int(time.time()))
        self.reply(204)

    def do_GET(self):
        state = self.server.state
        state.last = time.time()
        path = self.path.split("?", 1)[0]
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
