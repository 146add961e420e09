/* Calls of helper @triton.jit functions (issue 13). The frontend is an
 * interpreter, so a call is evaluated inline: the arguments are bound in a
 * fresh environment, the body runs there (its statements go to the
 * caller's statement list), and the value of the `return` that ends it is
 * the call's value (a tuple for several values). A `return` may end the
 * body or a compile-time branch; one inside a runtime loop is an error, as
 * in Triton. Recursion is an error that names the cycle. */
#include "frontend/fe_internal.h"

enum { MAX_PARAMS = 64, MAX_CALL_DEPTH = 64, MAX_CALLS = 1 << 20 };

/* The parameters of a def: positional (posonly then plain), keyword-only,
 * each with its default node (or NULL). */
typedef struct Params {
    int n, npositional, nposonly;
    const PyNode *arg[MAX_PARAMS];
    const char *name[MAX_PARAMS];
    const PyNode *dflt[MAX_PARAMS];
} Params;

static void read_params(Interp *I, const UserFn *fn, Params *P) {
    const PyNode *args = pyast_node(fn->def, "args");
    if (!args) fe_fail(I, fn->def->pos, "malformed function");
    if (pyast_node(args, "vararg"))
        fe_fail(I, pyast_node(args, "vararg")->pos,
                "*args parameters are not supported in helper functions");
    if (pyast_node(args, "kwarg"))
        fe_fail(I, pyast_node(args, "kwarg")->pos,
                "**kwargs parameters are not supported in helper functions");
    const PyVal *lists[3] = {pyast_list(args, "posonlyargs"), pyast_list(args, "args"),
                             pyast_list(args, "kwonlyargs")};
    memset(P, 0, sizeof *P);
    for (int l = 0; l < 3; l++)
        for (int i = 0; lists[l] && i < lists[l]->len; i++) {
            const PyNode *a = fe_list_node(lists[l], i);
            if (!a || !pyast_str(a, "arg")) fe_fail(I, fn->def->pos, "malformed parameter");
            if (P->n >= MAX_PARAMS)
                fe_fail(I, a->pos, "a helper function has at most %d parameters", MAX_PARAMS);
            P->arg[P->n] = a;
            P->name[P->n] = pyast_str(a, "arg");
            P->n++;
            if (l == 0) P->nposonly++;
            if (l < 2) P->npositional++;
        }
    /* defaults: the last positional parameters; kw_defaults: one per
     * keyword-only parameter (None where it has none) */
    const PyVal *defaults = pyast_list(args, "defaults");
    int nd = defaults ? defaults->len : 0;
    for (int i = 0; i < nd; i++) P->dflt[P->npositional - nd + i] = fe_list_node(defaults, i);
    const PyVal *kwd = pyast_list(args, "kw_defaults");
    for (int i = 0; kwd && i < kwd->len && P->npositional + i < P->n; i++)
        P->dflt[P->npositional + i] = fe_list_node(kwd, i);
}

/* "a -> b -> a": the helpers from the first call of `fn` to here, then fn. */
static const char *cycle_text(Interp *I, const UserFn *fn) {
    const CallFrame *chain[MAX_CALL_DEPTH + 1];
    int n = 0;
    for (const CallFrame *f = I->frame; f && n < MAX_CALL_DEPTH; f = f->parent) {
        chain[n++] = f;
        if (f->fn == fn) break;
    }
    StrBuf sb;
    sb_init(&sb, I->a);
    for (int i = n - 1; i >= 0; i--) sb_printf(&sb, "%s -> ", chain[i]->fn->name);
    sb_printf(&sb, "%s", fn->name);
    return sb_str(&sb);
}

/* Module-level names are m's (positions carry their file: SrcPos.file). */
void fe_enter_module(Interp *I, FeModule *m) {
    I->mod = m;
    I->globals = m->globals;
}

void fe_note_call_chain(Interp *I) {
    for (const CallFrame *f = I->frame; f; f = f->parent)
        mt_note(I->ctx, f->call_pos, "in the call to '%s' here", f->fn->name);
}

/* Runs fn's body on arguments already evaluated: vals[i] bound to
 * parameter i where given[i]. */
static Val run_call(Interp *I, const UserFn *fn, const Params *P, Val *vals, const int *given,
                    const SrcPos *at, SrcPos call_pos) {
    for (int i = 0; i < P->n; i++) {
        if (given[i]) {
            if ((vals[i].kind == V_EXPR || vals[i].kind == V_BLOCKPTR) && fn->constexpr_fn)
                fe_fail(I, at[i],
                        "'%s' is a compile-time function (@tl.constexpr_function): its argument "
                        "'%s' needs a compile-time value, not %s",
                        fn->name, P->name[i], fe_kind_name(vals[i]));
            /* (a runtime value given to a parameter annotated tl.constexpr
             * is that value: Triton 3.6's call_JitFunction ignores the
             * annotation, and tutorial 06's attention passes its offs_m
             * block so) */
            continue;
        }
        if (!P->dflt[i])
            fe_fail(I, call_pos, "%s() missing required argument '%s'", fn->name, P->name[i]);
    }
    CallFrame frame = {fn, call_pos, I->mod, I->frame, I->depth};
    Env *saved_env = I->env;
    Env saved_locals = I->loop_locals;
    FeModule *saved_mod = I->mod;
    Env body_env = {0};
    I->frame = &frame;
    I->env = &body_env;
    memset(&I->loop_locals, 0, sizeof I->loop_locals);
    fe_enter_module(I, fn->mod);
    /* defaults are evaluated in the callee's module, as Python evaluates
     * them where the function is defined */
    for (int i = 0; i < P->n; i++) {
        Val v = given[i] ? vals[i] : fe_eval(I, P->dflt[i]);
        fe_env_set(I->a, &body_env, P->name[i], v, P->arg[i]->pos);
    }
    I->returned = 0;
    I->ret = vnone();
    fe_visit_body_marked(I, pyast_list(fn->def, "body"), CONT_ROOT);
    Val r = I->returned ? I->ret : vnone();
    I->returned = 0;
    I->ret = vnone();
    fe_enter_module(I, saved_mod);
    I->env = saved_env;
    I->loop_locals = saved_locals;
    I->frame = frame.parent;
    return r;
}

