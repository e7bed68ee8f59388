#!/usr/bin/env bash
# Issue 43's input probes on a release build of `survey`, printed as one JSON object:
#   - a 64 MiB JSON-event command line (a text answer) read, answered and completed, and a 64 MiB
#     line that is not JSON read and refused (time, peak RSS);
#   - 1,000,000 Back/Next commands in one JSON run without a store (peak RSS, state file size);
#   - 1,000,000 answers to one step in a row (a respondent changing their mind), likewise.
# Usage: Benchmarks/input-probes.sh [SURVEY_BINARY]   (default .build/release/survey)
# Timing goals live here, not in tests. Needs python3 and GNU time (/usr/bin/time).
set -euo pipefail
binary=${1:-.build/release/survey}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/long.json" <<'JSON'
{"formatVersion": 1, "id": "long", "version": "1", "title": "Long",
 "steps": [{"id": "t", "type": "text", "title": "Say", "required": true}]}
JSON
cat >"$work/changes.json" <<'JSON'
{"formatVersion": 1, "id": "changes", "version": "1", "title": "Changes",
 "steps": [{"id": "p", "type": "page", "steps": [
   {"id": "r", "type": "rating", "title": "Rate", "options": {"stars": 5}},
   {"id": "why", "type": "text", "title": "Why?", "visibleIf": "{r} < 3"}]}]}
JSON
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
size = 64 * 1024 * 1024
head, tail = '{"command":"answer","stepId":"t","value":"', '"}'
with open(work + "/answer.jsonl", "w") as out:
    out.write(head + "a" * (size - len(head) - len(tail)) + tail + '\n"next"\n')
with open(work + "/garbage.txt", "w") as out:
    out.write("x" * size + "\n")
with open(work + "/back-next.jsonl", "w") as out:
    out.write('"next"\n' + '"back"\n"next"\n' * 500_000)
with open(work + "/changes.jsonl", "w") as out:
    for index in range(1_000_000):
        out.write('{"command":"answer","stepId":"r","value":%d}\n' % (index % 5 + 1))
PY

# Prints "seconds kilobytes" for one run of the binary with stdin from $1 and the rest as arguments.
measure() {
    local input=$1
    shift
    rm -f "$work/state.json"
    /usr/bin/time -f "%e %M" -o "$work/time" "$binary" "$@" --state-file "$work/state.json" \
        <"$input" >/dev/null 2>"$work/stderr"
    cat "$work/time"
}

read -r answer_s answer_kb < <(measure "$work/answer.jsonl" run "$work/long.json" --renderer json --no-store)
read -r garbage_s garbage_kb < <(measure "$work/garbage.txt" run "$work/long.json" --renderer json --no-store)
read -r loop_s loop_kb < <(
    measure "$work/back-next.jsonl" run "$root/Tests/Fixtures/onboarding.json" --renderer json --no-store)
state_bytes=$(wc -c <"$work/state.json")
read -r changes_s changes_kb < <(measure "$work/changes.jsonl" run "$work/changes.json" --renderer json --no-store)
changes_state_bytes=$(wc -c <"$work/state.json")

cat <<JSON
{"line_64mib_answer_s": $answer_s, "line_64mib_answer_peak_rss_kb": $answer_kb,
 "line_64mib_refused_s": $garbage_s, "line_64mib_refused_peak_rss_kb": $garbage_kb,
 "back_next_1m_s": $loop_s, "back_next_1m_peak_rss_kb": $loop_kb, "back_next_1m_state_bytes": $state_bytes,
 "answers_1m_s": $changes_s, "answers_1m_peak_rss_kb": $changes_kb, "answers_1m_state_bytes": $changes_state_bytes}
JSON
