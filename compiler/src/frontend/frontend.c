/* The frontend: an interpreter over the kernel's Python AST (DESIGN 3.3,
 * the seed's ASTTracer). Compile-time values (constexprs, literals, range
 * over integers) follow Python semantics; everything symbolic builds
 * expression-tree nodes. Runtime `for` loops follow the seed exactly:
 * carried names are the names assigned in the body that existed before the
 * loop, in source order; the body is traced in an isolated environment;
 * captures are recorded by identity in first-use order and propagated to
 * enclosing loops; names first created in the body do not escape.
 *
 * Errors unwind with longjmp to frontend_build(): all memory is in the
 * compilation's arena, so nothing leaks. */
#include "frontend/fe_internal.h"

/* ---- Module scope, kernel lookup, parameters --------------------------- */

Val fe_module_val(Module m, const char *name) {
    Val v = {0};
    v.kind = V_MODULE;
    v.i = m;
    v.s = name;
    return v;
}

int fe_is_triton_module(const char *name) {
    return strcmp(name, "triton") == 0 || strcmp(name, "mytriton") == 0;
}
/* triton.language, or a submodule whose names Python code imports as
 * tl's (core, standard, random) or tl.math's: MOD_TL or MOD_TL_MATH; 0
 * (MOD_TRITON) if the name is none of them. */
Module fe_language_module(const char *name) {
    static const char *const prefixes[] = {"triton.language", "mytriton.language"};
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
        size_t n = strlen(prefixes[k]);
        if (strncmp(name, prefixes[k], n) != 0) continue;
        const char *rest = name + n;
        if (!*rest || strcmp(rest, ".core") == 0 || strcmp(rest, ".standard") == 0 ||
            strcmp(rest, ".random") == 0)
            return MOD_TL;
        if (strcmp(rest, ".math") == 0) return MOD_TL_MATH;
    }
    return MOD_TRITON;
}

int fe_is_language_module(const char *name) { return fe_language_module(name) != MOD_TRITON; }

/* triton.language.extra(.cuda) and its libdevice, by dotted name (also
 * under mytriton.language); MOD_OTHER for anything else. */
static Module extra_module(const char *name) {
    const char *rest = NULL;
    if (strncmp(name, "triton.language.extra", 21) == 0) rest = name + 21;
    else if (strncmp(name, "mytriton.language.extra", 23) == 0) rest = name + 23;
    if (!rest) return MOD_OTHER;
    if (strncmp(rest, ".cuda", 5) == 0) rest += 5;
    if (!*rest) return MOD_TL_EXTRA;
    return strcmp(rest, ".libdevice") == 0 ? MOD_LIBDEVICE : MOD_OTHER;
}

/* Whether an import names a module of the user's (a file to read). */
static int user_import(const PyNode *s, const char *name) {
    if (pyast_isk(s, PK_Import))
        return !fe_is_triton_module(name) && !fe_is_language_module(name) && !strchr(name, '.');
    const char *module = pyast_str(s, "module");
    if (!module) return 1;
    return strcmp(name, "*") != 0 && extra_module(module) == MOD_OTHER &&
           !fe_is_triton_module(module) && !fe_is_language_module(module);
}

static void import_alias(Interp *I, const PyNode *s, const PyNode *alias);

void fe_import_names(Interp *I, const PyNode *s) {
    const PyVal *names = pyast_list(s, "names");
    for (int i = 0; names && i < names->len; i++) {
        const PyNode *alias = fe_list_node(names, i);
        const char *name = alias ? pyast_str(alias, "name") : NULL;
        if (!name) continue;
        const Val *given = pyast_isk(s, PK_ImportFrom) ? fe_module_value(I, name) : NULL;
        if (given) {
            /* --module-value: a name of the Python side, fixed for this build */
            const char *as = pyast_str(alias, "asname");
            fe_env_set(I->a, &I->globals, as ? as : name, *given, alias->pos);
            continue;
        }
        if (I->lazy_imports && user_import(s, name)) {
            LazyImport *l = ARENA_NEW(I->a, LazyImport);
            l->stmt = s;
            l->alias = alias;
            l->importer = I->mod;
            l->conditional = I->conditional_imports;
            Val v = {0};
            v.kind = V_LAZY;
            v.lazy = l;
            const char *as = pyast_str(alias, "asname");
            fe_env_set(I->a, &I->globals, as ? as : name, v, alias->pos);
            continue;
        }
        import_alias(I, s, alias);
    }
}

