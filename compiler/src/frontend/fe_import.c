/* Modules imported beside the kernel's file (issue 13): `from common import
 * f`, `from .common import f`, `import common` then `common.f(...)`. The
 * file (common.py in the importing file's directory) is parsed by the same
 * parser shim, never executed: its imports and its functions are bound,
 * nothing else runs. Each file is read once; every file read is a
 * dependency of the compilation (ctx->deps, --depfile). */
#include "frontend/fe_internal.h"

#include <unistd.h>

/* The file of module `name` imported with `level` leading dots: level 1
 * (`.common`) is the importing file's directory, each further dot one
 * directory up; level 0 (`import common`) is looked for beside the
 * importing file (the caller tries its parents too: fe_load_module). */
const char *fe_module_path(Interp *I, const char *name, int level) {
    const char *importer = I->mod ? I->mod->filename : I->ctx->filename;
    const char *slash = strrchr(importer, '/');
    size_t dir = slash ? (size_t)(slash - importer) + 1 : 0; /* with its '/' */
    int ups = 0;
    for (int l = 1; l < level; l++) {
        /* drop the directory's last component, or go up with ".." */
        size_t k = dir;
        if (k > 0) k--; /* its '/' */
        while (k > 0 && importer[k - 1] != '/') k--;
        int dotdot = dir - k == 3 && strncmp(importer + k, "../", 3) == 0;
        int root = dir == 1 && importer[0] == '/';
        if (dir == 0 || dotdot || root) ups++;
        else dir = k;
    }
    StrBuf sb;
    sb_init(&sb, I->a);
    sb_putn(&sb, importer, dir);
    for (int u = 0; u < ups; u++) sb_puts(&sb, "../");
    for (const char *p = name; *p; p++) sb_putc(&sb, *p == '.' ? '/' : *p);
    sb_puts(&sb, ".py");
    return sb_str(&sb);
}

/* ---- Module-level conditions ------------------------------------------ */

/* The language version mytriton follows: `triton.__version__` in the
 * module-level conditions below. */
#define MT_TRITON_VERSION "3.6.0"

/* A value of a module-level condition: what can be known without running
 * Python. */
typedef enum { CV_UNKNOWN, CV_NONE, CV_INT, CV_STR, CV_VERSION } CondKind;
typedef struct CondVal {
    CondKind kind;
    int64_t i;     /* CV_INT */
    const char *s; /* CV_STR */
    int ver[4];    /* CV_VERSION: leading numbers of "3.6.0" */
} CondVal;

static CondVal cond_value(Interp *I, const PyNode *e);

/* The value --module-value gives a module-level name, or NULL. */
const Val *fe_module_value(const Interp *I, const char *name) {
    for (int i = 0; name && i < I->nmodule_values; i++)
        if (strcmp(I->module_values[i].name, name) == 0) return &I->module_values[i].v;
    return NULL;
}

/* The dotted name of a Name/Attribute chain ("os.environ.get"), or NULL. */
static const char *dotted(Interp *I, const PyNode *e) {
    if (pyast_isk(e, PK_Name)) return pyast_str(e, "id");
    if (!pyast_isk(e, PK_Attribute) || !pyast_str(e, "attr")) return NULL;
    const char *base = dotted(I, pyast_node(e, "value"));
    return base ? arena_printf(I->a, "%s.%s", base, pyast_str(e, "attr")) : NULL;
}

static CondVal cond_of_const(const PyVal *v) {
    CondVal c = {0};
    if (!v) return c;
    if (v->kind == PYV_NONE) c.kind = CV_NONE;
    else if (v->kind == PYV_BOOL || (v->kind == PYV_INT && v->int_fits))
        c.kind = CV_INT, c.i = v->i;
    else if (v->kind == PYV_STR) c.kind = CV_STR, c.s = v->text;
    return c;
}

