#!/usr/bin/env bash
# A batched GPU-machine run (the device tool): build the h200 preset, run the
# GPU-labelled tests, Triton's promotion table and the Triton oracle. Logs
# under $OUT (at most 8 files come back).
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$(date +%s)
cmake --preset h200 > "$OUT/build.log" 2>&1 && cmake --build --preset h200 -j 16 >> "$OUT/build.log" 2>&1
echo "== build exit $? after $(( $(date +%s) - t0 )) s"; grep -E "error|FAILED" "$OUT/build.log" | head -20
timeout 240 python3 scripts/gen_promotion_table.py --out "$OUT/promotion_table.txt" --jobs 8 > "$OUT/promo.log" 2>&1 &
PROMO=$!
(cd build-h200 && timeout 300 ctest -j 8 --timeout 200 -L "${LABELS:-gpu|autotune}" --output-on-failure) > "$OUT/ctest.log" 2>&1
echo "== ctest exit $? after $(( $(date +%s) - t0 )) s"; grep -E "tests passed|Failed|\*\*\*|Not Run" "$OUT/ctest.log" | head -30
wait $PROMO; echo "== promotion table exit $?"; tail -3 "$OUT/promo.log"; wc -l "$OUT/promotion_table.txt"
timeout 240 python3 scripts/triton_oracle.py --build-dir build-h200 --variants o1,o2,host > "$OUT/oracle.log" 2>&1
echo "== oracle exit $? after $(( $(date +%s) - t0 )) s"; tail -25 "$OUT/oracle.log"
