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
 *   - pointers are !llvm.ptr kernel arguments (one PTX parameter each, the
 *     launcher's calling convention); addptr is llvm.getelementptr, loads
 *     and stores are llvm.load / llvm.store;
 *   - a masked load is an scf.if yielding the loaded value or `other`; a
 *     masked store is an scf.if around the store;
 *   - maximum/minimum propagate NaN and pick the right operand on ties, as
 *     the CUDA backend's isnan/compare/select chain;
 *   - a reduction stores into a workgroup buffer (a gpu.func workgroup
 *     attribution), then halves a stride in an scf.for of log2(threads)
 *     steps with a gpu.barrier after each step, as the CUDA backend's tree
 *     (same pairing, so float sums agree bit for bit); max/min use
 *     arith.maxnumf/minnumf (fmaxf/fminf: NaN ignored unless all NaN);
 *   - a runtime loop is an scf.for over i32 whose iter_args are the carried
 *     lanes (region arguments %vA, results %vR, scf.yield the yields).
 *
 * Constants, thread ids and per-use arange indexes are defined once at the
 * top of the function (they dominate every use). Names: %vN for SSA value
 * N and %vN_<what> for its helpers, %c<value>_<type> / %true / %false for
 * constants, %tid (i32) and %tid_index, %tile_i, %tile_j, %smem_N for the
 * workgroup buffer of reduction %N; parameters keep their C names unless
 * those could collide (then p_<name>).
 *
 * What the backend does not cover is a diagnostic naming the op, never
 * wrong code. Requires: verified SSA and its TileInfo. */
#include "emit.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgen.h"

enum { MLIR_MAX_THREADS = 1024 };

typedef struct Mlir {
    MtContext *ctx;
    Arena *a;
    const Spec *s;
    const Function *f;
    const TileInfo *tile;
    const char **pname;    /* MLIR names of the parameters (with %) */
    const char **vname;    /* by value number: its MLIR name (with %) */
    StrBuf prologue;       /* thread ids, constants, arange indexes */
    StrBuf workgroup;      /* the gpu.func workgroup attributions */
    StrBuf *out;           /* the current body */
    PtrVec names;          /* every name defined so far (const char *) */
    int indent;
    int loop_depth;
    const Inst *user;      /* the item whose operands are being rendered */
    Layout lane_layout;    /* for loop lanes (user == NULL) */
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

static int unsupported(Mlir *M, const Inst *in, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
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
        strncmp(n, "tile_", 5) == 0 || strncmp(n, "smem", 4) == 0)
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
                const char *cand = k ? arena_printf(M->a, "p%d_%s", k, n) : arena_printf(M->a, "p_%s", n);
                int clash = 0;
                for (int j = 0; j < f->nparams && !clash; j++) clash = strcmp(M->s->pnames[j], cand) == 0;
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

/* ---- Types and constants ------------------------------------------------------ */

static const char *scalar_type(DType dt) {
    switch (dt) {
    case DT_BOOL: return "i1";
    case DT_I32: return "i32";
    case DT_F32: return "f32";
    default: return "none";
    }
}

/* The per-thread type of a value of type t. */
static const char *mtype(Type t) { return t.ptr ? "!llvm.ptr" : scalar_type((DType)t.dtype); }

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
    /* an MLIR float literal has a '.' before any exponent */
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

/* A constant of its own type, defined once in the prologue. */
static const char *constant(Mlir *M, ConstVal c) {
    const char *name, *def;
    switch (c.dt) {
    case DT_BOOL:
        name = c.i ? "%true" : "%false";
        def = arena_printf(M->a, "%s = arith.constant %s", name, c.i ? "true" : "false");
        break;
    case DT_I32:
        name = arena_printf(M->a, "%%c%lld_i32", (long long)c.i);
        def = arena_printf(M->a, "%s = arith.constant %lld : i32", name, (long long)c.i);
        break;
    case DT_F32: {
        const char *frag;
        const char *lit = f32_literal(M->a, c.f, &frag);
        name = arena_printf(M->a, "%%c%s_f32", frag);
        def = arena_printf(M->a, "%s = arith.constant %s : f32", name, lit);
        break;
    }
    default: MT_ASSERT(!"a constant without a type"); return "";
    }
    if (!name_defined(M, name)) {
        name_define(M, name);
        pro(M, "%s", def);
    }
    return name;
}

static const char *int_const(Mlir *M, int64_t v) { return constant(M, const_i32(v)); }

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
    const char *idx = l == LAYOUT_ROWS ? tile_coord(M, 1) : l == LAYOUT_COLS ? tile_coord(M, 0) : tid(M);
    if (in->attrs.start == 0) return idx;
    const char *name = arena_printf(M->a, "%%v%d_%s", in->result, l == LAYOUT_ROWS ? "rows" : l == LAYOUT_COLS ? "cols" : "flat");
    if (!name_defined(M, name)) {
        const char *c = int_const(M, in->attrs.start);
        name_define(M, name);
        pro(M, "%s = arith.addi %s, %s : i32", name, idx, c);
    }
    return name;
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
    case OPD_PARAM: return M->pname[o.id];
    case OPD_CONST: return constant(M, o.c);
    case OPD_NONE: break;
    }
    MT_ASSERT(!"an absent operand has no value");
    return "";
}

