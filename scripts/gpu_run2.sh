#!/usr/bin/env bash
# The batched GPU-machine validation of the type system (issue 12), the
# autotuner (issue 16) and the user-side CUDA tests: build the h200 preset,
# run the GPU tests, the Triton oracle (-O1, -O2, host), the -O2 numerics
# against Triton op by op, and the benchmarks. Logs under $OUT.
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$(date +%s)
el() { echo "$(( $(date +%s) - t0 )) s"; }
{ cmake --preset h200 && cmake --build --preset h200 -j 16; } > "$OUT/build.log" 2>&1
echo "== build exit $? after $(el)"; grep -E "error|FAILED" "$OUT/build.log" | head -20
(cd build-h200 && timeout 330 ctest -j 8 --timeout 240 -L "gpu|autotune|nvcc|oracle|conformance|golden" --output-on-failure) > "$OUT/ctest.log" 2>&1
echo "== ctest exit $? after $(el)"; grep -E "tests passed|\*\*\*Failed|Not Run|Skipped" "$OUT/ctest.log" | head -40
{
  timeout 150 python3 scripts/triton_oracle.py --build-dir build-h200 --variants o1,o2,host
  echo "== oracle exit $?"
  timeout 120 python3 scripts/o2_vs_triton.py --mytritonc build-h200/bin/mytritonc
  echo "== o2_vs_triton exit $?"
} > "$OUT/oracle.log" 2>&1
echo "== oracle and o2 numerics after $(el)"; grep -E "^FAIL|passed|failed|== " "$OUT/oracle.log" | head -40
{
  timeout 60 ./build-h200/bin/mytriton_bench_autotune; echo "== autotune bench exit $?"
  timeout 90 ./build-h200/bin/mytriton_bench_gpu; echo "== bench exit $?"
  timeout 120 python3 bench/triton_bench.py test/conformance/kernels; echo "== triton bench exit $?"
} > "$OUT/bench.log" 2>&1
echo "== benches after $(el)"; tail -45 "$OUT/bench.log"