Val fe_resolve(Interp *I, Val v) {
    if (v.kind != V_LAZY) return v;
    const LazyImport *l = v.lazy;
    FeModule *mod = I->mod;
    Env globals = I->globals;
    int conditional = I->conditional_imports, lazy = I->lazy_imports;
    I->mod = l->importer;
    /* a private copy: tables copied by value share their slots, so binding
     * into the importer's own would fill a table its copies count short */
    I->globals = fe_env_copy(I->a, &l->importer->globals);
    I->conditional_imports = l->conditional;
    I->lazy_imports = 0;
    import_alias(I, l->stmt, l->alias);
    const char *name = pyast_str(l->alias, "asname");
    if (!name) name = pyast_str(l->alias, "name");
    if (pyast_isk(l->stmt, PK_Import) && !pyast_str(l->alias, "asname") && strchr(name, '.'))
        name = arena_strndup(I->a, name, (size_t)(strchr(name, '.') - name));
    EnvEntry *e = fe_env_find(&I->globals, name);
    Val r = e ? e->v : fe_module_val(MOD_OTHER, name);
    I->mod = mod;
    I->globals = globals;
    I->conditional_imports = conditional;
    I->lazy_imports = lazy;
    return r;
}

/* One name of an import statement, bound in I->globals. */
static void import_alias(Interp *I, const PyNode *s, const PyNode *alias) {
    {
        const char *name = alias ? pyast_str(alias, "name") : NULL;
        const char *as = alias ? pyast_str(alias, "asname") : NULL;
        if (!name) return;
        if (pyast_isk(s, PK_Import)) {
            FeModule *um = NULL;
            if (!fe_is_triton_module(name) && !fe_is_language_module(name) && !strchr(name, '.'))
                um = fe_load_module(I, name, 0, alias->pos);
            if (um) {
                Val v = fe_module_val(MOD_USER, name);
                v.umod = um;
                fe_env_set(I->a, &I->globals, as ? as : name, v, alias->pos);
                return;
            }
            if (as) {
                Module m = fe_is_triton_module(name)     ? MOD_TRITON
                           : fe_is_language_module(name) ? fe_language_module(name)
                                                         : extra_module(name);
                fe_env_set(I->a, &I->globals, as, fe_module_val(m, name), alias->pos);
            } else {
                /* `import a.b` binds `a` */
                const char *dot = strchr(name, '.');
                const char *top = dot ? arena_strndup(I->a, name, (size_t)(dot - name)) : name;
                fe_env_set(I->a, &I->globals, top,
                           fe_module_val(fe_is_triton_module(top) ? MOD_TRITON : MOD_OTHER, top),
                           alias->pos);
            }
            return;
        }
        const char *module = pyast_str(s, "module");
        const char *bind = as ? as : name;
        const PyVal *lv = pyast_field(s, "level");
        int level = lv && lv->kind == PYV_INT ? (int)lv->i : 0;
        if (!module) {
            /* `from . import common`: the name is a module beside this file */
            FeModule *um = fe_load_module(I, name, level, alias->pos);
            if (!um && I->conditional_imports) {
                fe_env_set(I->a, &I->globals, bind, fe_module_val(MOD_OTHER, name), alias->pos);
                return;
            }
            if (!um)
                fe_fail(I, alias->pos, "no module '%s'%s (looked for %s)", name,
                        level <= 1 ? " beside this file" : "", fe_module_path(I, name, level));
            Val v = fe_module_val(MOD_USER, name);
            v.umod = um;
            fe_env_set(I->a, &I->globals, bind, v, alias->pos);
            return;
        }
        Module em = extra_module(module);
        if (em == MOD_TL_EXTRA) {
            /* from triton.language.extra(.cuda) import libdevice */
            Val v = fe_module_val(MOD_OTHER, arena_printf(I->a, "%s.%s", module, name));
            if (strcmp(name, "libdevice") == 0) v.i = MOD_LIBDEVICE;
            else if (strcmp(name, "cuda") == 0) v.i = MOD_TL_EXTRA;
            else if (fe_module_member(I, fe_module_val(MOD_TL_EXTRA, module), name).kind == V_FUNC)
                v = fe_module_member(I, fe_module_val(MOD_TL_EXTRA, module), name); /* smid */
            fe_env_set(I->a, &I->globals, bind, v, alias->pos);
            return;
        }
        if (em == MOD_LIBDEVICE) {
            /* from triton.language.extra.libdevice import tanh */
            Val v = fe_libdevice_member(name);
            if (v.kind == V_NONE)
                v = fe_module_val(MOD_OTHER, arena_printf(I->a, "%s.%s", module, name));
            fe_env_set(I->a, &I->globals, bind, v, alias->pos);
            return;
        }
        if (!fe_is_triton_module(module) && !fe_is_language_module(module)) {
            /* a relative import of a file that is not there fails, as in
             * Python; an absolute one may name a package of the Python
             * side (its names are errors only where a kernel uses them) */
            FeModule *um = fe_load_module(I, module, level, s->pos);
            if (!um && level > 0 && !I->conditional_imports)
                fe_fail(I, s->pos, "no module '%s'%s (looked for %s)", module,
                        level == 1 ? " beside this file" : "", fe_module_path(I, module, level));
            if (um) {
                if (strcmp(name, "*") == 0) {
                    for (int k = 0; k < um->globals.cap; k++)
                        if (um->globals.slots[k].name && um->globals.slots[k].v.kind == V_USERFUNC)
                            fe_env_set(I->a, &I->globals, um->globals.slots[k].name,
                                       um->globals.slots[k].v, alias->pos);
                    return;
                }
                /* a name it does not define as a function or constexpr (a
                 * variable of the Python side, say) is an error where a
                 * kernel uses it: Triton's, for a global that is not a
                 * constexpr */
                EnvEntry *e = fe_env_find(&um->globals, name);
                Val v = e ? e->v : (Val){0};
                /* `from pkg import mod`: a module of the package */
                FeModule *sub = e ? NULL
                                  : fe_load_module(I, arena_printf(I->a, "%s.%s", module, name),
                                                   level, alias->pos);
                if (sub) {
                    v = fe_module_val(MOD_USER, name);
                    v.umod = sub;
                } else if (!e) {
                    v.kind = V_NONCONST_GLOBAL;
                    v.s = bind;
                }
                fe_env_set(I->a, &I->globals, bind, v, alias->pos);
                return;
            }
        }
        if (strcmp(name, "*") == 0) return;
        Val v = {0};
        if (module && fe_is_triton_module(module)) {
            /* triton's members: its module_member's (jit, cdiv, language, ...) */
            v = fe_module_member(I, fe_module_val(MOD_TRITON, module), name);
            if (v.kind == V_NONE)
                v = fe_module_val(MOD_OTHER, arena_printf(I->a, "%s.%s", module, name));
        } else if (module && fe_is_language_module(module)) {
            v = fe_module_val(MOD_OTHER, arena_printf(I->a, "%s.%s", module, name));
            Val m = fe_tl_member(name, fe_language_module(module) == MOD_TL_MATH);
            if (m.kind == V_MODULE) m.s = arena_printf(I->a, "triton.language.%s", name);
            if (m.kind != V_NONE) v = m;
        } else {
            v = fe_module_val(MOD_OTHER, arena_printf(I->a, "%s.%s", module ? module : "", name));
        }
        fe_env_set(I->a, &I->globals, bind, v, alias->pos);
    }
}