static CondVal cond_call(Interp *I, const PyNode *e) {
    CondVal c = {0};
    const char *fn = dotted(I, pyast_node(e, "func"));
    const PyVal *args = pyast_list(e, "args"), *kws = pyast_list(e, "keywords");
    int nargs = args ? args->len : 0;
    if (!fn || (kws && kws->len)) return c;
    size_t n = strlen(fn);
    int ends_get = n >= 11 && strcmp(fn + n - 11, "environ.get") == 0;
    if ((ends_get || strcmp(fn, "os.getenv") == 0 || strcmp(fn, "getenv") == 0) &&
        (nargs == 1 || nargs == 2)) {
        /* os.environ.get(KEY, DEFAULT): the compiler's environment, as the
         * Python process's would be read */
        CondVal key = cond_value(I, fe_list_node(args, 0));
        if (key.kind != CV_STR) return c;
        const char *v = getenv(key.s);
        if (v) {
            c.kind = CV_STR;
            c.s = arena_strdup(I->a, v);
            return c;
        }
        if (nargs == 2) return cond_value(I, fe_list_node(args, 1));
        c.kind = CV_NONE;
        return c;
    }
    const char *last = strrchr(fn, '.');
    last = last ? last + 1 : fn;
    if ((strcmp(last, "Version") == 0 || strcmp(fn, "version.parse") == 0 ||
         strcmp(fn, "packaging.version.parse") == 0) &&
        nargs == 1) {
        CondVal v = cond_value(I, fe_list_node(args, 0));
        if (v.kind != CV_STR) return c;
        c.kind = CV_VERSION;
        const char *p = v.s;
        for (int k = 0; k < 4 && *p >= '0' && *p <= '9'; k++) {
            c.ver[k] = (int)strtol(p, (char **)&p, 10);
            if (*p != '.') break;
            p++;
        }
    }
    return c;
}

static int cond_truth(CondVal v) {
    return v.kind == CV_UNKNOWN ? -1
           : v.kind == CV_NONE  ? 0
           : v.kind == CV_INT   ? v.i != 0
           : v.kind == CV_STR   ? *v.s != 0
                                : 1;
}

static CondVal cond_bool(int t) {
    CondVal c = {0};
    if (t >= 0) c.kind = CV_INT, c.i = t;
    return c;
}

/* -1, 0, 1 as a < b, a == b, a > b; 2 when they do not compare */
static int cond_order(CondVal a, CondVal b) {
    if (a.kind != b.kind || a.kind == CV_UNKNOWN) return 2;
    if (a.kind == CV_INT) return (a.i > b.i) - (a.i < b.i);
    if (a.kind == CV_STR) {
        int r = strcmp(a.s, b.s);
        return (r > 0) - (r < 0);
    }
    if (a.kind == CV_VERSION) {
        for (int k = 0; k < 4; k++)
            if (a.ver[k] != b.ver[k]) return a.ver[k] < b.ver[k] ? -1 : 1;
        return 0;
    }
    return 0; /* None == None */
}

