#!/usr/bin/env bash
# On the GPU machine: the autotuning tests (ctest -L autotune: Runtime.*,
# Host.* and the Gpu.* ones, which skip without a GPU) and the dispatch
# benchmark, built with the h200 preset; then a build for
# CMAKE_CUDA_ARCHITECTURES "80;90a" of the same test, run once.
# Logs go to $OUT. Usage: bash scripts/autotune_h200.sh
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > "$OUT/machine.log" 2>&1
cmake --preset h200 > "$OUT/autotune-configure.log" 2>&1 || { tail -50 "$OUT/autotune-configure.log"; exit 1; }
cmake --build build-h200 -j 16 --target mytriton_autotune_test mytriton_bench_autotune \
  > "$OUT/autotune-build.log" 2>&1 || { grep -E "error|FAILED" -A3 "$OUT/autotune-build.log" | head -40; exit 1; }
echo "== build ok"
(cd build-h200 && ctest -L autotune --output-on-failure --timeout 600 -V) > "$OUT/autotune-ctest.log" 2>&1
echo "== ctest -L autotune exit $?"
grep -E "tests passed|Failed|Skipped|matmul [0-9]+x|at_matmul_cfg3:" "$OUT/autotune-ctest.log" | head -40
./build-h200/bin/mytriton_bench_autotune > "$OUT/autotune-bench.log" 2>&1; echo "== bench exit $?"
cat "$OUT/autotune-bench.log"
# a fat binary: sm_80 and sm_90a in one build of the same tests
cmake -S . -B build-fat -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMYTRITON_BUILD_TESTS=ON \
  -DCMAKE_CUDA_ARCHITECTURES="80;90a" > "$OUT/fat-configure.log" 2>&1 || { tail -30 "$OUT/fat-configure.log"; exit 1; }
cmake --build build-fat -j 16 --target mytriton_autotune_test > "$OUT/fat-build.log" 2>&1 \
  || { grep -E "error|FAILED" -A3 "$OUT/fat-build.log" | head -40; exit 1; }
./build-fat/test/autotune/mytriton_autotune_test --gtest_filter='Gpu.*' > "$OUT/fat-test.log" 2>&1
echo "== fat binary (80;90a) Gpu.* exit $?"
tail -5 "$OUT/fat-test.log"