int fe_is_jit_decorator(Interp *I, const PyNode *d) {
    if (pyast_isk(d, PK_Call)) d = pyast_node(d, "func");
    if (pyast_isk(d, PK_Name)) {
        if (!pyast_str(d, "id")) return 0;
        EnvEntry *e = fe_env_find(&I->globals, pyast_str(d, "id"));
        return e && e->v.kind == V_FUNC && e->v.i == B_JIT;
    }
    if (pyast_isk(d, PK_Attribute)) {
        const char *attr = pyast_str(d, "attr");
        const PyNode *base = pyast_node(d, "value");
        if (!attr || strcmp(attr, "jit") != 0 || !pyast_isk(base, PK_Name) ||
            !pyast_str(base, "id"))
            return 0;
        EnvEntry *e = fe_env_find(&I->globals, pyast_str(base, "id"));
        return e && e->v.kind == V_MODULE && e->v.i == MOD_TRITON;
    }
    return 0;
}

/* @tl.constexpr_function (Triton's Python function run at compile time),
 * also spelled @triton.language.constexpr_function, and @tl.constexpr on
 * a def, which Triton's constexpr makes callable the same way. */
int fe_is_constexpr_fn_decorator(Interp *I, const PyNode *d) {
    if (pyast_isk(d, PK_Call)) return 0;
    const char *last = pyast_isk(d, PK_Attribute) ? pyast_str(d, "attr")
                       : pyast_isk(d, PK_Name)    ? pyast_str(d, "id")
                                                  : NULL;
    if (!last) return 0;
    if (strcmp(last, "constexpr_function") == 0) return 1;
    return strcmp(last, "constexpr") == 0 && fe_is_constexpr_annotation(I, d);
}

int fe_is_constexpr_annotation(Interp *I, const PyNode *ann) {
    if (!ann) return 0;
    if (pyast_isk(ann, PK_Attribute)) {
        const char *attr = pyast_str(ann, "attr");
        return attr && strcmp(attr, "constexpr") == 0;
    }
    if (pyast_isk(ann, PK_Name)) {
        const char *id = pyast_str(ann, "id");
        EnvEntry *e = id ? fe_env_find(&I->globals, id) : NULL;
        return (e && e->v.kind == V_FUNC && e->v.i == B_CONSTEXPR) ||
               (id && strcmp(id, "constexpr") == 0);
    }
    if (pyast_isk(ann, PK_Constant)) {
        const PyVal *v = pyast_field(ann, "value");
        return v && v->kind == PYV_STR &&
               (strcmp(v->text, "tl.constexpr") == 0 || strcmp(v->text, "constexpr") == 0);
    }
    return 0;
}