static CondVal cond_value(Interp *I, const PyNode *e) {
    CondVal c = {0};
    if (!e) return c;
    if (pyast_isk(e, PK_Constant)) return cond_of_const(pyast_field(e, "value"));
    if (pyast_isk(e, PK_Attribute)) {
        const char *name = dotted(I, e);
        if (!name || !pyast_isk(pyast_node(e, "value"), PK_Name)) return c;
        EnvEntry *g = fe_env_find(&I->globals, pyast_str(pyast_node(e, "value"), "id"));
        if (g && g->v.kind == V_MODULE && g->v.i == MOD_TRITON &&
            strcmp(pyast_str(e, "attr"), "__version__") == 0) {
            c.kind = CV_STR;
            c.s = MT_TRITON_VERSION;
        }
        return c;
    }
    if (pyast_isk(e, PK_Name)) {
        const Val *mv = fe_module_value(I, pyast_str(e, "id"));
        EnvEntry *g = mv ? NULL : fe_env_find(&I->globals, pyast_str(e, "id"));
        Val v = mv ? *mv : g ? g->v : (Val){0};
        if (v.kind == V_INT || v.kind == V_BOOL) c.kind = CV_INT, c.i = v.i;
        else if (mv && v.kind == V_NONE) c.kind = CV_NONE;
        else if (mv && v.kind == V_STR) c.kind = CV_STR, c.s = v.s;
        return c;
    }
    if (pyast_isk(e, PK_Call)) return cond_call(I, e);
    if (pyast_isk(e, PK_UnaryOp) && pyast_isk(pyast_node(e, "op"), PK_Not)) {
        int t = cond_truth(cond_value(I, pyast_node(e, "operand")));
        return cond_bool(t < 0 ? -1 : !t);
    }
    if (pyast_isk(e, PK_BoolOp)) {
        int is_and = pyast_isk(pyast_node(e, "op"), PK_And);
        const PyVal *vals = pyast_list(e, "values");
        int result = is_and; /* the value when every operand is known */
        for (int k = 0; vals && k < vals->len; k++) {
            int t = cond_truth(cond_value(I, fe_list_node(vals, k)));
            if (t == !is_and) return cond_bool(!is_and); /* decided: false for and, true for or */
            if (t < 0) result = -1;
        }
        return cond_bool(result);
    }
    if (pyast_isk(e, PK_Compare)) {
        const PyVal *ops = pyast_list(e, "ops"), *comps = pyast_list(e, "comparators");
        if (!ops || !comps || ops->len != 1 || comps->len != 1) return c;
        int o =
            cond_order(cond_value(I, pyast_node(e, "left")), cond_value(I, fe_list_node(comps, 0)));
        if (o == 2) return c;
        const PyNode *op = fe_list_node(ops, 0);
        return pyast_isk(op, PK_Eq)      ? cond_bool(o == 0)
               : pyast_isk(op, PK_NotEq) ? cond_bool(o != 0)
               : pyast_isk(op, PK_Lt)    ? cond_bool(o < 0)
               : pyast_isk(op, PK_LtE)   ? cond_bool(o <= 0)
               : pyast_isk(op, PK_Gt)    ? cond_bool(o > 0)
               : pyast_isk(op, PK_GtE)   ? cond_bool(o >= 0)
                                         : c;
    }
    return c;
}

/* Whether a module-level `if` condition holds: 1, 0, or -1 when it
 * cannot be known without running Python. Known: literals, module-level
 * constexprs, `triton.__version__` (mytriton's Triton version),
 * `os.environ.get(KEY, DEFAULT)` / `os.getenv` (the compiler's
 * environment), `Version(...)` / `version.parse(...)` of those, `not`,
 * `and`, `or` and one comparison. */
int fe_module_condition(Interp *I, const PyNode *test) { return cond_truth(cond_value(I, test)); }

/* A module-level constexpr, as Triton lets kernels read them:
 * `NAME = tl.constexpr(value)`. Any other assigned name (`NAME = 4`, and
 * `NAME: tl.constexpr = 4`, which Triton 3.6 rejects too) is bound to a
 * marker whose use in a kernel is Triton's error; other module-level
 * statements are ignored. */
/* What a module-level `NAME = a.b.c` names, read without diagnostics:
 * a global's value, a module's member; V_NONE otherwise. */
static Val module_alias(Interp *I, const PyNode *e) {
    Val none = {0};
    none.kind = V_NONE;
    if (pyast_isk(e, PK_Name)) {
        const char *id = pyast_str(e, "id");
        EnvEntry *g = id ? fe_env_find(&I->globals, id) : NULL;
        return g ? fe_resolve(I, g->v) : none;
    }
    if (pyast_isk(e, PK_Attribute) && pyast_str(e, "attr")) {
        Val base = module_alias(I, pyast_node(e, "value"));
        return base.kind == V_MODULE ? fe_module_member(I, base, pyast_str(e, "attr")) : none;
    }
    return none;
}

