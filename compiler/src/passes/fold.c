/* Constant folding with the seed's local simplifications:
 *   - an op whose operands are all constants becomes a constant (i32
 *     arithmetic wraps, f32 arithmetic is done in single precision,
 *     maximum/minimum propagate NaN; a cast converts as Triton's; ops on
 *     other dtypes are not folded);
 *   - x + 0 and x - 0 on i32; x * 1 and x / 1; select with a constant
 *     condition or identical arms;
 *   - at -O2 only (pass_fold), also 0 + x and 1 * x: the seed's -O1
 *     (pass_fold_seed) folds a constant on the right only, and its
 *     --emit=ssa prints `add 0, %3`.
 * A value is replaced only by an operand of exactly its type.
 * Requires: verified SSA. Preserves: value numbers, region structure.
 * Region-aware: a replacement is an operand defined at the use or outside
 * it, never inside a region the use cannot see. */
#include <math.h>

#include "passes/passes.h"

static float f32(ConstVal c) { return c.dt == DT_F32 ? (float)c.f : (float)c.i; }

static int is_const(Operand o, DType dt, double v) {
    if (o.kind != OPD_CONST || o.c.dt != dt) return 0;
    return dt == DT_F32 ? o.c.f == v : o.c.i == (int64_t)v;
}

static int seed_dtype(DType dt) { return dt == DT_I32 || dt == DT_F32 || dt == DT_BOOL; }

static int eval_const(const Inst *in, ConstVal *out) {
    for (int i = 0; i < in->nargs; i++)
        if (in->args[i].kind != OPD_CONST) return 0;
    if (in->type.rank != 0) return 0;
    if (in->op == OP_CAST) { /* Triton's cast, exactly (const_convert) */
        if (in->attrs.flag) return 0;
        *out = const_convert(in->args[0].c, in->attrs.dtype);
        return 1;
    }
    /* the arithmetic below is the seed's (i32, f32, bool); other dtypes
     * are left to run time */
    if (!seed_dtype((DType)in->type.dtype)) return 0;
    for (int i = 0; i < in->nargs; i++)
        if (!seed_dtype(in->args[i].c.dt)) return 0;
    ConstVal a = in->args[0].c, b = in->nargs > 1 ? in->args[1].c : a;
    DType rt = (DType)in->type.dtype;
    int fl = (a.dt == DT_F32 || (in->nargs > 1 && b.dt == DT_F32));
    switch (in->op) {
    case OP_NEG:
        if (a.dt == DT_F32) *out = const_f32((double)(-(float)a.f));
        else *out = const_i32((int32_t)(0u - (uint32_t)a.i));
        return 1;
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
        if (rt == DT_F32) {
            float x = f32(a), y = f32(b);
            float r = in->op == OP_ADD ? x + y : in->op == OP_SUB ? x - y : x * y;
            *out = const_f32((double)r);
        } else {
            uint32_t x = (uint32_t)a.i, y = (uint32_t)b.i;
            uint32_t r = in->op == OP_ADD ? x + y : in->op == OP_SUB ? x - y : x * y;
            *out = const_i32((int32_t)r);
        }
        return 1;
    case OP_DIV: *out = const_f32((double)(f32(a) / f32(b))); return 1;
    case OP_MAXIMUM:
    case OP_MINIMUM:
        if (rt == DT_F32) {
            float x = f32(a), y = f32(b), r;
            if (isnan(x)) r = in->attrs.flag ? y : x; /* nan_ignored: the other operand */
            else if (isnan(y)) r = in->attrs.flag ? x : y;
            else r = in->op == OP_MAXIMUM ? (x > y ? x : y) : (x < y ? x : y);
            *out = const_f32((double)r);
        } else {
            *out =
                const_i32(in->op == OP_MAXIMUM ? (a.i > b.i ? a.i : b.i) : (a.i < b.i ? a.i : b.i));
        }
        return 1;
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE:
    case OP_CMP_EQ:
    case OP_CMP_NE: {
        int r;
        if (fl) {
            float x = f32(a), y = f32(b);
            r = in->op == OP_CMP_LT   ? x < y
                : in->op == OP_CMP_LE ? x <= y
                : in->op == OP_CMP_GT ? x > y
                : in->op == OP_CMP_GE ? x >= y
                : in->op == OP_CMP_EQ ? x == y
                                      : x != y;
        } else {
            int64_t x = a.i, y = b.i;
            r = in->op == OP_CMP_LT   ? x < y
                : in->op == OP_CMP_LE ? x <= y
                : in->op == OP_CMP_GT ? x > y
                : in->op == OP_CMP_GE ? x >= y
                : in->op == OP_CMP_EQ ? x == y
                                      : x != y;
        }
        *out = const_bool(r);
        return 1;
    }
    case OP_AND:
    case OP_OR:
        if (rt != DT_BOOL) {
            *out = const_i32(in->op == OP_AND ? (a.i & b.i) : (a.i | b.i));
            return 1;
        }
        *out = const_bool(in->op == OP_AND ? (a.i && b.i) : (a.i || b.i));
        return 1;
    case OP_SELECT: {
        ConstVal pick = a.i ? in->args[1].c : in->args[2].c;
        *out = rt == DT_F32 ? const_f32((double)f32(pick)) : const_convert(pick, rt);
        return 1;
    }
    default:
    case OP_COUNT: break;
    }
    return 0;
}