/* An operand converted to dt: constants at compile time, values with
 * arith.sitofp / arith.fptosi into %<value>_<type> (%v8_f32, %n_f32). */
static const char *opd_as(Mlir *M, Operand o, DType dt) {
    if (o.kind == OPD_CONST) return constant(M, const_convert(o.c, dt));
    Type t = operand_type(M->f, o);
    const char *x = opd(M, o);
    if (t.dtype == dt) return x;
    const char *op = NULL;
    if (t.dtype == DT_I32 && dt == DT_F32) op = "arith.sitofp";
    else if (t.dtype == DT_F32 && dt == DT_I32) op = "arith.fptosi";
    MT_ASSERT(op != NULL);
    const char *name = fresh(M, arena_printf(M->a, "%s_%s", x + 1, scalar_type(dt)));
    line(M, "%s = %s %s : %s to %s", name, op, x, scalar_type((DType)t.dtype), scalar_type(dt));
    return name;
}

static int is_true(Operand o) { return o.kind == OPD_NONE || (o.kind == OPD_CONST && o.c.dt == DT_BOOL && o.c.i); }
static int is_false(Operand o) { return o.kind == OPD_CONST && o.c.dt == DT_BOOL && !o.c.i; }

/* The helper name base "vN_<what>". */
static const char *helper(Mlir *M, int id, const char *what) { return arena_printf(M->a, "v%d_%s", id, what); }

/* ---- Instructions ------------------------------------------------------------------ */

static void emit_block(Mlir *M, const Block *b);

static const char *define(Mlir *M, int id) {
    const char *n = fresh(M, arena_printf(M->a, "v%d", id));
    M->vname[id] = n;
    return n;
}

static void emit_minmax(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    int id = in->result;
    const char *a = opd_as(M, in->args[0], dt);
    const char *b = opd_as(M, in->args[1], dt);
    int mx = in->op == OP_MAXIMUM;
    if (dt == DT_F32) {
        /* isnan(a) ? a : isnan(b) ? b : (a > b ? a : b), the CUDA backend's chain */
        const char *na = fresh(M, helper(M, id, "lhs_nan"));
        const char *nb = fresh(M, helper(M, id, "rhs_nan"));
        const char *cmp = fresh(M, helper(M, id, mx ? "gt" : "lt"));
        const char *pick = fresh(M, helper(M, id, "pick"));
        const char *nanb = fresh(M, helper(M, id, "or_rhs_nan"));
        line(M, "%s = arith.cmpf uno, %s, %s : f32", na, a, a);
        line(M, "%s = arith.cmpf uno, %s, %s : f32", nb, b, b);
        line(M, "%s = arith.cmpf %s, %s, %s : f32", cmp, mx ? "ogt" : "olt", a, b);
        line(M, "%s = arith.select %s, %s, %s : f32", pick, cmp, a, b);
        line(M, "%s = arith.select %s, %s, %s : f32", nanb, nb, b, pick);
        line(M, "%s = arith.select %s, %s, %s : f32", define(M, id), na, a, nanb);
    } else {
        const char *cmp = fresh(M, helper(M, id, mx ? "gt" : "lt"));
        line(M, "%s = arith.cmpi %s, %s, %s : i32", cmp, mx ? "sgt" : "slt", a, b);
        line(M, "%s = arith.select %s, %s, %s : i32", define(M, id), cmp, a, b);
    }
}