/* Whether a module-level constexpr's expression is one mytriton evaluates:
 * literals, operators, names and attributes of compile-time values (tl's
 * dtypes and functions, other constexprs), calls of tl and triton
 * functions; not a call into Python (torch.finfo(...), os.cpu_count()). */
static int evaluable(Interp *I, const PyNode *e) {
    if (!e) return 1;
    switch (e->kind_id) {
    case PK_Constant: return 1;
    case PK_Name:
    case PK_Attribute: {
        Val v = module_alias(I, e);
        if (v.kind == V_NONE && pyast_isk(e, PK_Name)) {
            const char *id = pyast_str(e, "id");
            return id && !fe_env_find(&I->globals, id); /* a builtin: range, float, ... */
        }
        return v.kind != V_NONE && v.kind != V_NONCONST_GLOBAL &&
               !(v.kind == V_MODULE && v.i == MOD_OTHER);
    }
    case PK_Call: {
        const PyVal *args = pyast_list(e, "args"), *kws = pyast_list(e, "keywords");
        if (!evaluable(I, pyast_node(e, "func"))) return 0;
        for (int k = 0; args && k < args->len; k++)
            if (!evaluable(I, fe_list_node(args, k))) return 0;
        for (int k = 0; kws && k < kws->len; k++)
            if (!evaluable(I, pyast_node(fe_list_node(kws, k), "value"))) return 0;
        return 1;
    }
    case PK_UnaryOp: return evaluable(I, pyast_node(e, "operand"));
    case PK_BinOp:
        return evaluable(I, pyast_node(e, "left")) && evaluable(I, pyast_node(e, "right"));
    case PK_IfExp:
        return evaluable(I, pyast_node(e, "test")) && evaluable(I, pyast_node(e, "body")) &&
               evaluable(I, pyast_node(e, "orelse"));
    case PK_BoolOp:
    case PK_Tuple:
    case PK_List:
    case PK_Compare: {
        const char *field = e->kind_id == PK_BoolOp    ? "values"
                            : e->kind_id == PK_Compare ? "comparators"
                                                       : "elts";
        const PyVal *items = pyast_list(e, field);
        if (e->kind_id == PK_Compare && !evaluable(I, pyast_node(e, "left"))) return 0;
        for (int k = 0; items && k < items->len; k++)
            if (!evaluable(I, fe_list_node(items, k))) return 0;
        return 1;
    }
    default: return 0;
    }
}

