#!/usr/bin/env bash
# The OpenAPI document (docs/openapi.json) against a live `survey serve`: schemathesis (PyPI) sends
# generated requests (valid and invalid, and chains of them through the document's links) for at most
# MAX_TIME seconds and checks every response against the document: no 5xx, only documented statuses,
# headers and bodies as documented, invalid requests refused, the API token required. Exits 1 on any
# failure.
#
#     Tests/openapi-check.sh --binary .build/debug/survey --schemathesis VENV/bin/schemathesis [--max-time 150]
#
# The server runs with an API token and a respondent secret (so the authorization paths are checked
# too) over a temporary SQLite store, and is killed (by its pid) when the script ends.
#
# Two checks are left out, each for a reason the document cannot express:
# - ensure_resource_availability ("created resource not found") takes a session that a command of the
#   same scenario ended (dismiss, completion) for one that vanished; 404 is the documented answer for
#   an ended session.
# - positive_data_acceptance ("schema-valid request rejected") expects every request the schema
#   allows to be accepted; whether `variables` names a declared variable depends on the survey served
#   (400 unknownVariable), which a document of the API (not of one survey) cannot list.
set -euo pipefail

binary=""
schemathesis=""
max_time=150
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --schemathesis) schemathesis="$2"; shift 2 ;;
        --max-time) max_time="$2"; shift 2 ;;
        *) echo "usage: $0 --binary SURVEY --schemathesis SCHEMATHESIS [--max-time SECONDS]" >&2; exit 2 ;;
    esac
done
[ -x "$binary" ] && [ -x "$schemathesis" ] || { echo "openapi-check: --binary and --schemathesis are needed" >&2; exit 2; }

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/survey-openapi.XXXXXX)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

token="openapi-check-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
SURVEY_SERVE_API_TOKENS="$token" \
SURVEY_SERVE_RESPONDENT_SECRET="openapi-check respondent secret, at least 32 bytes" \
XDG_DATA_HOME="$work/xdg" \
    "$binary" serve "$root/Examples/onboarding.json" --listen 127.0.0.1:0 --store "$work/responses.sqlite" \
    >"$work/stdout" 2>"$work/stderr" &
server_pid=$!
url=""
for _ in $(seq 1 300); do
    url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/stdout" 2>/dev/null | head -n 1 || true)"
    [ -n "$url" ] && break
    kill -0 "$server_pid" 2>/dev/null || { echo "openapi-check: survey serve ended:" >&2; cat "$work/stderr" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { echo "openapi-check: survey serve printed no URL" >&2; exit 1; }

# (Run from the scratch directory: schemathesis and hypothesis keep their caches in the current one.)
(cd "$work" && "$schemathesis" run "$url/v1/openapi.json" \
    --header "Authorization: Bearer $token" \
    --checks all --exclude-checks ensure_resource_availability,positive_data_acceptance \
    --max-time "$max_time" --seed 44 --workers 1 --no-color \
    --report junit --report-dir "$work/report") >"$work/schemathesis.log" 2>&1 && status=0 || status=$?
if [ "$status" -ne 0 ]; then cat "$work/schemathesis.log"; else tail -n 25 "$work/schemathesis.log"; fi
if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "openapi-check: survey serve died during the run:" >&2
    cat "$work/stderr" >&2
    exit 1
fi
exit "$status"
