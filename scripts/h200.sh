#!/usr/bin/env bash
# On the GPU machine (the device tool): configure and build with the h200
# preset, run the whole suite, the benchmarks, and Triton on the same
# sources; logs go to $OUT. Usage: bash scripts/h200.sh [ctest-args...]
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
  cmake --version | head -n1
} > "$OUT/machine.log" 2>&1
cmake --preset h200 > "$OUT/configure.log" 2>&1 || { tail -50 "$OUT/configure.log"; exit 1; }
cmake --build --preset h200 -j 16 > "$OUT/build.log" 2>&1 || { grep -E "error|FAILED" "$OUT/build.log" | head -40; exit 1; }
echo "== build ok"
(cd build-h200 && ctest -j 8 --output-on-failure --timeout 600 "$@") > "$OUT/ctest.log" 2>&1
echo "== ctest exit $?"
tail -25 "$OUT/ctest.log"
grep -E "Failed|\*\*\*|Not Run|Skipped" "$OUT/ctest.log" | head -40
./build-h200/bin/mytriton_bench_gpu > "$OUT/bench.log" 2>&1; echo "== bench exit $?"
./build-h200/bin/mytriton_bench_compile >> "$OUT/bench.log" 2>&1
cat "$OUT/bench.log"
[ -n "${SKIP_TRITON:-}" ] && exit 0
timeout 300 python3 bench/triton_bench.py test/conformance/kernels > "$OUT/triton.log" 2>&1; echo "== triton exit $?"
cat "$OUT/triton.log"
