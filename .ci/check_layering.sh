#!/usr/bin/env bash
# Each stage may include only itself and the stages to its left (DESIGN §3):
#   core < clip < import < compress < format < decompress < export
# and tools/ uses only the public header. The decoder subset (core, clip, format_read,
# decompress) must not include compress/ or import/ (it links alone: see `make fuzz`).
set -euo pipefail
cd "$(dirname "$0")/.."
order=(core clip import compress format decompress export)
fail=0
for i in "${!order[@]}"; do
  stage=${order[$i]}
  for j in "${!order[@]}"; do
    [ "$j" -le "$i" ] && continue
    right=${order[$j]}
    if grep -n "#include \"\.\./$right/" src/$stage/*.[ch] 2> /dev/null; then
      echo "layering: src/$stage includes src/$right (a stage to its right)"; fail=1
    fi
  done
done
for f in src/format/format_read.[ch] src/format/format_rig.c src/decompress/*.[ch]; do
  if grep -nE '#include "\.\./(compress|import|export)/' "$f"; then echo "layering: decoder file $f includes the encoder side"; fail=1; fi
done
if grep -n '#include "\.\./src/' tools/*.[ch]; then echo "layering: tools/ must use include/sinew.h only"; fail=1; fi
[ $fail -eq 0 ] && echo "layering ok: ${order[*]}"
exit $fail