static void check_callable(Interp *I, const UserFn *fn, SrcPos call_pos) {
    if (!fn->jit)
        fe_fail(
            I, call_pos,
            "'%s' is not a @triton.jit function (decorate it with @triton.jit to call it from a "
            "kernel)",
            fn->name);
    if (pyast_isk(fn->def, PK_AsyncFunctionDef))
        fe_fail(I, call_pos, "'%s' is 'async': helper functions cannot be", fn->name);
    for (const CallFrame *f = I->frame; f; f = f->parent)
        if (f->fn == fn)
            fe_fail(I, call_pos, "recursive call: %s (recursion is not supported)",
                    cycle_text(I, fn));
    int depth = 0;
    for (const CallFrame *f = I->frame; f; f = f->parent) depth++;
    if (depth >= MAX_CALL_DEPTH)
        fe_fail(I, call_pos, "helper calls are nested more than %d deep", MAX_CALL_DEPTH);
    if (++I->ncalls > MAX_CALLS)
        fe_fail(I, call_pos, "more than %d helper calls (a compile-time loop unrolls too far?)",
                MAX_CALLS);
}

Val fe_call_function(Interp *I, Val fnv, const Val *args, int nargs, SrcPos call_pos) {
    if (fnv.kind != V_USERFUNC || !fnv.fn)
        fe_fail(I, call_pos, "%s is not a @triton.jit function", fe_kind_name(fnv));
    const UserFn *fn = fnv.fn;
    check_callable(I, fn, call_pos);
    Params P;
    read_params(I, fn, &P);
    if (nargs > P.npositional)
        fe_fail(I, call_pos, "%s() takes %d positional argument%s but %d were given", fn->name,
                P.npositional, P.npositional == 1 ? "" : "s", nargs);
    Val vals[MAX_PARAMS];
    int given[MAX_PARAMS] = {0};
    SrcPos at[MAX_PARAMS];
    for (int i = 0; i < nargs; i++) vals[i] = args[i], given[i] = 1, at[i] = call_pos;
    return run_call(I, fn, &P, vals, given, at, call_pos);
}

Val fe_call_user(Interp *I, const PyNode *call, Val fnv) {
    const UserFn *fn = fnv.fn;
    if (!fn) fe_fail(I, call->pos, "malformed function");
    check_callable(I, fn, call->pos);
    Params P;
    read_params(I, fn, &P);
    Val vals[MAX_PARAMS];
    int given[MAX_PARAMS] = {0};
    SrcPos at[MAX_PARAMS];
    const PyVal *args = pyast_list(call, "args");
    const PyVal *kws = pyast_list(call, "keywords");
    for (int j = 0; args && j < args->len; j++) {
        const PyNode *a = fe_list_node(args, j);
        if (!a) fe_fail(I, call->pos, "malformed call");
        if (pyast_isk(a, PK_Starred)) fe_fail(I, a->pos, "*args in calls are not supported");
        if (j >= P.npositional)
            fe_fail(I, a->pos, "%s() takes %d positional argument%s but %d were given", fn->name,
                    P.npositional, P.npositional == 1 ? "" : "s", args->len);
        vals[j] = fe_eval(I, a);
        given[j] = 1;
        at[j] = a->pos;
    }
    for (int j = 0; kws && j < kws->len; j++) {
        const PyNode *kw = fe_list_node(kws, j);
        const char *name = kw ? pyast_str(kw, "arg") : NULL;
        if (!kw) fe_fail(I, call->pos, "malformed call");
        if (!name) fe_fail(I, kw->pos, "**kwargs in calls are not supported");
        int k = -1;
        for (int p = P.nposonly; p < P.n; p++)
            if (strcmp(P.name[p], name) == 0) k = p;
        if (k < 0)
            fe_fail(I, kw->pos, "%s() got an unexpected keyword argument '%s'", fn->name, name);
        if (given[k])
            fe_fail(I, kw->pos, "%s() got multiple values for argument '%s'", fn->name, name);
        vals[k] = fe_eval(I, pyast_node(kw, "value"));
        given[k] = 1;
        at[k] = kw->pos;
    }
    return run_call(I, fn, &P, vals, given, at, call->pos);
}