static void emit_binary(Mlir *M, const Inst *in) {
    DType dt = (DType)in->type.dtype;
    int id = in->result;
    static const char *const iops[] = {"addi", "subi", "muli"}, *const fops[] = {"addf", "subf", "mulf"};
    int k = in->op == OP_ADD ? 0 : in->op == OP_SUB ? 1 : 2;
    if (in->op == OP_DIV) dt = DT_F32;
    const char *a = opd_as(M, in->args[0], dt);
    const char *b = opd_as(M, in->args[1], dt);
    const char *op = in->op == OP_DIV ? "divf" : dt == DT_F32 ? fops[k] : iops[k];
    line(M, "%s = arith.%s %s, %s : %s", define(M, id), op, a, b, scalar_type(dt));
}

static void emit_compare(Mlir *M, const Inst *in) {
    int id = in->result;
    Type ta = operand_type(M->f, in->args[0]), tb = operand_type(M->f, in->args[1]);
    DType dt = ta.dtype == DT_F32 || tb.dtype == DT_F32 ? DT_F32 : ta.dtype == DT_BOOL ? DT_BOOL : DT_I32;
    const char *a = opd_as(M, in->args[0], dt);
    const char *b = opd_as(M, in->args[1], dt);
    /* C's comparisons: ordered except != (true when a NaN is involved) */
    static const char *const fpred[] = {"olt", "ole", "ogt", "oge", "oeq", "une"};
    static const char *const ipred[] = {"slt", "sle", "sgt", "sge", "eq", "ne"};
    int k = in->op - OP_CMP_LT;
    if (dt == DT_F32) line(M, "%s = arith.cmpf %s, %s, %s : f32", define(M, id), fpred[k], a, b);
    else line(M, "%s = arith.cmpi %s, %s, %s : %s", define(M, id), ipred[k], a, b, scalar_type(dt));
}

static void emit_load(Mlir *M, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    const char *T = scalar_type(dt);
    const char *p = opd(M, in->args[0]);
    if (is_false(in->args[1])) {
        M->vname[id] = in->args[2].kind == OPD_NONE ? constant(M, const_convert(const_i32(0), dt))
                                                     : opd_as(M, in->args[2], dt);
        return;
    }
    if (is_true(in->args[1])) {
        line(M, "%s = llvm.load %s : !llvm.ptr -> %s", define(M, id), p, T);
        return;
    }
    const char *mask = opd(M, in->args[1]);
    const char *other = in->args[2].kind == OPD_NONE ? constant(M, const_convert(const_i32(0), dt))
                                                     : opd_as(M, in->args[2], dt);
    const char *loaded = fresh(M, helper(M, id, "loaded"));
    line(M, "%s = scf.if %s -> (%s) {", define(M, id), mask, T);
    line(M, "  %s = llvm.load %s : !llvm.ptr -> %s", loaded, p, T);
    line(M, "  scf.yield %s : %s", loaded, T);
    line(M, "} else {");
    line(M, "  scf.yield %s : %s", other, T);
    line(M, "}");
}

static void emit_store(Mlir *M, const Inst *in) {
    if (is_false(in->args[2])) return; /* never stores */
    DType dt = (DType)operand_type(M->f, in->args[0]).dtype;
    const char *p = opd(M, in->args[0]);
    const char *v = opd_as(M, in->args[1], dt);
    if (is_true(in->args[2])) {
        line(M, "llvm.store %s, %s : %s, !llvm.ptr", v, p, scalar_type(dt));
        return;
    }
    line(M, "scf.if %s {", opd(M, in->args[2]));
    line(M, "  llvm.store %s, %s : %s, !llvm.ptr", v, p, scalar_type(dt));
    line(M, "}");
}