static void define_global(Interp *I, const PyNode *s) {
    const PyNode *target = NULL, *value = pyast_node(s, "value");
    int constexpr_ann = 0;
    if (pyast_isk(s, PK_AnnAssign)) {
        target = pyast_node(s, "target");
        constexpr_ann = fe_is_constexpr_annotation(I, pyast_node(s, "annotation"));
    } else {
        const PyVal *targets = pyast_list(s, "targets");
        if (targets && targets->len == 1) target = fe_list_node(targets, 0);
    }
    if (!target || !value || !pyast_isk(target, PK_Name) || !pyast_str(target, "id")) return;
    const Val *given = fe_module_value(I, pyast_str(target, "id"));
    if (given) {
        /* --module-value: what Python computes here, fixed for this build */
        fe_env_set(I->a, &I->globals, pyast_str(target, "id"), *given, target->pos);
        return;
    }
    int constexpr_call = 0;
    if (pyast_isk(value, PK_Call)) {
        const PyNode *fn = pyast_node(value, "func");
        const char *attr = pyast_isk(fn, PK_Attribute) ? pyast_str(fn, "attr")
                           : pyast_isk(fn, PK_Name)    ? pyast_str(fn, "id")
                                                       : NULL;
        constexpr_call = attr && strcmp(attr, "constexpr") == 0;
    }
    if (!constexpr_call) {
        /* an alias of a function, module or dtype (`tanh = libdevice.tanh`)
         * is bound; names bound to other expressions (calls, other names)
         * stay unbound: only literal values get Triton's error */
        Val alias = module_alias(I, value);
        if (alias.kind == V_FUNC || alias.kind == V_OPFN || alias.kind == V_USERFUNC ||
            alias.kind == V_MODULE || alias.kind == V_DTYPE) {
            fe_env_set(I->a, &I->globals, pyast_str(target, "id"), alias, target->pos);
            return;
        }
        /* a member that a module of triton.language lacks (`pw = shim.pow`
         * where shim is tl.math): Python fails at import; an error where a
         * kernel reads it */
        if (pyast_isk(value, PK_Attribute)) {
            const PyNode *of = pyast_node(value, "value");
            Val base = module_alias(I, of);
            if (base.kind == V_MODULE && base.i != MOD_OTHER && base.i != MOD_USER &&
                base.i != MOD_TRITON && dotted(I, of)) {
                Val bad = {0};
                bad.kind = V_NONCONST_GLOBAL;
                bad.i = 3;
                bad.s = arena_printf(I->a,
                                     "%s.%s, and %s has no '%s' (Python fails here at import; "
                                     "if a module is chosen at import time, name it: "
                                     "--module-value %s=triton.language.extra.cuda.libdevice)",
                                     dotted(I, of), pyast_str(value, "attr"),
                                     base.s ? base.s : dotted(I, of), pyast_str(value, "attr"),
                                     dotted(I, of));
                fe_env_set(I->a, &I->globals, pyast_str(target, "id"), bad, target->pos);
                return;
            }
        }
        if (!constexpr_ann && (pyast_isk(value, PK_Attribute) || pyast_isk(value, PK_Name) ||
                               pyast_isk(value, PK_Call)))
            return;
        Val bad = {0};
        bad.kind = V_NONCONST_GLOBAL;
        bad.s = pyast_str(target, "id");
        bad.i = constexpr_ann;
        fe_env_set(I->a, &I->globals, bad.s, bad, target->pos);
        return;
    }
    if (!evaluable(I, value)) {
        /* computed by Python (`tl.constexpr(torch.finfo(torch.float32).min)`):
         * an error where a kernel reads it */
        Val bad = {0};
        bad.kind = V_NONCONST_GLOBAL;
        bad.s = pyast_str(target, "id");
        bad.i = 2;
        fe_env_set(I->a, &I->globals, bad.s, bad, target->pos);
        return;
    }
    Val v = fe_eval(I, value);
    if (v.kind == V_EXPR)
        fe_fail(I, value->pos, "the module-level constexpr '%s' needs a compile-time value",
                pyast_str(target, "id"));
    fe_env_set(I->a, &I->globals, pyast_str(target, "id"), v, target->pos);
}

/* A module-level definition: a function, a constexpr, an alias. Those in
 * `if` and `try` branches count, the first branch's binding kept
 * (fe_module_walk). */
static void define_stmt(Interp *I, const PyNode *s) {
    if (pyast_isk(s, PK_Assign) || pyast_isk(s, PK_AnnAssign)) define_global(I, s);
    if (!(pyast_isk(s, PK_FunctionDef) || pyast_isk(s, PK_AsyncFunctionDef))) return;
    const char *fname = pyast_str(s, "name");
    if (!fname) return;
    int jit = 0, constexpr_fn = 0;
    const PyVal *decos = pyast_list(s, "decorator_list");
    for (int d = 0; decos && d < decos->len; d++) {
        jit |= fe_is_jit_decorator(I, fe_list_node(decos, d));
        constexpr_fn |= fe_is_constexpr_fn_decorator(I, fe_list_node(decos, d));
    }
    UserFn *fn = ARENA_NEW(I->a, UserFn);
    fn->name = fname;
    fn->def = s;
    fn->mod = I->mod;
    fn->jit = jit || constexpr_fn;
    fn->constexpr_fn = constexpr_fn && !jit;
    Val uf = {0};
    uf.kind = V_USERFUNC;
    uf.s = fname;
    uf.fn = fn;
    fe_env_set(I->a, &I->globals, fname, uf, s->pos);
}

