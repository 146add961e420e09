#!/usr/bin/env bash
# One batched GPU-machine run for the language issues (13, 15) and the -O2
# suite (14): build the h200 preset, every GPU test (labels gpu, autotune,
# nvcc, oracle; the lang_* directories), the Triton oracle over every
# manifest (-O1, -O2, host), the benchmark suite and the tl.dot benchmark
# when present, the MLIR-built test programs carried in .carry-mlir (built
# where mlir-opt is; the H200 has none), and an Nsight Compute profile of
# the fp16 tl.dot matmul (mytriton's and Triton's kernels). Logs under $OUT;
# STEPS picks parts (build,tools,sass,ctest,oracle,mlir,bench,forms,dot,attn,ncu,ncusuite); ORACLE_ONLY
# a regex of oracle entries; DOT_ARGS the
# bench_dot.py arguments.
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"; mkdir -p "$OUT"
STEPS="${STEPS:-build,ctest,oracle,mlir,bench,dot}"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$(date +%s)
el() { echo "$(( $(date +%s) - t0 )) s"; }
has() { case ",$STEPS," in *",$1,"*) return 0;; esac; return 1; }
if has build; then
  { cmake --preset h200 && cmake --build --preset h200 -j 16 -- -k 0; } > "$OUT/build.log" 2>&1
  echo "== build exit $? after $(el)"; grep -E "error|FAILED" "$OUT/build.log" | head -20
fi
if has tools; then
  # the compiler alone (enough for bench_dot.py and the ncu step)
  { cmake --preset h200 && cmake --build build-h200 --target mytritonc -j 16; } > "$OUT/tools.log" 2>&1
  echo "== tools exit $? after $(el)"; grep -E "error" "$OUT/tools.log" | head -20
