#!/usr/bin/env bash
# Builds the DocC site of the libraries a developer uses (SurveyCore, SurveyRendering, SurveyTestKit,
# SurveyPluginSDK, SurveyResponses) with the toolchain's `docc`, no outside package:
#   1. symbol graphs of the public API from the build (`swift package dump-symbol-graph`, which
#      reuses the debug build in .build, so after `swift build` only the graphs are extracted);
#   2. `docc convert` per module: its catalog Sources/<Module>/<Module>.docc (landing page and
#      articles) with that module's graphs, for static hosting.
# Any DocC warning fails the run (`--warnings-as-errors`): a symbol link (``Symbol``) that does not
# resolve, a doc comment whose parameters do not match its function, a broken article link.
#
#   scripts/docs.sh [OUTPUT_DIR]     (default .build/docs; one site per module, e.g.
#                                     .build/docs/SurveyCore/documentation/surveycore/index.html)
# Open it: python3 -m http.server -d .build/docs/SurveyCore 8000, then
# http://localhost:8000/documentation/surveycore/ (a static-hosting archive needs a web server).
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-.build/docs}"
docc="${DOCC:-$(command -v docc || echo /opt/swift/usr/bin/docc)}"
[ -x "$docc" ] || { echo "docs.sh: docc not found (set DOCC)" >&2; exit 1; }
modules=(SurveyCore SurveyRendering SurveyTestKit SurveyPluginSDK SurveyResponses)

start=$(date +%s)
# Prints "Files written to DIR" last. It exits non-zero when the test modules were not built (after
# a plain `swift build`, as in CI): only the graphs of the documented modules must be there.
dump_status=0
dump="$(swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members 2>&1)" \
    || dump_status=$?
graphs="$(sed -n 's/.*Files written to //p' <<<"$dump" | tail -1)"
for module in "${modules[@]}"; do
    if [ -z "$graphs" ] || [ ! -f "$graphs/$module.symbols.json" ]; then
        echo "$dump" >&2
        echo "docs.sh: no symbol graph for $module (dump-symbol-graph exited $dump_status)" >&2
        exit 1
    fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
status=0
for module in "${modules[@]}"; do
    # This module's graphs only: Module.symbols.json and its extensions of other modules (Module@X).
    mkdir -p "$work/$module"
    cp "$graphs/$module.symbols.json" "$work/$module/"
    cp "$graphs/$module"@*.symbols.json "$work/$module/" 2>/dev/null || true
    lowered="$(tr '[:upper:]' '[:lower:]' <<<"$module")"
    if ! "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$work/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.survey-engine.$lowered" \
        --transform-for-static-hosting \
        --warnings-as-errors \
        --output-path "$out/$module" >"$work/$module.log" 2>&1; then
        status=1
    fi
    # docc prints its diagnostics as "warning:" / "error:" lines; any is a failure.
    if grep -qE '(warning|error):' "$work/$module.log"; then
        grep -E -A4 '(warning|error):' "$work/$module.log" >&2
        status=1
    fi
    echo "docs.sh: $module: $(grep -cE '(warning|error):' "$work/$module.log" || true) diagnostics → $out/$module"
done
echo "docs.sh: done in $(($(date +%s) - start)) s"
exit $status
