#!/usr/bin/env bash
# The GPU-machine check of issue 15's TF32 and int8 dots on -O2's
# tensor-core path (emit_cuda_mma.c), about 3 to 5 minutes on the H200: build the
# h200 preset's compiler and tl.dot tests, run `ctest -R lang_dot -E mlir` (the
# Cuda.Mma* execution tests against the C++ references, the nvcc checks, the
# emulated ones), then scripts/bench_dot.py on 4096^3 for fp32-tf32, int8 and tf32x3
# (mytriton, Triton 3.6, torch; each row's max rel diff from torch, int8
# exact) over a few configs. cwd: the repository root; logs under $OUT.
#
#   OUT=/tmp/out scripts/gpu_tf32.sh
#   CONFIGS=0,2,3 DTYPES=fp32-tf32,int8,fp16 scripts/gpu_tf32.sh
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$(date +%s)
el() { echo "$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
{
  cmake --preset h200 &&
    cmake --build --preset h200 -j 16 --target mytritonc mytriton_lang_dot_test \
      mytriton_lang_dot_emu_test mytriton_lang_dot_diag_test
} > "$OUT/build.log" 2>&1
echo "== build exit $? after $(el)"; grep -E "error|warning|FAILED" "$OUT/build.log" | head -20
(cd build-h200 && timeout 240 ctest -j 8 --timeout 200 -R lang_dot -E mlir --output-on-failure) > "$OUT/ctest.log" 2>&1
echo "== ctest exit $? after $(el)"
grep -E "tests passed|\*\*\*Failed|Failed|Not Run|Skipped" "$OUT/ctest.log" | head -30
# the -O2 units' registers and spills (sm_90a), for the record
for f in build-h200/test/lang_dot/mytriton_lang_dot_mma/mytriton_lang_dot_mma/mma_{tf32,i8}_*.cu; do
  [ -f "$f" ] || continue
  echo "== $(basename "$f")"
  nvcc -arch=sm_90a -c -O3 -Xptxas -v -I runtime/include -I "$(dirname "$f")" "$f" -o /dev/null 2>&1 |
    grep -E "registers|spill" | sed 's/ptxas info *: *//'
done > "$OUT/ptxas.log" 2>&1
# 0 128x256x64 w8, 1 256x128x64 w8, 2 128x128x64 w4, 3 128x128x32 w4 s4,
# 4 128x128x64 w8, 5 128x256x32 w8 s4, 6 64x128x32, 7 64x64x32, 8 32x32x32
timeout 420 python3 scripts/bench_dot.py --build-dir build-h200 --dtypes "${DTYPES:-fp32-tf32,int8,fp32-tf32x3}" \
  --configs "${CONFIGS:-0,2,4,6}" --reps 10 > "$OUT/bench.log" 2>&1
echo "== bench exit $? after $(el)"; grep -E "best|torch|not compiled|Error|error" "$OUT/bench.log" | head -40