int frontend_parse_define(const char *text, int *is_int, long long *i, double *f, int *is_bool) {
    *is_int = *is_bool = 0;
    if (strcmp(text, "True") == 0 || strcmp(text, "False") == 0) {
        *is_bool = 1;
        *i = text[0] == 'T';
        return 1;
    }
    if (!*text || isspace((unsigned char)text[0])) return 0;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 0);
    if (*end == 0 && errno == 0 && !(text[0] == '0' && text[1] >= '0' && text[1] <= '9')) {
        *is_int = 1;
        *i = v;
        return 1;
    }
    if (*end == 0 && errno == ERANGE) return 0;
    errno = 0;
    double d = strtod(text, &end);
    if (*end == 0 && !strchr(text, 'x') && !strchr(text, 'X')) {
        *f = d;
        return 1;
    }
    return 0;
}

/* A -D / CONSTEXPR value, read as a Python literal: an int, a float, True,
 * False, None, a dtype (tl.float16), or a string, written quoted ('x' or
 * "x") or bare (a word that is no other literal: ACTIVATION=leaky_relu). */
/* The option a value came from, as diagnostics spell it. */
static const char *define_option(Interp *I, const Define *d) {
    return mt_option_name(I->ctx, d->module_value ? MT_OPT_MODULE_VALUE : MT_OPT_DEFINE);
}

static Val define_tuple(Interp *I, const Define *d) {
    /* "(a, b, ...)": items split at commas outside quotes and parentheses */
    const char *t = d->value;
    size_t n = strlen(t);
    Val v = {0};
    v.kind = V_TUPLE;
    PtrVec items = {0};
    size_t start = 1;
    int depth = 0;
    char quote = 0;
    for (size_t k = 1; k < n; k++) {
        char c = t[k];
        if (quote) {
            if (c == quote) quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') quote = c;
        else if (c == '(') depth++;
        else if (c == ')' && depth > 0) depth--;
        else if ((c == ',' && depth == 0) || k == n - 1) {
            size_t a = start, b = k;
            while (a < b && isspace((unsigned char)t[a])) a++;
            while (b > a && isspace((unsigned char)t[b - 1])) b--;
            if (a == b) {
                /* "()" and "(1,)" end with no item; "(,)" and "(1,,2)" are errors */
                if (c == ',')
                    fe_fail(I, srcpos(0, 0), "%s %s=%s: an empty tuple item", define_option(I, d),
                            d->name, d->value);
            } else {
                Define *item = ARENA_NEW(I->a, Define);
                item->name = d->name;
                item->value = arena_strndup(I->a, t + a, b - a);
                item->module_value = d->module_value;
                Val *iv = ARENA_NEW(I->a, Val);
                *iv = fe_define_value(I, item);
                ptrvec_push(I->a, &items, iv);
            }
            start = k + 1;
        }
    }
    if (quote || depth)
        fe_fail(I, srcpos(0, 0), "%s %s=%s: unbalanced quotes or parentheses", define_option(I, d),
                d->name, d->value);
    v.n = items.len;
    v.items = ARENA_ARRAY(I->a, Val, items.len + 1);
    for (int i = 0; i < items.len; i++) v.items[i] = *(Val *)items.items[i];
    return v;
}

Val fe_define_value(Interp *I, const Define *d) {
    size_t len = strlen(d->value);
    if (len >= 2 && d->value[0] == '(' && d->value[len - 1] == ')') return define_tuple(I, d);
    int is_int, is_bool;
    long long i;
    double f;
    if (frontend_parse_define(d->value, &is_int, &i, &f, &is_bool)) {
        if (is_bool) return fe_vbool((int)i);
        if (is_int) return fe_vint(i);
        return fe_vfloat(f);
    }
    const char *t = d->value;
    size_t n = strlen(t);
    Val v = {0};
    v.kind = V_STR;
    if (strcmp(t, "None") == 0) return vnone();
    if (n >= 2 && (t[0] == '"' || t[0] == '\'') && t[n - 1] == t[0]) {
        v.s = arena_strndup(I->a, t + 1, n - 2);
        return v;
    }
    /* a number too large for 64 bits (digits, with a sign, a point, an exponent) */
    int numeric = isdigit((unsigned char)t[0]) ||
                  ((t[0] == '-' || t[0] == '+' || t[0] == '.') && isdigit((unsigned char)t[1]));
    for (size_t k = 1; numeric && k < n; k++)
        numeric = isdigit((unsigned char)t[k]) || t[k] == '.' || t[k] == '_' || t[k] == 'e' ||
                  t[k] == 'E' ||
                  ((t[k] == '-' || t[k] == '+') && (t[k - 1] == 'e' || t[k - 1] == 'E'));
    if (numeric)
        fe_fail(I, srcpos(0, 0), "%s %s=%s: the number is not a 64-bit integer or a float",
                define_option(I, d), d->name, d->value);
    int word = n > 0;
    for (size_t k = 0; k < n; k++)
        if (!(isalnum((unsigned char)t[k]) || t[k] == '_' || t[k] == '-' || t[k] == '.')) word = 0;
    if (!word)
        fe_fail(
            I, srcpos(0, 0),
            "%s %s=%s: the value must be an integer, a float, True, False, None or a string (quote "
            "it: %s='...')",
            define_option(I, d), d->name, d->value, d->name);
    /* --module-value only: a module of triton.language, as Python picks one
     * at import time (tl_extra_shim=triton.language.extra.cuda.libdevice) */
    if (d->module_value) {
        const char *full = strcmp(t, "tl") == 0 ? "triton.language"
                           : strncmp(t, "tl.", 3) == 0
                               ? arena_printf(I->a, "triton.language.%s", t + 3)
                               : t;
        Module m = extra_module(full);
        if (m == MOD_OTHER) m = fe_language_module(full);
        if (m != MOD_OTHER && m != MOD_TRITON) return fe_module_val(m, arena_strdup(I->a, full));
    }
    /* a dtype, as Triton's kernels take one (DTYPE=tl.float16) */
    static const char *const prefixes[] = {"tl.", "triton.language."};
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
        size_t pl = strlen(prefixes[k]);
        if (strncmp(t, prefixes[k], pl) != 0) continue;
        DType dt = dtype_by_triton(t + pl);
        if (dt == DT_NONE)
            fe_fail(I, srcpos(0, 0), "%s %s=%s: '%s' is not a dtype of triton.language",
                    define_option(I, d), d->name, d->value, t + pl);
        v.kind = V_DTYPE;
        v.i = dt;
        return v;
    }
    v.s = arena_strdup(I->a, t);
    return v;
}

