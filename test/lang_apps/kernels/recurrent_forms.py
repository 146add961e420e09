# A recurrent linear-attention step in flash-linear-attention's form (our
# own code): one program per head keeps a (V, K) state in registers and,
# for each time step, corrects it by the delta rule, h += (v - h k) k^T,
# then reads o = h q. Its pointers advance by a fixed stride each step
# (the -O2 outer-product rewrite turns them into base + step * stride),
# the state update is a rank-1 product, and a reduction and a store sit in
# the same loop; the final state is stored after it.
# chunk_scale_kernel: fla's chunked forms: a compile-time loop over chunks
# whose index is converted with .to(tl.int64), block pointers stored
# through x.to(p.dtype.element_ty), libdevice.fast_expf, and a name that
# holds None through a runtime loop when a constexpr flag is off.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def delta_rule_kernel(q, k, v, o, h_out, T, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr):
    i_h = tl.program_id(0).to(tl.int64)
    offs_k = tl.arange(0, K)
    offs_v = tl.arange(0, V)
    p_q = q + i_h * K + offs_k
    p_k = k + i_h * K + offs_k
    p_v = v + i_h * V + offs_v
    p_o = o + i_h * V + offs_v
    h = tl.zeros([V, K], dtype=tl.float32)
    for _ in range(0, T):
        b_k = tl.load(p_k).to(tl.float32)
        b_v = tl.load(p_v).to(tl.float32)
        b_q = tl.load(p_q).to(tl.float32)
        b_v -= tl.sum(h * b_k[None, :], axis=1)
        h += b_k[None, :] * b_v[:, None]
        tl.store(p_o, tl.sum(h * b_q[None, :], axis=1).to(p_o.dtype.element_ty))
        p_q += H * K
        p_k += H * K
        p_v += H * V
        p_o += H * V
    p_h = h_out + i_h * K * V + offs_k[None, :] * V + offs_v[:, None]
    tl.store(p_h, h.to(p_h.dtype.element_ty))


@triton.jit
def chunk_scale_kernel(x, g, y, dg, R, T, NT: tl.constexpr, BT: tl.constexpr, USE_G: tl.constexpr):
    if USE_G:
        b_dg = tl.zeros([BT], dtype=tl.float32)
    else:
        b_dg = None
    for r in range(R):
        base = r.to(tl.int64) * T
        for i_t in range(NT):
            o_t = i_t.to(tl.int64) * BT + tl.arange(0, BT)
            b_x = tl.load(x + base + o_t, mask=o_t < T, other=0.0)
            p_y = tl.make_block_ptr(y + base, (T,), (1,), (i_t * BT,), (BT,), (0,))
            if USE_G:
                b_y = b_x * libdevice.fast_expf(tl.load(g + base + o_t, mask=o_t < T, other=0.0))
                b_dg += b_y
            else:
                b_y = b_x * 2.0
            tl.store(p_y, b_y.to(p_y.dtype.element_ty), boundary_check=(0,))
    if USE_G:
        tl.store(dg + tl.arange(0, BT), b_dg)
