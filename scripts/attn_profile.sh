#!/usr/bin/env bash
# Attention forward on the GPU machine, for analysis: bench_attn.py for one
# head dimension (Triton's TTGIR / PTX / SASS of each config dumped), the
# SASS and ptxas report of mytriton's kernels for the same configs, and an
# Nsight Compute profile of both compilers' kernels for the configs in
# NCU_CONFIGS (indices into bench_attn.py's CONFIGS; empty: none). Logs
# under $OUT, the SASS and Triton's forms in $OUT/forms.tgz (the device
# tool brings back few files); BENCH_ARGS more bench_attn.py arguments.
#   HEAD=128 CAUSAL=0 NCU_CONFIGS=0,2 bash scripts/attn_profile.sh
set -uo pipefail
OUT="${OUT:-/tmp/mytriton-out}"; mkdir -p "$OUT/sass"
HEAD="${HEAD:-128}"; CAUSAL="${CAUSAL:-0}"; NCU_CONFIGS="${NCU_CONFIGS-0,2}"
export PATH="/usr/local/cuda/bin:$PATH"
t0=$(date +%s)
el() { echo "$(( $(date +%s) - t0 )) s"; }
{ cmake --preset h200 && cmake --build build-h200 --target mytritonc -j 16; } > "$OUT/tools.log" 2>&1
echo "== tools exit $? after $(el)"
timeout "${BENCH_TIMEOUT:-200}" python3 scripts/bench_attn.py --build-dir build-h200 --head-dims "$HEAD" \
  --causal "$CAUSAL" --reps 10 --dump-triton "$OUT/triton" ${BENCH_ARGS:-} > "$OUT/bench_attn.log" 2>&1
echo "== bench_attn exit $? after $(el)"; cat "$OUT/bench_attn.log" | tail -20
mtc=build-h200/bin/mytritonc
for cfg in $(python3 -c "import sys; sys.path.insert(0, 'scripts'); import bench_attn as b; print(' '.join('%d,%d,%d,%d' % c for c in b.CONFIGS))"); do
  IFS=, read -r bm bn w s <<< "$cfg"
  n="ours_d${HEAD}_c${CAUSAL}_${bm}x${bn}_w${w}_s${s}"
  $mtc test/lang_apps/kernels/attention.py --kernel attn_fwd_kernel --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32" \
    --name "$n" -O2 --num-warps "$w" --num-stages "$s" --grid "cdiv(N_CTX, BLOCK_M), BH" --grid-param BH -o "$OUT/sass" \
    -D HEAD_DIM="$HEAD" -D BLOCK_M="$bm" -D BLOCK_N="$bn" -D CAUSAL="$CAUSAL" >> "$OUT/sass.log" 2>&1
  nvcc -arch=sm_90a -O3 -cubin -Xptxas -v -Iruntime/include -I"$OUT/sass" -o "$OUT/sass/$n.cubin" "$OUT/sass/$n.cu" >> "$OUT/sass.log" 2>&1
  cuobjdump -sass "$OUT/sass/$n.cubin" > "$OUT/sass/$n.sass" 2>> "$OUT/sass.log"; rm -f "$OUT/sass/$n.cubin" "$OUT/sass/$n.c"
done
echo "== sass after $(el)"; grep -E "registers|spill|C75" "$OUT/sass.log" | head -20
tar -C "$OUT" -czf "$OUT/forms.tgz" sass triton 2> /dev/null && rm -rf "$OUT/sass" "$OUT/triton"
if [ -n "$NCU_CONFIGS" ] && command -v ncu > /dev/null; then
  for c in ${NCU_CONFIGS//,/ }; do
    for who in ours triton; do
      if [ $who = ours ]; then k="regex:^attn_d"; extra="--no-triton"; else k="regex:attn_fwd_kernel"; extra=""; fi
      timeout "${NCU_TIMEOUT:-150}" ncu --clock-control none -k "$k" -c 1 \
        --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section Occupancy \
        --section MemoryWorkloadAnalysis_Tables --section SchedulerStats --section InstructionStats --section LaunchStats \
        --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio \
        python3 scripts/bench_attn.py --build-dir build-h200 --head-dims "$HEAD" --causal "$CAUSAL" --configs "$c" --reps 1 $extra \
        > "$OUT/ncu_${who}_$c.log" 2>&1
      echo "== ncu $who config $c exit $? after $(el)"
      grep -E "Duration|Compute \(SM\) Throughput|gmma|pipe_xu|Warp Cycles Per Issued|Stall|Registers Per|Achieved Occupancy|Issue Slots Busy|Executed Instructions  |Block Limit" "$OUT/ncu_${who}_$c.log" | head -30
    done
  done
fi
