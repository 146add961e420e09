# tl.inline_asm_elementwise as real kernels write it: fla's softplus (a
# predicated PTX block on f32 bits in 'r' registers), a funnel shift of three
# i32 operands (one a Python int, broadcast), four u8 elements packed in a
# register (pack=4), fp16 in 'h' registers and two halves in an 'r' register
# (pack=2), an asm with side effects (is_pure=False) naming a PTX register
# of its own with '%', and an asm of two results (a tuple of dtypes). The CUDA backends only: PTX does not run on
# the host.
import triton
import triton.language as tl


@triton.jit
def softplus(x):
    # equivalent to tl.where(x > 20.0, x, tl.log(1 + tl.exp(x)))
    return tl.inline_asm_elementwise(
        asm="""
        {
        .reg .pred p;
        setp.gt.f32  p, $1, 20.;
        @p  mov.f32  $0, $1;
        @!p mul.f32            $0, $1, 1.4426950408889634;
        @!p ex2.approx.ftz.f32 $0, $0;
        @!p add.f32            $0, $0, 1.0;
        @!p lg2.approx.ftz.f32 $0, $0;
        @!p mul.f32            $0, $0, 0.6931471805599453;
        }
        """,
        constraints="=r,r",
        args=[x],
        dtype=tl.float32,
        is_pure=True,
        pack=1,
    )


@triton.jit
def asm_kernel(x_ptr, y_ptr, h_ptr, out_ptr, iout_ptr, hout_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    h = tl.load(h_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, softplus(x), mask=mask)
    # y rotated left by 5 bits
    rot = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r, r, r, r", [y, y, 5],
                                    dtype=tl.int32, is_pure=True, pack=1)
    low = tl.inline_asm_elementwise("and.b32 $0, $1, 0x0F0F0F0F;", "=r,r", [y.to(tl.uint8)],
                                    dtype=tl.uint8, is_pure=True, pack=4)
    plus = tl.inline_asm_elementwise("{ .reg .b32 %t; add.s32 %t, $1, $2; mov.b32 $0, %t; }",
                                     "=r,r,r", [y, 7], dtype=tl.int32, is_pure=False, pack=1)
    tl.store(iout_ptr + offs, rot, mask=mask)
    tl.store(iout_ptr + n + offs, low.to(tl.int32), mask=mask)
    tl.store(iout_ptr + 2 * n + offs, plus, mask=mask)
    # two results: y's low and high halves
    lo, hi = tl.inline_asm_elementwise("mov.b32 {$0, $1}, $2;", "=h,=h,r", [y],
                                       dtype=(tl.uint16, tl.uint16), is_pure=True, pack=1)
    tl.store(iout_ptr + 3 * n + offs, lo.to(tl.int32) - hi.to(tl.int32), mask=mask)
    neg = tl.inline_asm_elementwise("neg.f16 $0, $1;", "=h,h", [h], dtype=tl.float16,
                                    is_pure=True, pack=1)
    neg2 = tl.inline_asm_elementwise("neg.f16x2 $0, $1;", "=r,r", [h * 2], dtype=tl.float16,
                                     is_pure=True, pack=2)
    tl.store(hout_ptr + offs, neg, mask=mask)
    tl.store(hout_ptr + n + offs, neg2, mask=mask)


@triton.jit
def asm_many_kernel(x_ptr, y_ptr, out_ptr, iout_ptr, n, BLOCK: tl.constexpr):
    # more than three operands, as Triton allows any number (issue 51): five
    # of three dtypes (one a Python float), and four u8 operands packed four
    # to a register (pack=4)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    r = tl.inline_asm_elementwise(
        "{ .reg .f32 t; cvt.rn.f32.s32 t, $4; fma.rn.f32 $0, $1, $2, $3; "
        "fma.rn.f32 $0, t, $5, $0; }", "=f,f,f,f,r,f", [x, x, x * 0.5, y & 255, 0.25],
        dtype=tl.float32, is_pure=True, pack=1)
    b = y.to(tl.uint8)
    m = tl.inline_asm_elementwise("xor.b32 $0, $1, $2; xor.b32 $0, $0, $3; xor.b32 $0, $0, $4;",
                                  "=r,r,r,r,r", [b, b >> 1, b >> 2, (b >> 3).to(tl.uint8)],
                                  dtype=tl.uint8, is_pure=True, pack=4)
    tl.store(out_ptr + offs, r, mask=mask)
    tl.store(iout_ptr + offs, m.to(tl.int32), mask=mask)
