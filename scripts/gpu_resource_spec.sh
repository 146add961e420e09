#!/usr/bin/env bash
# Writes ctest's resource spec file for this machine's GPUs (one slot each),
# from nvidia-smi, for `ctest -j N --resource-spec-file FILE`: the GPU tests
# (RESOURCE_GROUPS gpus:1, see mytriton_add_gpu_test()) then run N at a
# time, each on a GPU of its own.
#
#   scripts/gpu_resource_spec.sh [FILE]      default FILE: gpus.json
#   SLOTS=2 scripts/gpu_resource_spec.sh     two tests per GPU at once
set -euo pipefail
out="${1:-gpus.json}"
slots="${SLOTS:-1}"
if ! command -v nvidia-smi >/dev/null 2>&1; then
  echo "gpu_resource_spec.sh: nvidia-smi not found (no NVIDIA driver here)" >&2
  exit 1
fi
mapfile -t ids < <(nvidia-smi --query-gpu=index --format=csv,noheader,nounits | tr -d ' ')
if [ "${#ids[@]}" -eq 0 ]; then
  echo "gpu_resource_spec.sh: nvidia-smi lists no GPU" >&2
  exit 1
fi
{
  printf '{\n  "version": {"major": 1, "minor": 0},\n  "local": [\n    {\n      "gpus": [\n'
  for i in "${!ids[@]}"; do
    sep=","
    [ "$i" -eq $((${#ids[@]} - 1)) ] && sep=""
    printf '        {"id": "%s", "slots": %s}%s\n' "${ids[$i]}" "$slots" "$sep"
  done
  printf '      ]\n    }\n  ]\n}\n'
} > "$out"
echo "gpu_resource_spec.sh: ${#ids[@]} GPU(s) with ${slots} slot(s) each in $out"