fi
if has sass && [ -d .carry-sass ]; then
  # the SASS of generated kernels carried in .carry-sass/*.cu (sm_90a)
  mkdir -p "$OUT/sass"
  for cu in .carry-sass/*.cu; do
    b="$OUT/sass/$(basename "${cu%.cu}")"
    nvcc -arch=sm_90a -O3 -cubin -Xptxas -v -o "$b.cubin" "$cu" -Iruntime/include >> "$OUT/sass.log" 2>&1
    cuobjdump -sass "$b.cubin" > "$b.sass" 2>> "$OUT/sass.log"; rm -f "$b.cubin"
  done
  echo "== sass after $(el)"; grep -E "registers|spill|error" "$OUT/sass.log" | head
fi
if has ctest; then
  (cd build-h200 && timeout "${CTEST_TIMEOUT:-240}" ctest -j 8 --timeout 200 -L "gpu|autotune|nvcc|oracle" --output-on-failure) > "$OUT/ctest.log" 2>&1
  echo "== ctest exit $? after $(el)"; grep -E "tests passed|\*\*\*Failed|Failed  |Not Run|Timeout" "$OUT/ctest.log" | head -40
  grep -cE "Skipped|\*\*\*Skipped" "$OUT/ctest.log" | sed 's/^/skipped lines: /'
fi
if has oracle; then
  timeout "${ORACLE_TIMEOUT:-150}" python3 scripts/triton_oracle.py --build-dir build-h200 --variants o1,o2,host --jobs 16 ${ORACLE_ONLY:+--only "$ORACLE_ONLY"} > "$OUT/oracle.log" 2>&1
  echo "== oracle exit $? after $(el)"; grep -E "^FAIL|^ERR|passed|failed" "$OUT/oracle.log" | head -40
fi
if has mlir && [ -d .carry-mlir ]; then
  for t in .carry-mlir/*; do
    # the diagnostics tests need the build tree's paths (host tests, run by ctest)
    timeout 90 "$t" --gtest_filter=-Diagnostics.* > "$OUT/mlir_$(basename "$t").log" 2>&1
    echo "== $(basename "$t") exit $? after $(el)"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/mlir_$(basename "$t").log" | head -12
  done
fi
if has bench && [ -f scripts/bench_suite.py ]; then
  timeout "${BENCH_TIMEOUT:-200}" python3 scripts/bench_suite.py --markdown "$OUT/bench_suite.md" > "$OUT/bench_suite.log" 2>&1
  echo "== bench_suite exit $? after $(el)"; tail -45 "$OUT/bench_suite.log"
fi
if has forms && [ -f scripts/bench_forms.py ]; then
  timeout "${FORMS_TIMEOUT:-150}" python3 scripts/bench_forms.py --build-dir build-h200 ${FORMS_ARGS:-} > "$OUT/bench_forms.log" 2>&1
  echo "== bench_forms exit $? after $(el)"; tail -20 "$OUT/bench_forms.log"
fi
if has dot && [ -f scripts/bench_dot.py ]; then
  timeout "${DOT_TIMEOUT:-150}" python3 scripts/bench_dot.py --build-dir build-h200 ${DOT_ARGS:-} > "$OUT/bench_dot.log" 2>&1
  echo "== bench_dot exit $? after $(el)"; tail -30 "$OUT/bench_dot.log"
fi
if has attn && [ -f scripts/bench_attn.py ]; then
  timeout "${ATTN_TIMEOUT:-200}" python3 scripts/bench_attn.py --build-dir build-h200 ${ATTN_ARGS:-} > "$OUT/bench_attn.log" 2>&1
  echo "== bench_attn exit $? after $(el)"; tail -30 "$OUT/bench_attn.log"
fi
if has ncusuite && command -v ncu > /dev/null; then
  # Nsight Compute of suite entries (NCU_SUITE, names): the first launch of
  # the entry's kernel is mytriton's, the second Triton's (bench_suite.py
  # checks both before timing), caches flushed before each
  # NCU_SUITE=auto: the kernels this run's bench step found above 1.0x
  list="${NCU_SUITE:-row_max_fp16 plane_sum_fp16 ema_fp32 rms_norm_bf16}"
  if [ "$list" = auto ]; then
    list=$(sed -n 's/.*(above: \(.*\))$/\1/p' "$OUT/bench_suite.log" | tr -d ,)
    echo "== ncu list: $list"
  fi
  for e in $list; do
    if [ $(( $(date +%s) - t0 )) -gt "${DEADLINE:-100000}" ]; then echo "== ncu $e: past DEADLINE, skipped"; continue; fi
    k=$(python3 -c "import json,sys; print([x['kernel'] for x in json.load(open('bench/suite/suite.json'))['kernels'] if x['name'] == sys.argv[1]][0])" "$e")
    timeout "${NCU_TIMEOUT:-120}" ncu --clock-control none -k "regex:$k|$e" -c 2 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
      --section WarpStateStats --section SchedulerStats \
      python3 scripts/bench_suite.py --only "^$e\$" --rounds 1 --rep 5 --warmup 1 > "$OUT/ncu_$e.log" 2>&1
    echo "== ncu $e ($k) exit $? after $(el)"
    grep -E "^  [a-z_0-9]+.*\(|Duration|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|Registers Per|Block Size|Warp Cycles Per Issued|Issued Warp|No Eligible" "$OUT/ncu_$e.log" | head -40
  done
fi
if has ncu && command -v ncu > /dev/null; then
  # the first launch of mytriton's fp16 kernel (NCU_CONFIG of bench_dot.py's
  # CONFIGS, default 0: 128x256x64) and of Triton's, one profile each
  for who in mm_ matmul; do
    timeout "${NCU_TIMEOUT:-120}" ncu --clock-control none -k "regex:$who" -c 1 \
      --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis \
      --section MemoryWorkloadAnalysis_Tables --section SchedulerStats --section InstructionStats \
      python3 scripts/bench_dot.py --build-dir build-h200 --dtypes fp16 --configs "${NCU_CONFIG:-0}" --reps 1 --jobs 4 \
      > "$OUT/ncu_$who.log" 2>&1
    echo "== ncu $who exit $? after $(el)"
    grep -E "mm_|matmul|Duration|Compute \(SM\) Throughput|Memory Throughput|Tensor|Warp Cycles Per Issued|Bank|Stall|Registers|Achieved Occupancy|Issue Slots|Executed Instructions  " "$OUT/ncu_$who.log" | head -40
  done
fi