static Val tuple_of(Interp *I, const Val *items, int n) {
    Val v = {0};
    v.kind = V_TUPLE;
    v.n = n;
    v.items = ARENA_ARRAY(I->a, Val, n + 1);
    for (int i = 0; i < n; i++) v.items[i] = items[i];
    return v;
}

/* A tensor descriptor parameter (signature `tensordesc<...>`) is passed as
 * its base, shape and strides: the runtime parameters after its own
 * (named NAME_shape0, ..., NAME_stride0, ...) are those parts, each a
 * parameter of the launcher. */
static void expand_descriptors(Interp *I, Kernel *k, const Signature *sig) {
    if (sig->n == k->nruntime) return;
    KernelParam **runtime = ARENA_ARRAY(I->a, KernelParam *, sig->n + 1);
    int n = 0;
    for (int j = 0; j < k->nruntime; j++) {
        KernelParam *p = k->runtime[j];
        const SigEntry *se = &sig->entries[n];
        p->runtime_index = n;
        runtime[n++] = p;
        for (int d = 0; d < 2 * se->desc_rank; d++) {
            KernelParam *q = ARENA_NEW(I->a, KernelParam);
            q->name = arena_printf(I->a, "%s_%s%d", p->name, d < se->desc_rank ? "shape" : "stride",
                                   d % se->desc_rank);
            q->pos = p->pos;
            for (int i = 0; i < k->nparams; i++)
                if (strcmp(k->params[i].name, q->name) == 0)
                    fe_fail(I, k->params[i].pos,
                            "the parameter '%s' has the name of a part of the tensor descriptor "
                            "'%s' (its shape and strides are passed as %s_shape0, ..., "
                            "%s_stride0, ...)",
                            q->name, p->name, p->name, p->name);
            q->runtime_index = n;
            runtime[n++] = q;
        }
    }
    k->runtime = runtime;
    k->nruntime = n;
}

/* A module's imports, in order. Imports inside module-level `if` and
 * `try` statements count too: a fallback (`try: from
 * triton.language.extra.libdevice import rsqrt` / `except ...: from
 * triton.language.math import rsqrt`) or a version test. The file is not
 * run: an `if` whose condition can be known (fe_module_condition) reads
 * its branch; otherwise every branch binds, read last to first, so a
 * name's binding is that of the first branch importing it, as when the
 * first branch runs (an `if`'s body, a `try`'s body) and succeeds. A `try`'s
 * `else` runs after its body, and its `finally` always: they come last.
 * A branch's import of a file that is not there is no error (that branch
 * may never run): its names are errors where a kernel uses them.
 * fe_module_walk visits module-level statements in that order (the
 * definitions too, fe_define_functions). */
