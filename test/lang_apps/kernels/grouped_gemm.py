# A grouped matmul in the form of Triton's grouped GEMM tutorial: one
# launch computes C_g = A_g @ B_g for several problems of different sizes.
# The problems' matrices are passed as tables of addresses (int64), read
# with tl.load and cast to pointers with tl.pointer_type; a fixed number of
# programs walks the tiles of all problems in turn (a while loop whose
# condition combines two comparisons with `and`). Every tile is whole (the
# sizes are multiples of the blocks), as in the tutorial.
import triton
import triton.language as tl


@triton.jit
def grouped_gemm_kernel(a_table, b_table, c_table, sizes, strides, num_problems,
                        PROGRAMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                        BK: tl.constexpr):
    tile = tl.program_id(0)
    first_tile = 0
    for p in range(num_problems):
        m = tl.load(sizes + p * 3)
        n = tl.load(sizes + p * 3 + 1)
        k = tl.load(sizes + p * 3 + 2)
        tiles_n = tl.cdiv(n, BN)
        count = tl.cdiv(m, BM) * tiles_n
        while (tile >= first_tile and tile < first_tile + count):
            lda = tl.load(strides + p * 3)
            ldb = tl.load(strides + p * 3 + 1)
            ldc = tl.load(strides + p * 3 + 2)
            a = tl.load(a_table + p).to(tl.pointer_type(tl.float16))
            b = tl.load(b_table + p).to(tl.pointer_type(tl.float16))
            c = tl.load(c_table + p).to(tl.pointer_type(tl.float16))
            local = tile - first_tile
            rows = (local // tiles_n) * BM + tl.arange(0, BM)
            cols = (local % tiles_n) * BN + tl.arange(0, BN)
            ks = tl.arange(0, BK)
            a_ptrs = a + rows[:, None] * lda + ks[None, :]
            b_ptrs = b + ks[:, None] * ldb + cols[None, :]
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BK)):
                tl.multiple_of(a_ptrs, [16, 16])
                tl.multiple_of(b_ptrs, [16, 16])
                acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
                a_ptrs += BK
                b_ptrs += BK * ldb
            tl.store(c + ldc * rows[:, None] + cols[None, :], acc.to(tl.float16))
            tile += PROGRAMS
        first_tile = first_tile + count


# Pointers and integers both ways: a pointer's address (ptr.to(tl.int64)),
# an address cast back to a pointer of another element type, and a
# pointer's truth (ptr.to(tl.int1)). out[i] = x[i] * 2 read through the
# rebuilt pointer; info[0] = the address's low bits, info[1] = whether the
# pointer is nonzero.
@triton.jit
def address_kernel(x_ptr, out_ptr, info_ptr, n, BLOCK: tl.constexpr):
    addr = x_ptr.to(tl.int64)
    raw = addr.to(tl.pointer_type(tl.int32))
    back = raw.to(tl.pointer_type(tl.float32), bitcast=False)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(back + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x * 2, mask=mask)
    tl.store(info_ptr, (addr & 15).to(tl.int32))
    tl.store(info_ptr + 1, x_ptr.to(tl.int1).to(tl.int32))

