#!/bin/bash
# tests/foreign_walk.sh CLI OUT.md: every file of Debian's assimp-testmodels (/usr/share/assimp/models) through
# `sinew compress` at defaults and `sinew decompress`, one table row each (docs/foreign_files.md is its output)
S=$1; out=$2; cd /usr/share/assimp/models || exit 1
tmp=$(mktemp -d)
{
echo "| file | result |"
echo "|---|---|"
find . -type f | sort | while read -r f; do
  r=$(timeout 120 $S compress "$f" -o $tmp/x.sinew --json 2>$tmp/err); rc=$?
  if [ $rc = 0 ]; then
    e=$(echo "$r" | grep -o '"max_error_cm":[0-9.e-]*' | head -1 | cut -d: -f2)
    sb=$(echo "$r" | grep -o '"source_animation_bytes":[0-9]*' | head -1 | cut -d: -f2)
    cb=$(echo "$r" | grep -o '"compressed_bytes":[0-9]*' | head -1 | cut -d: -f2)
    if timeout 120 $S decompress $tmp/x.sinew -o $tmp/x.glb >/dev/null 2>$tmp/derr; then d="decompressed to glTF"; else d="decompress: $(head -c 160 $tmp/derr | tr '\n|' '  ')"; fi
    printf '| %s | compressed within the bound: max %.5f cm, source %s B -> blob %s B; %s |\n' "${f#./}" "$e" "$sb" "$cb" "$d"
  else
    m=$(grep -m1 "error" $tmp/err | sed "s|$tmp/||g" | cut -c1-220 | tr '|' '/')
    [ $rc -ge 124 ] && m="exit $rc (timeout or signal) $m"
    printf '| %s | refused (exit %d): %s |\n' "${f#./}" $rc "$m"
  fi
  rm -f $tmp/x.sinew $tmp/x.glb
done
} > "$out"
rm -rf $tmp