void fe_module_walk(Interp *I, const PyVal *stmts, void (*visit)(Interp *, const PyNode *)) {
    for (int i = 0; stmts && i < stmts->len; i++) {
        const PyNode *s = fe_list_node(stmts, i);
        if (!s) continue;
        if (pyast_isk(s, PK_If)) {
            int holds = fe_module_condition(I, pyast_node(s, "test"));
            I->conditional_imports++;
            if (holds <= 0) fe_module_walk(I, pyast_list(s, "orelse"), visit);
            if (holds != 0) fe_module_walk(I, pyast_list(s, "body"), visit);
            I->conditional_imports--;
        } else if (pyast_isk(s, PK_Try) || pyast_isk(s, PK_TryStar)) {
            I->conditional_imports++;
            const PyVal *handlers = pyast_list(s, "handlers");
            for (int h = handlers ? handlers->len - 1 : -1; h >= 0; h--) {
                const PyNode *hn = fe_list_node(handlers, h);
                if (hn) fe_module_walk(I, pyast_list(hn, "body"), visit);
            }
            fe_module_walk(I, pyast_list(s, "body"), visit);
            fe_module_walk(I, pyast_list(s, "orelse"), visit);
            fe_module_walk(I, pyast_list(s, "finalbody"), visit);
            I->conditional_imports--;
        } else {
            visit(I, s);
        }
    }
}

static void import_stmt(Interp *I, const PyNode *s) {
    if (pyast_isk(s, PK_Import) || pyast_isk(s, PK_ImportFrom)) fe_import_names(I, s);
}

void fe_module_imports(Interp *I, const PyVal *stmts) { fe_module_walk(I, stmts, import_stmt); }

/* fe_find_kernel's walk: the kernel's definition Python would bind, and
 * the kernels defined, for the message when there is none. */
typedef struct KernelSearch {
    const char *name;
    const PyNode *def; /* the last `def name` walked */
    StrBuf found;      /* the @triton.jit functions' names, each once */
} KernelSearch;

static int jit_decorated(Interp *I, const PyNode *def) {
    const PyVal *decos = pyast_list(def, "decorator_list");
    int jit = 0;
    for (int d = 0; decos && d < decos->len; d++)
        jit |= fe_is_jit_decorator(I, fe_list_node(decos, d));
    return jit;
}

static void search_stmt(Interp *I, const PyNode *s) {
    KernelSearch *K = I->search;
    if (!(pyast_isk(s, PK_FunctionDef) || pyast_isk(s, PK_AsyncFunctionDef))) return;
    const char *fname = pyast_str(s, "name");
    if (!fname) return;
    if (strcmp(fname, K->name) == 0) K->def = s;
    if (!jit_decorated(I, s)) return;
    /* (listed once: a name defined twice, or in two branches) */
    const char *list = sb_str(&K->found);
    size_t n = strlen(fname);
    for (const char *p = strstr(list, fname); p; p = strstr(p + 1, fname))
        if ((p == list || p[-1] == ' ') && (p[n] == ',' || p[n] == 0)) return;
    sb_printf(&K->found, "%s%s", K->found.len ? ", " : "", fname);
}

/* The kernel's definition: the one Python binds at module level, walked
 * as the definitions are (fe_module_walk: module-level `if` and `try`
 * statements count), the last of several. */
const PyNode *fe_find_kernel(Interp *I, const PyNode *module, const char *name) {
    const PyVal *body = pyast_list(module, "body");
    KernelSearch K = {name, NULL, {0}};
    sb_init(&K.found, I->a);
    fe_module_imports(I, body);
    fe_define_functions(I, module);
    I->search = &K;
    fe_module_walk(I, body, search_stmt);
    I->search = NULL;
    I->mod->globals = I->globals;
    const PyNode *match = K.def;
    if (!match) {
        if (K.found.len)
            fe_fail(I, srcpos(0, 0), "no kernel named '%s' (kernels in this file: %s)", name,
                    sb_str(&K.found));
        fe_fail(I, srcpos(0, 0), "no kernel named '%s' (this file has no @triton.jit functions)",
                name);
    }
    if (pyast_isk(match, PK_AsyncFunctionDef))
        fe_fail(I, match->pos, "the kernel '%s' cannot be 'async'", name);
    if (!jit_decorated(I, match))
        fe_fail(I, match->pos, "'%s' is not a kernel: it is not decorated with @triton.jit", name);
    return match;
}