/* The operand `o` may stand for the result of `in` if it has its type. */
static int fits(const Function *f, const Inst *in, Operand o) {
    return type_eq(operand_type(f, o), in->type);
}

static int simplify(const Function *f, const Inst *in, int left_identities, Operand *out) {
    const Operand *x = in->args;
    switch (in->op) {
    case OP_ADD:
        /* integers only: on f32, -0.0 + 0 is +0.0 */
        if (in->type.dtype != DT_I32) return 0;
        if (is_const(x[1], DT_I32, 0) && fits(f, in, x[0])) return *out = x[0], 1;
        if (left_identities && is_const(x[0], DT_I32, 0) && fits(f, in, x[1]))
            return *out = x[1], 1;
        return 0;
    case OP_SUB:
        if (in->type.dtype != DT_I32) return 0;
        if (is_const(x[1], DT_I32, 0) && fits(f, in, x[0])) return *out = x[0], 1;
        return 0;
    case OP_MUL:
        if ((is_const(x[1], DT_I32, 1) || is_const(x[1], DT_F32, 1)) && fits(f, in, x[0]))
            return *out = x[0], 1;
        if (left_identities && (is_const(x[0], DT_I32, 1) || is_const(x[0], DT_F32, 1)) &&
            fits(f, in, x[1]))
            return *out = x[1], 1;
        return 0;
    case OP_DIV:
        if ((is_const(x[1], DT_I32, 1) || is_const(x[1], DT_F32, 1)) && fits(f, in, x[0]))
            return *out = x[0], 1;
        return 0;
    case OP_SELECT:
        if (x[0].kind == OPD_CONST) {
            Operand arm = x[0].c.i ? x[1] : x[2];
            if (fits(f, in, arm)) return *out = arm, 1;
            return 0;
        }
        if (operand_eq(x[1], x[2]) && fits(f, in, x[1])) return *out = x[1], 1;
        return 0;
    default:
    case OP_COUNT: break;
    }
    return 0;
}

typedef struct Fold {
    Arena *a;
    Function *f;
    Operand *repl;
    PassStats *st;
    int left_identities; /* 0 + x, 1 * x */
} Fold;

static void fold_block(Fold *F, Block *b);

static void resolve_one(Operand *o, void *user) { *o = ssa_resolve(((Fold *)user)->repl, *o); }

static void fold_block(Fold *F, Block *b) {
    int out = 0;
    for (int i = 0; i < b->items.len; i++) {
        Inst *in = b->items.items[i];
        if (op_has(in->op, OPF_REGION)) {
            Loop *l = in->loop;
            resolve_one(&l->start, F), resolve_one(&l->stop, F), resolve_one(&l->step, F);
            if (in->op == OP_IF) resolve_one(&l->cond, F);
            for (int k = 0; k < l->ncarried; k++) resolve_one(&l->inits[k], F);
            if (in->op == OP_WHILE) {
                fold_block(F, &l->before);
                resolve_one(&l->cond, F);
            }
            fold_block(F, &l->body);
            for (int k = 0; k < l->nyields; k++) resolve_one(&l->yields[k], F);
            if (in->op == OP_IF) {
                fold_block(F, &l->orelse);
                for (int k = 0; k < l->nyields; k++) resolve_one(&l->else_yields[k], F);
            }
            b->items.items[out++] = in;
            continue;
        }
        ssa_for_each_operand(in, 0, resolve_one, F);
        ConstVal c;
        Operand r;
        if (in->result >= 0 && eval_const(in, &c)) {
            F->repl[in->result] = opd_const(c);
            F->st->folded++;
            continue;
        }
        if (in->result >= 0 && simplify(F->f, in, F->left_identities, &r)) {
            F->repl[in->result] = r;
            F->st->folded++;
            continue;
        }
        b->items.items[out++] = in;
    }
    b->items.len = out;
}

static void fold_function(Arena *a, Function *f, PassStats *st, int left_identities) {
    Fold F = {a, f, ARENA_ARRAY(a, Operand, f->nvalues + 1), st, left_identities};
    fold_block(&F, &f->body);
    for (int i = 0; i < f->nvalues; i++)
        if (F.repl[i].kind != OPD_NONE) f->defs[i] = NULL;
}

void pass_fold(Arena *a, Function *f, PassStats *st) { fold_function(a, f, st, 1); }

void pass_fold_seed(Arena *a, Function *f, PassStats *st) { fold_function(a, f, st, 0); }