static void emit_reduce(Mlir *M, const Inst *in) {
    int id = in->result;
    DType dt = (DType)in->type.dtype;
    int n = M->tile->threads;
    if (dt != DT_F32 && dt != DT_I32) {
        unsupported(M, in, "tl.%s of %s elements (f32 or i32 only)", op_info(in->op)->name, scalar_type(dt));
        return;
    }
    if (n & (n - 1)) {
        unsupported(M, in, "tl.%s in a kernel of %d threads (the reduction tree needs a power of two)",
                    op_info(in->op)->name, n);
        return;
    }
    const char *T = scalar_type(dt);
    const char *mem = arena_printf(M->a, "memref<%dx%s, #gpu.address_space<workgroup>>", n, T);
    const char *buf = fresh(M, arena_printf(M->a, "smem_%d", id));
    sb_printf(&M->workgroup, "%s%s : %s", M->workgroup.len ? ", " : "", buf, mem);
    const char *x = opd(M, in->args[0]);
    tid(M);
    line(M, "memref.store %s, %s[%%tid_index] : %s", x, buf, mem);
    line(M, "gpu.barrier");
    int steps = 0;
    while ((1 << steps) < n) steps++;
    if (steps > 0) {
        const char *op;
        if (in->op == OP_SUM) op = dt == DT_F32 ? "addf" : "addi";
        else if (in->op == OP_MAX) op = dt == DT_F32 ? "maxnumf" : "maxsi";
        else op = dt == DT_F32 ? "minnumf" : "minsi";
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
        line(M, "    %s = arith.addi %%tid, %s : i32", peer, stride);
        line(M, "    %s = arith.index_cast %s : i32 to index", peer_index, peer);
        line(M, "    %s = memref.load %s[%%tid_index] : %s", mine, buf, mem);
        line(M, "    %s = memref.load %s[%s] : %s", theirs, buf, peer_index, mem);
        line(M, "    %s = arith.%s %s, %s : %s", both, op, mine, theirs, T);
        line(M, "    memref.store %s, %s[%%tid_index] : %s", both, buf, mem);
        line(M, "  }");
        line(M, "  gpu.barrier");
        line(M, "}");
    }
    const char *zero = index_const(M, 0);
    line(M, "%s = memref.load %s[%s] : %s", define(M, id), buf, zero, mem);
    /* in a loop the buffer is written again next iteration */
    if (M->loop_depth > 0) line(M, "gpu.barrier");
}

static void emit_loop(Mlir *M, const Inst *in) {
    const Loop *l = in->loop;
    const Function *f = M->f;
    if (l->ncarried != l->nyields || l->ncarried != l->nresults) {
        unsupported(M, in, "a loop whose carried lanes do not match");
        return;
    }
    M->user = in;
    const char *start = opd(M, l->start), *stop = opd(M, l->stop), *step = opd(M, l->step);
    const char **inits = ARENA_ARRAY(M->a, const char *, l->ncarried + 1);
    for (int k = 0; k < l->ncarried; k++) {
        Type t = f->types[l->args[k]];
        M->user = NULL;
        M->lane_layout = M->tile->layout[l->args[k]];
        inits[k] = t.ptr ? opd(M, l->inits[k]) : opd_as(M, l->inits[k], (DType)t.dtype);
    }
    StrBuf head;
    sb_init(&head, M->a);
    for (int k = 0; k < l->ncarried; k++) sb_printf(&head, "%s%s", k ? ", " : "", define(M, l->results[k]));
    if (l->ncarried) sb_puts(&head, " = ");
    M->vname[l->index] = fresh(M, arena_printf(M->a, "v%d", l->index));
    sb_printf(&head, "scf.for %s = %s to %s step %s", M->vname[l->index], start, stop, step);
    if (l->ncarried) {
        sb_puts(&head, " iter_args(");
        for (int k = 0; k < l->ncarried; k++) sb_printf(&head, "%s%s = %s", k ? ", " : "", define(M, l->args[k]), inits[k]);
        sb_puts(&head, ") -> (");
        for (int k = 0; k < l->ncarried; k++) sb_printf(&head, "%s%s", k ? ", " : "", mtype(f->types[l->args[k]]));
        sb_puts(&head, ")");
    }
    sb_puts(&head, " : i32 {");
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
        for (int k = 0; k < l->nyields; k++) sb_printf(&y, "%s%s", k ? ", " : "", mtype(f->types[l->args[k]]));
        line(M, "%s", sb_str(&y));
    }
    M->loop_depth--;
    M->indent--;
    line(M, "}");
}

