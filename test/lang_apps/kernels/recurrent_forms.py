# A recurrent linear-attention step in flash-linear-attention's form (our
# own code): one program per head keeps a (V, K) state in registers and,
# for each time step, corrects it by the delta rule, h += (v - h k) k^T,
# then reads o = h q. Its pointers advance by a fixed stride each step
# (the -O2 outer-product rewrite turns them into base + step * stride),
# the state update is a rank-1 product, and a reduction and a store sit in
# the same loop; the final state is stored after it.
import triton
import triton.language as tl


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
