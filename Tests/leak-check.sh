#!/bin/sh
# Leak check of the plugin load/call/free cycle under valgrind: loads every example plugin,
# calls every callback and function (including strings returned by plugins and error paths)
# and fails when valgrind finds memory definitely lost.
#
#   Tests/leak-check.sh            # from anywhere; CYCLES=20 by default
set -eu
cd "$(dirname "$0")/.."
swift build >/dev/null   # PluginBench and the plugin shared libraries
bin="$(swift build --show-bin-path)"
log="$(mktemp)"
# The broken fixture plugins are not package products: compile the two the cycle calls.
fixtures="$(mktemp -d)"
for name in BrokenInvalidJSON BrokenFailingNormalize; do
    cc -shared -fPIC -g -I Sources/CSurveyPluginABI/include -o "$fixtures/lib$name.so" "Tests/PluginFixtures/$name/plugin.c"
done
export SURVEY_FIXTURE_PLUGIN_DIR="$fixtures"
status=0
valgrind --quiet --log-file="$log" --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --error-exitcode=3 "$bin/PluginBench" --cycles "${CYCLES:-20}" || status=$?
# This valgrind cannot read DWARF 5 debug info; drop those warnings, keep everything else.
grep -v -e 'dwarf2 abbrev' -e 'DW_FORM' -e 'debug info' -e 'get_Form' "$log" >&2 || true
rm -f "$log"
rm -rf "$fixtures"
if [ "$status" -ne 0 ]; then
    echo "leak check FAILED (valgrind exit status $status)" >&2
    exit "$status"
fi
echo "leak check passed: no memory definitely lost"
