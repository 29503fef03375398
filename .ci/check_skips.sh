#!/usr/bin/env bash
# In CI a skipped test fails the run unless .ci/allowed_skips names it with a reason: CI installs everything
# its tests need, the corpus included, so a skip there is a test that did not run (a wrong path, a missing
# tool, an exception turned into a skip).
# usage: .ci/check_skips.sh SUITE LOG
#   SUITE  the suite's name in .ci/allowed_skips ("sinew_tests", "web", ...)
#   LOG    its output, as the runners print skips: sinew_tests "skip suite.test (why)"; node --test (TAP)
#          "ok N - name # SKIP why" and "# skipped N"; the browser runners "skip what" and "SKIPPED".
set -euo pipefail
cd "$(dirname "$0")/.."
suite=$1 log=$2
[ -f "$log" ] || { echo "check_skips: no log $log"; exit 1; }
skips=$( {
  sed -n 's/^skip \([^ ]*\) (.*/\1/p' "$log"                      # sinew_tests
  sed -n 's/^skip \(.*\)/\1/p' "$log" | grep -v '^[^ ]* (' || true # the browser runners' "skip what"
  sed -nE 's/^ *(not )?ok [0-9]+ - (.*) # SKIP.*/\2/p' "$log"     # TAP
  grep -o 'SKIPPED[^;]*' "$log" || true
} | sed '/^$/d' | sort -u)
# node's TAP summary counts them too: a count without the lines is a skip this script cannot name
tap=$(sed -n 's/^# skipped \([0-9]*\)$/\1/p' "$log" | tail -1)
named_tap=$(grep -cE '^ *(not )?ok [0-9]+ - .* # SKIP' "$log" || true)
fail=0
if [ -n "$tap" ] && [ "$tap" != "$named_tap" ]; then echo "check_skips: $suite: '# skipped $tap' but $named_tap named"; fail=1; fi
allowed=$(sed -n "s/^$suite	\([^	]*\)	.*/\1/p" .ci/allowed_skips)
n=0
while IFS= read -r s; do
  [ -n "$s" ] || continue
  n=$((n + 1))
  if ! grep -qxF -- "$s" <<< "$allowed"; then echo "check_skips: $suite: skipped, and not in .ci/allowed_skips: $s"; fail=1; fi
done <<< "$skips"
[ $fail -eq 0 ] || exit 1
echo "skips ok: $suite ($n skipped, each listed in .ci/allowed_skips)"
