# The kernels of kernels/rank.py that the tests run (lang_rank on the host,
# CUDA and MLIR backends; test/emu through the CPU emulation of CUDA):
# case|kernel|signature|constexprs|grid
set(MYTRITON_RANK_CASES
  "copy3|copy3_kernel|*fp32, *fp32|A=2 B=4 C=8|1"
  "masked3|masked3_kernel|*fp32, *fp32, i32, i32, i32|A=4 B=4 C=8|1"
  "reduce3|reduce3_kernel|*fp32, *fp32, *fp32, *fp32, *fp32, *i32, *fp32|A=2 B=4 C=8|1"
  "softmax3|softmax3_kernel|*fp32, *fp32|A=2 B=4 C=8|1"
  "perm3|perm3_kernel|*fp32, *fp32, *fp32|A=2 B=4 C=8|1"
  "group|group_kernel|*fp32, *fp32, *fp32|M=4 N=32 G=8|1"
  "bcast3|bcast3_kernel|*fp32, *fp32, *fp32, *fp32|A=2 B=4 C=8|1"
  "scan3|scan3_kernel|*i32, *i32, *i32|A=2 B=4 C=8|1"
  "join3|join3_kernel|*fp32, *fp32, *fp32, *fp32|R=4 C=8|1"
  "loop3|loop3_kernel|*fp32, *fp32, i32|A=2 B=4 C=8|1"
  "reduce_fn3|reduce_fn3_kernel|*fp32, *fp32, *fp32|A=2 B=4 C=8|1"
  "atomic3|atomic3_kernel|*i32, *i32|A=4 B=4 C=8|1"
  "flip_sort3|flip_sort3_kernel|*fp32, *fp32, *fp32|A=2 B=4 C=8|1"
  "rank4|rank4_kernel|*fp32, *fp32, *fp32|A=2 B=2 C=4 D=8|1"
  "bmm|bmm_kernel|*fp32, *fp32, *fp32|BS=2 M=16 N=16 K=16|1"
  "bmm_acc|bmm_acc_kernel|*fp16, *fp16, *fp16|BS=2 M=16 N=16 K=16|2")
