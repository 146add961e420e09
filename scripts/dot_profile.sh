#!/usr/bin/env bash
# The tutorial matmul on the GPU machine, for analysis: bench_dot.py for
# DTYPE at SIZE on CONFIGS (indices into bench_dot.py's CONFIGS) with
# Triton's TTGIR / PTX / SASS of each config dumped, the SASS and ptxas
# report of mytriton's kernels for the same configs, and Nsight Compute on
# both compilers' kernels for the configs in NCU_CONFIGS (empty: none). Logs
# under $OUT, the SASS and Triton's forms in $OUT/dot_forms.tgz;
# scripts/sass_loop.py counts the opcodes of each K loop in them.
#   SIZE=8192 CONFIGS=0,2 NCU_CONFIGS=0 bash scripts/dot_profile.sh
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"; mkdir -p "$OUT/dsass"
SIZE="${SIZE:-4096}"; CONFIGS="${CONFIGS:-0,2}"; NCU_CONFIGS="${NCU_CONFIGS-0}"; DTYPE="${DTYPE:-fp16}"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$(date +%s)
el() { echo "$(( $(date +%s) - t0 )) s"; }
{ cmake --preset h200 && cmake --build build-h200 --target mytritonc -j 16; } > "$OUT/dot_tools.log" 2>&1
echo "== tools exit $? after $(el)"
timeout "${BENCH_TIMEOUT:-200}" python3 scripts/bench_dot.py --build-dir build-h200 --size "$SIZE" --dtypes "$DTYPE" \
  --configs "$CONFIGS" --reps 10 --dump-triton "$OUT/dtriton" ${BENCH_ARGS:-} > "$OUT/dot_bench.log" 2>&1
echo "== bench_dot exit $? after $(el)"; tail -12 "$OUT/dot_bench.log"
el_t=$(python3 -c "import sys; sys.path.insert(0, 'scripts'); import bench_dot as b; print(b.DTYPES['$DTYPE'][0], b.DTYPES['$DTYPE'][1], b.DTYPES['$DTYPE'][2], b.DTYPES['$DTYPE'][3])")
read -r el_in el_c acc prec <<< "$el_t"
for i in ${CONFIGS//,/ }; do
  cfg=$(python3 -c "import sys; sys.path.insert(0, 'scripts'); import bench_dot as b; print(' '.join(map(str, b.CONFIGS[$i])))")
  read -r bm bn bk gm w s <<< "$cfg"
  n="ours_${DTYPE}_${bm}x${bn}x${bk}_w${w}_s${s}"
  build-h200/bin/mytritonc test/lang_dot/kernels/dot.py --kernel matmul_kernel \
    --signature "*$el_in:16, *$el_in:16, *$el_c:16, i32, i32, i32, i32, i32, i32, i32, i32, i32" \
    --name "$n" -O2 --num-warps "$w" --num-stages "$s" --grid "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)" -o "$OUT/dsass" \
    -D BLOCK_M="$bm" -D BLOCK_N="$bn" -D BLOCK_K="$bk" -D GROUP_M="$gm" -D ACC="$acc" -D PRECISION="$prec" \
    -D PLUS=False -D ACTIVATION=none -D WARP_SPECIALIZE=False >> "$OUT/dot_sass.log" 2>&1
  nvcc -arch=sm_90a -O3 -cubin -Xptxas -v -Iruntime/include -I"$OUT/dsass" -o "$OUT/dsass/$n.cubin" "$OUT/dsass/$n.cu" >> "$OUT/dot_sass.log" 2>&1
  cuobjdump -sass "$OUT/dsass/$n.cubin" > "$OUT/dsass/$n.sass" 2>> "$OUT/dot_sass.log"; rm -f "$OUT/dsass/$n.cubin" "$OUT/dsass/$n.c"
done
echo "== sass after $(el)"; grep -E "registers|spill|C75" "$OUT/dot_sass.log" | head -20
python3 scripts/sass_loop.py "$OUT"/dsass/*.sass "$OUT"/dtriton/*.sass 2>&1 | tee "$OUT/dot_loops.log"
tar -C "$OUT" -czf "$OUT/dot_forms.tgz" dsass dtriton 2> /dev/null && rm -rf "$OUT/dsass" "$OUT/dtriton"
if [ -n "$NCU_CONFIGS" ] && command -v ncu > /dev/null; then
  for c in ${NCU_CONFIGS//,/ }; do
    for who in ours triton; do
      if [ $who = ours ]; then k="regex:^mm_"; extra="--no-triton"; else k="regex:matmul_kernel"; extra=""; fi
      timeout "${NCU_TIMEOUT:-150}" ncu --clock-control none -k "$k" -c 1 \
        --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section Occupancy \
        --section MemoryWorkloadAnalysis_Tables --section SchedulerStats --section InstructionStats \
        --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
        python3 scripts/bench_dot.py --build-dir build-h200 --size "$SIZE" --dtypes "$DTYPE" --configs "$c" --reps 1 $extra \
        > "$OUT/dot_ncu_${who}_$c.log" 2>&1
      echo "== ncu $who config $c exit $? after $(el)"
      grep -E "Duration|Compute \(SM\) Throughput|gmma|bank_conflicts|Warp Cycles Per Issued|Stall|Registers Per|Achieved Occupancy|Issue Slots Busy|Executed Instructions  |Block Limit|L2 Hit|DRAM Throughput" "$OUT/dot_ncu_${who}_$c.log" | head -30
    done
  done
fi