void fe_define_functions(Interp *I, const PyNode *module) {
    fe_module_walk(I, pyast_list(module, "body"), define_stmt);
}

FeModule *fe_load_module(Interp *I, const char *name, int level, SrcPos at) {
    if (!name || !*name) return NULL;
    /* `import pkg.mod` (level 0): beside the importer, else in the
     * directories above it (a project's root, as on sys.path); a module is
     * NAME.py or a package, NAME/__init__.py */
    const char *path = NULL;
    for (int up = level ? level : 1; !path && up <= (level ? level : 8); up++) {
        const char *file = fe_module_path(I, name, up);
        const char *init = arena_printf(I->a, "%.*s/__init__.py", (int)(strlen(file) - 3), file);
        path = access(file, F_OK) == 0 ? file : access(init, F_OK) == 0 ? init : NULL;
    }
    if (!path) return NULL;
    for (int i = 0; i < I->modules.len; i++) {
        FeModule *m = I->modules.items[i];
        /* a module being loaded (a circular import, as a package's
         * __init__.py importing its own submodules) is returned as it
         * stands, as Python returns a partly initialized module: its
         * names are not bound yet, its submodules load on their own */
        if (strcmp(m->filename, path) == 0) return m;
    }
    if (access(path, F_OK) != 0) return NULL;
    MtContext *ctx = I->ctx;
    if (!ctx->shim)
        fe_fail(I, at, "cannot import '%s' (%s): no parser shim to read it with", name, path);
    FeModule *importer = I->mod;
    Env importer_globals = I->globals;
    /* the shim's diagnostics name the module's file and quote it */
    const char *kernel_file = ctx->filename, *kernel_source = ctx->source;
    size_t kernel_len = ctx->source_len;
    ctx->filename = path;
    ctx->source = NULL;
    ctx->source_len = 0;
    /* the module's nodes point into it (SrcPos.file) */
    ctx->parse_file = ctx->files.len + 1;
    PyNode *root = pyast_parse_file(ctx, ctx->python, ctx->shim);
    ctx->parse_file = 0;
    MtFile *file = ARENA_NEW(I->a, MtFile);
    file->name = path;
    file->source = ctx->source;
    file->source_len = ctx->source_len;
    ptrvec_push(I->a, &ctx->files, file);
    ctx->filename = kernel_file;
    ctx->source = kernel_source;
    ctx->source_len = kernel_len;
    FeModule *m = ARENA_NEW(I->a, FeModule);
    m->name = arena_strdup(I->a, name);
    m->filename = path;
    m->source = ctx->source;
    m->source_len = ctx->source_len;
    fe_enter_module(I, importer);
    I->globals = importer_globals;
    if (!root) {
        /* the shim's diagnostic names the module's file; say who imported it */
        mt_note(ctx, at, "'%s' is imported here", name);
        fe_note_call_chain(I);
        longjmp(I->fail, 1);
    }
    ptrvec_push(I->a, &I->modules, m);
    ptrvec_push(I->a, &ctx->deps, (void *)path);
    m->loading = 1;
    fe_enter_module(I, m);
    /* its imports of other user modules are read when used (fe_resolve) */
    I->lazy_imports++;
    fe_module_imports(I, pyast_list(root, "body"));
    I->lazy_imports--;
    fe_define_functions(I, root);
    m->globals = I->globals;
    m->loading = 0;
    fe_enter_module(I, importer);
    I->globals = importer_globals;
    return m;
}
