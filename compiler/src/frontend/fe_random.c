/* Random numbers: Triton's Philox generator (triton/language/random.py),
 * built from the same operations Triton writes it in, so that a seed and
 * offsets give Triton's bits on every backend:
 *   philox_impl  n_rounds of: c0' = umulhi(B, c2) ^ c1 ^ k0,
 *                c2' = umulhi(A, c0) ^ c3 ^ k1, c1' = B * c2, c3' = A * c0,
 *                k0 += KEY_A, k1 += KEY_B (32-bit or 64-bit constants);
 *   philox       seed as uint64; 32-bit counters: key (seed lo, seed hi);
 *                64-bit: (seed, 0); counters bitcast to unsigned;
 *   randint4x    philox(seed, offset, 0, 0, 0); randint: the first;
 *   uint_to_uniform_float  x as signed, where(x < 0, -x - 1, x) * scale
 *                (4.6566127342e-10 for 32 bits, 1.0842020432385337e-19
 *                for 64);
 *   rand / rand4x, randn / randn4x (Box-Muller: u1 = maximum(1e-7, u1),
 *                th = 6.283185307179586 * u2, r = sqrt(-2 * log(u1)),
 *                r * cos(th) and r * sin(th)). */
#include "frontend/fe_internal.h"

typedef struct Rng {
    Interp *I;
    SrcPos pos;
    const char *fn;
} Rng;

static Val bin(Rng *R, PyKind op, Val a, Val b) { return fe_binop(R->I, op, a, b, R->pos); }

static Val big(uint64_t bits) {
    Val v = fe_vint((int64_t)bits);
    v.u64 = bits > (uint64_t)INT64_MAX;
    return v;
}

static Val cast(Rng *R, Val v, DType dt, int bitcast) {
    Expr *e = fe_to_expr(R->I, v, R->pos, R->fn);
    if (e->type.dtype == dt) return fe_vexpr(e);
    if (!bitcast) return fe_vexpr(fe_cast_to(R->I, e, dt, R->pos));
    Attrs at = {0};
    at.dtype = dt;
    return fe_vexpr(fe_mk_op(R->I, OP_BITCAST, R->fn, R->pos, 1, e, NULL, NULL, &at));
}

static Val umulhi(Rng *R, Val a, Val b) {
    Expr *x = fe_to_expr(R->I, a, R->pos, R->fn), *y = fe_to_expr(R->I, b, R->pos, R->fn);
    return fe_vexpr(fe_binary_expr(R->I, OP_UMULHI, "tl.umulhi", x, y, R->pos, NULL));
}

static int64_t rounds(Rng *R, const Args *A, int k) {
    if (A->v[k].kind == V_NONE) return 10;
    int64_t n = fe_need_int(R->I, A->v[k], A->pos[k], "n_rounds");
    if (n < 0 || n > 64)
        fe_fail(R->I, A->pos[k], "%s: n_rounds must be between 0 and 64 (got %lld)", R->fn,
                (long long)n);
    return n;
}

/* philox(seed, c0, c1, c2, c3, n_rounds): four values. */
static void philox(Rng *R, Val seed, Val c[4], int64_t n, SrcPos seed_pos) {
    Interp *I = R->I;
    Expr *s = fe_to_expr(I, seed, seed_pos, R->fn);
    if (s->type.ptr || !dtype_is_int((DType)s->type.dtype) || s->type.dtype == DT_BOOL)
        fe_fail(I, seed_pos, "%s: the seed must be an integer (got %s)", R->fn,
                type_str(I->a, s->type));
    Expr *c0 = fe_to_expr(I, c[0], R->pos, R->fn);
    if (c0->type.ptr || !dtype_is_int((DType)c0->type.dtype) || c0->type.dtype == DT_BOOL)
        fe_fail(I, R->pos, "%s: the offsets must be integers (got %s)", R->fn,
                type_str(I->a, c0->type));
    int bits = dtype_info((DType)c0->type.dtype)->bits;
    if (bits != 32 && bits != 64)
        fe_fail(I, R->pos, "%s: the offsets must be 32- or 64-bit integers (got %s)", R->fn,
                type_str(I->a, c0->type));
    Val sv = cast(R, fe_vexpr(s), DT_U64, 0);
    DType it = bits == 32 ? DT_U32 : DT_U64;
    Val k0, k1;
    uint64_t key_a, key_b, round_a, round_b;
    if (bits == 32) {
        k1 = cast(R, bin(R, PK_BitAnd, bin(R, PK_RShift, sv, fe_vint(32)), fe_vint(0xffffffff)),
                  DT_U32, 0);
        k0 = cast(R, bin(R, PK_BitAnd, sv, fe_vint(0xffffffff)), DT_U32, 0);
        key_a = 0x9E3779B9u, key_b = 0xBB67AE85u, round_a = 0xD2511F53u, round_b = 0xCD9E8D57u;
    } else {
        k1 = fe_vexpr(fe_mk_const(I, const_int(DT_U64, 0), R->pos));
        k0 = sv;
        key_a = 0x9E3779B97F4A7C15ull, key_b = 0xBB67AE8584CAA73Bull;
        round_a = 0xD2E7470EE14C6C93ull, round_b = 0xCA5A826395121157ull;
    }
    for (int i = 0; i < 4; i++) c[i] = cast(R, c[i], it, 1);
    for (int64_t r = 0; r < n; r++) {
        Val _c0 = c[0], _c2 = c[2];
        c[0] = bin(R, PK_BitXor, bin(R, PK_BitXor, umulhi(R, big(round_b), _c2), c[1]), k0);
        c[2] = bin(R, PK_BitXor, bin(R, PK_BitXor, umulhi(R, big(round_a), _c0), c[3]), k1);
        c[1] = bin(R, PK_Mult, big(round_b), _c2);
        c[3] = bin(R, PK_Mult, big(round_a), _c0);
        k0 = bin(R, PK_Add, k0, big(key_a));
        k1 = bin(R, PK_Add, k1, big(key_b));
    }
}

