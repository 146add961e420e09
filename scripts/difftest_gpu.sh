#!/usr/bin/env bash
# Differential testing on the GPU machine (issue 17), three runs:
#  1. scripts/triton_difftest.py: COUNT random kernels (default 10,000) at
#     -O1 and -O2 on mytriton's host backend and its CUDA on the GPU
#     (compared by mytriton_difftest), then Triton 3.6 on the same files and
#     inputs, compared with mytriton;
#  2. the MLIR backend (the kernels it covers) against the host, MLIR_SEEDS;
#  3. the CUDA emulator against the host, EMU_SEEDS.
# Logs, summaries and reproducers under $OUT.
#   bash scripts/difftest_gpu.sh     (COUNT=10000 MLIR_SEEDS=1:2000 EMU_SEEDS=1:500 OUT=/tmp/mytriton-difftest)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD="${BUILD:-build-h200}"
OUT="${OUT:-/tmp/mytriton-difftest}"
COUNT="${COUNT:-10000}"
MLIR_SEEDS="${MLIR_SEEDS:-1:2000}"
EMU_SEEDS="${EMU_SEEDS:-1:500}"
JOBS="${JOBS:-$(nproc)}"
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$OUT"
[ -f "$BUILD/build.ninja" ] || cmake --preset h200 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$BUILD" --target mytriton_difftest mytritonc -j "$JOBS" > "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
status=0
start=$(date +%s)
python3 scripts/triton_difftest.py --build "$BUILD" --count "$COUNT" --jobs "$JOBS" --work "$OUT/triton" > "$OUT/triton.log" 2>&1 || status=1
echo "== 1. triton_difftest ($COUNT kernels): $(( $(date +%s) - start )) s"
grep -E "^difftest: seeds|^FAIL|^triton_difftest|^   " "$OUT/triton.log" | head -40
if grep -q '^MYTRITON_MLIR_OPT:FILEPATH=/' "$BUILD/CMakeCache.txt"; then
  start=$(date +%s)
  "$BUILD/test/difftest/mytriton_difftest" --seeds "$MLIR_SEEDS" --backends host,mlir --batch 500 --jobs "$JOBS" \
    --work "$OUT/mlir" > "$OUT/mlir.log" 2>&1 || status=1
  echo "== 2. mlir ($MLIR_SEEDS): $(( $(date +%s) - start )) s; $(ls "$OUT"/mlir/gen-mlir/*_mlir.c 2>/dev/null | wc -l) mlir variants built"
  grep -E "^difftest: seeds|^FAIL|reproducer" "$OUT/mlir.log" | head -20
fi
start=$(date +%s)
"$BUILD/test/difftest/mytriton_difftest" --seeds "$EMU_SEEDS" --backends host,emu --jobs "$JOBS" \
  --work "$OUT/emu" > "$OUT/emu.log" 2>&1 || status=1
echo "== 3. emulator ($EMU_SEEDS): $(( $(date +%s) - start )) s"
grep -E "^difftest: seeds|^FAIL|reproducer" "$OUT/emu.log" | head -20
exit $status
