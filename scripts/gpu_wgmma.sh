#!/usr/bin/env bash
# The H200 check of -O2's sm_90a wgmma path (compiler/src/emit_cuda_wgmma.c,
# docs/dot.md "wgmma on sm_90a"). Run from the repository root on the GPU
# machine (Triton 3.6, torch, nvcc); logs go to $OUT. About 4 minutes
# (environment: TESTS, SIZES, CONFIGS, DTYPES, WS, NCU, BASE: see below):
#   1. configure the h200 preset (sm_90a) and build mytritonc and the
#      lang_dot tests (FULL=1: the whole preset);
#   2. ctest -R lang_dot: the tensor-core cases (mma_* in
#      test/lang_dot/CMakeLists.txt: ragged M/N/K, unaligned rows,
#      1..4 stages, 4 and 8 warps) now run the wgmma branch, checked
#      against the C++ references;
#   3. the SASS of two generated kernels: HGMMA must be there (the branch
#      taken), with ptxas's registers and spills;
#   4. scripts/bench_dot.py for fp16 and bf16 at 4096^3: TFLOP/s of
#      mytriton, Triton and torch per config, and each result's largest
#      relative difference from torch.matmul (a correctness check at size).
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$(date +%s)
stamp() { echo "== $1 after $(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > "$OUT/machine.log" 2>&1

cmake --preset h200 > "$OUT/build.log" 2>&1 || { stamp "configure FAILED"; tail -40 "$OUT/build.log"; exit 1; }
if [ -n "${FULL:-}" ]; then
  cmake --build --preset h200 -j 16 >> "$OUT/build.log" 2>&1
else
  # mytritonc, every test executable of test/lang_dot and the attention's of
  # test/lang_apps (ninja's target list)
  targets=$(ninja -C build-h200 -t targets all |
    sed -n -e 's|^test/lang_dot/\(mytriton_[a-z0-9_]*_test\): .*|\1|p' \
      -e 's|^test/lang_apps/\(mytriton_lang_apps_attn_[a-z0-9_]*\): .*|\1|p')
  cmake --build --preset h200 -j 16 --target mytritonc $targets >> "$OUT/build.log" 2>&1
fi
rc=$?
stamp "build exit $rc"
if [ $rc -ne 0 ]; then grep -E "error|FAILED|warning" "$OUT/build.log" | head -40; exit 1; fi
grep "CMAKE_CUDA_ARCHITECTURES:" build-h200/CMakeCache.txt


# SASS: the wgmma branch compiled in (HGMMA), registers and spills
sig() { echo "*$1:16, *$1:16, *$1:16, i32, i32, i32, i32, i32, i32, i32, i32, i32"; }
sass() { # name dtype BM BN BK warps stages
  d="$OUT/sass/$1"; mkdir -p "$d"
  ./build-h200/bin/mytritonc test/lang_dot/kernels/dot.py --kernel matmul_kernel --signature "$(sig "$2")" \
    --name "$1" -O2 --num-warps "$6" --num-stages "$7" --grid "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)" \
    -D BLOCK_M="$3" -D BLOCK_N="$4" -D BLOCK_K="$5" -D GROUP_M=8 -D ACC=float32 -D PRECISION=tf32 \
    -D PLUS=False -D ACTIVATION=none -o "$d" || return 1
  nvcc -cubin -O3 -arch=sm_90a -Xptxas -v -I runtime/include "$d/$1.cu" -o "$d/$1.cubin" 2>&1 | grep -E "Used|spill|arn"
  echo "$1: HGMMA $(cuobjdump -sass "$d/$1.cubin" | grep -c HGMMA), HMMA $(cuobjdump -sass "$d/$1.cubin" | grep -c HMMA)"
  rm -f "$d/$1.cubin"
}
# the base compiler (BASE), built on the CPUs while the tests use the GPU
if [ -n "${BASE:-}" ]; then
  { rm -rf /tmp/base && mkdir -p /tmp/base/src && tar -xf "$BASE" -C /tmp/base/src &&
    cmake -S /tmp/base/src -B /tmp/base/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMYTRITON_BUILD_TESTS=OFF -DMYTRITON_BUILD_BENCH=OFF -DMYTRITON_BUILD_EXAMPLE=OFF &&
    ninja -C /tmp/base/build mytritonc; } > "$OUT/base_build.log" 2>&1 &
  BASE_BUILD=$!
fi
# (on the CPUs while the tests use the GPU)
{
  sass wg_f16_128x256x64_w8 fp16 128 256 64 8 3
  sass wg_bf16_128x128x64_w4 bf16 128 128 64 4 3
} > "$OUT/sass.log" 2>&1 &
SASS=$!

(cd build-h200 && timeout 150 ctest -R "${TESTS:-lang_dot}" -j 8 --timeout 120 --output-on-failure) > "$OUT/ctest.log" 2>&1
stamp "ctest -R ${TESTS:-lang_dot} exit $?"
grep -E "tests passed|Failed|\*\*\*|Not Run|Skipped" "$OUT/ctest.log" | head -30
wait $SASS
cat "$OUT/sass.log"

# 4096^3: configs 0 (128x256x64 w8 s3), 1 (256x128x64 w8 s3), 2 (128x128x64 w4 s3);
# SIZES (default 4096), CONFIGS and DTYPES override
# WS=1: each also with --warp-specialize (the K loop's tl.range hint, both compilers)
for size in ${SIZES:-4096}; do
  for ws in "" ${WS:+--warp-specialize}; do
    timeout 200 python3 scripts/bench_dot.py --build-dir build-h200 --dtypes "${DTYPES:-fp16,bf16}" \
      --configs "${CONFIGS:-0,1,2}" --size "$size" --reps 20 --jobs 8 $ws >> "$OUT/bench_dot.log" 2>&1
    stamp "bench_dot $size $ws exit $?"
  done
done
# NCU=1: Nsight Compute on the first config's mytriton kernel (with WS: warp-specialized)
if [ -n "${NCU:-}" ] && command -v ncu > /dev/null; then
  timeout 120 ncu --clock-control none -k "regex:mm_" -c 1 --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section ComputeWorkloadAnalysis \
    python3 scripts/bench_dot.py --build-dir build-h200 --dtypes fp16 --configs "${CONFIGS%%,*}" --reps 1 \
    --jobs 4 --no-triton ${WS:+--warp-specialize} > "$OUT/ncu.log" 2>&1
  stamp "ncu exit $?"
  grep -E "mm_|Duration|Throughput|Warp Cycles Per Issued|Stall|Registers|Occupancy|Issue Slots|Executed Instructions  |Issued Warp|No Eligible|Active Warps|Eligible Warps" "$OUT/ncu.log" | head -40
fi
# BASE=<a `git archive` tarball>: its compiler's kernels timed in the same run
if [ -n "${BASE:-}" ]; then
  wait "${BASE_BUILD:-}" 2>/dev/null
  for size in ${SIZES:-4096}; do
    timeout 150 python3 scripts/bench_dot.py --build-dir /tmp/base/build --dtypes "${DTYPES:-fp16,bf16}" \
      --configs "${CONFIGS:-0,1,2}" --size "$size" --reps 20 --jobs 8 --no-triton >> "$OUT/bench_base.log" 2>&1
    stamp "bench_dot (base) $size exit $?"
  done
  echo "---- base ($BASE)"; cat "$OUT/bench_base.log"
fi
cat "$OUT/bench_dot.log"
# a relative difference above 1e-2 from torch is a wrong result, not rounding
awk '/max rel diff/ { if ($NF + 0 > 1e-2) { bad = 1; print "WRONG: " $0 } } END { exit bad }' \
  "$OUT/bench_dot.log" && echo "== all results within 1e-2 of torch"
