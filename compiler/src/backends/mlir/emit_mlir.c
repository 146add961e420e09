/* The MLIR backend (DESIGN 13, series part 7): verified SSA into a module
 * of the gpu, arith, scf, math, memref and llvm dialects that mlir-opt
 * lowers to PTX (the pipeline is in cmake/MytritonKernels.cmake).
 *
 * The execution model is the CUDA backend's: one thread per element of the
 * kernel's tile (block size = the tile's element count, at most 1024),
 * program ids from gpu.block_id, the thread's element from gpu.thread_id x
 * (tile_i = tid / C and tile_j = tid % C in rank-2 kernels). Each SSA value
 * %N is one per-thread scalar %vN:
 *
 *   - dtypes (dtypes.def): a value has the MLIR type of its dtype's compute
 *     dtype (i1, i8..i64 signless with the unsigned ops for unsigned
 *     dtypes, f32, f64; f16, bf16 and the 8-bit floats compute in f32 and
 *     are rounded to their dtype after every inexact op, as the C
 *     backends: the same bits as native arithmetic). In memory and as
 *     scalar parameters f16/bf16 are f16/bf16, bools and 8-bit floats are
 *     i8 (mlir-opt 19 lowers no f8E4M3FN/f8E5M2 arithmetic or conversion
 *     to NVVM: their conversions are arith on the bits, bit-exact with the
 *     runtime's mytriton_fp8*_from_float/_to_float);
 *   - ops (ops.def): the table's `mlir` column gives the arith/math op per
 *     dtype class; casts follow Triton (float to 8-bit integers through 16
 *     bits, rtz by stepping the nearest toward zero), bitcasts go through
 *     the element's bits, fma is llvm.intr.fma and umulhi
 *     arith.mului_extended (math.fma and math.absi have no lowering in
 *     mlir-opt 19's NVVM pipeline), math functions lower to libdevice;
 *   - pointers are !llvm.ptr kernel arguments (one PTX parameter each, the
 *     launcher's calling convention); addptr is llvm.getelementptr, loads
 *     and stores are llvm.load / llvm.store;
 *   - a masked load is an scf.if yielding the loaded value or `other`; a
 *     masked store is an scf.if around the store;
 *   - maximum/minimum propagate NaN and pick the right operand on ties, as
 *     the C backends' isnan/compare/select chain; with NaN ignored
 *     (PropagateNan.NONE) they are arith.maxnumf/minnumf (fmaxf/fminf);
 *   - a reduction stores into a workgroup buffer (a gpu.func workgroup
 *     attribution), then halves a stride in an scf.for of log2(threads)
 *     steps with a gpu.barrier after each step, as the CUDA backend's tree
 *     (same pairing, so float sums agree bit for bit; narrow float sums
 *     rounded after each step); max/min use arith.maxnumf/minnumf (NaN
 *     ignored unless all NaN) or the integer ops of the dtype's signedness;
 *   - every other reduction and every scan (axis=, keep_dims, argmax /
 *     argmin, cumsum / cumprod, tl.reduce / tl.associative_scan's element
 *     takes) is the C backends' axis path (reduce_gen.h): the operand stored
 *     once per value and block into a workgroup buffer %red_smem_N in
 *     row-major order, a gpu.barrier, then an scf.for per thread over the
 *     elements along the axis of its result element, in order;
 *   - reshape, trans, remap, join and split exchange elements through a workgroup
 *     buffer %smem_N (bools as bytes) and a gpu.barrier, as CUDA;
 *   - a runtime loop is an scf.for over i32 whose iter_args are the carried
 *     lanes (region arguments %vA, results %vR, scf.yield the yields);
 *   - tl.dot (a tile that is the bounding box of the kernel's blocks, loads
 *     and stores guarded to their own shape by %box_* predicates): the
 *     operands stored to workgroup buffers %smem_N_a / %smem_N_b, a
 *     barrier, an scf.for K loop of llvm.intr.fma (int8: arith on i32)
 *     per thread of the result, a barrier (the -O1 CUDA code's scheme).
 *
 * Constants, thread ids, per-use arange indexes and scalar parameters
 * widened to their register type are defined once at the top of the
 * function (they dominate every use). Names: %vN for SSA value N and
 * %vN_<what> / %<name>_<what> for helpers, %c<value>_<type> / %true /
 * %false for constants, %tid (i32) and %tid_index, %tile_i, %tile_j,
 * %smem_N for the workgroup buffer of reduction %N; parameters keep their
 * C names unless those could collide (then p_<name>).
 *
 * What the backend does not cover is a diagnostic naming the op, never
 * wrong code. Requires: verified SSA and its TileInfo. */
#include "launch/emit.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgen/asm.h"
#include "cgen/cgen.h"

enum { MLIR_MAX_THREADS = 1024 };

typedef struct Mlir {
    MtContext *ctx;
    Arena *a;
    const Spec *s;
    const Function *f;
    const TileInfo *tile;
    const char **pname; /* MLIR names of the parameters (with %) */
    const char **pval;  /* their register values (a scalar converted from
                            * its parameter type where the two differ) */
    const char **vname; /* by value number: its MLIR name (with %) */
    StrBuf prologue;    /* thread ids, constants, arange indexes */
    StrBuf workgroup;   /* the gpu.func workgroup attributions */
    StrBuf globals;     /* gpu.module-level declarations (device_assert's strings) */
    StrBuf *out;        /* the current body */
    PtrVec names;       /* every name defined so far (const char *) */
    int indent;
    int loop_depth;
    const Inst *user;       /* the item whose operands are being rendered */
    Layout lane_layout;     /* for loop lanes (user == NULL) */
    const Block *cur_block; /* the block being emitted */
    /* by value number: the workgroup buffer (and its memref type) that
     * holds the value's elements in row-major order for the axis path of
     * reductions and scans, and the block where it was written */
    const char **red_buf, **red_mem;
    const Block **red_blk;
    int failed;
} Mlir;

