/* The pass pipeline and shared rewriting helpers. */
#include "passes/passes.h"

#include "passes/outer.h"
#include "passes/ptrshape.h"
#include "passes/rank.h"
#include "ir/verify.h"

int ssa_has_loops(const Function *f) {
    for (int i = 0; i < f->body.items.len; i++)
        if (op_has(((Inst *)f->body.items.items[i])->op, OPF_REGION)) return 1;
    return 0;
}

Operand ssa_resolve(const Operand *repl, Operand o) {
    int guard = 0;
    while (o.kind == OPD_VALUE && repl[o.id].kind != OPD_NONE && guard++ < 1000000) o = repl[o.id];
    return o;
}

static void replace_one(Operand *o, void *user) { *o = ssa_resolve((const Operand *)user, *o); }

void ssa_apply_replacements(Block *b, const Operand *repl) {
    for (int i = 0; i < b->items.len; i++)
        ssa_for_each_operand(b->items.items[i], 1, replace_one, (void *)repl);
}

typedef struct Pipeline {
    MtContext *ctx;
    Function *f;
} Pipeline;

static int verify_after(Pipeline *P, const char *stage) {
    const char *err;
    if (ssa_verify(P->ctx->arena, P->f, &err)) return 1;
    mt_error(P->ctx, srcpos(0, 0), "internal error: the SSA verifier rejected the output of %s: %s",
             stage, err);
    return 0;
}

int passes_run(MtContext *ctx, Function *f, int opt_level, PassStats *st) {
    Pipeline P = {ctx, f};
    PassStats local = {0};
    if (!st) st = &local;
    if (!verify_after(&P, "SSA lowering")) return 0;
    if (rank_needs_lowering(f)) {
        if (!pass_rank(ctx, f)) return 0;
        if (!verify_after(&P, "the rank lowering")) return 0;
        MT_ASSERT(!rank_needs_lowering(f));
    }
    /* (every level: the CUDA and host backends need it) */
    if (pass_pointer_shapes(ctx->arena, f) && !verify_after(&P, "the pointer shape rewrite"))
        return 0;
    if (opt_level <= 0) return 1;
    if (opt_level == 1) {
        if (ssa_has_loops(f)) return 1; /* the seed's conservative rule */
        pass_fold_seed(ctx->arena, f, st);
        if (!verify_after(&P, "constant folding")) return 0;
        pass_cse(ctx->arena, f, st);
        if (!verify_after(&P, "CSE")) return 0;
        pass_dce(ctx->arena, f, st);
        return verify_after(&P, "DCE");
    }
    static const struct {
        const char *name;
        void (*run)(Arena *, Function *, PassStats *);
    } pipeline[] = {{"constant folding", pass_fold},
                    {"CSE", pass_cse},
                    {"invariant lanes", pass_lanes},
                    {"LICM", pass_licm},
                    {"outer-product loops", pass_outer},
                    {"constant "
                     "folding",
                     pass_fold},
                    {"CSE", pass_cse},
                    {"DCE", pass_dce}};
    for (size_t i = 0; i < sizeof pipeline / sizeof pipeline[0]; i++) {
        pipeline[i].run(ctx->arena, f, st);
        if (!verify_after(&P, pipeline[i].name)) return 0;
    }
    return 1;
}
