#!/usr/bin/env bash
# Issue 14 on the H200 (about 3 minutes, from the repository root; logs
# under $OUT): the staged emission of outer-product loops (outer.c,
# emit_cuda_fma.c) checked and measured.
#   1. build the h200 preset's compiler and the test binaries that run
#      matmul / dot / outer-product kernels on the GPU;
#   2. their GPU tests (exec.CudaO2.*, exec.CudaVsHostO2.*: the suite's
#      variations against references and against the host backend; the
#      seed matmuls; the tl.dot tests);
#   3. ptxas -v of the suite's matmul units (registers, spills);
#   4. the benchmark suite's matmul group and the tile sweep against
#      Triton (bench_suite.py --only matmul), the table in
#      $OUT/bench_matmul.md.
# STEPS picks parts (build,ctest,ptxas,bench). BASE=<a `git archive`
# tarball>: its compiler is built on the CPUs meanwhile and its matmul
# group timed in the same run (Triton beside it again), the table in
# $OUT/bench_matmul_base.md.
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"; mkdir -p "$OUT"
STEPS="${STEPS:-build,ctest,ptxas,bench}"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$(date +%s)
el() { echo "$(( $(date +%s) - t0 )) s"; }
has() { case ",$STEPS," in *",$1,"*) return 0;; esac; return 1; }
if [ -n "${BASE:-}" ]; then
  { rm -rf /tmp/base && mkdir -p /tmp/base/src && tar -xf "$BASE" -C /tmp/base/src &&
    cmake -S /tmp/base/src -B /tmp/base/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMYTRITON_BUILD_TESTS=OFF \
      -DMYTRITON_BUILD_BENCH=OFF -DMYTRITON_BUILD_EXAMPLE=OFF &&
    ninja -C /tmp/base/build mytritonc; } > "$OUT/base_build.log" 2>&1 &
  BASE_BUILD=$!
fi
if has build; then
  { cmake --preset h200 &&
    cmake --build --preset h200 -j 16 --target mytritonc mytriton_exec_test mytriton_lang_dot_test -- -k 0; } \
    > "$OUT/build.log" 2>&1
  echo "== build exit $? after $(el)"; grep -E "error|FAILED" "$OUT/build.log" | head -20
fi
if has ctest; then
  (cd build-h200 && timeout "${CTEST_TIMEOUT:-90}" ctest -j 4 --timeout 80 -L gpu \
      -R "outer|matmul|Matmul|seed_matmul|dot|Dot" --output-on-failure) > "$OUT/ctest.log" 2>&1
  echo "== ctest exit $? after $(el)"
  grep -E "tests passed|\*\*\*Failed|Failed  |Not Run|Timeout" "$OUT/ctest.log" | head -40
  grep -cE "\*\*\*Skipped|Skipped" "$OUT/ctest.log" | sed 's/^/skipped lines: /'
fi
WORK="${TMPDIR:-/tmp}/mytriton-outer-work"
if has ptxas; then
  rm -rf "$WORK"
  timeout 120 python3 scripts/bench_suite.py --compile-only --werror --only matmul --work "$WORK" \
    --mytritonc build-h200/bin/mytritonc > "$OUT/compile.log" 2>&1
  echo "== compile-only exit $? after $(el)"; tail -3 "$OUT/compile.log"
  for d in "$WORK"/bs_*/; do
    n=$(basename "$d")
    [ -f "$d/$n.cu" ] || continue
    r=$(nvcc -arch=sm_90 -Iruntime/include -I"$d" -c -o /dev/null -Xptxas -v "$d/$n.cu" 2>&1 |
        grep -E "Used|spill" | sed 's/ptxas info *: *//' | tr -s ' ' | tr '\n' ' ')
    printf "%-26s %-22s %s\n" "$n" "$(grep -o '__launch_bounds__([0-9]*)' "$d/$n.cu" | head -1)" "$r"
  done > "$OUT/ptxas.log" 2>&1
  echo "== ptxas after $(el)"; cat "$OUT/ptxas.log"
fi
if has bench; then
  timeout "${BENCH_TIMEOUT:-150}" python3 scripts/bench_suite.py --only matmul --mytritonc build-h200/bin/mytritonc \
    --markdown "$OUT/bench_matmul.md" > "$OUT/bench_matmul.log" 2>&1
  echo "== bench_suite (matmul, sweep) exit $? after $(el)"; tail -40 "$OUT/bench_matmul.log"
fi
if has bench && [ -n "${BASE:-}" ]; then
  wait "${BASE_BUILD:-}" 2>/dev/null
  timeout "${BENCH_TIMEOUT:-150}" python3 scripts/bench_suite.py --only matmul --mytritonc /tmp/base/build/bin/mytritonc \
    --markdown "$OUT/bench_matmul_base.md" > "$OUT/bench_matmul_base.log" 2>&1
  echo "== bench_suite (base $BASE) exit $? after $(el)"; tail -40 "$OUT/bench_matmul_base.log"
fi