static void line(Mlir *M, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(Mlir *M, const char *fmt, ...) {
    sb_printf(M->out, "%*s", M->indent * 2, "");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(M->out, fmt, ap);
    va_end(ap);
    sb_putc(M->out, '\n');
}

/* A line of the prologue (at the top of the function body). */
static void pro(Mlir *M, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pro(Mlir *M, const char *fmt, ...) {
    sb_puts(&M->prologue, "      ");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&M->prologue, fmt, ap);
    va_end(ap);
    sb_putc(&M->prologue, '\n');
}

static int unsupported(Mlir *M, const Inst *in, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int unsupported(Mlir *M, const Inst *in, const char *fmt, ...) {
    if (M->failed) return 0;
    va_list ap;
    va_start(ap, fmt);
    const char *what = arena_vprintf(M->a, fmt, ap);
    va_end(ap);
    mt_error(M->ctx, in ? in->pos : srcpos(0, 0), "the MLIR backend does not cover %s", what);
    M->failed = 1;
    return 0;
}

/* ---- Names ---------------------------------------------------------------- */

static int name_defined(const Mlir *M, const char *name) {
    for (int i = 0; i < M->names.len; i++)
        if (strcmp(M->names.items[i], name) == 0) return 1;
    return 0;
}

static void name_define(Mlir *M, const char *name) { ptrvec_push(M->a, &M->names, (void *)name); }

/* A fresh name %<base>, or %<base>_2, %<base>_3, ... if taken. */
static const char *fresh(Mlir *M, const char *base) {
    const char *n = arena_printf(M->a, "%%%s", base);
    for (int k = 2; name_defined(M, n); k++) n = arena_printf(M->a, "%%%s_%d", base, k);
    name_define(M, n);
    return n;
}

/* Whether a parameter name could collide with a generated name. */
static int mlir_reserved(const char *n) {
    if (n[0] == 'v' && isdigit((unsigned char)n[1])) return 1;
    if (n[0] == 'c' && (isdigit((unsigned char)n[1]) || n[1] == '-' || n[1] == '.')) return 1;
    if (strncmp(n, "cnan", 4) == 0 || strncmp(n, "cinf", 4) == 0 || strncmp(n, "tid", 3) == 0 ||
        strncmp(n, "tile_", 5) == 0 || strncmp(n, "smem", 4) == 0 || strncmp(n, "box_", 4) == 0 ||
        strncmp(n, "print_", 6) == 0 || strncmp(n, "assert_", 7) == 0)
        return 1;
    return strcmp(n, "true") == 0 || strcmp(n, "false") == 0;
}

static const char **param_names(Mlir *M) {
    const Function *f = M->f;
    const char **names = ARENA_ARRAY(M->a, const char *, f->nparams + 1);
    for (int i = 0; i < f->nparams; i++) {
        const char *n = M->s->pnames[i];
        if (mlir_reserved(n)) {
            for (int k = 0;; k++) {
                const char *cand =
                    k ? arena_printf(M->a, "p%d_%s", k, n) : arena_printf(M->a, "p_%s", n);
                int clash = 0;
                for (int j = 0; j < f->nparams && !clash; j++)
                    clash = strcmp(M->s->pnames[j], cand) == 0;
                for (int j = 0; j < i && !clash; j++) clash = strcmp(names[j] + 1, cand) == 0;
                if (!clash) {
                    n = cand;
                    break;
                }
            }
        }
        names[i] = arena_printf(M->a, "%%%s", n);
        name_define(M, names[i]);
    }
    return names;
}

/* ---- Types ------------------------------------------------------------------ */

/* A value in registers has the MLIR type of its dtype's compute dtype
 * (dtypes.def): 16- and 8-bit floats are f32, rounded to their dtype after
 * every inexact op, as in the C backends. */
static const char *reg_type(DType dt) { return dtype_info(dtype_info(dt)->compute)->mlir; }

/* 8-bit floats are bytes in memory and parameters: mlir-opt 19 lowers no
 * arithmetic or conversion on f8E4M3FN / f8E5M2 to NVVM (the conversions
 * below are arith on the bits); bools are bytes, as in C. */
static int is_half(DType dt) { return dtype_is_float(dt) && dtype_info(dt)->bits == 16; }

/* The MLIR type of an element in memory and of a scalar parameter. */
static const char *mem_type(DType dt) {
    if (dt == DT_BOOL || dtype_is_fp8(dt)) return "i8";
    return dtype_info(dt)->mlir;
}

/* The per-thread type of a value of type t. */
static const char *mtype(Type t) { return t.ptr ? "!llvm.ptr" : reg_type((DType)t.dtype); }

/* The column of ops.def's `mlir` field for a dtype: 0 floats, 1 signed
 * integers, 2 unsigned integers and bools. */
static int mlir_column(DType dt) {
    if (dtype_is_float(dt)) return 0;
    return dtype_info(dt)->cls == DC_SINT ? 1 : 2;
}

/* The MLIR op of `op` for dtype dt from ops.def ("float|signed|unsigned"),
 * NULL where the table has "-". */
static const char *mlir_op(Arena *a, Op op, DType dt) {
    const char *p = op_info(op)->mlir;
    for (int k = mlir_column(dt); k > 0; k--) {
        p = strchr(p, '|');
        MT_ASSERT(p);
        p++;
    }
    size_t n = strcspn(p, "|");
    if (n == 1 && *p == '-') return NULL;
    char *s = arena_alloc(a, n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

/* ---- Constants ------------------------------------------------------------------ */

/* Digits of a float literal as MLIR reads it: a '.' before any exponent;
 * sets *name to a name fragment (no '+'). */
static const char *float_digits(Arena *a, const char *buf, const char **name) {
    StrBuf sb;
    sb_init(&sb, a);
    const char *e = strchr(buf, 'e');
    if (!strchr(buf, '.')) {
        sb_putn(&sb, buf, e ? (size_t)(e - buf) : strlen(buf));
        sb_puts(&sb, ".0");
        if (e) sb_puts(&sb, e);
    } else {
        sb_puts(&sb, buf);
    }
    const char *lit = sb_str(&sb);
    StrBuf nm;
    sb_init(&nm, a);
    for (const char *q = lit; *q; q++)
        if (*q != '+') sb_putc(&nm, *q);
    *name = sb_str(&nm);
    return lit;
}

/* The f32 that C reads from the CUDA backend's literal (the Python repr
 * with an f suffix), as an MLIR float literal that mlir-opt reads back to
 * the same f32 (through a double). Sets *name to a name fragment. */
static const char *f32_literal(Arena *a, double v, const char **name) {
    char repr[32];
    float fl;
    if (isnan(v)) {
        *name = "nan";
        return "0x7FC00000";
    }
    py_float_repr(v, repr);
    fl = isinf(v) ? (float)v : strtof(repr, NULL);
    if (isinf(fl)) {
        *name = fl > 0 ? "inf" : "-inf";
        return fl > 0 ? "0x7F800000" : "0xFF800000";
    }
    char buf[64];
    for (int p = 1; p <= 9; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, (double)fl);
        float back = (float)strtod(buf, NULL);
        if (back == fl && signbit(back) == signbit(fl)) break;
    }
    return float_digits(a, buf, name);
}

/* An f64 as an MLIR literal: Python's repr (the shortest digits that read
 * back), NaN and infinities as bits. */
static const char *f64_literal(Arena *a, double v, const char **name) {
    if (isnan(v)) {
        *name = "nan";
        return "0x7FF8000000000000";
    }
    if (isinf(v)) {
        *name = v > 0 ? "inf" : "-inf";
        return v > 0 ? "0x7FF0000000000000" : "0xFFF0000000000000";
    }
    char repr[32];
    py_float_repr(v, repr);
    return float_digits(a, repr, name);
}

/* A constant in its dtype's register type, defined once in the prologue:
 * %true / %false, %c<value>_<iN> (integers as their signed value of the
 * width: u8 255 is %c-1_i8), %c<digits>_f32 (also for 16- and 8-bit floats,
 * whose values f32 holds exactly), %c<digits>_f64. */
static const char *constant(Mlir *M, ConstVal c) {
    const char *name = "", *def = "";
    const DTypeInfo *info = dtype_info(c.dt);
    switch (info->cls) {
    case DC_BOOL:
        name = c.i ? "%true" : "%false";
        def = arena_printf(M->a, "%s = arith.constant %s", name, c.i ? "true" : "false");
        break;
    case DC_SINT:
    case DC_UINT: {
        int bits = info->bits;
        int64_t v = bits == 64 ? c.i : (int64_t)((uint64_t)c.i << (64 - bits)) >> (64 - bits);
        name = arena_printf(M->a, "%%c%lld_%s", (long long)v, info->mlir);
        def = arena_printf(M->a, "%s = arith.constant %lld : %s", name, (long long)v, info->mlir);
        break;
    }
    case DC_FLOAT: {
        const char *frag, *T = reg_type(c.dt);
        const char *lit =
            info->compute == DT_F64 ? f64_literal(M->a, c.f, &frag) : f32_literal(M->a, c.f, &frag);
        name = arena_printf(M->a, "%%c%s_%s", frag, T);
        def = arena_printf(M->a, "%s = arith.constant %s : %s", name, lit, T);
        break;
    }
    case DC_NONE: MT_ASSERT(!"a constant without a type"); return "";
    }
    if (!name_defined(M, name)) {
        name_define(M, name);
        pro(M, "%s", def);
    }
    return name;
}

static const char *int_const(Mlir *M, int64_t v) { return constant(M, const_i32(v)); }
static const char *const_of(Mlir *M, DType dt, int64_t v) { return constant(M, const_int(dt, v)); }
static const char *fconst(Mlir *M, DType dt, double v) { return constant(M, const_float(dt, v)); }

static const char *index_const(Mlir *M, int v) {
    const char *name = arena_printf(M->a, "%%c%d", v);
    if (!name_defined(M, name)) {
        name_define(M, name);
        pro(M, "%s = arith.constant %d : index", name, v);
    }
    return name;
}

/* ---- Thread coordinates ----------------------------------------------------------- */

static const char *tid(Mlir *M) {
    if (!name_defined(M, "%tid")) {
        name_define(M, "%tid_index");
        name_define(M, "%tid");
        pro(M, "%%tid_index = gpu.thread_id x");
        pro(M, "%%tid = arith.index_cast %%tid_index : index to i32");
    }
    return "%tid";
}

static const char *tile_coord(Mlir *M, int rows) {
    const char *name = rows ? "%tile_i" : "%tile_j";
    if (!name_defined(M, name)) {
        const char *t = tid(M);
        const char *c = int_const(M, M->tile->cols);
        name_define(M, name);
        pro(M, "%s = arith.%s %s, %s : i32", name, rows ? "divui" : "remui", t, c);
    }
    return name;
}

/* The element index of an arange for the layout a use needs: tile_i,
 * tile_j or tid plus its start (uniform: the start itself). */
static const char *arange_index(Mlir *M, const Inst *in, Layout l) {
    if (l == LAYOUT_UNIFORM) return int_const(M, in->attrs.start);
    const char *idx = l == LAYOUT_ROWS   ? tile_coord(M, 1)
                      : l == LAYOUT_COLS ? tile_coord(M, 0)
                                         : tid(M);
    if (in->attrs.start == 0) return idx;
    const char *name = arena_printf(M->a, "%%v%d_%s", in->result,
                                    l == LAYOUT_ROWS   ? "rows"
                                    : l == LAYOUT_COLS ? "cols"
                                                       : "flat");
    if (!name_defined(M, name)) {
        const char *c = int_const(M, in->attrs.start);
        name_define(M, name);
        pro(M, "%s = arith.addi %s, %s : i32", name, idx, c);
    }
    return name;
}

/* ---- Conversions -------------------------------------------------------------------- */

/* A fresh helper name %<x>_<what> for value x (a %name). */
static const char *tmp(Mlir *M, const char *x, const char *what) {
    const char *base = x[0] == '%' ? x + 1 : x;
    return fresh(M, arena_printf(M->a, "%s_%s", base, what));
}

/* The name of a conversion's result: `want` (an instruction's %vN) where
 * given, else a helper %<x>_<what>. */
static const char *result(Mlir *M, const char *want, const char *x, const char *what) {
    return want ? want : tmp(M, x, what);
}

/* The fields of an 8-bit float: exponent bits, bias, and whether it is a
 * "finite" format (fp8e4nv: no infinities, NaN only at magnitude 0x7f)
 * rather than an IEEE-like one (fp8e5: the top exponent is inf/NaN). */
static int fp8_ebits(DType dt) { return dtype_info(dt)->bits - 1 - dtype_info(dt)->mant; }
static int fp8_bias(DType dt) { return (1 << (fp8_ebits(dt) - 1)) - 1; }
static int fp8_finite(DType dt) { return fp8_ebits(dt) != 5; }
/* The largest finite value. */
static double fp8_max(DType dt) {
    int e = fp8_ebits(dt), m = dtype_info(dt)->mant, b = fp8_bias(dt);
    if (fp8_finite(dt)) return ldexp(1.0 + (double)((1 << m) - 2) / (1 << m), (1 << e) - 1 - b);
    return ldexp(2.0 - ldexp(1.0, -m), (1 << e) - 2 - b);
}

/* An 8-bit float's byte (i8) as the f32 of its value (exact). Its bits
 * placed in an f16 are the value scaled by 2^(bias - 15): the f16 read
 * back and rescaled; the finite format's NaN is its own pattern. */
static const char *fp8_decode(Mlir *M, const char *b, DType dt, const char *want) {
    int m = dtype_info(dt)->mant;
    const char *mag = tmp(M, b, "mag"), *sgn = tmp(M, b, "sign");
    const char *mag16 = tmp(M, b, "mag16"), *sgn16 = tmp(M, b, "sign16");
    const char *magsh = tmp(M, b, "mag_bits"), *sgnsh = tmp(M, b, "sign_bits");
    const char *bits = tmp(M, b, "f16bits"), *h = tmp(M, b, "f16");
    const char *f = fp8_bias(dt) == 15 ? result(M, want, b, "f32") : tmp(M, b, "f32");
    line(M, "%s = arith.andi %s, %s : i8", mag, b, const_of(M, DT_I8, 0x7f));
    line(M, "%s = arith.andi %s, %s : i8", sgn, b, const_of(M, DT_I8, -128));
    line(M, "%s = arith.extui %s : i8 to i16", mag16, mag);
    line(M, "%s = arith.extui %s : i8 to i16", sgn16, sgn);
    line(M, "%s = arith.shli %s, %s : i16", magsh, mag16, const_of(M, DT_I16, 10 - m));
    line(M, "%s = arith.shli %s, %s : i16", sgnsh, sgn16, const_of(M, DT_I16, 8));
    line(M, "%s = arith.ori %s, %s : i16", bits, sgnsh, magsh);
    line(M, "%s = arith.bitcast %s : i16 to f16", h, bits);
    line(M, "%s = arith.extf %s : f16 to f32", f, h);
    if (fp8_bias(dt) == 15) return f;
    /* the NaN keeps its sign, as the runtime's conversion */
    const char *scaled = tmp(M, b, "scaled"), *nan = tmp(M, b, "is_nan"),
               *sgn32 = tmp(M, b, "sign32");
    const char *nsh = tmp(M, b, "nan_sign"), *nbits = tmp(M, b, "nan_bits"),
               *nanf = tmp(M, b, "nan");
    const char *r = result(M, want, b, "value");
    line(M, "%s = arith.mulf %s, %s : f32", scaled, f,
         fconst(M, DT_F32, ldexp(1.0, 15 - fp8_bias(dt))));
    line(M, "%s = arith.cmpi eq, %s, %s : i8", nan, mag, const_of(M, DT_I8, 0x7f));
    line(M, "%s = arith.extui %s : i8 to i32", sgn32, sgn);
    line(M, "%s = arith.shli %s, %s : i32", nsh, sgn32, int_const(M, 24));
    line(M, "%s = arith.ori %s, %s : i32", nbits, nsh, int_const(M, 0x7fc00000));
    line(M, "%s = arith.bitcast %s : i32 to f32", nanf, nbits);
    line(M, "%s = arith.select %s, %s, %s : f32", r, nan, nanf, scaled);
    return r;
}

/* An f32 as an 8-bit float's byte, as the GPU's cvt.rn.satfinite: round
 * to nearest even, beyond the largest finite value (infinities too) the
 * largest finite value, NaN 0x7f with its sign (the runtime's conversion
 * and CUDA's __nv_cvt_float_to_fp8). Normal results round the f32's bits;
 * subnormal ones are the value in units of the smallest subnormal, rounded
 * to an integer by adding and subtracting 2^23. */
static const char *fp8_encode(Mlir *M, const char *x, DType dt) {
    int m = dtype_info(dt)->mant, b = fp8_bias(dt), drop = 23 - m;
    const char *bits = tmp(M, x, "bits"), *sgn = tmp(M, x, "sign"), *sgn8 = tmp(M, x, "sign8");
    const char *sgnb = tmp(M, x, "sign_bit"), *abits = tmp(M, x, "abs_bits"),
               *ab = tmp(M, x, "abs");
    const char *c = tmp(M, x, "sat"), *cb = tmp(M, x, "sat_bits");
    line(M, "%s = arith.bitcast %s : f32 to i32", bits, x);
    line(M, "%s = arith.shrui %s, %s : i32", sgn, bits, int_const(M, 31));
    line(M, "%s = arith.trunci %s : i32 to i8", sgn8, sgn);
    line(M, "%s = arith.shli %s, %s : i8", sgnb, sgn8, const_of(M, DT_I8, 7));
    line(M, "%s = arith.andi %s, %s : i32", abits, bits, int_const(M, 0x7fffffff));
    line(M, "%s = arith.bitcast %s : i32 to f32", ab, abits);
    line(M, "%s = arith.minnumf %s, %s : f32", c, ab, fconst(M, DT_F32, fp8_max(dt)));
    line(M, "%s = arith.bitcast %s : f32 to i32", cb, c);
    /* normal: the bits rounded to m mantissa bits, the exponent rebiased */
    const char *lsb = tmp(M, x, "lsb"), *odd = tmp(M, x, "odd"), *half = tmp(M, x, "half"),
               *up = tmp(M, x, "up");
    const char *sh = tmp(M, x, "shifted"), *nb = tmp(M, x, "rebiased"), *n8 = tmp(M, x, "normal");
    line(M, "%s = arith.shrui %s, %s : i32", lsb, cb, int_const(M, drop));
    line(M, "%s = arith.andi %s, %s : i32", odd, lsb, int_const(M, 1));
    line(M, "%s = arith.addi %s, %s : i32", half, cb, int_const(M, (1 << (drop - 1)) - 1));
    line(M, "%s = arith.addi %s, %s : i32", up, half, odd);
    line(M, "%s = arith.shrui %s, %s : i32", sh, up, int_const(M, drop));
    line(M, "%s = arith.subi %s, %s : i32", nb, sh, int_const(M, (int64_t)(127 - b) << m));
    line(M, "%s = arith.trunci %s : i32 to i8", n8, nb);
    /* subnormal: in units of 2^(1 - bias - m), rounded to an integer */
    const char *q = tmp(M, x, "units"), *qa = tmp(M, x, "units_up"),
               *qr = tmp(M, x, "units_rounded");
    const char *qi = tmp(M, x, "units_int"), *s8 = tmp(M, x, "subnormal");
    line(M, "%s = arith.mulf %s, %s : f32", q, c, fconst(M, DT_F32, ldexp(1.0, b - 1 + m)));
    line(M, "%s = arith.addf %s, %s : f32", qa, q, fconst(M, DT_F32, 8388608.0));
    line(M, "%s = arith.subf %s, %s : f32", qr, qa, fconst(M, DT_F32, 8388608.0));
    line(M, "%s = arith.fptoui %s : f32 to i32", qi, qr);
    line(M, "%s = arith.trunci %s : i32 to i8", s8, qi);
    const char *isn = tmp(M, x, "is_normal"), *code = tmp(M, x, "rounded"),
               *nan = tmp(M, x, "is_nan");
    const char *r = tmp(M, x, dtype_info(dt)->ssa);
    line(M, "%s = arith.cmpf oge, %s, %s : f32", isn, c, fconst(M, DT_F32, ldexp(1.0, 1 - b)));
    line(M, "%s = arith.select %s, %s, %s : i8", code, isn, n8, s8);
    /* NaN of either sign is 0x7f, the CUDA conversion's (and Triton's) */
    const char *signed_code = tmp(M, x, "signed");
    line(M, "%s = arith.cmpf uno, %s, %s : f32", nan, x, x);
    line(M, "%s = arith.ori %s, %s : i8", signed_code, code, sgnb);
    line(M, "%s = arith.select %s, %s, %s : i8", r, nan, const_of(M, DT_I8, 0x7f), signed_code);
    return r;
}

/* Whether `back`, x rounded to nearest (same sign), is farther from zero
 * than x: x > 0 ? back > x : back < x (false for NaN and zero). */
static const char *away(Mlir *M, const char *x, const char *back, const char *S) {
    const char *pos = tmp(M, x, "positive"), *gt = tmp(M, x, "above"), *lt = tmp(M, x, "below");
    const char *r = tmp(M, x, "away");
    line(M, "%s = arith.cmpf ogt, %s, %s : %s", pos, x,
         fconst(M, strcmp(S, "f64") == 0 ? DT_F64 : DT_F32, 0.0), S);
    line(M, "%s = arith.cmpf ogt, %s, %s : %s", gt, back, x, S);
    line(M, "%s = arith.cmpf olt, %s, %s : %s", lt, back, x, S);
    line(M, "%s = arith.select %s, %s, %s : i1", r, pos, gt, lt);
    return r;
}

/* x (a float of MLIR type S) rounded to the narrower float type T: to
 * nearest even, or toward zero (the nearest, stepped toward zero where it
 * is farther from zero than x; IT: T's bits as an integer). */
static const char *narrow(Mlir *M, const char *x, const char *S, const char *T, const char *IT,
                          int rtz, const char *want) {
    const char *y = rtz ? tmp(M, x, T) : result(M, want, x, T);
    line(M, "%s = arith.truncf %s : %s to %s", y, x, S, T);
    if (!rtz) return y;
    const char *back = tmp(M, x, "back");
    line(M, "%s = arith.extf %s : %s to %s", back, y, T, S);
    const char *gt = away(M, x, back, S), *yb = tmp(M, x, "bits"), *ym = tmp(M, x, "toward_zero");
    const char *ys = tmp(M, x, "rz_bits"), *r = result(M, want, x, arena_printf(M->a, "rz_%s", T));
    line(M, "%s = arith.bitcast %s : %s to %s", yb, y, T, IT);
    line(M, "%s = arith.subi %s, %s : %s", ym, yb,
         constant(M, const_int(strcmp(IT, "i16") == 0 ? DT_I16 : DT_I32, 1)), IT);
    line(M, "%s = arith.select %s, %s, %s : %s", ys, gt, ym, yb, IT);
    /* NaN: the canonical NaN of PTX's cvt.rz (all bits but the sign), as
     * the CUDA backends' __float2bfloat16_rz / __double2float_rz give */
    int i16 = strcmp(IT, "i16") == 0;
    const char *isn = tmp(M, x, "is_nan"), *yc = tmp(M, x, "rz_or_nan");
    line(M, "%s = arith.cmpf uno, %s, %s : %s", isn, x, x, S);
    line(M, "%s = arith.select %s, %s, %s : %s", yc, isn,
         constant(M, const_int(i16 ? DT_I16 : DT_I32, i16 ? 0x7fff : 0x7fffffff)), ys, IT);
    line(M, "%s = arith.bitcast %s : %s to %s", r, yc, IT, T);
    return r;
}

/* An f32 register value rounded to an 8-bit float (encode, with rtz the
 * code stepped toward zero where it is farther from zero), as its byte. */
static const char *fp8_round_code(Mlir *M, const char *x, DType dt, int rtz) {
    const char *code = fp8_encode(M, x, dt);
    if (!rtz) return code;
    const char *back = fp8_decode(M, code, dt, NULL);
    const char *gt = away(M, x, back, "f32");
    const char *dn = tmp(M, x, "toward_zero"),
               *r = tmp(M, x, arena_printf(M->a, "rz_%s", dtype_info(dt)->ssa));
    line(M, "%s = arith.subi %s, %s : i8", dn, code, const_of(M, DT_I8, 1));
    line(M, "%s = arith.select %s, %s, %s : i8", r, gt, dn, code);
    return r;
}

/* A register value of dtype dt (its compute type: f32 or f64) rounded to
 * dt, back in the register type; the identity for dtypes that compute in
 * themselves. */
static const char *round_to(Mlir *M, const char *x, DType dt, int rtz, const char *want) {
    DType ct = dtype_info(dt)->compute;
    if (ct == dt) return x;
    const char *S = reg_type(dt);
    if (is_half(dt)) {
        const char *T = dtype_info(dt)->mlir;
        const char *y = narrow(M, x, S, T, "i16", rtz, NULL);
        const char *r = result(M, want, y, S);
        line(M, "%s = arith.extf %s : %s to %s", r, y, T, S);
        return r;
    }
    MT_ASSERT(dtype_is_fp8(dt));
    return fp8_decode(M, fp8_round_code(M, x, dt, rtz), dt, want);
}

/* An element read from memory (mem_type) as a register value. */
static const char *to_reg(Mlir *M, const char *x, DType dt, const char *want) {
    if (dt == DT_BOOL) {
        const char *r = result(M, want, x, "bool");
        line(M, "%s = arith.cmpi ne, %s, %s : i8", r, x, const_of(M, DT_I8, 0));
        return r;
    }
    if (is_half(dt)) {
        const char *r = result(M, want, x, "f32");
        line(M, "%s = arith.extf %s : %s to f32", r, x, dtype_info(dt)->mlir);
        return r;
    }
    if (dtype_is_fp8(dt)) return fp8_decode(M, x, dt, want);
    return x;
}

/* A register value as an element in memory (mem_type): exact, the value
 * already has its dtype's precision. */
static const char *to_mem(Mlir *M, const char *x, DType dt) {
    if (dt == DT_BOOL) {
        const char *r = tmp(M, x, "byte");
        line(M, "%s = arith.extui %s : i1 to i8", r, x);
        return r;
    }
    if (is_half(dt)) {
        const char *r = tmp(M, x, dtype_info(dt)->mlir);
        line(M, "%s = arith.truncf %s : f32 to %s", r, x, dtype_info(dt)->mlir);
        return r;
    }
    if (dtype_is_fp8(dt)) return fp8_encode(M, x, dt);
    return x;
}

/* A register value of dtype `from` converted to `to` with Triton's cast
 * semantics: integers wrap or extend by the source's signedness; bools are
 * != 0; floats to integers truncate and saturate as cvt.rzi (8-bit
 * results: the 16-bit conversion, then truncation, as Triton); integers to
 * floats round once; floats round to nearest even, or toward zero with
 * rtz (fp_downcast_rounding="rtz"). */
static const char *convert(Mlir *M, const char *x, DType from, DType to, int rtz,
                           const char *want) {
    if (from == to) return x;
    const char *F = reg_type(from), *T = reg_type(to);
    const char *ssa = dtype_info(to)->ssa;
    if (to == DT_BOOL) {
        const char *r = result(M, want, x, ssa);
        if (dtype_is_float(from))
            line(M, "%s = arith.cmpf une, %s, %s : %s", r, x,
                 fconst(M, dtype_info(from)->compute, 0.0), F);
        else line(M, "%s = arith.cmpi ne, %s, %s : %s", r, x, constant(M, const_int(from, 0)), F);
        return r;
    }
    if (!dtype_is_float(from)) {
        int unsig = !dtype_is_signed(from) || from == DT_BOOL;
        if (!dtype_is_float(to)) {
            int fb = dtype_info(from)->bits, tb = dtype_info(to)->bits;
            if (fb == tb) return x;
            const char *r = result(M, want, x, ssa);
            line(M, "%s = arith.%s %s : %s to %s", r,
                 fb < tb ? (unsig ? "extui" : "extsi") : "trunci", x, F, T);
            return r;
        }
        const char *op = unsig ? "arith.uitofp" : "arith.sitofp";
        if (is_half(to)) { /* one rounding, to the 16-bit float itself */
            const char *h = tmp(M, x, dtype_info(to)->mlir), *r = result(M, want, h, T);
            line(M, "%s = %s %s : %s to %s", h, op, x, F, dtype_info(to)->mlir);
            line(M, "%s = arith.extf %s : %s to %s", r, h, dtype_info(to)->mlir, T);
            return r;
        }
        const char *r = tmp(M, x, dtype_is_fp8(to) ? T : ssa);
        line(M, "%s = %s %s : %s to %s", r, op, x, F, T);
        return round_to(M, r, to, 0, want);
    }
    if (!dtype_is_float(to)) {
        int tb = dtype_info(to)->bits;
        const char *op = dtype_is_unsigned(to) ? "arith.fptoui" : "arith.fptosi";
        if (tb == 8) {
            const char *w = tmp(M, x, dtype_is_unsigned(to) ? "u16" : "i16"),
                       *r = result(M, want, x, ssa);
            line(M, "%s = %s %s : %s to i16", w, op, x, F);
            line(M, "%s = arith.trunci %s : i16 to i8", r, w);
            return r;
        }
        const char *r = result(M, want, x, ssa);
        line(M, "%s = %s %s : %s to %s", r, op, x, F, T);
        return r;
    }
    /* float to float: F, T are f32 or f64 */
    if (strcmp(F, T) == 0) return dtype_info(to)->compute == to ? x : round_to(M, x, to, rtz, want);
    if (strcmp(T, "f64") == 0) {
        const char *r = result(M, want, x, ssa);
        line(M, "%s = arith.extf %s : f32 to f64", r, x);
        return r;
    }
    /* from f64 to a dtype computing in f32 */
    if (is_half(to)) { /* one rounding, to the 16-bit float itself */
        const char *h = narrow(M, x, "f64", dtype_info(to)->mlir, "i16", rtz, NULL),
                   *r = result(M, want, h, "f32");
        line(M, "%s = arith.extf %s : %s to f32", r, h, dtype_info(to)->mlir);
        return r;
    }
    if (to == DT_F32) return narrow(M, x, "f64", "f32", "i32", rtz, want);
    return round_to(M, narrow(M, x, "f64", "f32", "i32", rtz, NULL), to, rtz, want);
}

/* ---- Operands ---------------------------------------------------------------------- */

static const char *opd(Mlir *M, Operand o) {
    switch (o.kind) {
    case OPD_VALUE: {
        const Inst *def = M->f->defs[o.id];
        if (M->tile->rank == 2 && def && def->op == OP_ARANGE) {
            Layout l = M->lane_layout;
            if (M->user)
                for (int k = 0; k < M->user->nargs; k++)
                    if (M->user->args[k].kind == OPD_VALUE && M->user->args[k].id == o.id)
                        l = shape_use_layout(M->tile, M->f, M->user, k);
            return arange_index(M, def, l);
        }
        MT_ASSERT(M->vname[o.id]);
        return M->vname[o.id];
    }
    case OPD_PARAM: return M->pval[o.id];
    case OPD_CONST: return constant(M, o.c);
    case OPD_NONE: break;
    }
    MT_ASSERT(!"an absent operand has no value");
    return "";
}

/* An operand converted to dt: constants at compile time, values with
 * convert() into %<value>_<dtype> (%v8_f32, %n_f32). */
static const char *opd_as(Mlir *M, Operand o, DType dt) {
    if (o.kind == OPD_CONST) return constant(M, const_convert(o.c, dt));
    return convert(M, opd(M, o), (DType)operand_type(M->f, o).dtype, dt, 0, NULL);
}

/* Operand k of `in` in the dtype the op computes in (ops.def's rule). */
static const char *opd_for(Mlir *M, const Inst *in, int k) {
    return opd_as(M, in->args[k], c_operand_dtype(M->a, M->f, in, k));
}

static int is_true(Operand o) {
    return o.kind == OPD_NONE || (o.kind == OPD_CONST && o.c.dt == DT_BOOL && o.c.i);
}
static int is_false(Operand o) { return o.kind == OPD_CONST && o.c.dt == DT_BOOL && !o.c.i; }

/* The helper name base "vN_<what>". */
static const char *helper(Mlir *M, int id, const char *what) {
    return arena_printf(M->a, "v%d_%s", id, what);
}

/* ---- Instructions ------------------------------------------------------------------ */

static void emit_block(Mlir *M, const Block *b);

static const char *define(Mlir *M, int id) {
    const char *n = fresh(M, arena_printf(M->a, "v%d", id));
    M->vname[id] = n;
    return n;
}

/* The result of an inexact op on a narrow float: computed as %vN_exact,
 * rounded into %vN (the C backends' c_round). Returns the name to compute
 * into; finish() binds %vN. */
static const char *result_name(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    if (dtype_info(dt)->compute == dt) return define(M, in->result);
    return fresh(M, helper(M, in->result, "exact"));
}

static void finish(Mlir *M, const Inst *in, const char *computed) {
    DType dt = (DType)in->type.dtype;
    if (dtype_info(dt)->compute == dt) return;
    M->vname[in->result] =
        round_to(M, computed, dt, 0, fresh(M, arena_printf(M->a, "v%d", in->result)));
}

static void emit_minmax(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    int id = in->result;
    const char *a = opd_as(M, in->args[0], dt);
    const char *b = opd_as(M, in->args[1], dt);
    const char *T = reg_type(dt);
    int mx = in->op == OP_MAXIMUM;
    if (dtype_is_float(dt) && in->attrs.flag) {
        /* NaN ignored (PropagateNan.NONE): fmaxf / fminf, as Triton's maxnumf */
        line(M, "%s = arith.%s %s, %s : %s", define(M, id), mx ? "maxnumf" : "minnumf", a, b, T);
    } else if (dtype_is_float(dt)) {
        /* isnan(a) ? a : isnan(b) ? b : (a > b ? a : b), the C backends' chain */
        const char *na = fresh(M, helper(M, id, "lhs_nan"));
        const char *nb = fresh(M, helper(M, id, "rhs_nan"));
        const char *cmp = fresh(M, helper(M, id, mx ? "gt" : "lt"));
        const char *pick = fresh(M, helper(M, id, "pick"));
        const char *nanb = fresh(M, helper(M, id, "or_rhs_nan"));
        line(M, "%s = arith.cmpf uno, %s, %s : %s", na, a, a, T);
        line(M, "%s = arith.cmpf uno, %s, %s : %s", nb, b, b, T);
        line(M, "%s = arith.cmpf %s, %s, %s : %s", cmp, mx ? "ogt" : "olt", a, b, T);
        line(M, "%s = arith.select %s, %s, %s : %s", pick, cmp, a, b, T);
        line(M, "%s = arith.select %s, %s, %s : %s", nanb, nb, b, pick, T);
        line(M, "%s = arith.select %s, %s, %s : %s", define(M, id), na, a, nanb, T);
    } else {
        line(M, "%s = %s %s, %s : %s", define(M, id), mlir_op(M->a, in->op, dt), a, b, T);
    }
}

/* An elementwise op of ops.def's mlir column over operands in its
 * computation dtype (add, sub, mul, '//', '%', bitwise ops, shifts). */
static void emit_binary(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    const char *op = mlir_op(M->a, in->op, dt);
    if (!op) {
        unsupported(M, in, "'%s' on %s", op_info(in->op)->name, dtype_info(dt)->triton);
        return;
    }
    const char *a = opd_for(M, in, 0), *b = opd_for(M, in, 1);
    const char *r = result_name(M, in);
    line(M, "%s = %s %s, %s : %s", r, op, a, b, reg_type(dt));
    finish(M, in, r);
}

/* True division: floats in the result's dtype (integers divide as f32). */
static void emit_div(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    const char *a = opd_as(M, in->args[0], dt), *b = opd_as(M, in->args[1], dt);
    const char *r = result_name(M, in);
    line(M, "%s = arith.divf %s, %s : %s", r, a, b, reg_type(dt));
    finish(M, in, r);
}

/* exp, log, sqrt, ...: the math dialect's op of ops.def in the compute type,
 * which mlir-opt lowers to libdevice; a column "@__nv_X" (a function that
 * mlir-opt 19 does not lower from the math dialect) calls libdevice's
 * __nv_Xf (f32) or __nv_X (f64) itself, linked as mlir-opt's calls are. */
static void emit_math(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    const char *op = mlir_op(M->a, in->op, dt);
    if (!op) {
        unsupported(M, in, "tl.%s on %s", op_info(in->op)->name, dtype_info(dt)->triton);
        return;
    }
    /* the operands (two for pow, atan2, ...), each in the compute type */
    const char *T = reg_type(dt);
    const char *a = opd_as(M, in->args[0], dt), *types = T;
    for (int k = 1; k < in->nargs; k++) {
        a = arena_printf(M->a, "%s, %s", a, opd_as(M, in->args[k], dt));
        types = arena_printf(M->a, "%s, %s", types, T);
    }
    const char *r = result_name(M, in);
    if (op[0] == '@') {
        const char *fn = arena_printf(M->a, "%s%s", op, dt == DT_F32 ? "f" : "");
        if (!name_defined(M, fn)) {
            name_define(M, fn);
            sb_printf(&M->globals, "    llvm.func %s(%s) -> %s\n", fn, types, T);
        }
        line(M, "%s = llvm.call %s(%s) : (%s) -> %s", r, fn, a, types, T);
    } else {
        line(M, "%s = %s %s : %s", r, op, a, T);
    }
    finish(M, in, r);
}

static void emit_abs(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    const char *T = reg_type(dt);
    const char *x = opd_as(M, in->args[0], dt);
    if (dtype_is_float(dt)) {
        line(M, "%s = %s %s : %s", define(M, in->result), mlir_op(M->a, in->op, dt), x, T);
    } else if (dtype_info(dt)->cls == DC_SINT) {
        /* x < 0 ? 0 - x : x (math.absi has no lowering in mlir-opt 19's pipeline) */
        const char *neg = fresh(M, helper(M, in->result, "neg")),
                   *lt = fresh(M, helper(M, in->result, "negative"));
        const char *zero = constant(M, const_int(dt, 0));
        line(M, "%s = arith.subi %s, %s : %s", neg, zero, x, T);
        line(M, "%s = arith.cmpi slt, %s, %s : %s", lt, x, zero, T);
        line(M, "%s = arith.select %s, %s, %s : %s", define(M, in->result), lt, neg, x, T);
    } else {
        M->vname[in->result] = x; /* unsigned and bool: the operand */
    }
}

static void emit_compare(Mlir *M, const Inst *in) {
    int id = in->result;
    DType ct = c_operand_dtype(M->a, M->f, in, 0);
    const char *a = opd_as(M, in->args[0], ct);
    const char *b = opd_as(M, in->args[1], ct);
    /* C's comparisons: ordered except != (true when a NaN is involved);
     * bools compare as unsigned (True > False) */
    const char *pred = mlir_op(M->a, in->op, ct);
    if (dtype_is_float(ct))
        line(M, "%s = arith.cmpf %s, %s, %s : %s", define(M, id), pred, a, b, reg_type(ct));
    else line(M, "%s = arith.cmpi %s, %s, %s : %s", define(M, id), pred, a, b, reg_type(ct));
}

static void emit_fma(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    const char *T = reg_type(dt);
    const char *a = opd_for(M, in, 0), *b = opd_for(M, in, 1), *c = opd_for(M, in, 2);
    const char *r = result_name(M, in);
    /* llvm.intr.fma: math.fma has no lowering in mlir-opt 19's NVVM pipeline */
    line(M, "%s = llvm.intr.fma(%s, %s, %s) : (%s, %s, %s) -> %s", r, a, b, c, T, T, T, T);
    finish(M, in, r);
}

static void emit_umulhi(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    const char *a = opd_for(M, in, 0), *b = opd_for(M, in, 1);
    const char *lo = fresh(M, helper(M, in->result, "low"));
    line(M, "%s, %s = arith.mului_extended %s, %s : %s", lo, define(M, in->result), a, b,
         reg_type(dt));
}

/* The bits of a register value of dtype `from` read as dtype `to`: its
 * element in memory, an arith.bitcast where the memory types differ (f16
 * and i16, f32 and u32, ...), read back as a register value. */
static void emit_bitcast(Mlir *M, const Inst *in) {
    DType from = (DType)operand_type(M->f, in->args[0]).dtype, to = (DType)in->type.dtype;
    const char *bits = to_mem(M, opd(M, in->args[0]), from);
    const char *F = mem_type(from), *T = mem_type(to);
    int same = strcmp(T, reg_type(to)) == 0; /* the element is the register value */
    if (strcmp(F, T) == 0 && same) {
        M->vname[in->result] = bits; /* i32 and u32: the same value */
        return;
    }
    const char *want = fresh(M, arena_printf(M->a, "v%d", in->result));
    if (strcmp(F, T) != 0) {
        const char *y = same ? want : fresh(M, helper(M, in->result, "bits"));
        line(M, "%s = arith.bitcast %s : %s to %s", y, bits, F, T);
        bits = y;
    }
    M->vname[in->result] = to_reg(M, bits, to, want);
}

static const char *box_guard(Mlir *M, Type t, Layout l);
static const char *and_guard(Mlir *M, const char *mask, const char *guard, int id);

static void emit_load(Mlir *M, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *T = reg_type(dt), *MT = mem_type(dt);
    const char *p = opd(M, in->args[0]);
    const char *guard = box_guard(M, in->type, M->tile->layout[id]);
    if (is_false(in->args[1])) {
        M->vname[id] = in->args[2].kind == OPD_NONE ? constant(M, const_convert(const_i32(0), dt))
                                                    : opd_as(M, in->args[2], dt);
        return;
    }
    if (is_true(in->args[1]) && !guard) {
        if (strcmp(T, MT) == 0) {
            line(M, "%s = llvm.load %s : !llvm.ptr -> %s", define(M, id), p, T);
            return;
        }
        const char *raw = fresh(M, helper(M, id, "loaded"));
        line(M, "%s = llvm.load %s : !llvm.ptr -> %s", raw, p, MT);
        M->vname[id] = to_reg(M, raw, dt, fresh(M, arena_printf(M->a, "v%d", id)));
        return;
    }
    const char *mask = and_guard(M, is_true(in->args[1]) ? NULL : opd(M, in->args[1]), guard, id);
    const char *other = in->args[2].kind == OPD_NONE ? constant(M, const_convert(const_i32(0), dt))
                                                     : opd_as(M, in->args[2], dt);
    const char *loaded = fresh(M, helper(M, id, "loaded"));
    const char *name = define(M, id);
    line(M, "%s = scf.if %s -> (%s) {", name, mask, T);
    M->indent++;
    line(M, "%s = llvm.load %s : !llvm.ptr -> %s", loaded, p, MT);
    line(M, "scf.yield %s : %s", to_reg(M, loaded, dt, NULL), T);
    M->indent--;
    line(M, "} else {");
    line(M, "  scf.yield %s : %s", other, T);
    line(M, "}");
}

static void emit_store(Mlir *M, const Inst *in) {
    if (is_false(in->args[2])) return; /* never stores */
    DType dt = (DType)operand_type(M->f, in->args[0]).dtype;
    const char *p = opd(M, in->args[0]);
    const char *v = to_mem(M, opd_as(M, in->args[1], dt), dt);
    const char *guard = NULL;
    if (M->tile->dot_box) {
        Type shape = type_scalar(DT_NONE);
        Layout l = LAYOUT_UNIFORM;
        for (int k = 0; k < in->nargs; k++) {
            Type s2, t = operand_type(M->f, in->args[k]);
            if (in->args[k].kind != OPD_NONE && shape_broadcast(shape, t, &s2)) shape = s2;
            if (in->args[k].kind == OPD_VALUE && t.rank == 1 && l == LAYOUT_UNIFORM)
                l = shape_use_layout(M->tile, M->f, in, k);
        }
        guard = box_guard(M, shape, l);
    }
    if (is_true(in->args[2]) && !guard) {
        line(M, "llvm.store %s, %s : %s, !llvm.ptr", v, p, mem_type(dt));
        return;
    }
    line(M, "scf.if %s {",
         and_guard(M, is_true(in->args[2]) ? NULL : opd(M, in->args[2]), guard, -1));
    line(M, "  llvm.store %s, %s : %s, !llvm.ptr", v, p, mem_type(dt));
    line(M, "}");
}

static void emit_addptr(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    DType ot = (DType)operand_type(M->f, in->args[1]).dtype;
    const char *p = opd(M, in->args[0]), *off = opd(M, in->args[1]);
    const char *OT = reg_type(ot);
    if (in->args[1].kind == OPD_CONST) {
        off = constant(M, const_convert(in->args[1].c, DT_I64));
        OT = "i64";
    } else if (!dtype_is_signed(ot) || ot == DT_BOOL) {
        /* getelementptr sign-extends its index: unsigned offsets widen first */
        if (dtype_info(ot)->bits < 64) {
            const char *w = tmp(M, off, "i64");
            line(M, "%s = arith.extui %s : %s to i64", w, off, OT);
            off = w;
            OT = "i64";
        }
    }
    line(M, "%s = llvm.getelementptr %s[%s] : (!llvm.ptr, %s) -> !llvm.ptr, %s",
         define(M, in->result), p, off, OT, mem_type(dt));
}

static void emit_reduce(Mlir *M, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    int n = M->tile->threads;
    if (n & (n - 1)) {
        unsupported(M, in,
                    "tl.%s in a kernel of %d threads (the reduction tree needs a power of two)",
                    op_info(in->op)->name, n);
        return;
    }
    const char *T = reg_type(dt);
    const char *mem = arena_printf(M->a, "memref<%dx%s, #gpu.address_space<workgroup>>", n, T);
    const char *buf = fresh(M, arena_printf(M->a, "smem_%d", id));
    sb_printf(&M->workgroup, "%s%s : %s", M->workgroup.len ? ", " : "", buf, mem);
    const char *x = opd_as(M, in->args[0], dt);
    tid(M);
    line(M, "memref.store %s, %s[%%tid_index] : %s", x, buf, mem);
    line(M, "gpu.barrier");
    int steps = 0;
    while ((1 << steps) < n) steps++;
    if (steps > 0) {
        /* sums add (narrow floats rounded after each step); max/min ignore NaN
         * (fmaxf / fminf) on floats */
        int fl = dtype_is_float(dt), col = mlir_column(dt);
        const char *op;
        if (in->op == OP_SUM) op = fl ? "addf" : "addi";
        else if (in->op == OP_MAX) op = fl ? "maxnumf" : col == 1 ? "maxsi" : "maxui";
        else op = fl ? "minnumf" : col == 1 ? "minsi" : "minui";
        const char *lo = int_const(M, 0), *hi = int_const(M, steps), *one = int_const(M, 1);
        const char *half = int_const(M, n / 2);
        const char *step = fresh(M, helper(M, id, "step"));
        const char *stride = fresh(M, helper(M, id, "stride"));
        const char *active = fresh(M, helper(M, id, "active"));
        const char *peer = fresh(M, helper(M, id, "peer"));
        const char *peer_index = fresh(M, helper(M, id, "peer_index"));
        const char *mine = fresh(M, helper(M, id, "mine"));
        const char *theirs = fresh(M, helper(M, id, "theirs"));
        const char *both = fresh(M, helper(M, id, "combined"));
        line(M, "scf.for %s = %s to %s step %s : i32 {", step, lo, hi, one);
        line(M, "  %s = arith.shrui %s, %s : i32", stride, half, step);
        line(M, "  %s = arith.cmpi ult, %%tid, %s : i32", active, stride);
        line(M, "  scf.if %s {", active);
        M->indent += 2;
        line(M, "%s = arith.addi %%tid, %s : i32", peer, stride);
        line(M, "%s = arith.index_cast %s : i32 to index", peer_index, peer);
        line(M, "%s = memref.load %s[%%tid_index] : %s", mine, buf, mem);
        line(M, "%s = memref.load %s[%s] : %s", theirs, buf, peer_index, mem);
        line(M, "%s = arith.%s %s, %s : %s", both, op, mine, theirs, T);
        const char *kept = in->op == OP_SUM ? round_to(M, both, dt, 0, NULL) : both;
        line(M, "memref.store %s, %s[%%tid_index] : %s", kept, buf, mem);
        M->indent -= 2;
        line(M, "  }");
        line(M, "  gpu.barrier");
        line(M, "}");
    }
    const char *zero = index_const(M, 0);
    line(M, "%s = memref.load %s[%s] : %s", define(M, id), buf, zero, mem);
    /* in a loop the buffer is written again next iteration */
    if (M->loop_depth > 0) line(M, "gpu.barrier");
}

/* Reshape, trans, join and split move elements between threads, as the
 * CUDA backend: each operand element is stored once into a workgroup
 * buffer at its row-major position in the operand's shape, a gpu.barrier,
 * then each thread loads the element its result position maps to. The
 * axis path of reductions and scans (below) reads such a buffer too. */

static const char *box_pred(Mlir *M, int rows, int cols);

/* The position (i32), row-major in t's shape, of the element of a value of
 * type t that a thread holds in layout `l`. In a tl.dot kernel's
 * bounding-box tile a smaller block occupies only the threads inside its
 * own shape: *inside is then the i1 that says this thread holds one (NULL:
 * every thread does). */
static const char *held_index(Mlir *M, Type t, Layout l, int id, const char **inside) {
    *inside = NULL;
    if (l == LAYOUT_UNIFORM) return int_const(M, 0);
    int rows = M->tile->rows, cols = M->tile->cols;
    if (M->tile->dot_box && t.rank > 0) {
        shape_extent(M->tile, t, l, &rows, &cols);
        *inside = box_pred(M, rows, cols);
    }
    switch (l) {
    case LAYOUT_UNIFORM: break;
    case LAYOUT_ROWS:
    case LAYOUT_COLS: return tile_coord(M, l == LAYOUT_ROWS);
    case LAYOUT_FLAT: return tid(M);
    case LAYOUT_TILE: {
        if (M->tile->rank < 2 || cols == M->tile->cols) return tid(M);
        const char *r = fresh(M, helper(M, id, "own_row")), *p = fresh(M, helper(M, id, "own"));
        line(M, "%s = arith.muli %s, %s : i32", r, tile_coord(M, 1), int_const(M, cols));
        line(M, "%s = arith.addi %s, %s : i32", p, r, tile_coord(M, 0));
        return p;
    }
    }
    return int_const(M, 0);
}

/* held_index, clamped to 0 in threads outside the value's own shape (they
 * compute an element nobody uses; the reads stay inside the buffers). */
static const char *result_index(Mlir *M, Type t, Layout l, int id) {
    const char *inside;
    const char *p = held_index(M, t, l, id, &inside);
    if (!inside) return p;
    const char *r = fresh(M, helper(M, id, "own_pos"));
    line(M, "%s = arith.select %s, %s, %s : i32", r, inside, p, int_const(M, 0));
    return r;
}

/* held_index, and in *guard the i1 that selects the one thread of those
 * holding the element that stores it (NULL: every thread holds a
 * different element). */
static const char *held_pos(Mlir *M, Type t, Layout l, int id, const char **guard) {
    *guard = NULL;
    const char *inside;
    const char *p = held_index(M, t, l, id, &inside);
    if (l == LAYOUT_UNIFORM || l == LAYOUT_ROWS || l == LAYOUT_COLS) {
        const char *who = l == LAYOUT_UNIFORM ? tid(M) : tile_coord(M, l == LAYOUT_COLS);
        *guard = fresh(M, helper(M, id, "first"));
        line(M, "%s = arith.cmpi eq, %s, %s : i32", *guard, who, int_const(M, 0));
    }
    if (inside && *guard) {
        const char *g = fresh(M, helper(M, id, "first_inside"));
        line(M, "%s = arith.andi %s, %s : i1", g, *guard, inside);
        *guard = g;
    } else if (inside) {
        *guard = inside;
    }
    return p;
}

/* The element type of an exchange or reduction buffer: the register type
 * (bools as bytes, as in memory). */
static const char *buf_type(DType dt) { return dt == DT_BOOL ? "i8" : reg_type(dt); }

/* A register value as a buffer element, and back. */
static const char *buf_put(Mlir *M, const char *x, DType dt) {
    return dt == DT_BOOL ? to_mem(M, x, dt) : x;
}
static const char *buf_get(Mlir *M, const char *x, DType dt, const char *want) {
    if (dt != DT_BOOL) return x;
    return to_reg(M, x, dt, want);
}

/* pos * scale + add, as an index. */
static const char *exchange_index(Mlir *M, int id, const char *pos, int scale, int add) {
    if (scale != 1) {
        const char *s = fresh(M, helper(M, id, "scaled"));
        line(M, "%s = arith.muli %s, %s : i32", s, pos, int_const(M, scale));
        pos = s;
    }
    if (add != 0) {
        const char *s = fresh(M, helper(M, id, "pos"));
        line(M, "%s = arith.addi %s, %s : i32", s, pos, int_const(M, add));
        pos = s;
    }
    const char *idx = fresh(M, helper(M, id, "index"));
    line(M, "%s = arith.index_cast %s : i32 to index", idx, pos);
    return idx;
}

static void exchange_store(Mlir *M, const Inst *in, int k, const char *buf, const char *mem,
                           int scale, int add) {
    Operand o = in->args[k];
    Type t = operand_type(M->f, o);
    Layout l = LAYOUT_UNIFORM;
    if (o.kind == OPD_VALUE && t.rank > 0 && type_numel(t) > 1) {
        const Inst *def = M->f->defs[o.id];
        l = def && def->op == OP_ARANGE ? shape_use_layout(M->tile, M->f, in, k)
                                        : M->tile->layout[o.id];
    }
    const char *x = buf_put(M, opd(M, o), (DType)t.dtype);
    const char *guard;
    const char *pos = held_pos(M, t, l, in->result, &guard);
    const char *idx = exchange_index(M, in->result, pos, scale, add);
    if (guard) {
        line(M, "scf.if %s {", guard);
        line(M, "  memref.store %s, %s[%s] : %s", x, buf, idx, mem);
        line(M, "}");
    } else {
        line(M, "memref.store %s, %s[%s] : %s", x, buf, idx, mem);
    }
}

/* tl.gather: the row-major position in operand 0 of result element p, at
 * the index operand 1 holds there (i32; out of range: 0), as cgen.c's
 * c_gather_index. */
static const char *gather_source(Mlir *M, const Inst *in, const char *p) {
    int id = in->result;
    Type x = operand_type(M->f, in->args[0]);
    DType it = (DType)operand_type(M->f, in->args[1]).dtype;
    const char *i = opd(M, in->args[1]);
    int bits = dtype_info(it)->bits;
    if (bits != 32) {
        const char *t = fresh(M, helper(M, id, "gather_i32"));
        line(M, "%s = arith.%s %s : %s to i32", t,
             bits > 32               ? "trunci"
             : dtype_is_unsigned(it) ? "extui"
                                     : "extsi",
             i, reg_type(it));
        i = t;
    }
    int ax = in->attrs.axis;
    const char *ok = fresh(M, helper(M, id, "gather_ok")),
               *c = fresh(M, helper(M, id, "gather_at"));
    if (bits > 32) { /* an i64 index in range: its truncation, compared unsigned */
        line(M, "%s = arith.cmpi ult, %s, %s : %s", ok, opd(M, in->args[1]),
             const_of(M, it, x.dims[ax]), reg_type(it));
    } else {
        line(M, "%s = arith.cmpi ult, %s, %s : i32", ok, i, int_const(M, x.dims[ax]));
    }
    line(M, "%s = arith.select %s, %s, %s : i32", c, ok, i, int_const(M, 0));
    if (x.rank == 1) return c;
    int cs = (int)x.dims[1], cr = (int)in->type.dims[1];
    /* axis 0: idx * cs + p % cr; axis 1: p / cr * cs + idx */
    const char *row = c, *col = c;
    if (ax == 0) {
        col = fresh(M, helper(M, id, "gather_col"));
        line(M, "%s = arith.remui %s, %s : i32", col, p, int_const(M, cr));
    } else {
        row = fresh(M, helper(M, id, "gather_row"));
        line(M, "%s = arith.divui %s, %s : i32", row, p, int_const(M, cr));
    }
    const char *at = fresh(M, helper(M, id, "gather_row_start")),
               *s = fresh(M, helper(M, id, "gather_src"));
    line(M, "%s = arith.muli %s, %s : i32", at, row, int_const(M, cs));
    line(M, "%s = arith.addi %s, %s : i32", s, at, col);
    return s;
}

static void emit_exchange(Mlir *M, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    Type xt = operand_type(M->f, in->args[0]);
    int n = (int)type_numel(xt) * (in->op == OP_JOIN ? 2 : 1);
    const char *T = buf_type(dt);
    const char *mem = arena_printf(M->a, "memref<%dx%s, #gpu.address_space<workgroup>>", n, T);
    const char *buf;
    if (in->op == OP_XOR_SHUFFLE) {
        /* one buffer per dtype and size for all of them, as the CUDA
         * backends': once defined, a barrier before it is written again */
        buf = arena_printf(M->a, "%%smem_shuffle_%s_%d", dtype_name(dt), n);
        if (name_defined(M, buf)) {
            line(M, "gpu.barrier");
        } else {
            name_define(M, buf);
            sb_printf(&M->workgroup, "%s%s : %s", M->workgroup.len ? ", " : "", buf, mem);
        }
    } else {
        buf = fresh(M, arena_printf(M->a, "smem_%d", id));
        sb_printf(&M->workgroup, "%s%s : %s", M->workgroup.len ? ", " : "", buf, mem);
    }
    if (in->op == OP_JOIN) {
        exchange_store(M, in, 0, buf, mem, 2, 0);
        exchange_store(M, in, 1, buf, mem, 2, 1);
    } else {
        exchange_store(M, in, 0, buf, mem, 1, 0);
    }
    line(M, "gpu.barrier");
    Layout rl = type_numel(in->type) == 1 ? LAYOUT_UNIFORM : M->tile->layout[id];
    const char *p = result_index(M, in->type, rl, id);
    const char *idx;
    if (in->op == OP_TRANS) {
        /* result (C0, R0) at p is operand (R0, C0) at (p % R0, p / R0) */
        const char *r0 = int_const(M, xt.dims[0]);
        const char *row = fresh(M, helper(M, id, "src_row")),
                   *col = fresh(M, helper(M, id, "src_col"));
        line(M, "%s = arith.remui %s, %s : i32", row, p, r0);
        line(M, "%s = arith.divui %s, %s : i32", col, p, r0);
        const char *at = fresh(M, helper(M, id, "src_row_start"));
        line(M, "%s = arith.muli %s, %s : i32", at, row, int_const(M, xt.dims[1]));
        const char *src = fresh(M, helper(M, id, "src"));
        line(M, "%s = arith.addi %s, %s : i32", src, at, col);
        idx = exchange_index(M, id, src, 1, 0);
    } else if (in->op == OP_XOR_SHUFFLE) {
        const char *src = fresh(M, helper(M, id, "src"));
        line(M, "%s = arith.xori %s, %s : i32", src, p, int_const(M, in->attrs.axis));
        idx = exchange_index(M, id, src, 1, 0);
    } else if (in->op == OP_SPLIT) {
        idx = exchange_index(M, id, p, 2, in->attrs.axis);
    } else if (in->op == OP_REMAP) {
        /* result element p, as its multi-index over dims, is operand element
         * offset + sum of index k times stride k (cgen.c c_remap_index) */
        const char *src = int_const(M, in->attrs.voff);
        long long inner = 1;
        for (int k = in->attrs.nv - 1; k >= 0; k--) {
            int d = in->attrs.vdims[k], st = in->attrs.vstride[k];
            if (d > 1 && st != 0) {
                const char *q = p;
                if (inner != 1) {
                    const char *t = fresh(M, helper(M, id, "remap_div"));
                    line(M, "%s = arith.divui %s, %s : i32", t, q, int_const(M, (int)inner));
                    q = t;
                }
                if (k > 0) {
                    const char *t = fresh(M, helper(M, id, "remap_rem"));
                    line(M, "%s = arith.remui %s, %s : i32", t, q, int_const(M, d));
                    q = t;
                }
                if (st != 1) {
                    const char *t = fresh(M, helper(M, id, "remap_mul"));
                    line(M, "%s = arith.muli %s, %s : i32", t, q, int_const(M, st));
                    q = t;
                }
                const char *t = fresh(M, helper(M, id, "remap_sum"));
                line(M, "%s = arith.addi %s, %s : i32", t, src, q);
                src = t;
            }
            inner *= d;
        }
        idx = exchange_index(M, id, src, 1, 0);
    } else if (in->op == OP_GATHER) {
        idx = exchange_index(M, id, gather_source(M, in, p), 1, 0);
    } else {
        idx = exchange_index(M, id, p, 1, 0);
    }
    if (dt == DT_BOOL) {
        const char *raw = fresh(M, helper(M, id, "byte"));
        line(M, "%s = memref.load %s[%s] : %s", raw, buf, idx, mem);
        M->vname[id] = buf_get(M, raw, dt, fresh(M, arena_printf(M->a, "v%d", id)));
    } else {
        line(M, "%s = memref.load %s[%s] : %s", define(M, id), buf, idx, mem);
    }
    /* in a loop the buffer is written again next iteration */
    if (M->loop_depth > 0) line(M, "gpu.barrier");
}

/* ---- Reductions and scans along an axis ------------------------------------------ */

/* acc combined with x by the reduction or scan `op` in the register type
 * of dt, as the C backends' red_step_default: sums and products of narrow
 * floats rounded after each step, max / min of floats ignoring NaN
 * (fmaxf / fminf), of integers by their signedness. */
static const char *red_step(Mlir *M, const Inst *in, DType dt, const char *acc, const char *x) {
    int fl = dtype_is_float(dt), col = mlir_column(dt);
    const char *op;
    switch (in->op) {
    case OP_SUM:
    case OP_CUMSUM: op = fl ? "addf" : "addi"; break;
    case OP_CUMPROD: op = fl ? "mulf" : "muli"; break;
    case OP_XOR_SUM: op = "xori"; break; /* integers only */
    case OP_MAX: op = fl ? "maxnumf" : col == 1 ? "maxsi" : "maxui"; break;
    default: op = fl ? "minnumf" : col == 1 ? "minsi" : "minui"; break;
    }
    const char *r = fresh(M, helper(M, in->result, "step"));
    line(M, "%s = arith.%s %s, %s : %s", r, op, acc, x, reg_type(dt));
    if (in->op == OP_MAX || in->op == OP_MIN) return r;
    return round_to(M, r, dt, 0, NULL);
}

/* The element of buffer `buf` at base + t * stride (i32 operands; t
 * NULL: the constant tc), as a register value. */
static const char *red_elem(Mlir *M, const Inst *in, const char *buf, const char *mem, DType dt,
                            const char *base, const char *t, int tc, int stride, const char *what) {
    int id = in->result;
    const char *zero = int_const(M, 0);
    const char *idx;
    int at_zero = strcmp(base, zero) == 0;
    if (!t && at_zero) {
        idx = index_const(M, tc * stride); /* a constant position */
    } else {
        const char *at = base;
        if (!t && tc) {
            at = fresh(M, helper(M, id, arena_printf(M->a, "%s_at", what)));
            line(M, "%s = arith.addi %s, %s : i32", at, base, int_const(M, tc * stride));
        } else if (t) {
            const char *off = t;
            if (stride != 1) {
                off = fresh(M, helper(M, id, arena_printf(M->a, "%s_off", what)));
                line(M, "%s = arith.muli %s, %s : i32", off, t, int_const(M, stride));
            }
            at = off;
            if (!at_zero) {
                at = fresh(M, helper(M, id, arena_printf(M->a, "%s_at", what)));
                line(M, "%s = arith.addi %s, %s : i32", at, base, off);
            }
        }
        idx = fresh(M, helper(M, id, arena_printf(M->a, "%s_index", what)));
        line(M, "%s = arith.index_cast %s : i32 to index", idx, at);
    }
    const char *raw = fresh(M, helper(M, id, what));
    line(M, "%s = memref.load %s[%s] : %s", raw, buf, idx, mem);
    return buf_get(M, raw, dt, NULL);
}

/* The workgroup buffer of a reduction's or scan's operand (*buf, of
 * memref type *mem), its elements stored in row-major order and a barrier
 * passed: once per value and block (several reductions of one value, such
 * as tl.reduce's elements, read the same buffer). */
static void red_buffer(Mlir *M, const Inst *in, const char **buf, const char **mem) {
    Type xt = operand_type(M->f, in->args[0]);
    int v = in->args[0].kind == OPD_VALUE ? in->args[0].id : -1;
    if (v >= 0 && M->red_buf[v] && M->red_blk[v] == M->cur_block) {
        *buf = M->red_buf[v];
        *mem = M->red_mem[v];
        return;
    }
    *mem = arena_printf(M->a, "memref<%lldx%s, #gpu.address_space<workgroup>>",
                        (long long)type_numel(xt), buf_type((DType)xt.dtype));
    *buf = fresh(M, arena_printf(M->a, "red_smem_%d", in->result));
    sb_printf(&M->workgroup, "%s%s : %s", M->workgroup.len ? ", " : "", *buf, *mem);
    if (M->loop_depth > 0) line(M, "gpu.barrier"); /* last iteration's readers */
    exchange_store(M, in, 0, *buf, *mem, 1, 0);
    line(M, "gpu.barrier");
    if (v >= 0) M->red_buf[v] = *buf, M->red_mem[v] = *mem, M->red_blk[v] = M->cur_block;
}

/* argmax / argmin over the `count` elements from `base` (every `stride`)
 * of the workgroup buffer: an scf.for carrying the best element and its
 * index. Triton's combine (standard.py, tie_break_left) folded left to
 * right: the accumulated element stays while it is >= (<=) the next, so
 * NaN (unordered) moves it, as !(acc >= x) in C. */
static void emit_arg_loop(Mlir *M, const Inst *in, const char *buf, const char *mem,
                          const char *base, int stride, int count, const char *zero,
                          const char *one) {
    int id = in->result;
    DType xdt = (DType)operand_type(M->f, in->args[0]).dtype;
    const char *T = reg_type(xdt);
    int mx = in->op == OP_ARGMAX, fl = dtype_is_float(xdt), col = mlir_column(xdt);
    const char *pred =
        fl ? (mx ? "ult" : "ugt") : (mx ? (col == 1 ? "slt" : "ult") : (col == 1 ? "sgt" : "ugt"));
    const char *x0 = red_elem(M, in, buf, mem, xdt, base, NULL, 0, stride, "first");
    const char *t = fresh(M, helper(M, id, "t")), *acc = fresh(M, helper(M, id, "acc"));
    const char *ix = fresh(M, helper(M, id, "idx"));
    const char *best = fresh(M, helper(M, id, "best"));
    line(M,
         "%s, %s = scf.for %s = %s to %s step %s iter_args(%s = %s, %s = %s) -> (%s, i32) : i32 {",
         best, define(M, id), t, one, int_const(M, count), one, acc, x0, ix, zero, T);
    M->indent++;
    const char *x = red_elem(M, in, buf, mem, xdt, base, t, 0, stride, "x");
    const char *mv = fresh(M, helper(M, id, "moves"));
    line(M, "%s = arith.%s %s, %s, %s : %s", mv, fl ? "cmpf" : "cmpi", pred, acc, x, T);
    const char *na = fresh(M, helper(M, id, "next_acc")), *ni = fresh(M, helper(M, id, "next_idx"));
    line(M, "%s = arith.select %s, %s, %s : %s", na, mv, x, acc, T);
    line(M, "%s = arith.select %s, %s, %s : i32", ni, mv, t, ix);
    line(M, "scf.yield %s, %s : %s, i32", na, ni, T);
    M->indent--;
    line(M, "}");
}

/* The generic axis path of a reduction or scan (reduce_gen.h, as the CUDA
 * backend): the operand's elements into a workgroup buffer (red_buffer),
 * then each thread combines, in order, the elements along the axis of its
 * result element (an scf.for; a reverse scan from the last element). */
static void emit_axis_reduce(Mlir *M, const Inst *in) {
    int id = in->result;
    const Function *f = M->f;
    Type xt = operand_type(f, in->args[0]);
    DType xdt = (DType)xt.dtype;
    const char *T = reg_type(xdt);
    const char *buf, *mem;
    red_buffer(M, in, &buf, &mem);
    /* the result element of this thread, as red_lines' `out` */
    Layout rl =
        in->type.rank == 0 || type_numel(in->type) == 1 ? LAYOUT_UNIFORM : M->tile->layout[id];
    const char *out = result_index(M, in->type, rl, id);
    int d0 = xt.rank == 2 ? xt.dims[0] : 1;
    int d1 = xt.rank == 2 ? xt.dims[1] : xt.rank == 1 ? xt.dims[0] : 1;
    int axis = (in->attrs.flag & RED_AXIS) ? in->attrs.axis : -1;
    if (xt.rank == 1 && axis == 0) axis = 1; /* a rank-1 block is one row */
    int scan = op_has(in->op, OPF_SCAN);
    int argx = in->op == OP_ARGMAX || in->op == OP_ARGMIN;
    const char *zero = int_const(M, 0);
    const char *base = zero, *k = NULL;
    int stride = 1, count = d0 * d1;
    if (!scan && axis < 0) {
        /* every element */
    } else if (axis == 1) {
        count = d1;
        if (scan) {
            if (d0 != 1) {
                const char *row = fresh(M, helper(M, id, "row"));
                const char *b = fresh(M, helper(M, id, "base"));
                const char *kk = fresh(M, helper(M, id, "k"));
                line(M, "%s = arith.divui %s, %s : i32", row, out, int_const(M, d1));
                line(M, "%s = arith.muli %s, %s : i32", b, row, int_const(M, d1));
                line(M, "%s = arith.remui %s, %s : i32", kk, out, int_const(M, d1));
                base = b, k = kk;
            } else {
                k = out;
            }
        } else if (d1 != 1 && rl != LAYOUT_UNIFORM) {
            const char *b = fresh(M, helper(M, id, "base"));
            line(M, "%s = arith.muli %s, %s : i32", b, out, int_const(M, d1));
            base = b;
        } else {
            base = out;
        }
    } else {
        stride = d1, count = d0;
        if (scan) {
            if (d1 != 1) {
                const char *b = fresh(M, helper(M, id, "base"));
                const char *kk = fresh(M, helper(M, id, "k"));
                line(M, "%s = arith.remui %s, %s : i32", b, out, int_const(M, d1));
                line(M, "%s = arith.divui %s, %s : i32", kk, out, int_const(M, d1));
                base = b, k = kk;
            } else {
                k = out;
            }
        } else {
            base = out;
        }
    }
    if (argx && count == 1) {
        M->vname[id] = zero;
        return;
    }
    if (in->op == OP_TAKE) {
        const char *x =
            red_elem(M, in, buf, mem, xdt, base, NULL, in->attrs.start, stride, "taken");
        M->vname[id] = x;
        return;
    }
    const char *one = int_const(M, 1);
    if (argx) {
        emit_arg_loop(M, in, buf, mem, base, stride, count, zero, one);
        return;
    }
    const char *t = fresh(M, helper(M, id, "t")), *acc = fresh(M, helper(M, id, "acc"));
    if (!scan || !(in->attrs.flag & RED_REVERSE)) {
        /* acc = x[0]; for t in 1 .. count (scans: 1 .. k): acc = acc op x[t] */
        const char *x0 = red_elem(M, in, buf, mem, xdt, base, NULL, 0, stride, "first");
        const char *hi = int_const(M, count);
        if (scan) {
            const char *h = fresh(M, helper(M, id, "end"));
            line(M, "%s = arith.addi %s, %s : i32", h, k, one);
            hi = h;
        } else if (count == 1) {
            M->vname[id] = x0;
            return;
        }
        const char *r = define(M, id);
        line(M, "%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) : i32 {", r, t, one,
             hi, one, acc, x0, T);
        M->indent++;
        const char *x = red_elem(M, in, buf, mem, xdt, base, t, 0, stride, "x");
        line(M, "scf.yield %s : %s", red_step(M, in, xdt, acc, x), T);
        M->indent--;
        line(M, "}");
        return;
    }
    /* a reverse scan: acc = x[count - 1]; for t = count - 2 down to k:
     * acc = acc op x[t] (as s in 0 .. count - 1 - k, t = count - 2 - s) */
    const char *xl = red_elem(M, in, buf, mem, xdt, base, NULL, count - 1, stride, "last");
    const char *hi = fresh(M, helper(M, id, "steps"));
    line(M, "%s = arith.subi %s, %s : i32", hi, int_const(M, count - 1), k);
    const char *r = define(M, id);
    line(M, "%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) : i32 {", r, t, zero, hi,
         one, acc, xl, T);
    M->indent++;
    const char *tt = fresh(M, helper(M, id, "rt"));
    line(M, "%s = arith.subi %s, %s : i32", tt, int_const(M, count - 2), t);
    const char *x = red_elem(M, in, buf, mem, xdt, base, tt, 0, stride, "x");
    line(M, "scf.yield %s : %s", red_step(M, in, xdt, acc, x), T);
    M->indent--;
    line(M, "}");
}

/* ---- Atomics ------------------------------------------------------------------------ */

/* LLVM's orderings and NVPTX's sync scopes of Triton's sem and scope
 * (cmpxchg's failure ordering: the strongest one allowed). */
static const char *const atomic_order[SEM_COUNT] = {"acq_rel", "acquire", "release", "monotonic"};
static const char *const atomic_fail_order[SEM_COUNT] = {"acquire", "acquire", "monotonic",
                                                         "monotonic"};
static const char *const atomic_scope[SCOPE_COUNT] = {"syncscope(\"device\") ",
                                                      "syncscope(\"block\") ", ""};

/* The atomic itself on this thread's element: the old value as a register
 * value. Floats go through their bits where LLVM wants integers (cmpxchg,
 * xchg); a float max / min is Triton's lowering (a value >= 0: a signed
 * integer max / min of the bits; < 0: an unsigned min / max; NaN: a load). */
static const char *atomic_core(Mlir *M, const Inst *in) {
    const Operand *x = in->args;
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *MT = mem_type(dt), *T = reg_type(dt);
    int bits = dtype_info(dt)->bits, fl = dtype_is_float(dt);
    const char *IT = bits == 16 ? "i16" : bits == 32 ? "i32" : "i64";
    const char *p = opd(M, x[0]);
    const char *ord = atomic_order[in->attrs.sem], *sc = atomic_scope[in->attrs.scope];
    const char *old;
    if (in->op == OP_ATOMIC_CAS) {
        const char *c = to_mem(M, opd_as(M, x[1], dt), dt), *v = to_mem(M, opd_as(M, x[2], dt), dt);
        if (fl) {
            const char *ci = fresh(M, helper(M, id, "cmp_bits"));
            const char *vi = fresh(M, helper(M, id, "val_bits"));
            line(M, "%s = arith.bitcast %s : %s to %s", ci, c, MT, IT);
            line(M, "%s = arith.bitcast %s : %s to %s", vi, v, MT, IT);
            c = ci, v = vi;
        }
        const char *pair = fresh(M, helper(M, id, "pair"));
        line(M, "%s = llvm.cmpxchg %s, %s, %s %s%s %s : !llvm.ptr, %s", pair, p, c, v, sc, ord,
             atomic_fail_order[in->attrs.sem], IT);
        old = fresh(M, helper(M, id, fl ? "old_bits" : "old"));
        line(M, "%s = llvm.extractvalue %s[0] : !llvm.struct<(%s, i1)>", old, pair, IT);
    } else {
        int rmw = in->attrs.rmw;
        const char *v = to_mem(M, opd_as(M, x[1], dt), dt);
        if (fl && (rmw == RMW_MAX || rmw == RMW_MIN || rmw == RMW_XCHG)) {
            const char *vi = fresh(M, helper(M, id, "val_bits"));
            line(M, "%s = arith.bitcast %s : %s to %s", vi, v, MT, IT);
            old = fresh(M, helper(M, id, "old_bits"));
            if (rmw == RMW_XCHG) {
                line(M, "%s = llvm.atomicrmw xchg %s, %s %s%s : !llvm.ptr, %s", old, p, vi, sc, ord,
                     IT);
            } else {
                int mx = rmw == RMW_MAX;
                const char *vr = opd_as(M, x[1], dt);
                const char *pos = fresh(M, helper(M, id, "nonneg"));
                const char *neg = fresh(M, helper(M, id, "neg"));
                const char *r1 = fresh(M, helper(M, id, "signed")),
                           *r2 = fresh(M, helper(M, id, "unsigned_or_nan")),
                           *r3 = fresh(M, helper(M, id, "unsigned")),
                           *r4 = fresh(M, helper(M, id, "current"));
                line(M, "%s = arith.cmpf oge, %s, %s : %s", pos, vr, fconst(M, dt, 0.0), T);
                line(M, "%s = arith.cmpf olt, %s, %s : %s", neg, vr, fconst(M, dt, 0.0), T);
                line(M, "%s = scf.if %s -> (%s) {", old, pos, IT);
                line(M, "  %s = llvm.atomicrmw %s %s, %s %s%s : !llvm.ptr, %s", r1,
                     mx ? "max" : "min", p, vi, sc, ord, IT);
                line(M, "  scf.yield %s : %s", r1, IT);
                line(M, "} else {");
                line(M, "  %s = scf.if %s -> (%s) {", r2, neg, IT);
                line(M, "    %s = llvm.atomicrmw %s %s, %s %s%s : !llvm.ptr, %s", r3,
                     mx ? "umin" : "umax", p, vi, sc, ord, IT);
                line(M, "    scf.yield %s : %s", r3, IT);
                line(M, "  } else {");
                line(M, "    %s = llvm.load %s : !llvm.ptr -> %s", r4, p, IT);
                line(M, "    scf.yield %s : %s", r4, IT);
                line(M, "  }");
                line(M, "  scf.yield %s : %s", r2, IT);
                line(M, "}");
            }
        } else {
            static const char *const int_ops[RMW_COUNT] = {"add", "max",  "min", "_and",
                                                           "_or", "_xor", "xchg"};
            const char *op = int_ops[rmw];
            if (fl) op = "fadd"; /* the only other float atomic */
            else if (dtype_is_unsigned(dt) && rmw == RMW_MAX) op = "umax";
            else if (dtype_is_unsigned(dt) && rmw == RMW_MIN) op = "umin";
            old = fresh(M, helper(M, id, "old"));
            line(M, "%s = llvm.atomicrmw %s %s, %s %s%s : !llvm.ptr, %s", old, op, p, v, sc, ord,
                 MT);
            return to_reg(M, old, dt, NULL);
        }
    }
    if (fl) {
        const char *f = fresh(M, helper(M, id, "old"));
        line(M, "%s = arith.bitcast %s : %s to %s", f, old, IT, MT);
        old = f;
    }
    return to_reg(M, old, dt, NULL);
}

/* The atomic under its mask (a masked-off element reads 0): its value. */
static const char *atomic_masked(Mlir *M, const Inst *in, const char *name) {
    DType dt = (DType)in->type.dtype;
    const char *T = reg_type(dt);
    const Operand mask = in->op == OP_ATOMIC_RMW ? in->args[2] : opd_none();
    const char *zero = constant(M, const_convert(const_i32(0), dt));
    if (is_false(mask)) return zero;
    if (is_true(mask)) return atomic_core(M, in);
    line(M, "%s = scf.if %s -> (%s) {", name, opd(M, mask), T);
    M->indent++;
    const char *r = atomic_core(M, in);
    line(M, "scf.yield %s : %s", r, T);
    M->indent--;
    line(M, "} else {");
    line(M, "  scf.yield %s : %s", zero, T);
    line(M, "}");
    return name;
}

/* Each element once, as the CUDA backend: where threads share an element
 * (a scalar or one-element block: all; a row or column block of a rank-2
 * tile: a row or column of threads) the first performs it and the old value
 * reaches the others through a workgroup buffer. */
static void emit_atomic(Mlir *M, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    Layout l = type_numel(in->type) == 1 ? LAYOUT_UNIFORM
               : M->tile->rank == 2      ? M->tile->layout[id]
                                         : LAYOUT_FLAT;
    if (l == LAYOUT_FLAT || l == LAYOUT_TILE) {
        M->vname[id] = atomic_masked(M, in, fresh(M, arena_printf(M->a, "v%d", id)));
        return;
    }
    int n = l == LAYOUT_UNIFORM ? 1 : l == LAYOUT_ROWS ? M->tile->rows : M->tile->cols;
    const char *T = reg_type(dt);
    const char *mem = arena_printf(M->a, "memref<%dx%s, #gpu.address_space<workgroup>>", n, T);
    const char *buf = fresh(M, arena_printf(M->a, "atomic_smem_%d", id));
    sb_printf(&M->workgroup, "%s%s : %s", M->workgroup.len ? ", " : "", buf, mem);
    const char *who = l == LAYOUT_UNIFORM ? tid(M) : tile_coord(M, l == LAYOUT_COLS);
    const char *slot = index_const(M, 0);
    if (l != LAYOUT_UNIFORM) {
        const char *c = tile_coord(M, l == LAYOUT_ROWS);
        slot = arena_printf(M->a, "%s_index", c);
        if (!name_defined(M, slot)) {
            name_define(M, slot);
            pro(M, "%s = arith.index_cast %s : i32 to index", slot, c);
        }
    }
    const char *first = fresh(M, helper(M, id, "first"));
    line(M, "%s = arith.cmpi eq, %s, %s : i32", first, who, int_const(M, 0));
    line(M, "scf.if %s {", first);
    M->indent++;
    const char *r = atomic_masked(M, in, fresh(M, helper(M, id, "performed")));
    line(M, "memref.store %s, %s[%s] : %s", r, buf, slot, mem);
    M->indent--;
    line(M, "}");
    line(M, "gpu.barrier");
    line(M, "%s = memref.load %s[%s] : %s", define(M, id), buf, slot, mem);
    /* in a loop the buffer is written again next iteration */
    if (M->loop_depth > 0) line(M, "gpu.barrier");
}

/* ---- tl.dot ------------------------------------------------------------------------- */

/* In a tl.dot kernel's bounding-box tile (shape.h dot_box): the i1 that
 * says this thread holds an element of a block of type t with layout l
 * (tile_i < rows, tile_j < cols of its own shape), defined once in the
 * prologue; NULL when every thread does. */
static const char *box_pred(Mlir *M, int rows, int cols) {
    int r = rows < M->tile->rows, c = cols < M->tile->cols;
    if (!r && !c) return NULL;
    const char *name = arena_printf(M->a, "%%box_%dx%d", r ? rows : 0, c ? cols : 0);
    if (name_defined(M, name)) return name;
    const char *ri = NULL, *ci = NULL;
    if (r) {
        ri = arena_printf(M->a, "%%box_rows_%d", rows);
        if (!name_defined(M, ri)) {
            const char *ti = tile_coord(M, 1), *n = int_const(M, rows);
            name_define(M, ri);
            pro(M, "%s = arith.cmpi ult, %s, %s : i32", ri, ti, n);
        }
    }
    if (c) {
        ci = arena_printf(M->a, "%%box_cols_%d", cols);
        if (!name_defined(M, ci)) {
            const char *tj = tile_coord(M, 0), *n = int_const(M, cols);
            name_define(M, ci);
            pro(M, "%s = arith.cmpi ult, %s, %s : i32", ci, tj, n);
        }
    }
    if (r && !c) return ri;
    if (c && !r) return ci;
    name_define(M, name);
    pro(M, "%s = arith.andi %s, %s : i1", name, ri, ci);
    return name;
}

static const char *box_guard(Mlir *M, Type t, Layout l) {
    if (!M->tile->dot_box || t.rank == 0) return NULL;
    int r, c;
    shape_extent(M->tile, t, l, &r, &c);
    return box_pred(M, r, c);
}

/* A mask (NULL: none) and'ed with a box guard (NULL: none). */
static const char *and_guard(Mlir *M, const char *mask, const char *guard, int id) {
    if (!guard) return mask;
    if (!mask) return guard;
    const char *r = fresh(M, id >= 0 ? helper(M, id, "guarded") : "store_guarded");
    line(M, "%s = arith.andi %s, %s : i1", r, guard, mask);
    return r;
}

/* An f32 as TF32: the upper 19 bits (truncation, as the tensor cores read
 * it) or cvt.rna.tf32.f32 (round to nearest, ties away: tf32x3's split);
 * NaN and infinities unchanged. */
static const char *tf32_of(Mlir *M, const char *x, int rna, int id) {
    const char *bits = fresh(M, helper(M, id, "bits")), *exp = fresh(M, helper(M, id, "exp"));
    const char *special = fresh(M, helper(M, id, "special"));
    const char *r = fresh(M, helper(M, id, "tf32bits")), *f = fresh(M, helper(M, id, "tf32"));
    const char *y = fresh(M, helper(M, id, "tf32sel"));
    line(M, "%s = arith.bitcast %s : f32 to i32", bits, x);
    line(M, "%s = arith.andi %s, %s : i32", exp, bits, int_const(M, 0x7f800000));
    line(M, "%s = arith.cmpi eq, %s, %s : i32", special, exp, int_const(M, 0x7f800000));
    if (rna) {
        const char *up = fresh(M, helper(M, id, "rna"));
        line(M, "%s = arith.addi %s, %s : i32", up, bits, int_const(M, 0x1000));
        bits = up;
    }
    line(M, "%s = arith.andi %s, %s : i32", r, bits, int_const(M, (int32_t)0xffffe000u));
    line(M, "%s = arith.bitcast %s : i32 to f32", f, r);
    line(M, "%s = arith.select %s, %s, %s : f32", y, special, x, f);
    return y;
}

/* The row of the second operand at k: k, or in the batched form base + k. */
static const char *batch_row(Mlir *M, int id, const char *base, const char *k) {
    if (!base) return k;
    const char *r = fresh(M, helper(M, id, "b_krow"));
    line(M, "%s = arith.addi %s, %s : i32", r, base, k);
    return r;
}

/* tl.dot: the CUDA backend's -O1 scheme. Each thread's elements of the
 * operands go to workgroup buffers (the threads inside each operand's
 * shape), a barrier, then each thread (i, j) of the (M, N) result runs a
 * K loop of fused multiply-adds in k order from the accumulator (int8:
 * wrapping i32 products and sums), and a barrier before the buffers are
 * written again. */
static void emit_dot(Mlir *M, const Inst *in) {
    const Function *f = M->f;
    int id = in->result;
    Type xt = operand_type(f, in->args[0]), yt = operand_type(f, in->args[1]);
    /* (batched, {batch=B}: Mr and KB are B times one batch's rows) */
    int Mr = xt.dims[0], K = xt.dims[1], N = yt.dims[1], KB = yt.dims[0];
    DType ot = (DType)in->type.dtype, it = (DType)xt.dtype;
    const char *TI = reg_type(it), *TO = reg_type(ot);
    int prec = it == DT_F32 ? in->attrs.flag : DOT_IEEE;
    const char *bufs[2];
    const char *mems[2];
    int sizes[2] = {Mr * K, KB * N}, rows[2] = {Mr, KB}, cols[2] = {K, N};
    for (int k = 0; k < 2; k++) {
        mems[k] = arena_printf(M->a, "memref<%dx%s, #gpu.address_space<workgroup>>", sizes[k], TI);
        bufs[k] = fresh(M, arena_printf(M->a, "smem_%d_%c", id, k ? 'b' : 'a'));
        sb_printf(&M->workgroup, "%s%s : %s", M->workgroup.len ? ", " : "", bufs[k], mems[k]);
    }
    const char *ti = tile_coord(M, 1), *tj = tile_coord(M, 0);
    for (int k = 0; k < 2; k++) {
        const char *x = opd_as(M, in->args[k], (DType)operand_type(f, in->args[k]).dtype);
        const char *g = box_pred(M, rows[k], cols[k]);
        const char *at = fresh(M, helper(M, id, k ? "b_at" : "a_at"));
        const char *at0 = fresh(M, helper(M, id, k ? "b_row" : "a_row"));
        const char *idx = fresh(M, helper(M, id, k ? "b_index" : "a_index"));
        line(M, "%s = arith.muli %s, %s : i32", at0, ti, int_const(M, cols[k]));
        line(M, "%s = arith.addi %s, %s : i32", at, at0, tj);
        line(M, "%s = arith.index_cast %s : i32 to index", idx, at);
        if (g) line(M, "scf.if %s {", g);
        line(M, "%smemref.store %s, %s[%s] : %s", g ? "  " : "", x, bufs[k], idx, mems[k]);
        if (g) line(M, "}");
    }
    line(M, "gpu.barrier");
    const char *acc = opd_as(M, in->args[2], ot);
    const char *g = box_pred(M, Mr, N);
    const char *res = g ? define(M, id) : NULL;
    if (g) {
        line(M, "%s = scf.if %s -> (%s) {", res, g, TO);
        M->indent++;
    }
    /* the K loop */
    const char *kv = fresh(M, helper(M, id, "k")), *sv = fresh(M, helper(M, id, "s"));
    const char *sum = fresh(M, helper(M, id, "sum"));
    const char *arow = fresh(M, helper(M, id, "a_base"));
    line(M, "%s = arith.muli %s, %s : i32", arow, ti, int_const(M, K));
    /* batched: b's rows of this row's batch start at (ti / (Mr / B)) * K */
    const char *bbase = NULL;
    if (in->attrs.axis > 1) {
        const char *bi = fresh(M, helper(M, id, "batch"));
        bbase = fresh(M, helper(M, id, "b_base"));
        line(M, "%s = arith.divui %s, %s : i32", bi, ti, int_const(M, Mr / in->attrs.axis));
        line(M, "%s = arith.muli %s, %s : i32", bbase, bi, int_const(M, K));
    }
    const char *ST = ot == DT_I32 ? "i32" : ot == DT_F64 ? "f64" : "f32";
    const char *init = acc; /* f16 values are f32 registers */
    /* tf32x3: the small cross products first */
    if (prec == DOT_TF32X3) {
        const char *tv = fresh(M, helper(M, id, "t"));
        const char *kx = fresh(M, helper(M, id, "kx")), *tx = fresh(M, helper(M, id, "tx"));
        line(M, "%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (f32) : i32 {", tv, kx,
             int_const(M, 0), int_const(M, K), int_const(M, 1), tx, fconst(M, DT_F32, 0.0));
        M->indent++;
        const char *ai = fresh(M, helper(M, id, "xa_at")), *bi = fresh(M, helper(M, id, "xb_at"));
        const char *bk = fresh(M, helper(M, id, "xb_row"));
        const char *aix = fresh(M, helper(M, id, "xa_index")),
                   *bix = fresh(M, helper(M, id, "xb_index"));
        const char *a = fresh(M, helper(M, id, "xa")), *b = fresh(M, helper(M, id, "xb"));
        line(M, "%s = arith.addi %s, %s : i32", ai, arow, kx);
        line(M, "%s = arith.muli %s, %s : i32", bk, batch_row(M, id, bbase, kx), int_const(M, N));
        line(M, "%s = arith.addi %s, %s : i32", bi, bk, tj);
        line(M, "%s = arith.index_cast %s : i32 to index", aix, ai);
        line(M, "%s = arith.index_cast %s : i32 to index", bix, bi);
        line(M, "%s = memref.load %s[%s] : %s", a, bufs[0], aix, mems[0]);
        line(M, "%s = memref.load %s[%s] : %s", b, bufs[1], bix, mems[1]);
        const char *ab = tf32_of(M, a, 1, id), *bb = tf32_of(M, b, 1, id);
        const char *as = fresh(M, helper(M, id, "a_small")),
                   *bs = fresh(M, helper(M, id, "b_small"));
        line(M, "%s = arith.subf %s, %s : f32", as, a, ab);
        line(M, "%s = arith.subf %s, %s : f32", bs, b, bb);
        const char *ast = tf32_of(M, as, 0, id), *bst = tf32_of(M, bs, 0, id);
        const char *t1 = fresh(M, helper(M, id, "t1")), *t2 = fresh(M, helper(M, id, "t2"));
        line(M, "%s = llvm.intr.fma(%s, %s, %s) : (f32, f32, f32) -> f32", t1, ast, bb, tx);
        line(M, "%s = llvm.intr.fma(%s, %s, %s) : (f32, f32, f32) -> f32", t2, ab, bst, t1);
        line(M, "scf.yield %s : f32", t2);
        M->indent--;
        line(M, "}");
        const char *i2 = fresh(M, helper(M, id, "acc_t"));
        line(M, "%s = arith.addf %s, %s : f32", i2, acc, tv);
        init = i2;
    }
    line(M, "%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) : i32 {", sum, kv,
         int_const(M, 0), int_const(M, K), int_const(M, 1), sv, init, ST);
    M->indent++;
    const char *ai = fresh(M, helper(M, id, "ka_at")), *bi = fresh(M, helper(M, id, "kb_at"));
    const char *bk = fresh(M, helper(M, id, "kb_row"));
    const char *aix = fresh(M, helper(M, id, "ka_index")),
               *bix = fresh(M, helper(M, id, "kb_index"));
    const char *a = fresh(M, helper(M, id, "ka")), *b = fresh(M, helper(M, id, "kb"));
    line(M, "%s = arith.addi %s, %s : i32", ai, arow, kv);
    line(M, "%s = arith.muli %s, %s : i32", bk, batch_row(M, id, bbase, kv), int_const(M, N));
    line(M, "%s = arith.addi %s, %s : i32", bi, bk, tj);
    line(M, "%s = arith.index_cast %s : i32 to index", aix, ai);
    line(M, "%s = arith.index_cast %s : i32 to index", bix, bi);
    line(M, "%s = memref.load %s[%s] : %s", a, bufs[0], aix, mems[0]);
    line(M, "%s = memref.load %s[%s] : %s", b, bufs[1], bix, mems[1]);
    const char *next = fresh(M, helper(M, id, "next"));
    if (ot == DT_I32) {
        const char *a32 = fresh(M, helper(M, id, "ka32")), *b32 = fresh(M, helper(M, id, "kb32"));
        const char *p = fresh(M, helper(M, id, "prod"));
        line(M, "%s = arith.extsi %s : i8 to i32", a32, a);
        line(M, "%s = arith.extsi %s : i8 to i32", b32, b);
        line(M, "%s = arith.muli %s, %s : i32", p, a32, b32);
        line(M, "%s = arith.addi %s, %s : i32", next, sv, p);
    } else {
        if (prec == DOT_TF32 || prec == DOT_TF32X3) {
            a = tf32_of(M, a, prec == DOT_TF32X3, id);
            b = tf32_of(M, b, prec == DOT_TF32X3, id);
        }
        line(M, "%s = llvm.intr.fma(%s, %s, %s) : (%s, %s, %s) -> %s", next, a, b, sv, ST, ST, ST,
             ST);
    }
    line(M, "scf.yield %s : %s", next, ST);
    M->indent--;
    line(M, "}");
    const char *out = sum;
    if (dtype_info(ot)->compute != ot) out = round_to(M, sum, ot, 0, NULL);
    if (g) {
        line(M, "scf.yield %s : %s", out, TO);
        M->indent--;
        line(M, "} else {");
        line(M, "  scf.yield %s : %s", acc, TO);
        line(M, "}");
    } else {
        M->vname[id] = out;
    }
    line(M, "gpu.barrier");
}

static void emit_loop(Mlir *M, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = M->f;
    if (l->ncarried != l->nyields || l->ncarried != l->nresults) {
        unsupported(M, in, "a loop whose carried lanes do not match");
        return;
    }
    M->user = in;
    DType it = (DType)f->types[l->index].dtype;
    const char *start = opd_as(M, l->start, it), *stop = opd_as(M, l->stop, it),
               *step = opd_as(M, l->step, it);
    const char **inits = ARENA_ARRAY(M->a, const char *, l->ncarried + 1);
    for (int k = 0; k < l->ncarried; k++) {
        Type t = f->types[l->args[k]];
        M->user = NULL;
        M->lane_layout = M->tile->layout[l->args[k]];
        inits[k] = t.ptr ? opd(M, l->inits[k]) : opd_as(M, l->inits[k], (DType)t.dtype);
    }
    StrBuf head;
    sb_init(&head, M->a);
    for (int k = 0; k < l->ncarried; k++)
        sb_printf(&head, "%s%s", k ? ", " : "", define(M, l->results[k]));
    if (l->ncarried) sb_puts(&head, " = ");
    M->vname[l->index] = fresh(M, arena_printf(M->a, "v%d", l->index));
    sb_printf(&head, "scf.for %s = %s to %s step %s", M->vname[l->index], start, stop, step);
    if (l->ncarried) {
        sb_puts(&head, " iter_args(");
        for (int k = 0; k < l->ncarried; k++)
            sb_printf(&head, "%s%s = %s", k ? ", " : "", define(M, l->args[k]), inits[k]);
        sb_puts(&head, ") -> (");
        for (int k = 0; k < l->ncarried; k++)
            sb_printf(&head, "%s%s", k ? ", " : "", mtype(f->types[l->args[k]]));
        sb_puts(&head, ")");
    }
    sb_printf(&head, " : %s {", reg_type(it));
    line(M, "%s", sb_str(&head));
    M->indent++;
    M->loop_depth++;
    emit_block(M, &l->body);
    if (l->nyields && !M->failed) {
        StrBuf y;
        sb_init(&y, M->a);
        const char **vals = ARENA_ARRAY(M->a, const char *, l->nyields + 1);
        for (int k = 0; k < l->nyields; k++) {
            Type t = f->types[l->args[k]];
            M->user = NULL;
            M->lane_layout = M->tile->layout[l->args[k]];
            vals[k] = t.ptr ? opd(M, l->yields[k]) : opd_as(M, l->yields[k], (DType)t.dtype);
        }
        sb_puts(&y, "scf.yield ");
        for (int k = 0; k < l->nyields; k++) sb_printf(&y, "%s%s", k ? ", " : "", vals[k]);
        sb_puts(&y, " : ");
        for (int k = 0; k < l->nyields; k++)
            sb_printf(&y, "%s%s", k ? ", " : "", mtype(f->types[l->args[k]]));
        line(M, "%s", sb_str(&y));
    }
    M->loop_depth--;
    M->indent--;
    line(M, "}");
}

/* A region's yields as MLIR operands of the lane types (`lane`: a value
 * per lane giving its type and layout). */
static const char *lane_values(Mlir *M, const Operand *y, int n, const int *lane) {
    StrBuf sb;
    sb_init(&sb, M->a);
    for (int k = 0; k < n; k++) {
        Type t = M->f->types[lane[k]];
        M->user = NULL;
        M->lane_layout = M->tile->layout[lane[k]];
        sb_printf(&sb, "%s%s", k ? ", " : "",
                  t.ptr ? opd(M, y[k]) : opd_as(M, y[k], (DType)t.dtype));
    }
    return sb_str(&sb);
}

static const char *lane_types(Mlir *M, const int *lane, int n) {
    StrBuf sb;
    sb_init(&sb, M->a);
    for (int k = 0; k < n; k++) sb_printf(&sb, "%s%s", k ? ", " : "", mtype(M->f->types[lane[k]]));
    return sb_str(&sb);
}

static void emit_yield(Mlir *M, const Operand *y, int n, const int *lane) {
    if (M->failed) return;
    if (!n) {
        line(M, "scf.yield");
        return;
    }
    const char *vals = lane_values(M, y, n, lane);
    line(M, "scf.yield %s : %s", vals, lane_types(M, lane, n));
}

/* scf.if with results: each region yields the lanes. */
static void emit_if(Mlir *M, const Inst *in) {
    const Loop *l = in->loop;
    int n = l->nresults;
    M->user = in;
    const char *c = opd_as(M, l->cond, DT_BOOL);
    StrBuf head;
    sb_init(&head, M->a);
    for (int k = 0; k < n; k++) sb_printf(&head, "%s%s", k ? ", " : "", define(M, l->results[k]));
    if (n) sb_puts(&head, " = ");
    sb_printf(&head, "scf.if %s", c);
    if (n) sb_printf(&head, " -> (%s)", lane_types(M, l->results, n));
    line(M, "%s {", sb_str(&head));
    M->indent++;
    emit_block(M, &l->body);
    emit_yield(M, l->yields, n, l->results);
    M->indent--;
    line(M, "} else {");
    M->indent++;
    emit_block(M, &l->orelse);
    emit_yield(M, l->else_yields, n, l->results);
    M->indent--;
    line(M, "}");
}

/* scf.while: the before region gets the lanes as block arguments and ends
 * in scf.condition, forwarding them unchanged; the after region takes them
 * as block arguments of its own (fresh names for the same SSA values). */
static void emit_while(Mlir *M, const Inst *in) {
    const Loop *l = in->loop;
    int n = l->ncarried;
    const char *types = lane_types(M, l->args, n);
    const char **inits = ARENA_ARRAY(M->a, const char *, n + 1);
    for (int k = 0; k < n; k++) inits[k] = lane_values(M, &l->inits[k], 1, &l->args[k]);
    StrBuf head;
    sb_init(&head, M->a);
    for (int k = 0; k < n; k++) sb_printf(&head, "%s%s", k ? ", " : "", define(M, l->results[k]));
    if (n) sb_puts(&head, " = ");
    sb_puts(&head, "scf.while (");
    const char **names = ARENA_ARRAY(M->a, const char *, n + 1);
    for (int k = 0; k < n; k++) {
        names[k] = define(M, l->args[k]);
        sb_printf(&head, "%s%s = %s", k ? ", " : "", names[k], inits[k]);
    }
    line(M, "%s) : (%s) -> (%s) {", sb_str(&head), types, types);
    M->indent++;
    M->loop_depth++;
    emit_block(M, &l->before);
    if (!M->failed) {
        M->user = in;
        const char *c = opd_as(M, l->cond, DT_BOOL);
        StrBuf args;
        sb_init(&args, M->a);
        for (int k = 0; k < n; k++) sb_printf(&args, "%s%s", k ? ", " : "", names[k]);
        if (n) line(M, "scf.condition(%s) %s : %s", c, sb_str(&args), types);
        else line(M, "scf.condition(%s)", c);
    }
    M->indent--;
    line(M, "} do {");
    M->indent++;
    if (n) {
        StrBuf bb;
        sb_init(&bb, M->a);
        for (int k = 0; k < n; k++)
            sb_printf(&bb, "%s%s: %s", k ? ", " : "", define(M, l->args[k]),
                      mtype(M->f->types[l->args[k]]));
        M->indent--;
        line(M, "^bb0(%s):", sb_str(&bb));
        M->indent++;
    }
    emit_block(M, &l->body);
    emit_yield(M, l->yields, n, l->args);
    M->loop_depth--;
    M->indent--;
    line(M, "}");
}

/* ---- Debugging ---------------------------------------------------------------------- */

/* Text as the inside of an MLIR string literal: quotes, backslashes and
 * bytes outside printable ASCII as \XX escapes; '%' doubled where the text
 * is part of a printf format. */
static void mlir_quote(StrBuf *sb, const char *text, int format) {
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '%' && format) sb_puts(sb, "%%");
        else if (*c == '"' || *c == '\\' || *c < 0x20 || *c > 0x7e) sb_printf(sb, "\\%02X", *c);
        else sb_printf(sb, "%c", *c);
    }
}

/* tl.inline_asm_elementwise (asm.h): one llvm.inline_asm per element, as
 * asm.c's CUDA helper: the element's bits repeated over each of its
 * argument's registers, the first element of the result's first register
 * taken. */
static const char *int_type(Mlir *M, int bits) { return arena_printf(M->a, "i%d", bits); }

static const char *int_bits_const(Mlir *M, int bits, int64_t v) {
    return const_of(M, bits == 16 ? DT_I16 : bits == 32 ? DT_I32 : DT_I64, v);
}

static void emit_inline_asm(Mlir *M, const Inst *in) {
    DType rt = (DType)in->type.dtype;
    AsmPlan p;
    asm_plan_of(M->a, M->f, in, &p);
    StrBuf ops, tys;
    sb_init(&ops, M->a);
    sb_init(&tys, M->a);
    int k = p.nout;
    for (int i = 0; i < in->nargs; i++) {
        int g = p.nres + i;
        DType dt = p.dt[g];
        int bits = dtype_info(dt)->bits;
        const char *x = to_mem(M, opd_as(M, in->args[i], dt), dt);
        if (dtype_is_float(dt)) {
            const char *y = tmp(M, x, "bits");
            line(M, "%s = arith.bitcast %s : %s to %s", y, x, mem_type(dt), int_type(M, bits));
            x = y;
        }
        for (int r = 0; r < p.regs[g]; r++, k++) {
            int R = asm_class_bits(p.letter[k]);
            const char *IR = int_type(M, R), *w = x;
            if (R > bits) {
                w = tmp(M, x, "wide");
                line(M, "%s = arith.extui %s : %s to %s", w, x, int_type(M, bits), IR);
            }
            const char *word = w;
            for (int e = 1; e < p.per[g]; e++) {
                const char *s = tmp(M, x, "shl"), *o = tmp(M, x, "or");
                line(M, "%s = arith.shli %s, %s : %s", s, w, int_bits_const(M, R, e * bits), IR);
                line(M, "%s = arith.ori %s, %s : %s", o, word, s, IR);
                word = o;
            }
            const char *T = IR;
            if (asm_class_is_float(p.letter[k])) {
                T = R == 32 ? "f32" : "f64";
                const char *b = tmp(M, x, "reg");
                line(M, "%s = arith.bitcast %s : %s to %s", b, word, IR, T);
                word = b;
            }
            sb_printf(&ops, "%s%s", ops.len ? ", " : "", word);
            sb_printf(&tys, "%s%s", tys.len ? ", " : "", T);
        }
    }
    StrBuf outs;
    sb_init(&outs, M->a);
    for (int r = 0; r < p.nout; r++) {
        int R = asm_class_bits(p.letter[r]);
        sb_printf(&outs, "%s%s", r ? ", " : "",
                  asm_class_is_float(p.letter[r]) ? (R == 32 ? "f32" : "f64") : int_type(M, R));
    }
    const char *RT =
        p.nout > 1 ? arena_printf(M->a, "!llvm.struct<(%s)>", sb_str(&outs)) : sb_str(&outs);
    StrBuf q;
    sb_init(&q, M->a);
    mlir_quote(&q, in->attrs.text ? in->attrs.text : "", 0);
    const char *res = fresh(M, helper(M, in->result, "asm"));
    line(M, "%s = llvm.inline_asm %sasm_dialect = att \"%s\", \"%s\" %s : (%s) -> %s", res,
         in->op == OP_INLINE_ASM_VOLATILE ? "has_side_effects " : "", sb_str(&q),
         asm_constraints(M->a, &p), sb_str(&ops), sb_str(&tys), RT);
    /* the first element of the register of the result it gives, read back
     * as a register value */
    int o = p.first[p.nres > 1 ? in->attrs.axis : 0];
    int R = asm_class_bits(p.letter[o]), bits = dtype_info(rt)->bits;
    const char *x = res;
    if (p.nout > 1) {
        x = tmp(M, res, "out");
        line(M, "%s = llvm.extractvalue %s[%d] : %s", x, res, o, RT);
    }
    if (asm_class_is_float(p.letter[o])) {
        const char *y = tmp(M, res, "word");
        line(M, "%s = arith.bitcast %s : %s to %s", y, x, R == 32 ? "f32" : "f64", int_type(M, R));
        x = y;
    }
    if (R > bits) {
        const char *y = tmp(M, res, "elem");
        line(M, "%s = arith.trunci %s : %s to %s", y, x, int_type(M, R), int_type(M, bits));
        x = y;
    }
    if (dtype_is_float(rt)) {
        const char *y = tmp(M, res, "mem");
        line(M, "%s = arith.bitcast %s : %s to %s", y, x, int_type(M, bits), mem_type(rt));
        x = y;
    }
    const char *want = fresh(M, arena_printf(M->a, "v%d", in->result));
    M->vname[in->result] = to_reg(M, x, rt, want);
}

/* device_print: gpu.printf (CUDA's vprintf after convert-gpu-to-nvvm) in
 * the CUDA backend's format (cgen.c c_print_format): the prefix written
 * into the format, since gpu.printf takes no string arguments; each thread
 * prints the elements it holds, one thread a uniform value (and one per
 * row or column for a row or column block of a tile). Floats print as f64,
 * narrower integers widened to 32 bits by their signedness (hex: their
 * bits), as C's varargs. */
static void emit_print(Mlir *M, const Inst *in) {
    Operand x = in->args[0];
    Type t = operand_type(M->f, x);
    DType dt = (DType)t.dtype;
    Layout l = LAYOUT_UNIFORM;
    if (t.rank > 0 && x.kind == OPD_VALUE) {
        const Inst *def = M->f->defs[x.id];
        l = def && def->op == OP_ARANGE ? shape_use_layout(M->tile, M->f, in, 0)
                                        : M->tile->layout[x.id];
    }
    const char *zero = int_const(M, 0);
    const char *idx[2] = {zero, zero}, *who = NULL;
    if (t.rank == 0 || l == LAYOUT_UNIFORM) who = tid(M);
    else if (l == LAYOUT_FLAT) idx[0] = tid(M);
    else if (l == LAYOUT_ROWS) idx[0] = tile_coord(M, 1), who = tile_coord(M, 0);
    else if (l == LAYOUT_COLS) idx[t.rank - 1] = tile_coord(M, 0), who = tile_coord(M, 1);
    else idx[0] = tile_coord(M, 1), idx[1] = tile_coord(M, 0);
    const char *guard = NULL;
    if (who) {
        guard = fresh(M, "print_first");
        line(M, "%s = arith.cmpi eq, %s, %s : i32", guard, who, zero);
    }
    guard = and_guard(M, box_guard(M, t, l), guard, -1);
    /* the value as a printf argument */
    const DTypeInfo *d = dtype_info(dt);
    const char *v = opd(M, x), *VT;
    int hex = in->attrs.flag;
    if (d->cls == DC_FLOAT) {
        v = convert(M, v, dt, DT_F64, 0, NULL);
        VT = "f64";
    } else if (d->bits == 64) {
        VT = "i64";
    } else {
        v = convert(M, v, dt, d->cls == DC_SINT && !hex ? DT_I32 : DT_U32, 0, NULL);
        if (hex && d->bits < 32 && dt != DT_BOOL) {
            const char *m = fresh(M, "print_bits");
            line(M, "%s = arith.andi %s, %s : i32", m, v, int_const(M, (1 << d->bits) - 1));
            v = m;
        }
        VT = "i32";
    }
    /* the program ids */
    const char *pid[3];
    for (int k = 0; k < 3; k++) { /* once, in the prologue */
        pid[k] = arena_printf(M->a, "%%print_pid_%c", "xyz"[k]);
        if (name_defined(M, pid[k])) continue;
        name_define(M, pid[k]);
        pro(M, "%s_index = gpu.block_id %c", pid[k], "xyz"[k]);
        pro(M, "%s = arith.index_cast %s_index : index to i32", pid[k], pid[k]);
    }
    /* c_print_format's text with the prefix in place of its one %s, read
     * back from C's escapes (only \n there) */
    /* a block of rank 3 or 4 folded by the rank lowering prints its
     * logical indices: the row split as cgen.c c_print_indices does */
    Type pt = c_print_type(&in->attrs, t);
    const char *pidx[MT_MAX_RANK] = {idx[0], idx[1]};
    if (pt.rank > t.rank) {
        long long below = 1;
        for (int k = pt.rank - 2; k > 0; k--) below *= pt.dims[k];
        for (int k = 0; k + 1 < pt.rank; k++) {
            const char *i = idx[0];
            if (below > 1) {
                const char *q = fresh(M, "print_row");
                line(M, "%s = arith.divui %s, %s : i32", q, i, int_const(M, (int)below));
                i = q;
            }
            if (k > 0) {
                const char *r = fresh(M, "print_index");
                line(M, "%s = arith.remui %s, %s : i32", r, i, int_const(M, (int)pt.dims[k]));
                i = r;
            }
            pidx[k] = i;
            if (k + 2 < pt.rank) below /= pt.dims[k + 1];
        }
        pidx[pt.rank - 1] = idx[1];
    }
    const char *cfmt = c_print_format(M->a, pt, hex, in->attrs.start, in->attrs.end);
    StrBuf fmt;
    sb_init(&fmt, M->a);
    for (const char *c = cfmt; *c; c++) {
        if (c[0] == '%' && c[1] == 's') {
            mlir_quote(&fmt, in->attrs.text ? in->attrs.text : "", 1);
            c++;
        } else if (c[0] == '\\' && c[1] == 'n') {
            sb_puts(&fmt, "\\0A");
            c++;
        } else {
            sb_printf(&fmt, "%c", *c);
        }
    }
    StrBuf args, types;
    sb_init(&args, M->a);
    sb_init(&types, M->a);
    for (int k = 0; k < 3; k++) {
        sb_printf(&args, "%s%s", k ? ", " : "", pid[k]);
        sb_printf(&types, "%si32", k ? ", " : "");
    }
    for (int k = 0; k < pt.rank; k++) {
        sb_printf(&args, ", %s", pidx[k]);
        sb_puts(&types, ", i32");
    }
    sb_printf(&args, ", %s", v);
    sb_printf(&types, ", %s", VT);
    const char *call = arena_printf(M->a, "gpu.printf \"%s\" %s : %s", sb_str(&fmt), sb_str(&args),
                                    sb_str(&types));
    if (!guard) {
        line(M, "%s", call);
        return;
    }
    line(M, "scf.if %s {", guard);
    line(M, "  %s", call);
    line(M, "}");
}

/* A NUL-terminated string as an llvm.mlir.global of the gpu.module (once
 * per text), and its address. */
static const char *global_string(Mlir *M, const char *what, const char *text) {
    StrBuf q;
    sb_init(&q, M->a);
    mlir_quote(&q, text, 0);
    int n = (int)strlen(text) + 1;
    /* the same text twice: the same global */
    for (int k = 0;; k++) {
        const char *sym = arena_printf(M->a, "%s_%d", what, k);
        const char *decl = arena_printf(M->a,
                                        "    llvm.mlir.global internal constant @%s(\"%s\\00\") "
                                        "{addr_space = 0 : i32} : !llvm.array<%d x i8>\n",
                                        sym, sb_str(&q), n);
        const char *have = M->globals.len ? strstr(sb_str(&M->globals), decl) : NULL;
        const char *used =
            M->globals.len ? strstr(sb_str(&M->globals), arena_printf(M->a, "@%s(", sym)) : NULL;
        if (!have && used) continue;
        if (!have) sb_puts(&M->globals, decl);
        const char *p = fresh(M, arena_printf(M->a, "%s_ptr", what));
        line(M, "%s = llvm.mlir.addressof @%s : !llvm.ptr", p, sym);
        return p;
    }
}

/* device_assert (--debug): CUDA's __assertfail(message, file, line,
 * function, 1) where the condition is false in a thread, as the CUDA
 * backends (and Triton) call it: the launch fails with the message. */
static void emit_assert(Mlir *M, const Inst *in) {
    if (!name_defined(M, "@__assertfail")) {
        name_define(M, "@__assertfail");
        sb_puts(&M->globals,
                "    llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)\n");
    }
    const char *c = opd(M, in->args[0]);
    DType dt = (DType)operand_type(M->f, in->args[0]).dtype;
    if (dt != DT_BOOL) c = convert(M, c, dt, DT_BOOL, 0, NULL);
    const char *bad = fresh(M, "assert_failed");
    line(M, "%s = arith.xori %s, %s : i1", bad, c, constant(M, const_bool(1)));
    line(M, "scf.if %s {", bad);
    M->indent++;
    const char *msg = global_string(M, "assert_msg", in->attrs.text ? in->attrs.text : "");
    const char *file = global_string(M, "assert_file", in->attrs.file ? in->attrs.file : "");
    const char *func = global_string(M, "assert_func", in->attrs.func ? in->attrs.func : "");
    const char *ln = fresh(M, "assert_line"), *one = fresh(M, "assert_char_size");
    line(M, "%s = llvm.mlir.constant(%d : i32) : i32", ln, in->pos.line);
    line(M, "%s = llvm.mlir.constant(1 : i64) : i64", one);
    line(
        M,
        "llvm.call @__assertfail(%s, %s, %s, %s, %s) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) "
        "-> ()",
        msg, file, ln, func, one);
    M->indent--;
    line(M, "}");
}

/* program_id, num_programs (the block's coordinates, as i32) and arange. */
static void emit_index(Mlir *M, const Inst *in) {
    int id = in->result;
    if (in->op == OP_ARANGE) {
        if (M->tile->rank == 2) return; /* rendered at each use, as tile_i / tile_j / tid */
        M->vname[id] = arange_index(M, in, M->tile->layout[id]);
        return;
    }
    const char *idx = fresh(M, helper(M, id, "index"));
    line(M, "%s = %s %c", idx, in->op == OP_PROGRAM_ID ? "gpu.block_id" : "gpu.grid_dim",
         "xyz"[in->attrs.axis]);
    line(M, "%s = arith.index_cast %s : index to i32", define(M, id), idx);
}

/* neg (0 - x on integers) and abs. */
static void emit_unary(Mlir *M, const Inst *in) {
    if (in->op == OP_ABS) {
        emit_abs(M, in);
        return;
    }
    DType dt = (DType)in->type.dtype;
    const char *a = opd_as(M, in->args[0], dt);
    if (dtype_is_float(dt))
        line(M, "%s = arith.negf %s : %s", define(M, in->result), a, reg_type(dt));
    else
        line(M, "%s = arith.subi %s, %s : %s", define(M, in->result), constant(M, const_int(dt, 0)),
             a, reg_type(dt));
}

/* The arithmetic ops: true division, umulhi and maximum / minimum have
 * renderings of their own, the others are emit_binary's mlir column. */
static void emit_arith(Mlir *M, const Inst *in) {
    TypeRule rule = op_info(in->op)->rule;
    if (rule == TR_DIV) emit_div(M, in);
    else if (rule == TR_UMULHI) emit_umulhi(M, in);
    else if (op_info(in->op)->attrs == AT_NAN) emit_minmax(M, in);
    else emit_binary(M, in);
}

/* cast, bitcast and the pointer / integer conversions. */
static void emit_convert(Mlir *M, const Inst *in) {
    int id = in->result;
    const Operand *x = in->args;
    DType dt = (DType)in->type.dtype;
    if (in->op == OP_CAST) {
        DType from = (DType)operand_type(M->f, x[0]).dtype;
        M->vname[id] = convert(M, opd(M, x[0]), from, dt, in->attrs.flag,
                               fresh(M, arena_printf(M->a, "v%d", id)));
    } else if (in->op == OP_BITCAST) {
        emit_bitcast(M, in);
    } else if (in->op == OP_INT_TO_PTR) {
        line(M, "%s = llvm.inttoptr %s : i64 to !llvm.ptr", define(M, id), opd(M, x[0]));
    } else {
        line(M, "%s = llvm.ptrtoint %s : !llvm.ptr to i64", define(M, id), opd(M, x[0]));
    }
}

/* tl.where: arith.select over the promoted values. */
static void emit_select(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    const char *c = opd_as(M, in->args[0], DT_BOOL);
    const char *a = opd_as(M, in->args[1], dt);
    const char *b = opd_as(M, in->args[2], dt);
    line(M, "%s = arith.select %s, %s, %s : %s", define(M, in->result), c, a, b, reg_type(dt));
}

/* device_print, device_assert and debug_barrier. */
static void emit_debug(Mlir *M, const Inst *in) {
    if (in->op == OP_PRINT) emit_print(M, in);
    else if (in->op == OP_ASSERT) emit_assert(M, in);
    else line(M, "gpu.barrier");
}

/* for, if and while. */
static void emit_region(Mlir *M, const Inst *in) {
    if (in->op == OP_FOR) emit_loop(M, in);
    else if (in->op == OP_IF) emit_if(M, in);
    else emit_while(M, in);
}

/* One instruction, by its class (ops.def's class column): a new row of a
 * class, a math function of ops_math.def above all, needs no edit here. */
static void emit_inst(Mlir *M, const Inst *in) {
    if (M->failed) return;
    M->user = in;
    if ((unsigned)in->op >= OP_COUNT) {
        unsupported(M, in, "an unknown opcode (%d)", (int)in->op);
        return;
    }
    const Operand *x = in->args;
    DType dt = (DType)in->type.dtype;
    switch (op_class(in->op)) {
    case OC_INDEX: emit_index(M, in); return;
    case OC_CREATE:
        if (in->op == OP_FULL) M->vname[in->result] = opd_as(M, x[0], dt);
        else M->vname[in->result] = constant(M, const_convert(const_i32(0), dt));
        return;
    case OC_SHAPE:
        /* expand_dims, broadcast: each thread's element of the operand, read broadcast */
        if (in->op == OP_EXPAND_DIMS || in->op == OP_BROADCAST) M->vname[in->result] = opd(M, x[0]);
        else emit_exchange(M, in);
        return;
    case OC_HINT: M->vname[in->result] = opd(M, x[0]); return;
    case OC_UNARY: emit_unary(M, in); return;
    case OC_MATH:
        if (op_info(in->op)->rule == TR_FMA) emit_fma(M, in);
        else emit_math(M, in);
        return;
    case OC_BINARY: emit_arith(M, in); return;
    case OC_BITWISE: emit_binary(M, in); return;
    case OC_COMPARE: emit_compare(M, in); return;
    case OC_CONVERT: emit_convert(M, in); return;
    case OC_ASM: emit_inline_asm(M, in); return;
    case OC_SELECT: emit_select(M, in); return;
    case OC_POINTER:
        if (in->op == OP_ADDPTR) emit_addptr(M, in);
        else emit_convert(M, in);
        return;
    case OC_MEMORY:
        if (in->op == OP_LOAD) emit_load(M, in);
        else emit_store(M, in);
        return;
    case OC_DEBUG: emit_debug(M, in); return;
    case OC_ATOMIC: emit_atomic(M, in); return;
    case OC_REDUCE:
        /* sum, max, min of a flat rank-1 block: the warp-shuffle tree */
        if ((in->op == OP_SUM || in->op == OP_MAX || in->op == OP_MIN) &&
            shape_reduce_flat(M->tile, M->f, in))
            emit_reduce(M, in);
        else emit_axis_reduce(M, in);
        return;
    case OC_SCAN: emit_axis_reduce(M, in); return;
    case OC_DOT: emit_dot(M, in); return;
    case OC_REGION: emit_region(M, in); return;
    }
    unsupported(M, in, "an unknown opcode (%d)", (int)in->op);
}

static void emit_block(Mlir *M, const Block *b) {
    const Block *outer = M->cur_block;
    M->cur_block = b;
    for (int i = 0; i < b->items.len && !M->failed; i++) emit_inst(M, b->items.items[i]);
    M->cur_block = outer;
}

/* The first op whose block has more elements than a CUDA block threads. */
static const Inst *widest(const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) {
            const Inst *w = widest(sub[k]);
            if (w) return w;
        }
        if (n) continue;
        if (in->result >= 0 && type_numel(in->type) > MLIR_MAX_THREADS) return in;
    }
    return NULL;
}

