# The kernels of kernels/block_ptr.py that the tests run (lang_blockptr on
# the host, CUDA and MLIR backends; test/emu through the CPU emulation of
# CUDA): case|kernel|signature|constexprs|grid
set(MYTRITON_BP_CASES
  "copy2d|copy2d_kernel|*fp32, *fp32, *fp32, i32, i32, i32, i32, i32, i32, i32|BM=16 BN=32|cdiv(M, BM), cdiv(N, BN)"
  "copy2d_s1|copy2d_kernel|*fp32, *fp32, *fp32, i32, i32, i32, i32:1, i32, i32:1, i32|BM=16 BN=32|cdiv(M, BM), cdiv(N, BN)"
  "pad_nan|pad_nan_kernel|*fp32, *fp32, i32, i32, i32, i32|BM=16 BN=32|2, 3"
  "scale1d|scale1d_kernel|*fp32, *fp32, i32|BLOCK=128|cdiv(n, BLOCK)"
  "fill|fill_kernel|*fp32, i32, i32, i32, fp32|BM=16 BN=16|cdiv(M, BM), cdiv(N, BN)"
  "matmul|matmul_kernel|*fp32, *fp32, *fp32, i32, i32, i32, i32, i32, i32, i32, i32, i32|BM=16 BN=16 BK=16|cdiv(M, BM), cdiv(N, BN)"
  "matmul32|matmul_kernel|*fp32, *fp32, *fp32, i32, i32, i32, i32, i32, i32, i32, i32, i32|BM=32 BN=32 BK=32|cdiv(M, BM), cdiv(N, BN)"
  "while_rowsum|while_rowsum_kernel|*i32, *i32, i32, i32, i32|BM=16 BN=32|cdiv(M, BM)"
  "helper|helper_kernel|*fp32, *fp32, i32, i32, i32, i32|BM=16 BN=32|cdiv(M, BM), cdiv(N, BN)"
  "view_r|view_kernel|*fp32, *fp32, i32, i32, i32, i32, i32|BR=16 BC=16 COL_MAJOR=False|cdiv(R, BR), cdiv(C, BC)"
  "view_c|view_kernel|*fp32, *fp32, i32, i32, i32, i32, i32|BR=16 BC=16 COL_MAJOR=True|cdiv(R, BR), cdiv(C, BC)"
  "if|if_kernel|*fp32, *fp32, i32, i32, i32|BM=8 BN=32|1"
  "if_advance|if_advance_kernel|*fp32, *fp32, i32, i32, i32|BM=8 BN=32|1"
  "copy3d|copy3d_kernel|*fp32, *fp32, i32, i32, i32|BA=2 BB=4 BC=8|cdiv(A, BA), cdiv(B, BB), cdiv(C, BC)"
  "desc_abs|desc_abs_kernel|*fp32, i32, i32|BM=16 BN=32|cdiv(M, BM), cdiv(N, BN)"
  "desc_matmul|desc_matmul_kernel|*fp32, *fp32, *fp32, i32, i32, i32|BM=16 BN=16 BK=16|cdiv(M, BM), cdiv(N, BN)"
  "desc_nan|desc_nan_kernel|*fp32, *fp32, i32, i32, i32|BA=2 BB=4 BC=8|2"
  "desc_atomic|desc_atomic_kernel|*fp32, *fp32, *i32, i32, i32|BM=16 BN=32|cdiv(M, BM), cdiv(N, BN), 2")
