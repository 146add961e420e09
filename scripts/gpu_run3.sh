#!/usr/bin/env bash
# The GPU machine's long runs: build the h200 preset, the GPU tests, the Triton
# oracle and -O2 numerics, then the differential run against Triton
# (scripts/difftest_gpu.sh, COUNT kernels). Logs under $OUT.
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$(date +%s)
el() { echo "$(( $(date +%s) - t0 )) s"; }
{ cmake --preset h200 && cmake --build --preset h200 -j 16; } > "$OUT/build.log" 2>&1
echo "== build exit $? after $(el)"; grep -E "error|FAILED" "$OUT/build.log" | head -20
(cd build-h200 && timeout 300 ctest -j 8 --timeout 240 -L "gpu|autotune|nvcc|oracle" --output-on-failure) > "$OUT/ctest.log" 2>&1
echo "== ctest exit $? after $(el)"; grep -E "tests passed|\*\*\*Failed|Not Run" "$OUT/ctest.log" | head -30
{
  timeout 120 python3 scripts/triton_oracle.py --build-dir build-h200 --variants o1,o2,host; echo "== oracle exit $?"
  timeout 100 python3 scripts/o2_vs_triton.py --mytritonc build-h200/bin/mytritonc; echo "== o2_vs_triton exit $?"
} > "$OUT/oracle.log" 2>&1
echo "== oracle after $(el)"; grep -E "^FAIL|passed|failed|== |over" "$OUT/oracle.log" | head -30
COUNT="${COUNT:-10000}" MLIR_SEEDS=1:0 EMU_SEEDS=1:200 OUT="$OUT/difftest" timeout "${DIFF_TIMEOUT:-330}" bash scripts/difftest_gpu.sh > "$OUT/difftest.log" 2>&1
echo "== difftest exit $? after $(el)"; tail -30 "$OUT/difftest.log"
cp "$OUT/difftest/triton/summary.txt" "$OUT/difftest_summary.txt" 2>/dev/null