static void emit_inst(Mlir *M, const Inst *in) {
    if (M->failed) return;
    int id = in->result;
    const Operand *x = in->args;
    DType dt = (DType)in->type.dtype;
    M->user = in;
    switch (in->op) {
    case OP_PROGRAM_ID: {
        const char *idx = fresh(M, helper(M, id, "index"));
        line(M, "%s = gpu.block_id %c", idx, "xyz"[in->attrs.axis]);
        line(M, "%s = arith.index_cast %s : index to i32", define(M, id), idx);
        return;
    }
    case OP_ARANGE:
        if (M->tile->rank == 2) return; /* rendered at each use, as tile_i / tile_j / tid */
        M->vname[id] = arange_index(M, in, M->tile->layout[id]);
        return;
    case OP_EXPAND_DIMS: M->vname[id] = opd(M, x[0]); return;
    case OP_ZEROS:
    case OP_EMPTY: M->vname[id] = constant(M, const_convert(const_i32(0), dt)); return;
    case OP_FULL: M->vname[id] = opd_as(M, x[0], dt); return;
    case OP_NEG:
        if (dt == DT_F32) line(M, "%s = arith.negf %s : f32", define(M, id), opd(M, x[0]));
        else {
            const char *zero = int_const(M, 0);
            line(M, "%s = arith.subi %s, %s : i32", define(M, id), zero, opd(M, x[0]));
        }
        return;
    case OP_EXP: line(M, "%s = math.exp %s : f32", define(M, id), opd_as(M, x[0], DT_F32)); return;
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV: emit_binary(M, in); return;
    case OP_MAXIMUM:
    case OP_MINIMUM: emit_minmax(M, in); return;
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE:
    case OP_CMP_EQ:
    case OP_CMP_NE: emit_compare(M, in); return;
    case OP_AND:
    case OP_OR: {
        const char *a = opd(M, x[0]), *b = opd(M, x[1]);
        line(M, "%s = arith.%s %s, %s : i1", define(M, id), in->op == OP_AND ? "andi" : "ori", a, b);
        return;
    }
    case OP_SELECT: {
        const char *c = opd(M, x[0]);
        const char *a = opd_as(M, x[1], dt);
        const char *b = opd_as(M, x[2], dt);
        line(M, "%s = arith.select %s, %s, %s : %s", define(M, id), c, a, b, scalar_type(dt));
        return;
    }
    case OP_ADDPTR: {
        const char *p = opd(M, x[0]), *off = opd(M, x[1]);
        line(M, "%s = llvm.getelementptr %s[%s] : (!llvm.ptr, i32) -> !llvm.ptr, %s", define(M, id), p, off,
             scalar_type(dt));
        return;
    }
    case OP_LOAD: emit_load(M, in); return;
    case OP_STORE: emit_store(M, in); return;
    case OP_SUM:
    case OP_MAX:
    case OP_MIN: emit_reduce(M, in); return;
    case OP_FOR: emit_loop(M, in); return;
    case OP_NUM_PROGRAMS:
    case OP_ABS:
    case OP_EXP2:
    case OP_LOG:
    case OP_LOG2:
    case OP_SQRT:
    case OP_SQRT_RN:
    case OP_RSQRT:
    case OP_SIN:
    case OP_COS:
    case OP_ERF:
    case OP_FLOOR:
    case OP_CEIL:
    case OP_DIV_RN:
    case OP_FLOORDIV:
    case OP_MOD:
    case OP_FMA:
    case OP_UMULHI:
    case OP_XOR:
    case OP_SHL:
    case OP_SHR:
    case OP_CAST:
    case OP_BITCAST:
    case OP_HINT:
    case OP_COUNT: break;
    }
    unsupported(M, in, "tl.%s", op_info(in->op)->name);
}

