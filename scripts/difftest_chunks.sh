#!/usr/bin/env bash
# The long differential run against Triton in chunks (issue 17), within one
# device command's time: chunk after chunk of CHUNK seeds from FIRST while
# the elapsed time leaves room (BUDGET seconds in all). Summaries under $OUT.
#   FIRST=5001 CHUNK=1250 BUDGET=520 OUT=/tmp/dt bash scripts/difftest_chunks.sh
set -uo pipefail
cd "$(dirname "$0")/.."
FIRST="${FIRST:-1}"; CHUNK="${CHUNK:-1000}"; BUDGET="${BUDGET:-520}"; OUT="${OUT:-/tmp/mytriton-difftest}"
BUILD="${BUILD:-build-h200}"
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$OUT"
start=$(date +%s)
[ -f "$BUILD/build.ninja" ] || cmake --preset h200 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$BUILD" --target mytriton_difftest mytritonc -j "$(nproc)" > "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
first=$FIRST; last_dur=0
while :; do
  now=$(( $(date +%s) - start ))
  [ $(( now + last_dur + last_dur / 4 )) -lt "$BUDGET" ] || break
  t=$(date +%s)
  python3 scripts/triton_difftest.py --build "$BUILD" --first "$first" --count "$CHUNK" --work "/tmp/dt-$first" \
    > "$OUT/chunk-$first.log" 2>&1
  cp "/tmp/dt-$first/summary.txt" "$OUT/summary-$first.txt" 2>/dev/null
  [ -d "/tmp/dt-$first/fail" ] && cp -r "/tmp/dt-$first/fail" "$OUT/fail-$first"
  last_dur=$(( $(date +%s) - t ))
  echo "chunk $first: ${last_dur} s: $(grep -h '^triton_difftest' "$OUT/chunk-$first.log" || tail -3 "$OUT/chunk-$first.log")"
  grep -E "^FAIL|mismatch" "$OUT/chunk-$first.log" | head -5
  first=$(( first + CHUNK ))
done
echo "next FIRST=$first"
