#!/usr/bin/env bash
# Runs our engine and SurveyJS survey-core on the same generated surveys (N = 1000 and 2000;
# 10000 with --with-10k: survey-core needs ~15 minutes for its walk), compares the final data and
# visited pages of both engines, and prints the load and walk ratios as a table and one JSON line.
#
#   Benchmarks/side-by-side.sh [--with-10k] [--seed S] [--work DIR]
#
# Needs node and the SurveyJS peer in ../shared/peers/surveyjs (its setup.sh fetches survey-core
# from PyPI); without them only our side runs.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEER="${SURVEYJS_PEER:-$ROOT/../shared/peers/surveyjs}"
SIZES=(1000 2000)
SEED=20240601
WORK="${TMPDIR:-/tmp}/survey-side-by-side"
while [ $# -gt 0 ]; do
  case "$1" in
    --with-10k) SIZES+=(10000) ;;
    --seed) SEED="$2"; shift ;;
    --work) WORK="$2"; shift ;;
    *) echo "usage: $0 [--with-10k] [--seed S] [--work DIR]" >&2; exit 2 ;;
  esac
  shift
done

cd "$ROOT"
swift build -c release --product SurveyBench >&2
BIN="$(swift build -c release --show-bin-path)/SurveyBench"

PEER_OK=1
if ! command -v node >/dev/null 2>&1; then
  echo "side-by-side: node is not available; running our engine only" >&2; PEER_OK=0
elif [ ! -f "$PEER/load.js" ]; then
  echo "side-by-side: no SurveyJS peer at $PEER; running our engine only" >&2; PEER_OK=0
elif ! bash "$PEER/setup.sh" >/dev/null 2>&1 && [ -z "${SURVEY_CORE_JS:-}" ]; then
  echo "side-by-side: cannot fetch survey-core (PyPI wheel unavailable); running our engine only" >&2; PEER_OK=0
fi

RESULTS=()
for N in "${SIZES[@]}"; do
  DIR="$WORK/n$N"
  "$BIN" generate --questions "$N" --seed "$SEED" --out "$DIR" >/dev/null
  echo "[side-by-side] N=$N: our engine" >&2
  "$BIN" bench "$DIR/survey.json" --answers "$DIR/answers.json" --dump-result "$DIR/ours-result.json" \
    >"$DIR/ours.json"
  if [ "$PEER_OK" = 1 ]; then
    echo "[side-by-side] N=$N: survey-core (this takes a while)" >&2
    node "$ROOT/Benchmarks/surveyjs-walk.js" "$PEER" "$DIR/surveyjs.json" "$DIR/answers.json" \
      --dump-result="$DIR/theirs-result.json" >"$DIR/theirs.json"
  else
    rm -f "$DIR/theirs.json" "$DIR/theirs-result.json"
  fi
  RESULTS+=("$DIR")
done

# Table and JSON (python3 so that it works without node too).
python3 - "${RESULTS[@]}" <<'PYEOF'
import json, os, sys
rows = []
for d in sys.argv[1:]:
    ours = json.load(open(os.path.join(d, "ours.json")))
    row = {"n": ours["questions"], "ours": ours}
    theirs_path = os.path.join(d, "theirs.json")
    if os.path.exists(theirs_path):
        theirs = json.load(open(theirs_path))
        a = json.load(open(os.path.join(d, "ours-result.json")))
        b = json.load(open(os.path.join(d, "theirs-result.json")))
        row["theirs"] = theirs
        row["same_data"] = a["data"] == b["data"]
        row["same_visited"] = a["visited"] == b["visited"]
        row["load_ratio"] = theirs["load_ms"] / max(ours["load_ms"], 1e-6)
        row["walk_ratio"] = theirs["walk_ms"] / max(ours["walk_ms"], 1e-6)
    rows.append(row)

hdr = ["N", "answers (ours/theirs)", "pages visited", "same data", "load ms ours", "load ms survey-core",
       "load ×", "walk ms ours", "walk ms survey-core", "walk ×"]
print("| " + " | ".join(hdr) + " |")
print("|" + " ---: |" * len(hdr))
for r in rows:
    o, t = r["ours"], r.get("theirs")
    if t:
        cells = [r["n"], f'{o["answers"]} / {t["answered"]}', f'{o["visited_units"]} / {t["visited_pages"]}',
                 "yes" if r["same_data"] and r["same_visited"] else "NO",
                 f'{o["load_ms"]:.2f}', f'{t["load_ms"]:.0f}', f'{r["load_ratio"]:.0f}',
                 f'{o["walk_ms"]:.3f}', f'{t["walk_ms"]:.0f}', f'{r["walk_ratio"]:.0f}']
    else:
        cells = [r["n"], f'{o["answers"]} / -', f'{o["visited_units"]} / -', "-", f'{o["load_ms"]:.2f}', "-", "-",
                 f'{o["walk_ms"]:.3f}', "-", "-"]
    print("| " + " | ".join(str(c) for c in cells) + " |")
out = []
for r in rows:
    e = {"n": r["n"], "ours_load_ms": r["ours"]["load_ms"], "ours_walk_ms": r["ours"]["walk_ms"],
         "answers": r["ours"]["answers"], "visited_pages": r["ours"]["visited_units"]}
    if "theirs" in r:
        e.update({"surveyjs_load_ms": r["theirs"]["load_ms"], "surveyjs_construct_ms": r["theirs"]["construct_ms"],
                  "surveyjs_walk_ms": r["theirs"]["walk_ms"], "same_data": r["same_data"],
                  "same_visited": r["same_visited"], "load_ratio": round(r["load_ratio"], 1),
                  "walk_ratio": round(r["walk_ratio"], 1)})
    out.append(e)
print(json.dumps({"side_by_side": out}))
ok = all(r.get("same_data", True) and r.get("same_visited", True) for r in rows)
sys.exit(0 if ok else 1)
PYEOF
