#!/usr/bin/env python3
"""A minimal client of the survey engine's JSON-event protocol (version 1), standard library only.

It starts `survey run FILE --renderer json`, reads events from its stdout and answers each
question it is shown from a dict of answers (step id -> answer), then prints the completed
result as JSON.

    python3 survey_client.py SURVEY_BINARY SURVEY_FILE ANSWERS_JSON_FILE

Exit status: 0 when the survey completed, 1 otherwise.
"""
import json
import subprocess
import sys


class SurveyClient:
    """Drives one session: send commands, read events."""

    def __init__(self, binary, survey_file, locale="en"):
        self.process = subprocess.Popen(
            [binary, "run", survey_file, "--renderer", "json", "--locale", locale,
             "--state-file", "/dev/null"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def send(self, command):
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def events(self):
        for line in self.process.stdout:
            if line.strip():
                yield json.loads(line)

    def close(self):
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        self.process.wait(timeout=30)


class NotCompleted(Exception):
    """The run ended without completing; str() says why."""


def complete(binary, survey_file, answers, locale="en"):
    """Returns the `completed` event; any other end (not-asked, failed, ...) raises NotCompleted."""
    client = SurveyClient(binary, survey_file, locale)
    visit = None
    try:
        for event in client.events():
            kind = event["event"]
            if kind == "started":
                if event["protocol"] != 1:
                    raise RuntimeError("unsupported protocol %r" % event["protocol"])
            elif kind == "step":
                if event["visit"] == visit:
                    continue  # the same unit, updated after an answer: nothing new to do
                visit = event["visit"]
                step = event["step"]
                for question in step["questions"]:
                    if question["collectsAnswer"] and question["id"] in answers:
                        client.send({"command": "answer", "stepId": question["id"],
                                     "value": answers[question["id"]]})
                client.send({"command": "next"})
            elif kind == "validation-error":
                for error in event["errors"]:
                    print("validation error on %s: %s" % (error["stepId"], error["message"]),
                          file=sys.stderr)
                client.send({"command": "quit"})
            elif kind == "error":
                print("error %s: %s" % (event["code"], event["message"]), file=sys.stderr)
            elif kind == "completed":
                return event
            elif kind == "ended":
                raise NotCompleted("ended (%s): %s" % (event.get("reason"), event.get("message", "")))
            elif kind in ("not-asked", "failed"):
                raise NotCompleted("%s: %s" % (kind, event["message"]))
            elif kind in ("quit", "dismissed"):
                raise NotCompleted("the session ended with '%s'" % kind)
    finally:
        client.close()
    raise NotCompleted("the output ended with no final event (exit %s)" % client.process.returncode)


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[3], encoding="utf-8") as handle:
        answers = json.load(handle)
    try:
        result = complete(argv[1], argv[2], answers)
    except NotCompleted as reason:
        print("the survey did not complete: %s" % reason, file=sys.stderr)
        return 1
    print(json.dumps({"path": result["path"], "answers": result["answers"]}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