static void emit_block(Mlir *M, const Block *b) {
    for (int i = 0; i < b->items.len && !M->failed; i++) emit_inst(M, b->items.items[i]);
}

/* Every op of the kernel is one the backend knows (the table may grow
 * before this file does). */
static int check_ops(Mlir *M, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        switch (in->op) {
        case OP_PROGRAM_ID: case OP_ARANGE: case OP_ZEROS: case OP_FULL: case OP_EMPTY: case OP_EXPAND_DIMS:
        case OP_NEG: case OP_EXP: case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MAXIMUM:
        case OP_MINIMUM: case OP_CMP_LT: case OP_CMP_LE: case OP_CMP_GT: case OP_CMP_GE: case OP_CMP_EQ:
        case OP_CMP_NE: case OP_AND: case OP_OR: case OP_SELECT: case OP_ADDPTR: case OP_LOAD: case OP_STORE:
        case OP_SUM: case OP_MAX: case OP_MIN: break;
        case OP_FOR:
            if (!check_ops(M, &in->loop->body)) return 0;
            break;
        default: return unsupported(M, in, "an unknown opcode (%d)", (int)in->op);
        }
    }
    return 1;
}

/* The first op whose block has more elements than a CUDA block threads. */
static const Inst *widest(const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->op == OP_FOR) {
            const Inst *w = widest(&in->loop->body);
            if (w) return w;
            continue;
        }
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
        mt_error(ctx, wide ? wide->pos : srcpos(0, 0),
                 "the MLIR backend does not cover '%s' of %lld elements: it runs one thread per element of the tile "
                 "%s, and a CUDA block has at most %d threads (use a smaller block, or the cuda backend at -O2)",
                 wide ? op_info(wide->op)->name : "a block", wide ? (long long)type_numel(wide->type) : 0LL,
                 tile_str(M.a, s->tile), MLIR_MAX_THREADS);
        return NULL;
    }
    if (!check_ops(&M, &f->body)) return NULL;
    M.vname = ARENA_ARRAY(M.a, const char *, f->nvalues + 1);
    sb_init(&M.prologue, M.a);
    sb_init(&M.workgroup, M.a);
    StrBuf body, out;
    sb_init(&body, M.a);
    sb_init(&out, M.a);
    M.out = &body;
    M.indent = 3;
    M.pname = param_names(&M);
    emit_block(&M, &f->body);
    if (M.failed) return NULL;

    sb_printf(&out, "// Generated by mytritonc %s from %s (kernel %s). Do not edit.\n", MT_VERSION, s->source, s->kernel);
    sb_printf(&out, "// %s: tile %s, %d thread%s per block (one per element)", s->name, tile_str(M.a, s->tile),
              s->tile->threads, s->tile->threads == 1 ? "" : "s");
    if (*s->constexprs) sb_printf(&out, ", constexprs %s", s->constexprs);
    sb_puts(&out, ".\n");
    sb_puts(&out, "module attributes {gpu.container_module} {\n");
    sb_printf(&out, "  gpu.module @%s {\n", s->name);
    sb_printf(&out, "    gpu.func @%s(", s->symbol);
    for (int i = 0; i < f->nparams; i++) sb_printf(&out, "%s%s: %s", i ? ", " : "", M.pname[i], mtype(f->params[i].type));
    sb_puts(&out, ")");
    if (M.workgroup.len) sb_printf(&out, " workgroup(%s)", sb_str(&M.workgroup));
    sb_printf(&out, " kernel attributes {known_block_size = array<i32: %d, 1, 1>} {\n", s->tile->threads);
    sb_puts(&out, sb_str(&M.prologue));
    sb_puts(&out, sb_str(&body));
    sb_puts(&out, "      gpu.return\n    }\n  }\n}\n");
    return sb_str(&out);
}