const char *emit_mlir_module(MtContext *ctx, const Spec *s) {
    Mlir M = {0};
    M.ctx = ctx;
    M.a = ctx->arena;
    M.s = s;
    M.f = s->f;
    M.tile = s->tile;
    const Function *f = s->f;
    if (s->tile->threads > MLIR_MAX_THREADS) {
        const Inst *wide = widest(&f->body);
        mt_error(
            ctx, wide ? wide->pos : srcpos(0, 0),
            "the MLIR backend does not cover '%s' of %lld elements: it runs one thread per element "
            "of the tile "
            "%s, and a CUDA block has at most %d threads (use a smaller block, or the cuda backend "
            "at -O2)",
            wide ? op_info(wide->op)->name : "a block",
            wide ? (long long)type_numel(wide->type) : 0LL, tile_str(M.a, s->tile),
            MLIR_MAX_THREADS);
        return NULL;
    }
    M.vname = ARENA_ARRAY(M.a, const char *, f->nvalues + 1);
    M.red_buf = ARENA_ARRAY(M.a, const char *, f->nvalues + 1);
    M.red_mem = ARENA_ARRAY(M.a, const char *, f->nvalues + 1);
    M.red_blk = ARENA_ARRAY(M.a, const Block *, f->nvalues + 1);
    sb_init(&M.prologue, M.a);
    sb_init(&M.workgroup, M.a);
    sb_init(&M.globals, M.a);
    StrBuf body, out;
    sb_init(&body, M.a);
    sb_init(&out, M.a);
    M.out = &body;
    M.indent = 3;
    M.pname = param_names(&M);
    /* scalar parameters of a narrow type, read as register values (bool
     * and 8-bit floats are bytes, 16-bit floats widen to f32) */
    M.pval = ARENA_ARRAY(M.a, const char *, f->nparams + 1);
    M.out = &M.prologue;
    for (int i = 0; i < f->nparams; i++) {
        Type t = f->params[i].type;
        M.pval[i] = t.ptr ? M.pname[i] : to_reg(&M, M.pname[i], (DType)t.dtype, NULL);
    }
    M.out = &body;
    emit_block(&M, &f->body);
    if (M.failed) return NULL;

    sb_printf(&out, "// Generated by mytritonc %s from %s (kernel %s). Do not edit.\n", MT_VERSION,
              s->source, s->kernel);
    sb_printf(&out, "// %s: tile %s, %d thread%s per block (one per element)", s->name,
              tile_str(M.a, s->tile), s->tile->threads, s->tile->threads == 1 ? "" : "s");
    if (*s->constexprs) sb_printf(&out, ", constexprs %s", c_comment_text(M.a, s->constexprs));
    sb_puts(&out, ".\n");
    sb_puts(&out, "module attributes {gpu.container_module} {\n");
    sb_printf(&out, "  gpu.module @%s {\n", s->name);
    sb_puts(&out, sb_str(&M.globals));
    sb_printf(&out, "    gpu.func @%s(", s->symbol);
    for (int i = 0; i < f->nparams; i++) {
        Type t = f->params[i].type;
        sb_printf(&out, "%s%s: %s", i ? ", " : "", M.pname[i],
                  t.ptr ? "!llvm.ptr" : mem_type((DType)t.dtype));
    }
    sb_puts(&out, ")");
    if (M.workgroup.len) sb_printf(&out, " workgroup(%s)", sb_str(&M.workgroup));
    sb_printf(&out, " kernel attributes {known_block_size = array<i32: %d, 1, 1>} {\n",
              s->tile->threads);
    sb_puts(&out, sb_str(&M.prologue));
    sb_puts(&out, sb_str(&body));
    sb_puts(&out, "      gpu.return\n    }\n  }\n}\n");
    return sb_str(&out);
}