void fe_setup_params(Interp *I, const PyNode *fn, const Signature *sig, const Define *defs,
                     int ndefs) {
    const PyNode *args = pyast_node(fn, "args");
    if (!args) fe_fail(I, fn->pos, "malformed function");
    const PyVal *posonly = pyast_list(args, "posonlyargs");
    const PyVal *plain = pyast_list(args, "args");
    const PyVal *kwonly = pyast_list(args, "kwonlyargs");
    const PyVal *defaults = pyast_list(args, "defaults");
    if (pyast_node(args, "vararg"))
        fe_fail(I, pyast_node(args, "vararg")->pos,
                "*args parameters are not supported in kernels");
    if (pyast_node(args, "kwarg"))
        fe_fail(I, pyast_node(args, "kwarg")->pos,
                "**kwargs parameters are not supported in kernels");
    if (kwonly && kwonly->len)
        fe_fail(I, fe_list_node(kwonly, 0) ? fe_list_node(kwonly, 0)->pos : fn->pos,
                "keyword-only parameters are not supported in kernels");
    int n = (posonly ? posonly->len : 0) + (plain ? plain->len : 0);
    Kernel *k = I->k;
    k->nparams = n;
    k->params = ARENA_ARRAY(I->a, KernelParam, n + 1);
    k->runtime = ARENA_ARRAY(I->a, KernelParam *, n + 1);
    int ndefaults = defaults ? defaults->len : 0;
    for (int i = 0; i < n; i++) {
        const PyNode *arg = (posonly && i < posonly->len)
                                ? fe_list_node(posonly, i)
                                : fe_list_node(plain, i - (posonly ? posonly->len : 0));
        if (!arg) fe_fail(I, fn->pos, "malformed parameter");
        KernelParam *p = &k->params[i];
        p->name = pyast_str(arg, "arg");
        p->pos = arg->pos;
        if (!p->name) fe_fail(I, arg->pos, "malformed parameter");
        p->runtime_index = -1;
        for (int j = 0; j < i; j++)
            if (strcmp(k->params[j].name, p->name) == 0)
                fe_fail(I, arg->pos, "duplicate parameter '%s'", p->name);
        p->is_constexpr = fe_is_constexpr_annotation(I, pyast_node(arg, "annotation"));
        int di = i - (n - ndefaults);
        const PyNode *def = di >= 0 ? fe_list_node(defaults, di) : NULL;
        if (p->is_constexpr) {
            const Define *d = NULL;
            for (int j = 0; j < ndefs; j++)
                if (!defs[j].module_value && strcmp(defs[j].name, p->name) == 0) d = &defs[j];
            Val v;
            if (d) v = fe_define_value(I, d), p->constexpr_text = d->value;
            else if (def) {
                v = fe_eval(I, def);
                if (!fe_is_number(v) && v.kind != V_NONE && v.kind != V_STR && v.kind != V_TUPLE &&
                    v.kind != V_DTYPE)
                    fe_fail(I, def->pos,
                            "the default of constexpr '%s' must be a compile-time value", p->name);
                p->constexpr_text = v.kind == V_INT     ? arena_printf(I->a, "%lld", (long long)v.i)
                                    : v.kind == V_BOOL  ? (v.i ? "True" : "False")
                                    : v.kind == V_FLOAT ? const_repr(I->a, const_f32(v.f))
                                    : v.kind == V_NONE  ? "None"
                                                        : fe_val_str(I, v, 1);
            } else
                fe_fail(I, arg->pos,
                        "the constexpr parameter '%s' has no value (pass %s %s=<value>)", p->name,
                        mt_option_name(I->ctx, MT_OPT_DEFINE), p->name);
            fe_env_set(I->a, I->env, p->name, v, arg->pos);
        } else {
            p->runtime_index = k->nruntime;
            k->runtime[k->nruntime++] = p;
        }
    }
    for (int j = 0; j < ndefs; j++) {
        int found = 0;
        if (defs[j].module_value) continue; /* (frontend_build) */
        for (int i = 0; i < n; i++)
            if (strcmp(k->params[i].name, defs[j].name) == 0) {
                found = 1;
                if (!k->params[i].is_constexpr)
                    fe_fail(
                        I, k->params[i].pos,
                        "%s %s: '%s' is a runtime parameter (annotate it ': tl.constexpr' to fix "
                        "it at build time)",
                        mt_option_name(I->ctx, MT_OPT_DEFINE), defs[j].name, defs[j].name);
            }
        if (!found)
            fe_fail(I, fn->pos, "%s %s: the kernel '%s' has no parameter named '%s'",
                    mt_option_name(I->ctx, MT_OPT_DEFINE), defs[j].name, k->name, defs[j].name);
        for (int i = 0; i < j; i++)
            if (!defs[i].module_value && strcmp(defs[i].name, defs[j].name) == 0)
                fe_fail(I, srcpos(0, 0), "%s %s is given twice",
                        mt_option_name(I->ctx, MT_OPT_DEFINE), defs[j].name);
    }
    int ntop = 0;
    for (int i = 0; i < sig->n; i++) ntop += !sig->entries[i].desc_part;
    if (ntop != k->nruntime) {
        StrBuf names;
        sb_init(&names, I->a);
        for (int i = 0; i < k->nruntime; i++)
            sb_printf(&names, "%s%s", i ? ", " : "", k->runtime[i]->name);
        fe_fail(I, fn->pos, "%s has %d entr%s but the kernel '%s' has %d runtime parameter%s (%s)",
                mt_option_name(I->ctx, MT_OPT_SIGNATURE), ntop, ntop == 1 ? "y" : "ies", k->name,
                k->nruntime, k->nruntime == 1 ? "" : "s", k->nruntime ? sb_str(&names) : "none");
    }
    expand_descriptors(I, k, sig);
    for (int i = 0; i < k->nruntime; i++) {
        KernelParam *p = k->runtime[i];
        const SigEntry *se = &sig->entries[i];
        if (se->name && strcmp(se->name, p->name) != 0)
            fe_fail(I, p->pos, "%s entry %d is named '%s' but the parameter is '%s'",
                    mt_option_name(I->ctx, MT_OPT_SIGNATURE), i + 1, se->name, p->name);
        p->type = se->type;
        if (se->divisibility == 1) {
            /* `i32:1` (Triton's equal_to_1): the value is 1, a constexpr in
             * the body; the launcher keeps the parameter and checks it */
            if (p->type.ptr || !dtype_is_int((DType)p->type.dtype) || p->type.dtype == DT_BOOL)
                fe_fail(I, p->pos,
                        "%s entry %d ('%s'): the hint :1 says the value is 1, which only an "
                        "integer parameter can be",
                        mt_option_name(I->ctx, MT_OPT_SIGNATURE), i + 1, p->name);
            fe_env_set(I->a, I->env, p->name, fe_vint(1), p->pos);
            continue;
        }
        Expr *e = fe_new_expr(I, EX_PARAM, p->pos, p->type);
        e->param = i;
        fe_env_set(I->a, I->env, p->name, fe_vexpr(e), p->pos);
    }
    /* a descriptor parameter is tl.make_tensor_descriptor of its parts */
    for (int i = 0; i < k->nruntime; i++) {
        const SigEntry *se = &sig->entries[i];
        if (!se->desc_rank) continue;
        int rank = se->desc_rank;
        KernelParam *p = k->runtime[i];
        Args A = {0};
        Val parts[2][MT_MAX_RANK], blocks[MT_MAX_RANK];
        for (int d = 0; d < 2 * rank; d++)
            parts[d / rank][d % rank] = fe_env_find(I->env, k->runtime[i + 1 + d]->name)->v;
        for (int d = 0; d < rank; d++) blocks[d] = fe_vint(se->desc_block[d]);
        A.v[0] = fe_env_find(I->env, p->name)->v;
        A.v[1] = tuple_of(I, parts[0], rank);
        A.v[2] = tuple_of(I, parts[1], rank);
        A.v[3] = tuple_of(I, blocks, rank);
        for (int a = 0; a < 4; a++) A.given[a] = 1, A.pos[a] = p->pos;
        const char *what = arena_printf(I->a, "the tensor descriptor '%s'", p->name);
        fe_env_set(I->a, I->env, p->name, fe_make_tensor_descriptor(I, &A, what, p->pos), p->pos);
    }
}