static void randint4x(Rng *R, const Args *A, Val out[4]) {
    Val off = fe_vexpr(fe_to_expr(R->I, A->v[1], A->pos[1], R->fn));
    Val zero = bin(R, PK_Mult, off, fe_vint(0));
    out[0] = off, out[1] = out[2] = out[3] = zero;
    philox(R, A->v[0], out, rounds(R, A, 2), A->pos[0]);
}

static Val uniform(Rng *R, Val x) {
    Expr *e = fe_to_expr(R->I, x, R->pos, R->fn);
    DType dt = (DType)e->type.dtype;
    int wide;
    if (!e->type.ptr && (dt == DT_U32 || dt == DT_I32)) wide = 0;
    else if (!e->type.ptr && (dt == DT_U64 || dt == DT_I64)) wide = 1;
    else
        fe_fail(R->I, R->pos, "%s needs 32- or 64-bit integers (got %s)", R->fn,
                type_str(R->I->a, e->type));
    Val v = cast(R, x, wide ? DT_I64 : DT_I32, 1);
    Val neg = fe_vexpr(fe_mk_op(R->I, OP_NEG, R->fn, R->pos, 1, v.e, NULL, NULL, NULL));
    Val alt = bin(R, PK_Sub, neg, fe_vint(1));
    Expr *c = fe_compare(R->I, PK_Lt, v, fe_vint(0), R->pos).e;
    Val sel = fe_vexpr(fe_mk_op(R->I, OP_SELECT, R->fn, R->pos, 3, c,
                                fe_to_expr(R->I, alt, R->pos, R->fn), v.e, NULL));
    return bin(R, PK_Mult, sel, fe_vfloat(wide ? 1.0842020432385337e-19 : 4.6566127342e-10));
}

static Val unary(Rng *R, Op op, Val x) {
    return fe_vexpr(
        fe_mk_op(R->I, op, R->fn, R->pos, 1, fe_to_expr(R->I, x, R->pos, R->fn), NULL, NULL, NULL));
}

static void normal_pair(Rng *R, Val u1, Val u2, Val out[2]) {
    Attrs at = {0};
    at.flag = 1; /* tl.maximum's default: PropagateNan.NONE */
    u1 = fe_vexpr(fe_binary_expr(R->I, OP_MAXIMUM, "tl.maximum",
                                 fe_to_expr(R->I, fe_vfloat(1.0e-7), R->pos, R->fn),
                                 fe_to_expr(R->I, u1, R->pos, R->fn), R->pos, &at));
    Val th = bin(R, PK_Mult, fe_vfloat(6.283185307179586), u2);
    Val r = unary(R, OP_SQRT, bin(R, PK_Mult, fe_vfloat(-2.0), unary(R, OP_LOG, u1)));
    out[0] = bin(R, PK_Mult, r, unary(R, OP_COS, th));
    out[1] = bin(R, PK_Mult, r, unary(R, OP_SIN, th));
}

static Val tuple(Interp *I, const Val *v, int n) {
    Val t = {0};
    t.kind = V_TUPLE;
    t.n = n;
    t.items = ARENA_ARRAY(I->a, Val, n);
    for (int i = 0; i < n; i++) t.items[i] = v[i];
    return t;
}

Val fe_call_random(Interp *I, RandomFn which, const Args *A, const char *fn, SrcPos pos) {
    Rng R = {I, pos, fn};
    Val c[4], n[4];
    switch (which) {
    case RNG_PHILOX:
        for (int i = 0; i < 4; i++) c[i] = A->v[1 + i];
        {
            Expr *c0 = fe_to_expr(I, c[0], A->pos[1], fn);
            for (int i = 0; i < 4; i++) {
                Expr *e = fe_to_expr(I, c[i], A->pos[1 + i], fn);
                if (e->type.ptr || e->type.dtype != c0->type.dtype)
                    fe_fail(I, A->pos[1 + i], "%s: the counters must share one integer dtype", fn);
                c[i] = fe_vexpr(e);
            }
        }
        philox(&R, A->v[0], c, rounds(&R, A, 5), A->pos[0]);
        return tuple(I, c, 4);
    case RNG_RANDINT: randint4x(&R, A, c); return c[0];
    case RNG_RANDINT4X: randint4x(&R, A, c); return tuple(I, c, 4);
    case RNG_RAND: randint4x(&R, A, c); return uniform(&R, c[0]);
    case RNG_RAND4X:
        randint4x(&R, A, c);
        for (int i = 0; i < 4; i++) c[i] = uniform(&R, c[i]);
        return tuple(I, c, 4);
    case RNG_RANDN:
        randint4x(&R, A, c);
        normal_pair(&R, uniform(&R, c[0]), uniform(&R, c[1]), n);
        return n[0];
    case RNG_RANDN4X:
        randint4x(&R, A, c);
        for (int i = 0; i < 4; i++) c[i] = uniform(&R, c[i]);
        normal_pair(&R, c[0], c[1], n);
        normal_pair(&R, c[2], c[3], n + 2);
        return tuple(I, n, 4);
    case RNG_UNIFORM: return uniform(&R, A->v[0]);
    case RNG_NORMAL_PAIR:
        normal_pair(&R, fe_vexpr(fe_to_expr(I, A->v[0], A->pos[0], fn)),
                    fe_vexpr(fe_to_expr(I, A->v[1], A->pos[1], fn)), n);
        return tuple(I, n, 2);
    }
    fe_fail(I, pos, "unsupported random function");
}
