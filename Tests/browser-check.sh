#!/usr/bin/env bash
# Opens the HTML report in headless Chromium (Debian's `chromium`) and checks what a browser makes
# of it: no console errors, and every chart present in the rendered DOM. .ci/run runs it.
#
#   Tests/browser-check.sh --binary .build/debug/survey                 # the check
#   Tests/browser-check.sh --binary .build/debug/survey --screenshot docs/images/report.png
#
# The report is made from Examples/coffee-habits.json and its three answer scripts, recorded into a
# throwaway store with `survey test --store`.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=.build/debug/survey
screenshot=""
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --screenshot) screenshot="$2"; shift 2 ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "browser-check.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
browser="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$browser" ] || { echo "browser-check.sh: chromium is not installed (apt-get install chromium)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for script in coffee-habits-heavy coffee-habits-light coffee-habits-none; do
    "$binary" test Examples/coffee-habits.json --answers "Examples/answers/$script.json" --store "$work/s.sqlite" >/dev/null
done
"$binary" report Examples/coffee-habits.json --store "$work/s.sqlite" --out "$work/report.html"

flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --user-data-dir="$work/profile"
    --enable-logging=stderr --v=0)
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$work/report.html" >"$work/dom.html" 2>"$work/console.log"
if [ -n "$screenshot" ]; then
    mkdir -p "$(dirname "$screenshot")"
    timeout 120 "$browser" "${flags[@]}" --hide-scrollbars --window-size=1000,1800 \
        --screenshot="$PWD/$screenshot" "file://$work/report.html" >/dev/null 2>>"$work/console.log"
fi
python3 - "$work/dom.html" "$work/console.log" "$work/report.html" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
console = open(sys.argv[2], encoding="utf-8", errors="replace").read()
page = open(sys.argv[3], encoding="utf-8").read()
problems = []
errors = [line for line in console.splitlines() if "CONSOLE" in line or "Uncaught" in line or "Refused to" in line]
if errors:
    problems.append("console messages:\n  " + "\n  ".join(errors))
charts = len(re.findall(r"<svg\b", page))
rendered = len(re.findall(r"<svg\b", dom))
bars = len(re.findall(r'<rect\b[^>]*class="bar', dom))
if charts == 0 or rendered != charts:
    problems.append(f"{charts} charts in the page, {rendered} in the rendered DOM")
if bars == 0:
    problems.append("no bars in the rendered charts")
if "<section" not in dom or "<table" not in dom:
    problems.append("the rendered DOM lacks the sections or tables")
if problems:
    print("browser-check.sh: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"browser check: {rendered} charts and {bars} bars rendered, no console errors")
PY
