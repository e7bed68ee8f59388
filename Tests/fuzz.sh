#!/usr/bin/env bash
# Fuzzes the engine's input surfaces with libFuzzer + AddressSanitizer (leaks included).
#
#   Tests/fuzz.sh                          # every target for 60 s (what .ci/run does)
#   Tests/fuzz.sh --runs 10000000          # every target for 10,000,000 executions (the long run)
#   Tests/fuzz.sh --seconds 300 json loader
#   Tests/fuzz.sh --runs 5000000 --jobs 2 protocol   # 2 processes of 5,000,000 each: 10M on 2 cores
#   Tests/fuzz.sh --seconds 3600 --corpus ~/fuzz/expression --timeout 30 expression   # one piece of a long run
#
# Targets (Tests/Fuzz/SurveyFuzzTargets/FuzzTargets.swift): json, loader, expression, protocol,
# state, surveyjs (the SurveyJS importer). Each starts from Tests/Fuzz/Corpus/<target>/ (new
# interesting inputs go to a scratch copy, not the repository). A crash, leak or timeout (10 s per
# input) stops with the input saved as .build/fuzz/crash-<target>-*; add it to the corpus as a
# regression test once fixed (`swift test --filter CorpusReplayTests` replays the corpus). The
# timeout is wall-clock time: run long runs on an otherwise idle machine (a niced fuzzer starved by
# builds can report a false one), or give them a longer --timeout.
#
# A long run can be made in pieces: with --corpus DIR the corpus grows in DIR (seeded from the
# repository's on first use) and the next piece starts where the last one stopped — libFuzzer's only
# state between inputs is its corpus. Each piece appends its executions to DIR/../<target>.ledger;
# `Tests/fuzz.sh --ledger DIR` prints the total.
#
# SURVEY_FUZZ_ASAN_OPTIONS adds to the sanitizer's options (leak checks stay on). A long run saves
# about a tenth of its time with SURVEY_FUZZ_ASAN_OPTIONS=malloc_context_size=0, at the price of
# reports without allocation stacks: replay a failing input without it to get them.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
runs=""
jobs=1
timeout=10
corpus=""
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --timeout) timeout="$2"; shift 2 ;;
        --corpus) corpus="$2"; shift 2 ;;
        --ledger)
            for ledger in "$2"/../*.ledger; do
                [ -e "$ledger" ] || continue
                awk -v name="$(basename "$ledger" .ledger)" '{ runs += $2; if ($3 != "ok") bad++ }
                    END { printf "%s: %d executions in %d pieces, %d failed\n", name, runs, NR, bad }' "$ledger"
            done
            exit 0 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(json loader expression protocol state surveyjs)

build=.build/fuzz
swift build -c release --build-path "$build" --product SurveyFuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library >&2
binary="$(swift build -c release --build-path "$build" --show-bin-path)/SurveyFuzz"

status=0
for target in "${targets[@]}"; do
    if [ -n "$corpus" ]; then
        [ ${#targets[@]} -eq 1 ] || { echo "fuzz.sh: --corpus takes one target" >&2; exit 2; }
        mkdir -p "$corpus"
        scratch="$(cd "$corpus" && pwd)"
        [ -n "$(ls -A "$scratch")" ] || cp Tests/Fuzz/Corpus/"$target"/* "$scratch"/
    else
        scratch="$(mktemp -d)"
        cp Tests/Fuzz/Corpus/"$target"/* "$scratch"/
    fi
    limit=(-max_total_time="$seconds")
    [ -z "$runs" ] || limit=(-runs="$runs")
    log="$build/fuzz-$target.log"
    suffix=""
    [ "$jobs" -le 1 ] || suffix=" × $jobs jobs"
    amount="$seconds s"
    [ -z "$runs" ] || amount="$runs runs"
    echo "fuzzing $target ($amount$suffix)…" >&2
    parallel=()
    logs="$log"
    workdir=.
    if [ "$jobs" -gt 1 ]; then
        # libFuzzer's jobs each run the limit and write fuzz-<n>.log in the working directory.
        parallel=(-jobs="$jobs" -workers="$jobs")
        logs="$build/jobs-$target"
        workdir="$logs"
        rm -rf "$logs" && mkdir -p "$logs"
    fi
    # The expression target reads the first 4,096 bytes of an input: longer ones only cost copying.
    max_len=65536
    [ "$target" != expression ] || max_len=4096
    if (cd "$workdir" && SURVEY_FUZZ_TARGET="$target" ASAN_OPTIONS="detect_leaks=1${SURVEY_FUZZ_ASAN_OPTIONS:+:$SURVEY_FUZZ_ASAN_OPTIONS}" \
        "$binary" "${limit[@]}" "${parallel[@]}" -timeout="$timeout" -max_len="$max_len" -print_final_stats=1 \
        -artifact_prefix="$OLDPWD/$build/crash-$target-" "$scratch") >"$log" 2>&1; then
        if [ "$jobs" -gt 1 ]; then
            execs=$(cat "$logs"/fuzz-*.log | grep -o 'stat::number_of_executed_units: *[0-9]*' \
                | grep -o '[0-9]*$' | awk '{ total += $1 } END { print total }')
        else
            execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
        fi
        echo "$target: $execs executions, no crash, leak or timeout" >&2
        [ -z "$corpus" ] || echo "$(date -u +%FT%TZ) $execs ok" >>"$scratch/../$target.ledger"
    else
        [ -z "$corpus" ] || echo "$(date -u +%FT%TZ) 0 failed" >>"$scratch/../$target.ledger"
        status=1
        echo "$target: FAILED — see $log; the input is in $build/crash-$target-*" >&2
        tail -40 "$log" >&2
    fi
    [ -n "$corpus" ] || rm -rf "$scratch"
done
exit "$status"
