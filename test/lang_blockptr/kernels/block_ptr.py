# Block pointers (tl.make_block_ptr, tl.advance, tl.load / tl.store with
# boundary_check and padding_option), as Triton 3.6 kernels write them:
# run by ../lang_blockptr_test.cpp (host, CUDA, MLIR), test/emu (the -O1
# and -O2 CUDA through the CPU emulation) and the oracle
# (test/oracle/manifest.d/blockptr.json, against Triton itself).
import triton
import triton.language as tl


# A ragged 2-D copy and scale: out-of-bounds elements read 0 ("zero") and
# are not written; P (the padded grid of blocks, no boundary check) shows
# the padding.
@triton.jit
def copy2d_kernel(X, Y, P, M, N, stride_xm, stride_xn, stride_ym, stride_yn, stride_pm,
                  BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_bp = tl.make_block_ptr(base=X, shape=(M, N), strides=(stride_xm, stride_xn),
                             offsets=(pid_m * BM, pid_n * BN), block_shape=(BM, BN),
                             order=(1, 0))
    y_bp = tl.make_block_ptr(base=Y, shape=(M, N), strides=(stride_ym, stride_yn),
                             offsets=(pid_m * BM, pid_n * BN), block_shape=(BM, BN),
                             order=(1, 0))
    p_bp = tl.make_block_ptr(base=P, shape=(M, N), strides=(stride_pm, 1),
                             offsets=(pid_m * BM, pid_n * BN), block_shape=(BM, BN),
                             order=(1, 0))
    # (not with an eviction policy too: Triton 3.6 prints ld.global.cg with
    # L1::evict_last, which ptxas rejects)
    x = tl.load(x_bp, boundary_check=(0, 1), padding_option="zero", cache_modifier=".cg")
    tl.store(y_bp, x * 2.0 + 1.0, boundary_check=(0, 1))
    tl.store(p_bp, x)


# padding_option="nan" on the columns only, with a negative column offset:
# both bounds are checked, and every element, padding included, is stored.
@triton.jit
def pad_nan_kernel(X, P, N, stride_xm, shift, stride_pm, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_bp = tl.make_block_ptr(X, (BM * tl.num_programs(0), N), (stride_xm, 1),
                             (pid_m * BM, pid_n * BN - shift), (BM, BN), (1, 0))
    x = tl.load(x_bp, boundary_check=(1, ), padding_option="nan")
    p_bp = tl.make_block_ptr(P, (BM * tl.num_programs(0), BN * tl.num_programs(1)),
                             (stride_pm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(p_bp, x)


# 1-D block pointers over a ragged vector (the stride a literal 1).
@triton.jit
def scale1d_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = (tl.program_id(0) * BLOCK, )
    x = tl.load(tl.make_block_ptr(X, (n, ), (1, ), offs, (BLOCK, ), (0, )), boundary_check=(0, ),
                padding_option="zero")
    y_bp = tl.make_block_ptr(Y, (n, ), (1, ), offs, (BLOCK, ), (0, ))
    tl.store(y_bp, x * 3.0 - 1.0, boundary_check=(0, ))


# A store of a runtime scalar (broadcast to the block) with a boundary check.
@triton.jit
def fill_kernel(Y, M, N, stride_ym, value, BM: tl.constexpr, BN: tl.constexpr):
    y_bp = tl.make_block_ptr(Y, (M, N), (stride_ym, 1),
                             (tl.program_id(0) * BM, tl.program_id(1) * BN), (BM, BN), (1, 0))
    tl.store(y_bp, value, boundary_check=(0, 1))


# Triton's block-pointer matmul: a runtime-K loop advancing two block
# pointers, zero padding of the ragged edges (M, N and K).
@triton.jit
def matmul_kernel(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                  stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_ptr = tl.make_block_ptr(base=A, shape=(M, K), strides=(stride_am, stride_ak),
                              offsets=(pid_m * BM, 0), block_shape=(BM, BK), order=(1, 0))
    b_ptr = tl.make_block_ptr(base=B, shape=(K, N), strides=(stride_bk, stride_bn),
                              offsets=(0, pid_n * BN), block_shape=(BK, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_ptr, boundary_check=(0, 1), padding_option="zero")
        acc += tl.dot(a, b)
        a_ptr = tl.advance(a_ptr, (0, BK))
        b_ptr = tl.advance(b_ptr, (BK, 0))
    c_ptr = tl.make_block_ptr(base=C, shape=(M, N), strides=(stride_cm, stride_cn),
                              offsets=(pid_m * BM, pid_n * BN), block_shape=(BM, BN),
                              order=(1, 0))
    tl.store(c_ptr, acc, boundary_check=(0, 1))


# A while loop carrying a block pointer (int32 elements) across the
# columns; the row sums stored through a 1-D block pointer.
@triton.jit
def while_rowsum_kernel(X, S, M, N, stride_xm, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    p = tl.make_block_ptr(X, (M, N), (stride_xm, 1), (pid * BM, 0), (BM, BN), (1, 0))
    acc = tl.zeros((BM, ), dtype=tl.int32)
    col = 0
    while col < N:
        x = tl.load(p, boundary_check=(0, 1), padding_option="zero")
        acc += tl.sum(x, axis=1)
        p = tl.advance(p, (0, BN))
        col += BN
    s = tl.make_block_ptr(S, shape=(M, ), strides=(1, ), offsets=(pid * BM, ), block_shape=(BM, ),
                          order=(0, ))
    tl.store(s, acc, boundary_check=(0, ))


@triton.jit
def tile_ptr(base, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    return tl.make_block_ptr(base, (M, N), (stride_m, 1),
                             (tl.program_id(0) * BM, tl.program_id(1) * BN), (BM, BN), (1, 0))


@triton.jit
def load_tile(p):
    return tl.load(p, boundary_check=(0, 1), padding_option="zero")


@triton.jit
def next_column(p):
    return p.advance((0, 1))


# Block pointers made, advanced (the method form) and loaded in helper
# functions: each element plus its right neighbour (0 past the last column).
@triton.jit
def helper_kernel(X, Y, M, N, stride_xm, stride_ym, BM: tl.constexpr, BN: tl.constexpr):
    p = tile_ptr(X, M, N, stride_xm, BM, BN)
    q = tile_ptr(Y, M, N, stride_ym, BM, BN)
    y = load_tile(p) + load_tile(next_column(p))
    tl.store(q, y, boundary_check=(0, 1))


# A (R, C) view of X with runtime strides (a transposed view when the
# strides say so), in either order; written to Y row-major.
@triton.jit
def view_kernel(X, Y, R, C, stride_xr, stride_xc, stride_yr, BR: tl.constexpr,
                BC: tl.constexpr, COL_MAJOR: tl.constexpr):
    offs = (tl.program_id(0) * BR, tl.program_id(1) * BC)
    if COL_MAJOR:
        x_bp = tl.make_block_ptr(X, (R, C), (stride_xr, stride_xc), offs, (BR, BC), (0, 1))
    else:
        x_bp = tl.make_block_ptr(X, (R, C), (stride_xr, stride_xc), offs, (BR, BC), (1, 0))
    y_bp = tl.make_block_ptr(Y, (R, C), (stride_yr, 1), offs, (BR, BC), (1, 0))
    tl.store(y_bp, tl.load(x_bp, boundary_check=(0, 1)), boundary_check=(0, 1))


# A runtime if that advances a block pointer in one branch only, and makes
# another in both (Y has 2 * BM rows: flip writes the second half).
@triton.jit
def if_kernel(X, Y, N, stride_xm, flip, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(X, (BM, N), (stride_xm, 1), (0, 0), (BM, BN), (1, 0))
    if flip != 0:
        p = tl.advance(p, (0, BN))
        q = tl.make_block_ptr(Y, (2 * BM, BN), (BN, 1), (BM, 0), (BM, BN), (1, 0))
    else:
        q = tl.make_block_ptr(Y, (2 * BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    x = tl.load(p, boundary_check=(1, ), padding_option="zero")
    tl.store(q, x)


# The same with both block pointers made before the if and advanced in one
# branch: the form Triton 3.6 compiles (its RewriteTensorPointer pass
# asserts on if_kernel's, a block pointer made in a branch).
@triton.jit
def if_advance_kernel(X, Y, N, stride_xm, flip, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(X, (BM, N), (stride_xm, 1), (0, 0), (BM, BN), (1, 0))
    q = tl.make_block_ptr(Y, (2 * BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    if flip != 0:
        p = tl.advance(p, (0, BN))
        q = q.advance((BM, 0))
    x = tl.load(p, boundary_check=(1, ), padding_option="zero")
    tl.store(q, x)


# A block pointer of rank 3 (strides computed in the kernel), checked on
# all three dimensions.
@triton.jit
def copy3d_kernel(X, Y, A, B, C, BA: tl.constexpr, BB: tl.constexpr, BC: tl.constexpr):
    offs = (tl.program_id(0) * BA, tl.program_id(1) * BB, tl.program_id(2) * BC)
    x_bp = tl.make_block_ptr(X, (A, B, C), (B * C, C, 1), offs, (BA, BB, BC), (2, 1, 0))
    y_bp = tl.make_block_ptr(Y, (A, B, C), (B * C, C, 1), offs, (BA, BB, BC), (2, 1, 0))
    x = tl.load(x_bp, boundary_check=(0, 1, 2), padding_option="zero")
    tl.store(y_bp, x - 3.0, boundary_check=(2, 0, 1))


# Tensor descriptors (tl.make_tensor_descriptor): Triton's documented
# example, in place: X = |X| on a ragged (M, N), every dimension checked.
@triton.jit
def desc_abs_kernel(X, M, N, BM: tl.constexpr, BN: tl.constexpr):
    desc = tl.make_tensor_descriptor(X, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    moffset = tl.program_id(0) * BM
    noffset = tl.program_id(1) * BN
    value = desc.load([moffset, noffset])
    desc.store([moffset, noffset], tl.abs(value))


# A K loop over descriptors: C = A B (f32), the offsets of each load given
# by the loop, C written through a third descriptor (its value converted
# to C's element type by the store, as Triton's).
@triton.jit
def desc_matmul_kernel(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(A, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(B, [K, N], [N, 1], [BK, BN])
    c_desc = tl.make_tensor_descriptor(C, [M, N], [N, 1], [BM, BN])
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([off_m, k])
        b = tl.load_tensor_descriptor(b_desc, [k, off_n])
        acc += tl.dot(a, b)
    c_desc.store([off_m, off_n], acc.to(tl.float16))


# NaN padding on a rank-3 descriptor read at a negative offset: the whole
# block, padding included, stored densely through a pointer block.
@triton.jit
def desc_nan_kernel(X, Y, A, B, C, BA: tl.constexpr, BB: tl.constexpr, BC: tl.constexpr):
    desc = tl.make_tensor_descriptor(X, (A, B, C), (B * C, C, 1), (BA, BB, BC),
                                     padding_option="nan")
    x = desc.load([tl.program_id(0) * BA - 1, 0, 2])
    a = tl.arange(0, BA)[:, None, None]
    b = tl.arange(0, BB)[None, :, None]
    c = tl.arange(0, BC)[None, None, :]
    base = tl.program_id(0) * BA * BB * BC
    tl.store(Y + base + a * BB * BC + b * BC + c, x)


# Descriptor atomics (TMA reductions in Triton): two programs per block,
# Y += X twice (f32 add) and Z = max(Z, 3 X) (i32), in bounds only.
@triton.jit
def desc_atomic_kernel(X, Y, Z, M, N, BM: tl.constexpr, BN: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(X, [M, N], [N, 1], [BM, BN])
    y_desc = tl.make_tensor_descriptor(Y, [M, N], [N, 1], [BM, BN])
    z_desc = tl.make_tensor_descriptor(Z, [M, N], [N, 1], [BM, BN])
    off = [tl.program_id(0) * BM, tl.program_id(1) * BN]
    x = x_desc.load(off)
    y_desc.atomic_add(off, x)
    z_desc.atomic_max(off, (x * 3.0).to(tl.int32))
