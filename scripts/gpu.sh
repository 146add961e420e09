#!/usr/bin/env bash
# The GPU machine's one entry point (the device tool runs it from the
# repository root): scripts/gpu.sh STEP... (or STEPS=a,b,c), default
# "build ctest oracle mlir bench dot". Each step writes its logs under $OUT
# and prints a short summary; at the end every log is packed into
# $OUT/logs.tgz (the device tool brings back few files), beside
# $OUT/summary.log (this script's output). The h200 preset (sm_90a) builds
# in $BUILD (default build-h200).
#
# Steps (their environment in parentheses):
#   machine    nvidia-smi, cmake --version
#   build      configure the h200 preset and build everything (TARGETS: only these)
#   tools      configure and build mytritonc alone (enough for the Python benchmarks)
#   sass       the SASS of generated kernels carried in .carry-sass/*.cu (sm_90a)
#   ctest      ctest -L "$LABELS" (default gpu|autotune|nvcc|oracle; LABELS= for the
#              whole suite; CTEST_ARGS more, e.g. "-R lang_dot -E mlir"; CTEST_TIMEOUT)
#   oracle     scripts/triton_oracle.py, -O1, -O2 and host against Triton (ORACLE_ONLY a regex)
#   o2num      scripts/o2_vs_triton.py: -O2's numerics against Triton op by op
#   promotion  scripts/gen_promotion_table.py: Triton's promotion table ($OUT/promotion_table.txt)
#   mlir       the MLIR-built test programs carried in .carry-mlir (built where mlir-opt is)
#   bench      scripts/bench_suite.py against Triton (BENCH_ARGS, e.g. "--only matmul";
#              the table in bench_suite.md; BASE: the base compiler's too)
#   real       scripts/real_suite.py: the real library kernels of bench/real against Triton
#              (needs bench/real/src, made here by scripts/real_extract.py and carried;
#              REAL_ARGS, e.g. "--only liger_"; the table in real_suite.md, every result
#              in real_suite.json; REAL_TIMEOUT, default 540 s)
#   ptxas      ptxas -v of the benchmark suite's units (BENCH_ARGS picks them)
#   benchgpu   mytriton_bench_gpu, mytriton_bench_compile, mytriton_bench_autotune and
#              bench/triton_bench.py on the conformance kernels (needs build)
#   autotune   ctest -L autotune and the dispatch benchmark; then a fat binary
#              (CMAKE_CUDA_ARCHITECTURES "80;90a") of the autotune test, its Gpu.* run once
#   forms      scripts/bench_forms.py (FORMS_ARGS)
#   dot        scripts/bench_dot.py (DOT_ARGS; BASE: the base compiler's kernels too)
#   attn       scripts/bench_attn.py (ATTN_ARGS)
#   dotprof    the tutorial matmul for analysis: bench_dot.py with Triton's forms dumped,
#              the SASS, ptxas report and HGMMA count of mytriton's kernels, the K loops'
#              opcodes (scripts/sass_loop.py), ncu on both for NCU_CONFIGS
#              (SIZE, DTYPE, CONFIGS, NCU_CONFIGS; forms in dot_forms.tgz)
#   attnprof   the same for attention forward (HEAD, CAUSAL, NCU_CONFIGS; attn_forms.tgz)
#   ncu        Nsight Compute of bench_dot.py's fp16 kernel, mytriton's and Triton's (NCU_CONFIG)
#   ncusuite   Nsight Compute of benchmark suite entries (NCU_SUITE names, or auto: the
#              kernels this run's bench step found above 1.0x)
#   difftest   differential testing: scripts/triton_difftest.py (COUNT kernels against
#              Triton), the MLIR backend against the host (MLIR_SEEDS), the CUDA
#              emulator against the host (EMU_SEEDS)
#   dtchunks   the long run against Triton in chunks of CHUNK seeds from FIRST while
#              BUDGET seconds allow; prints the next FIRST
#   sanitizer  compute-sanitizer (memcheck, racecheck, synccheck) over the CUDA
#              execution tests, the MLIR ones and SEEDS random kernels of mytriton_difftest
# MYTRITON_COMMIT=<commit>: the commit of the tree sent, which the caller knows
# (the copy here may carry a stale .git, or none): the real step's table names
# it; unset, the tables name git's HEAD here and say so. The caller writes the
# value out, e.g. `MYTRITON_COMMIT=1a2b3c4 bash scripts/gpu.sh real`, its
# $(git rev-parse --short HEAD) taken on its own machine.
# BASE=<a `git archive` tarball>: its compiler built on the CPUs in the
# background (in /tmp/base), timed by the bench and dot steps beside this one.
# Examples:
#   bash scripts/gpu.sh build ctest oracle
#   LABELS= bash scripts/gpu.sh build ctest benchgpu      (the whole suite and the benchmarks)
#   NCU_SUITE=auto bash scripts/gpu.sh tools bench ncusuite
#   COUNT=10000 bash scripts/gpu.sh build difftest
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUT="${OUT:-/tmp/mytriton-out}"; mkdir -p "$OUT"
BUILD="${BUILD:-build-h200}"
JOBS="${JOBS:-$(nproc)}"
export PATH="/usr/local/cuda/bin:$PATH"
if [ $# -gt 0 ]; then STEPS="$*"; fi
STEPS="${STEPS:-build ctest oracle mlir bench dot}"
STEPS="${STEPS//,/ }"
t0=$(date +%s)
el() { echo "$(( $(date +%s) - t0 )) s"; }
status=0
fail() { status=1; }
exec > >(tee "$OUT/summary.log") 2>&1
if [ -n "${MYTRITON_COMMIT:-}" ]; then
  echo "== mytriton $MYTRITON_COMMIT (MYTRITON_COMMIT, from the caller)"
  export MYTRITON_COMMIT
else
  echo "== MYTRITON_COMMIT not set: tables name this tree's git HEAD" \
    "($(git rev-parse --short HEAD 2>/dev/null || echo none)), which may be stale here"
fi

configure() { [ -f "$BUILD/build.ninja" ] || cmake --preset h200 || return 1; }
build_targets() { configure && cmake --build "$BUILD" -j "$JOBS" --target "$@"; }
mtc() { echo "$BUILD/bin/mytritonc"; }
sass_of() { # <name> <dir> <log>: nvcc -cubin, the SASS beside the .cu, registers and spills in the log
  nvcc -arch=sm_90a -O3 -cubin -Xptxas -v -Iruntime/include -I"$2" -o "$2/$1.cubin" "$2/$1.cu" >> "$3" 2>&1
  cuobjdump -sass "$2/$1.cubin" > "$2/$1.sass" 2>> "$3"
  echo "$1: HGMMA $(grep -c HGMMA "$2/$1.sass"), HMMA $(grep -c HMMA "$2/$1.sass")" >> "$3"
  rm -f "$2/$1.cubin" "$2/$1.c"
}

if [ -n "${BASE:-}" ]; then
  { rm -rf /tmp/base && mkdir -p /tmp/base/src && tar -xf "$BASE" -C /tmp/base/src &&
    cmake -S /tmp/base/src -B /tmp/base/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMYTRITON_BUILD_TESTS=OFF \
      -DMYTRITON_BUILD_BENCH=OFF -DMYTRITON_BUILD_EXAMPLE=OFF &&
    ninja -C /tmp/base/build mytritonc; } > "$OUT/base_build.log" 2>&1 &
  BASE_BUILD=$!
fi
wait_base() { [ -n "${BASE_BUILD:-}" ] && wait "$BASE_BUILD" 2>/dev/null; BASE_BUILD=""; [ -x /tmp/base/build/bin/mytritonc ]; }

step_machine() {
  { nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; cmake --version | head -n1; } > "$OUT/machine.log" 2>&1
  cat "$OUT/machine.log"
}

step_build() {
  if [ -n "${TARGETS:-}" ]; then
    # shellcheck disable=SC2086
    { configure && cmake --build "$BUILD" -j "$JOBS" --target mytritonc $TARGETS -- -k 0; } > "$OUT/build.log" 2>&1
  else
    { cmake --preset h200 && cmake --build "$BUILD" -j "$JOBS" -- -k 0; } > "$OUT/build.log" 2>&1
  fi
  local rc=$?
  echo "== build exit $rc after $(el)"; grep -E "error|FAILED" "$OUT/build.log" | head -20
  [ $rc -eq 0 ] || fail
}

step_tools() {
  { cmake --preset h200 && cmake --build "$BUILD" --target mytritonc -j "$JOBS"; } > "$OUT/tools.log" 2>&1 || fail
  echo "== tools exit $? after $(el)"; grep -E "error" "$OUT/tools.log" | head -20
}

step_sass() {
  [ -d .carry-sass ] || { echo "== sass: no .carry-sass"; return; }
  mkdir -p "$OUT/sass"
  for cu in .carry-sass/*.cu; do
    b="$OUT/sass/$(basename "${cu%.cu}")"
    nvcc -arch=sm_90a -O3 -cubin -Xptxas -v -o "$b.cubin" "$cu" -Iruntime/include >> "$OUT/sass.log" 2>&1
    cuobjdump -sass "$b.cubin" > "$b.sass" 2>> "$OUT/sass.log"; rm -f "$b.cubin"
  done
  echo "== sass after $(el)"; grep -E "registers|spill|error" "$OUT/sass.log" | head
}

step_ctest() {
  local labels="${LABELS-gpu|autotune|nvcc|oracle}"
  # shellcheck disable=SC2086
  (cd "$BUILD" && timeout "${CTEST_TIMEOUT:-300}" ctest -j 8 --timeout 240 ${labels:+-L "$labels"} \
    ${CTEST_ARGS:-} --output-on-failure) > "$OUT/ctest.log" 2>&1 || fail
  echo "== ctest ${labels:+-L $labels }${CTEST_ARGS:-}exit $? after $(el)"
  grep -E "tests passed|\*\*\*Failed|Failed  |Not Run|Timeout" "$OUT/ctest.log" | head -40
  grep -cE "Skipped|\*\*\*Skipped" "$OUT/ctest.log" | sed 's/^/skipped lines: /'
}

step_oracle() {
  timeout "${ORACLE_TIMEOUT:-240}" python3 scripts/triton_oracle.py --build-dir "$BUILD" --variants o1,o2,host \
    --jobs "$JOBS" ${ORACLE_ONLY:+--only "$ORACLE_ONLY"} > "$OUT/oracle.log" 2>&1 || fail
  echo "== oracle exit $? after $(el)"; grep -E "^FAIL|^ERR|passed|failed" "$OUT/oracle.log" | head -40
}

step_o2num() {
  timeout "${O2NUM_TIMEOUT:-120}" python3 scripts/o2_vs_triton.py --mytritonc "$(mtc)" > "$OUT/o2num.log" 2>&1 || fail
  echo "== o2_vs_triton exit $? after $(el)"; grep -E "^FAIL|passed|failed|over" "$OUT/o2num.log" | head -30
}

step_promotion() {
  timeout "${PROMO_TIMEOUT:-240}" python3 scripts/gen_promotion_table.py --out "$OUT/promotion_table.txt" \
    --jobs 8 > "$OUT/promo.log" 2>&1 || fail
  echo "== promotion table exit $? after $(el)"; tail -3 "$OUT/promo.log"; wc -l "$OUT/promotion_table.txt"
}

step_mlir() {
  [ -d .carry-mlir ] || { echo "== mlir: no .carry-mlir"; return; }
  for t in .carry-mlir/*; do
    # the diagnostics tests need the build tree's paths (host tests, run by ctest)
    timeout 90 "$t" --gtest_filter=-Diagnostics.* > "$OUT/mlir_$(basename "$t").log" 2>&1 || fail
    echo "== $(basename "$t") exit $? after $(el)"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/mlir_$(basename "$t").log" | head -12
  done
}

step_bench() {
  # shellcheck disable=SC2086
  timeout "${BENCH_TIMEOUT:-200}" python3 scripts/bench_suite.py --mytritonc "$(mtc)" ${BENCH_ARGS:-} \
    --markdown "$OUT/bench_suite.md" > "$OUT/bench_suite.log" 2>&1 || fail
  echo "== bench_suite ${BENCH_ARGS:-}exit $? after $(el)"; tail -45 "$OUT/bench_suite.log"
  if [ -n "${BASE:-}" ] && wait_base; then
    # shellcheck disable=SC2086
    timeout "${BENCH_TIMEOUT:-200}" python3 scripts/bench_suite.py --mytritonc /tmp/base/build/bin/mytritonc \
      ${BENCH_ARGS:-} --markdown "$OUT/bench_suite_base.md" > "$OUT/bench_suite_base.log" 2>&1
    echo "== bench_suite (base $BASE) exit $? after $(el)"; tail -40 "$OUT/bench_suite_base.log"
  fi
}

step_real() {
  if [ ! -f bench/real/src/index.json ]; then
    echo "== real: no bench/real/src/index.json: extract the kernels first (python3 scripts/real_extract.py)"
    echo "   and carry bench/real/src"; fail; return
  fi
  build_targets mytritonc mytriton_shim mytriton_runtime > "$OUT/real-build.log" 2>&1 ||
    { grep -E "error|FAILED" "$OUT/real-build.log" | head -20; fail; return; }
  local rc=0
  # no case starts in the last 120 s (a case's own limit), so the table is written
  # shellcheck disable=SC2086
  timeout "${REAL_TIMEOUT:-540}" python3 scripts/real_suite.py --build-dir "$BUILD" --jobs "$JOBS" \
    --work /tmp/real-work --deadline $(( ${REAL_TIMEOUT:-540} - 120 )) ${REAL_ARGS:-} \
    --markdown "$OUT/real_suite.md" --json "$OUT/real_suite.json" > "$OUT/real_suite.log" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || fail
  echo "== real_suite ${REAL_ARGS:-}exit $rc after $(el)"
  sed -n '/^kernel  /,$p' "$OUT/real_suite.log" | head -150
}

step_ptxas() {
  local work="${TMPDIR:-/tmp}/mytriton-ptxas-work"
  rm -rf "$work"
  # shellcheck disable=SC2086
  timeout 120 python3 scripts/bench_suite.py --compile-only --werror ${BENCH_ARGS:-} --work "$work" \
    --mytritonc "$(mtc)" > "$OUT/compile.log" 2>&1 || fail
  echo "== compile-only exit $? after $(el)"; tail -3 "$OUT/compile.log"
  for d in "$work"/bs_*/; do
    n=$(basename "$d")
    [ -f "$d/$n.cu" ] || continue
    r=$(nvcc -arch=sm_90 -Iruntime/include -I"$d" -c -o /dev/null -Xptxas -v "$d/$n.cu" 2>&1 |
        grep -E "Used|spill" | sed 's/ptxas info *: *//' | tr -s ' ' | tr '\n' ' ')
    printf "%-26s %-22s %s\n" "$n" "$(grep -o '__launch_bounds__([0-9]*)' "$d/$n.cu" | head -1)" "$r"
  done > "$OUT/ptxas.log" 2>&1
  echo "== ptxas after $(el)"; cat "$OUT/ptxas.log"
}

step_benchgpu() {
  {
    timeout 90 "./$BUILD/bin/mytriton_bench_gpu"; echo "== bench_gpu exit $?"
    timeout 90 "./$BUILD/bin/mytriton_bench_compile"; echo "== bench_compile exit $?"
    timeout 60 "./$BUILD/bin/mytriton_bench_autotune"; echo "== bench_autotune exit $?"
    [ -n "${SKIP_TRITON:-}" ] || { timeout 300 python3 bench/triton_bench.py test/conformance/kernels; echo "== triton bench exit $?"; }
  } > "$OUT/benchgpu.log" 2>&1
  echo "== benchgpu after $(el)"; tail -45 "$OUT/benchgpu.log"
}

step_autotune() {
  build_targets mytriton_autotune_test mytriton_bench_autotune > "$OUT/autotune-build.log" 2>&1 ||
    { grep -E "error|FAILED" -A3 "$OUT/autotune-build.log" | head -40; fail; return; }
  (cd "$BUILD" && ctest -L autotune --output-on-failure --timeout 600 -V) > "$OUT/autotune-ctest.log" 2>&1 || fail
  echo "== ctest -L autotune exit $? after $(el)"
  grep -E "tests passed|Failed|Skipped|matmul [0-9]+x|at_matmul_cfg3:" "$OUT/autotune-ctest.log" | head -40
  "./$BUILD/bin/mytriton_bench_autotune" > "$OUT/autotune-bench.log" 2>&1; echo "== autotune bench exit $?"
  cat "$OUT/autotune-bench.log"
  # a fat binary: sm_80 and sm_90a in one build of the same tests
  { cmake -S . -B build-fat -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMYTRITON_BUILD_TESTS=ON \
      -DCMAKE_CUDA_ARCHITECTURES="80;90a" && cmake --build build-fat -j "$JOBS" --target mytriton_autotune_test; } \
    > "$OUT/fat-build.log" 2>&1 || { grep -E "error|FAILED" -A3 "$OUT/fat-build.log" | head -40; fail; return; }
  ./build-fat/test/autotune/mytriton_autotune_test --gtest_filter='Gpu.*' > "$OUT/fat-test.log" 2>&1 || fail
  echo "== fat binary (80;90a) Gpu.* exit $? after $(el)"; tail -5 "$OUT/fat-test.log"
}

step_forms() {
  # shellcheck disable=SC2086
  timeout "${FORMS_TIMEOUT:-150}" python3 scripts/bench_forms.py --build-dir "$BUILD" ${FORMS_ARGS:-} > "$OUT/bench_forms.log" 2>&1 || fail
  echo "== bench_forms exit $? after $(el)"; tail -20 "$OUT/bench_forms.log"
}

step_dot() {
  # shellcheck disable=SC2086
  timeout "${DOT_TIMEOUT:-200}" python3 scripts/bench_dot.py --build-dir "$BUILD" ${DOT_ARGS:-} > "$OUT/bench_dot.log" 2>&1 || fail
  echo "== bench_dot ${DOT_ARGS:-}exit $? after $(el)"; tail -30 "$OUT/bench_dot.log"
  # a relative difference above 1e-2 from torch is a wrong result, not rounding
  awk '/max rel diff/ { if ($NF + 0 > 1e-2) { bad = 1; print "WRONG: " $0 } } END { exit bad }' "$OUT/bench_dot.log" || fail
  if [ -n "${BASE:-}" ] && wait_base; then
    # shellcheck disable=SC2086
    timeout "${DOT_TIMEOUT:-200}" python3 scripts/bench_dot.py --build-dir /tmp/base/build --no-triton ${DOT_ARGS:-} \
      > "$OUT/bench_dot_base.log" 2>&1
    echo "== bench_dot (base $BASE) exit $? after $(el)"; tail -30 "$OUT/bench_dot_base.log"
  fi
}

step_attn() {
  # shellcheck disable=SC2086
  timeout "${ATTN_TIMEOUT:-200}" python3 scripts/bench_attn.py --build-dir "$BUILD" ${ATTN_ARGS:-} > "$OUT/bench_attn.log" 2>&1 || fail
  echo "== bench_attn exit $? after $(el)"; tail -30 "$OUT/bench_attn.log"
}

ncu_sections_dot="--section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section Occupancy
  --section MemoryWorkloadAnalysis_Tables --section SchedulerStats --section InstructionStats --section LaunchStats"
ncu_grep="Duration|Compute \(SM\) Throughput|Memory Throughput|gmma|pipe_xu|Tensor|Warp Cycles Per Issued|Stall|Registers Per|Achieved Occupancy|Issue Slots Busy|Executed Instructions  |Block Limit"

step_dotprof() {
  local size="${SIZE:-4096}" configs="${CONFIGS:-0,2}" ncu_configs="${NCU_CONFIGS-0}" dtype="${DTYPE:-fp16}"
  mkdir -p "$OUT/dsass"
  # shellcheck disable=SC2086
  timeout "${DOT_TIMEOUT:-200}" python3 scripts/bench_dot.py --build-dir "$BUILD" --size "$size" --dtypes "$dtype" \
    --configs "$configs" --reps 10 --dump-triton "$OUT/dtriton" ${DOT_ARGS:-} > "$OUT/dot_bench.log" 2>&1 || fail
  echo "== bench_dot exit $? after $(el)"; tail -12 "$OUT/dot_bench.log"
  read -r el_in el_c acc prec <<< "$(python3 -c "import sys; sys.path.insert(0, 'scripts'); import bench_dot as b; print(*b.DTYPES['$dtype'][:4])")"
  for i in ${configs//,/ }; do
    read -r bm bn bk gm w s <<< "$(python3 -c "import sys; sys.path.insert(0, 'scripts'); import bench_dot as b; print(*b.CONFIGS[$i])")"
    n="ours_${dtype//-/_}_${bm}x${bn}x${bk}_w${w}_s${s}"
    "$(mtc)" test/lang_dot/kernels/dot.py --kernel matmul_kernel \
      --signature "*$el_in:16, *$el_in:16, *$el_c:16, i32, i32, i32, i32, i32, i32, i32, i32, i32" \
      --name "$n" -O2 --num-warps "$w" --num-stages "$s" --grid "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)" -o "$OUT/dsass" \
      -D BLOCK_M="$bm" -D BLOCK_N="$bn" -D BLOCK_K="$bk" -D GROUP_M="$gm" -D ACC="$acc" -D PRECISION="$prec" \
      -D PLUS=False -D ACTIVATION=none -D WARP_SPECIALIZE=False >> "$OUT/dot_sass.log" 2>&1
    sass_of "$n" "$OUT/dsass" "$OUT/dot_sass.log"
  done
  echo "== sass after $(el)"; grep -E "registers|spill|C75|HGMMA" "$OUT/dot_sass.log" | head -20
  python3 scripts/sass_loop.py "$OUT"/dsass/*.sass "$OUT"/dtriton/*.sass > "$OUT/dot_loops.log" 2>&1; cat "$OUT/dot_loops.log"
  tar -C "$OUT" -czf "$OUT/dot_forms.tgz" dsass dtriton 2> /dev/null && rm -rf "$OUT/dsass" "$OUT/dtriton"
  if [ -n "$ncu_configs" ] && command -v ncu > /dev/null; then
    for c in ${ncu_configs//,/ }; do
      for who in ours triton; do
        if [ $who = ours ]; then k="regex:^mm_"; extra="--no-triton"; else k="regex:matmul_kernel"; extra=""; fi
        # shellcheck disable=SC2086
        timeout "${NCU_TIMEOUT:-150}" ncu --clock-control none -k "$k" -c 1 $ncu_sections_dot \
          python3 scripts/bench_dot.py --build-dir "$BUILD" --size "$size" --dtypes "$dtype" --configs "$c" --reps 1 \
          --jobs 4 $extra > "$OUT/ncu_dot_${who}_$c.log" 2>&1
        echo "== ncu $who config $c exit $? after $(el)"
        grep -E "$ncu_grep" "$OUT/ncu_dot_${who}_$c.log" | head -30
      done
    done
  fi
}

step_attnprof() {
  local head="${HEAD:-128}" causal="${CAUSAL:-0}" ncu_configs="${NCU_CONFIGS-0,2}"
  mkdir -p "$OUT/asass"
  # shellcheck disable=SC2086
  timeout "${ATTN_TIMEOUT:-200}" python3 scripts/bench_attn.py --build-dir "$BUILD" --head-dims "$head" \
    --causal "$causal" --reps 10 --dump-triton "$OUT/atriton" ${ATTN_ARGS:-} > "$OUT/attn_bench.log" 2>&1 || fail
  echo "== bench_attn exit $? after $(el)"; tail -20 "$OUT/attn_bench.log"
  for cfg in $(python3 -c "import sys; sys.path.insert(0, 'scripts'); import bench_attn as b; print(' '.join('%d,%d,%d,%d' % c for c in b.CONFIGS))"); do
    IFS=, read -r bm bn w s <<< "$cfg"
    n="ours_d${head}_c${causal}_${bm}x${bn}_w${w}_s${s}"
    "$(mtc)" test/lang_apps/kernels/attention.py --kernel attn_fwd_kernel \
      --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32" --name "$n" -O2 --num-warps "$w" \
      --num-stages "$s" --grid "cdiv(N_CTX, BLOCK_M), BH" --grid-param BH -o "$OUT/asass" \
      -D HEAD_DIM="$head" -D BLOCK_M="$bm" -D BLOCK_N="$bn" -D CAUSAL="$causal" >> "$OUT/attn_sass.log" 2>&1
    sass_of "$n" "$OUT/asass" "$OUT/attn_sass.log"
  done
  echo "== sass after $(el)"; grep -E "registers|spill|C75|HGMMA" "$OUT/attn_sass.log" | head -20
  tar -C "$OUT" -czf "$OUT/attn_forms.tgz" asass atriton 2> /dev/null && rm -rf "$OUT/asass" "$OUT/atriton"
  if [ -n "$ncu_configs" ] && command -v ncu > /dev/null; then
    for c in ${ncu_configs//,/ }; do
      for who in ours triton; do
        if [ $who = ours ]; then k="regex:^attn_d"; extra="--no-triton"; else k="regex:attn_fwd_kernel"; extra=""; fi
        # shellcheck disable=SC2086
        timeout "${NCU_TIMEOUT:-150}" ncu --clock-control none -k "$k" -c 1 $ncu_sections_dot \
          --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio \
          python3 scripts/bench_attn.py --build-dir "$BUILD" --head-dims "$head" --causal "$causal" --configs "$c" \
          --reps 1 $extra > "$OUT/ncu_attn_${who}_$c.log" 2>&1
        echo "== ncu $who config $c exit $? after $(el)"
        grep -E "$ncu_grep" "$OUT/ncu_attn_${who}_$c.log" | head -30
      done
    done
  fi
}

step_ncu() {
  command -v ncu > /dev/null || { echo "== ncu: not installed"; return; }
  # the first launch of mytriton's fp16 kernel (NCU_CONFIG of bench_dot.py's
  # CONFIGS, default 0: 128x256x64) and of Triton's, one profile each
  for who in mm_ matmul; do
    timeout "${NCU_TIMEOUT:-120}" ncu --clock-control none -k "regex:$who" -c 1 \
      --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis \
      --section MemoryWorkloadAnalysis_Tables --section SchedulerStats --section InstructionStats \
      python3 scripts/bench_dot.py --build-dir "$BUILD" --dtypes fp16 --configs "${NCU_CONFIG:-0}" --reps 1 --jobs 4 \
      > "$OUT/ncu_$who.log" 2>&1
    echo "== ncu $who exit $? after $(el)"
    grep -E "mm_|matmul|Duration|Compute \(SM\) Throughput|Memory Throughput|Tensor|Warp Cycles Per Issued|Bank|Stall|Registers|Achieved Occupancy|Issue Slots|Executed Instructions  " "$OUT/ncu_$who.log" | head -40
  done
}

step_ncusuite() {
  command -v ncu > /dev/null || { echo "== ncusuite: no ncu"; return; }
  # the first launch of the entry's kernel is mytriton's, the second Triton's
  # (bench_suite.py checks both before timing), caches flushed before each
  local list="${NCU_SUITE:-row_max_fp16 plane_sum_fp16 ema_fp32 rms_norm_bf16}"
  if [ "$list" = auto ]; then
    list=$(sed -n 's/.*(above: \(.*\))$/\1/p' "$OUT/bench_suite.log" 2>/dev/null | tr -d ,)
    echo "== ncu list: $list"
  fi
  for e in $list; do
    if [ $(( $(date +%s) - t0 )) -gt "${DEADLINE:-100000}" ]; then echo "== ncu $e: past DEADLINE, skipped"; continue; fi
    k=$(python3 -c "import json,sys; print([x['kernel'] for x in json.load(open('bench/suite/suite.json'))['kernels'] if x['name'] == sys.argv[1]][0])" "$e")
    timeout "${NCU_TIMEOUT:-120}" ncu --clock-control none -k "regex:$k|$e" -c 2 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
      --section WarpStateStats --section SchedulerStats \
      python3 scripts/bench_suite.py --mytritonc "$(mtc)" --only "^$e\$" --rounds 1 --rep 5 --warmup 1 > "$OUT/ncu_$e.log" 2>&1
    echo "== ncu $e ($k) exit $? after $(el)"
    grep -E "^  [a-z_0-9]+.*\(|Duration|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|Registers Per|Block Size|Warp Cycles Per Issued|Issued Warp|No Eligible" "$OUT/ncu_$e.log" | head -40
  done
}

step_difftest() {
  local count="${COUNT:-10000}" mlir_seeds="${MLIR_SEEDS:-1:2000}" emu_seeds="${EMU_SEEDS:-1:500}" start
  build_targets mytriton_difftest mytritonc > "$OUT/difftest-build.log" 2>&1 ||
    { grep -E "error|FAILED" "$OUT/difftest-build.log" | head -30; fail; return; }
  start=$(date +%s)
  python3 scripts/triton_difftest.py --build "$BUILD" --count "$count" --jobs "$JOBS" --work /tmp/dt-triton \
    > "$OUT/difftest-triton.log" 2>&1 || fail
  cp /tmp/dt-triton/summary.txt "$OUT/difftest_summary.txt" 2>/dev/null
  [ -d /tmp/dt-triton/fail ] && cp -r /tmp/dt-triton/fail "$OUT/difftest-fail"
  echo "== difftest 1. triton ($count kernels): $(( $(date +%s) - start )) s"
  grep -E "^difftest: seeds|^FAIL|^triton_difftest|^   " "$OUT/difftest-triton.log" | head -40
  if grep -q '^MYTRITON_MLIR_OPT:FILEPATH=/' "$BUILD/CMakeCache.txt" && [ "$mlir_seeds" != "1:0" ]; then
    start=$(date +%s)
    "$BUILD/test/difftest/mytriton_difftest" --seeds "$mlir_seeds" --backends host,mlir --batch 500 --jobs "$JOBS" \
      --work /tmp/dt-mlir > "$OUT/difftest-mlir.log" 2>&1 || fail
    echo "== difftest 2. mlir ($mlir_seeds): $(( $(date +%s) - start )) s"
    grep -E "^difftest: seeds|^FAIL|reproducer" "$OUT/difftest-mlir.log" | head -20
  fi
  start=$(date +%s)
  "$BUILD/test/difftest/mytriton_difftest" --seeds "$emu_seeds" --backends host,emu --jobs "$JOBS" \
    --work /tmp/dt-emu > "$OUT/difftest-emu.log" 2>&1 || fail
  echo "== difftest 3. emulator ($emu_seeds): $(( $(date +%s) - start )) s"
  grep -E "^difftest: seeds|^FAIL|reproducer" "$OUT/difftest-emu.log" | head -20
}

step_dtchunks() {
  local first="${FIRST:-1}" chunk="${CHUNK:-1000}" budget="${BUDGET:-520}" last_dur=0 now t
  build_targets mytriton_difftest mytritonc > "$OUT/difftest-build.log" 2>&1 ||
    { grep -E "error|FAILED" "$OUT/difftest-build.log" | head -30; fail; return; }
  while :; do
    now=$(( $(date +%s) - t0 ))
    [ $(( now + last_dur + last_dur / 4 )) -lt "$budget" ] || break
    t=$(date +%s)
    python3 scripts/triton_difftest.py --build "$BUILD" --first "$first" --count "$chunk" --work "/tmp/dt-$first" \
      > "$OUT/chunk-$first.log" 2>&1 || fail
    cp "/tmp/dt-$first/summary.txt" "$OUT/summary-$first.txt" 2>/dev/null
    [ -d "/tmp/dt-$first/fail" ] && cp -r "/tmp/dt-$first/fail" "$OUT/fail-$first"
    last_dur=$(( $(date +%s) - t ))
    echo "chunk $first: ${last_dur} s: $(grep -h '^triton_difftest' "$OUT/chunk-$first.log" || tail -3 "$OUT/chunk-$first.log")"
    grep -E "^FAIL|mismatch" "$OUT/chunk-$first.log" | head -5
    first=$(( first + chunk ))
  done
  echo "== dtchunks: next FIRST=$first"
}

step_sanitizer() {
  local seeds="${SEEDS:-1:100}" targets="mytriton_exec_test mytriton_difftest mytritonc" programs tool entry name cmd log rc summary
  configure > "$OUT/sanitizer-build.log" 2>&1
  grep -q "mytriton_mlir_exec_test" "$BUILD/build.ninja" && targets="$targets mytriton_mlir_exec_test"
  # shellcheck disable=SC2086
  build_targets $targets >> "$OUT/sanitizer-build.log" 2>&1 ||
    { grep -E "error|FAILED" "$OUT/sanitizer-build.log" | head -30; fail; return; }
  # build the difftest's GPU library once, outside the sanitizer (nvcc is slow under it)
  "$BUILD/test/difftest/mytriton_difftest" --seeds "$seeds" --backends host,gpu --jobs "$JOBS" --no-minimize \
    --work /tmp/san-difftest-plain > "$OUT/sanitizer-difftest-plain.log" 2>&1
  echo "== difftest without the sanitizer: exit $? ($(tail -1 "$OUT/sanitizer-difftest-plain.log" | cut -c1-200))"
  programs=(
    "exec|$BUILD/test/exec/mytriton_exec_test --gtest_filter=Cuda*"
    "difftest|$BUILD/test/difftest/mytriton_difftest --seeds $seeds --backends host,gpu --jobs $JOBS --no-minimize --work /tmp/san-difftest"
  )
  [ -x "$BUILD/test/mlir/mytriton_mlir_exec_test" ] && programs+=("mlir|$BUILD/test/mlir/mytriton_mlir_exec_test")
  local clean=0
  for tool in memcheck racecheck synccheck; do
    for entry in "${programs[@]}"; do
      name="${entry%%|*}"; cmd="${entry#*|}"; log="$OUT/sanitizer-$tool-$name.log"
      # shellcheck disable=SC2086
      compute-sanitizer --tool "$tool" --target-processes application-only --error-exitcode 99 $cmd > "$log" 2>&1
      rc=$?
      summary="$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)"
      echo "== $tool $name: exit $rc; ${summary:-no summary}"
      if [ "$rc" -ne 0 ] || ! grep -qE "(ERROR|RACECHECK) SUMMARY: 0 (errors|hazards)" "$log"; then
        clean=1; fail
        grep -E "^=========" "$log" | head -20
      fi
    done
  done
  echo "== compute-sanitizer: $([ $clean -eq 0 ] && echo clean || echo REPORTS)"
}

for s in $STEPS; do
  if declare -F "step_$s" > /dev/null; then
    echo "==== step $s (at $(el))"
    "step_$s"
  else
    echo "gpu.sh: unknown step '$s'" >&2; status=2
  fi
done
wait_base || true
echo "==== done after $(el), status $status"
# every log in one archive (summary.log stays beside it)
(cd "$OUT" && find . -mindepth 1 -maxdepth 1 ! -name summary.log ! -name logs.tgz -printf '%P\n' |
  tar -czf logs.tgz -T - 2>/dev/null && find . -mindepth 1 -maxdepth 1 ! -name summary.log ! -name logs.tgz -exec rm -rf {} +)
exit $status