/* frontend_build (body 1) and frontend_params (body 0). */
static Kernel *build(MtContext *ctx, const PyNode *module, const char *kernel_name,
                     const Signature *sig, const Define *defines, int ndefines, int body) {
    Interp *I = ARENA_NEW(ctx->arena, Interp);
    I->ctx = ctx;
    I->a = ctx->arena;
    Kernel *k = ARENA_NEW(I->a, Kernel);
    k->name = kernel_name;
    I->k = k;
    Env *env = ARENA_NEW(I->a, Env);
    I->env = env;
    StmtList *top = ARENA_NEW(I->a, StmtList);
    top->stmts = &k->body;
    I->list = top;
    FeModule *m = ARENA_NEW(I->a, FeModule);
    m->filename = ctx->filename;
    m->source = ctx->source;
    m->source_len = ctx->source_len;
    I->mod = I->kernel_mod = m;
    if (setjmp(I->fail)) return NULL;
    /* --module-value NAME=VALUE: module-level names Python computes, fixed
     * for this build (read before any module is) */
    I->module_values = ARENA_ARRAY(I->a, EnvEntry, ndefines + 1);
    for (int j = 0; j < ndefines; j++) {
        if (!defines[j].module_value) continue;
        for (int i = 0; i < I->nmodule_values; i++)
            if (strcmp(I->module_values[i].name, defines[j].name) == 0)
                fe_fail(I, srcpos(0, 0), "%s %s is given twice",
                        mt_option_name(ctx, MT_OPT_MODULE_VALUE), defines[j].name);
        EnvEntry *e = &I->module_values[I->nmodule_values++];
        e->name = defines[j].name;
        e->v = fe_define_value(I, &defines[j]);
    }
    const PyNode *fn = fe_find_kernel(I, module, kernel_name);
    k->pos = fn->pos;
    fe_setup_params(I, fn, sig, defines, ndefines);
    if (body) fe_visit_body_marked(I, pyast_list(fn, "body"), CONT_ROOT);
    return k;
}

Kernel *frontend_build(MtContext *ctx, const PyNode *module, const char *kernel_name,
                       const Signature *sig, const Define *defines, int ndefines) {
    return build(ctx, module, kernel_name, sig, defines, ndefines, 1);
}

Kernel *frontend_params(MtContext *ctx, const PyNode *module, const char *kernel_name,
                        const Signature *sig, const Define *defines, int ndefines) {
    return build(ctx, module, kernel_name, sig, defines, ndefines, 0);
}
