#!/usr/bin/env bash
# Regenerates the reference corpus (test/refconf): the seed-dialect kernels
# of mytriton_difftest (seeds 1..150) and kernels/handwritten.py (written by
# hand, kept), and their golden
# --emit=ssa / --emit=cuda from the reference compiler (the seed's Python
# code, github.com/pbelevich/mytriton, checked out at REF; it needs Debian's
# python3-numpy). Run by hand, never at test time:
#   test/refconf/make_corpus.sh BUILD_DIR REF
# The kernels it makes and the golden files are committed; nothing of the
# reference is.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$1"
ref="$2"
python="${PYTHON:-/usr/bin/python3}"
# everything in kernels/ but handwritten.py is generated
find "$here/kernels" -mindepth 1 ! -name handwritten.py -delete
rm -rf "$here/golden"
"$build/test/difftest/mytriton_difftest" --emit "$here/kernels" --seeds 1:150 --dialect seed
printf '%s\n' \
  $'unrolled_dot\thandwritten.py\tunrolled_dot_kernel\t*fp32, *fp32, *fp32\tK=3' \
  $'zero_left\thandwritten.py\tzero_left_kernel\t*fp32, *fp32, i32\tBLOCK=64' \
  $'full_literal\thandwritten.py\tfull_literal_kernel\t*fp32\tBLOCK=32' \
  $'loads_then_stores\thandwritten.py\tloads_then_stores_kernel\t*fp32, *fp32, *fp32\tBLOCK=128' \
  $'int_extrema\thandwritten.py\tint_extrema_kernel\t*fp32, i32\tBLOCK=256' \
  >> "$here/kernels/manifest.tsv"
# only the cases the reference compiles are kept
"$python" "$here/make_golden.py" --ref "$ref" "$here/kernels/manifest.tsv" "$here/golden" \
  --accepted "$here/accepted.txt"
awk -F'\t' 'NR==FNR { ok[$1] = 1; next } ($1 in ok) { print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 }' \
  "$here/accepted.txt" "$here/kernels/manifest.tsv" > "$here/cases.tsv"
rm "$here/accepted.txt" "$here/kernels/manifest.tsv"
echo "$(wc -l < "$here/cases.tsv") cases in $here/cases.tsv"
