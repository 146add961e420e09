#!/usr/bin/env bash
# compute-sanitizer (memcheck, racecheck, synccheck) over the GPU suite, on
# the GPU machine (issue 17): the CUDA execution tests (every conformance
# kernel and the language's kernels at -O1 and -O2), the MLIR-built kernels
# when they were built, and 100 random kernels of mytriton_difftest on the
# GPU at -O1 and -O2 (only the test program is sanitized, not the compilers
# it starts). Every run must report "ERROR SUMMARY: 0 errors".
#   bash scripts/compute_sanitizer.sh        (BUILD=build-h200, OUT=/tmp/mytriton-sanitizer)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD="${BUILD:-build-h200}"
OUT="${OUT:-/tmp/mytriton-sanitizer}"
SEEDS="${SEEDS:-1:100}"
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$OUT"
[ -f "$BUILD/build.ninja" ] || cmake --preset h200 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
targets="mytriton_exec_test mytriton_difftest mytritonc"
grep -q "mytriton_mlir_exec_test" "$BUILD/build.ninja" && targets="$targets mytriton_mlir_exec_test"
cmake --build "$BUILD" --target $targets -j "$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
# build the difftest's GPU library once, outside the sanitizer (nvcc is slow under it)
"$BUILD/test/difftest/mytriton_difftest" --seeds "$SEEDS" --backends host,gpu --jobs "$(nproc)" --no-minimize \
  --work "$OUT/difftest-plain" > "$OUT/difftest-plain.log" 2>&1
echo "== difftest without the sanitizer: exit $? ($(tail -1 "$OUT/difftest-plain.log" | cut -c1-200))"

programs=(
  "exec|$BUILD/test/exec/mytriton_exec_test --gtest_filter=Cuda*"
  "difftest|$BUILD/test/difftest/mytriton_difftest --seeds $SEEDS --backends host,gpu --jobs $(nproc) --no-minimize --work $OUT/difftest"
)
[ -x "$BUILD/test/mlir/mytriton_mlir_exec_test" ] && programs+=("mlir|$BUILD/test/mlir/mytriton_mlir_exec_test")
status=0
for tool in memcheck racecheck synccheck; do
  for entry in "${programs[@]}"; do
    name="${entry%%|*}"
    cmd="${entry#*|}"
    log="$OUT/$tool-$name.log"
    # shellcheck disable=SC2086
    compute-sanitizer --tool "$tool" --target-processes application-only --error-exitcode 99 $cmd > "$log" 2>&1
    rc=$?
    summary="$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)"
    echo "== $tool $name: exit $rc; ${summary:-no summary}"
    if [ "$rc" -ne 0 ] || ! grep -qE "(ERROR|RACECHECK) SUMMARY: 0 (errors|hazards)" "$log"; then
      status=1
      grep -E "^=========" "$log" | head -20
    fi
  done
done
echo "== compute-sanitizer: $([ $status -eq 0 ] && echo clean || echo REPORTS, see $OUT)"
exit $status
