/* Dispatching launchers (mytriton_add_kernels CONFIGS/KEY/RESTORE/WHEN/
 * SPECIALIZE): launch_NAME() over the separately compiled variants
 * NAME_cfg<i> (config i) and NAME_cfg<i>_d16 (config i with Triton's
 * divisibility specialization: pointers 16-byte aligned, integer parameters
 * divisible by 16). The launcher picks the _d16 variant when the arguments
 * qualify, and the config from the runtime's autotuning table
 * (mytriton/autotune.h), timing the configs on the first call of a new key.
 * With one config there is no table: only the specialization test. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cgen/cgen.h"
#include "launch/emit.h"

#define VERSION_LINE "mytritonc " MT_VERSION

/* ---- conditions and extents --------------------------------------------
 * A small expression language over names: integers, names, + - * // / %,
 * unary -, comparisons, and/or/not (also && || !), parentheses. It is
 * translated to C over int64_t with the runtime's checked helpers
 * (mytriton_i64_*, setting `ok` to 0 on overflow or a zero divisor). */

typedef struct ExprParser {
    MtContext *ctx;
    Arena *a;
    const char *what; /* "WHEN of config 2" */
    const char *text;
    const char *p;
    int nnames;
    const char *const *names;   /* allowed names */
    const char *const *c_names; /* their C expressions */
    int failed;
} ExprParser;

static void skip_ws(ExprParser *P) {
    while (*P->p == ' ' || *P->p == '\t') P->p++;
}

static int accept(ExprParser *P, const char *tok) {
    size_t n = strlen(tok);
    skip_ws(P);
    if (strncmp(P->p, tok, n) != 0) return 0;
    if (isalpha((unsigned char)tok[0]) && (isalnum((unsigned char)P->p[n]) || P->p[n] == '_'))
        return 0;
    /* "<" must not take the start of "<=", "/" of "//", "=" is never alone */
    if ((strcmp(tok, "<") == 0 || strcmp(tok, ">") == 0) && P->p[1] == '=') return 0;
    if (strcmp(tok, "/") == 0 && P->p[1] == '/') return 0;
    P->p += n;
    return 1;
}

static const char *perr(ExprParser *P, const char *msg) {
    if (!P->failed)
        mt_error(P->ctx, srcpos(0, 0), "%s: %s in '%s' at offset %d", P->what, msg, P->text,
                 (int)(P->p - P->text));
    P->failed = 1;
    return "0";
}

static const char *p_or(ExprParser *P);

static const char *p_primary(ExprParser *P) {
    skip_ws(P);
    if (P->failed) return "0";
    if (accept(P, "(")) {
        const char *e = p_or(P);
        if (!accept(P, ")")) return perr(P, "expected ')'");
        return e;
    }
    if (isdigit((unsigned char)*P->p)) {
        const char *s = P->p;
        while (isdigit((unsigned char)*P->p)) P->p++;
        if (P->p - s > 18) return perr(P, "integer too large");
        return arena_printf(P->a, "INT64_C(%.*s)", (int)(P->p - s), s);
    }
    if (isalpha((unsigned char)*P->p) || *P->p == '_') {
        const char *s = P->p;
        while (isalnum((unsigned char)*P->p) || *P->p == '_') P->p++;
        const char *name = arena_strndup(P->a, s, (size_t)(P->p - s));
        for (int i = 0; i < P->nnames; i++)
            if (strcmp(P->names[i], name) == 0) return P->c_names[i];
        P->p = s;
        StrBuf sb;
        sb_init(&sb, P->a);
        for (int i = 0; i < P->nnames; i++) sb_printf(&sb, "%s%s", i ? ", " : "", P->names[i]);
        return perr(P, arena_printf(P->a, "unknown name '%s' (names: %s)", name,
                                    P->nnames ? sb_str(&sb) : "none"));
    }
    return perr(P, *P->p ? "unexpected character" : "unexpected end");
}

static const char *p_unary(ExprParser *P) {
    if (accept(P, "-")) return arena_printf(P->a, "mytriton_i64_sub(0, %s, &ok)", p_unary(P));
    if (accept(P, "+")) return p_unary(P);
    return p_primary(P);
}

static const char *p_term(ExprParser *P) {
    const char *e = p_unary(P);
    for (;;) {
        if (accept(P, "*")) e = arena_printf(P->a, "mytriton_i64_mul(%s, %s, &ok)", e, p_unary(P));
        else if (accept(P, "//") || accept(P, "/"))
            e = arena_printf(P->a, "mytriton_i64_floordiv(%s, %s, &ok)", e, p_unary(P));
        else if (accept(P, "%"))
            e = arena_printf(P->a, "mytriton_i64_mod(%s, %s, &ok)", e, p_unary(P));
        else return e;
    }
}

static const char *p_sum(ExprParser *P) {
    const char *e = p_term(P);
    for (;;) {
        if (accept(P, "+")) e = arena_printf(P->a, "mytriton_i64_add(%s, %s, &ok)", e, p_term(P));
        else if (accept(P, "-"))
            e = arena_printf(P->a, "mytriton_i64_sub(%s, %s, &ok)", e, p_term(P));
        else return e;
    }
}

static const char *p_cmp(ExprParser *P) {
    static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
    const char *e = p_sum(P);
    for (int k = 0; k < 6; k++) {
        if (accept(P, ops[k])) {
            e = arena_printf(P->a, "(int64_t)(%s %s %s)", e, ops[k], p_sum(P));
            for (int j = 0; j < 6; j++) {
                skip_ws(P);
                if (strncmp(P->p, ops[j], strlen(ops[j])) == 0)
                    return perr(P, "chained comparison (use 'and')");
            }
            return e;
        }
    }
    return e;
}

static const char *p_not(ExprParser *P) {
    if (accept(P, "not") || (strncmp((skip_ws(P), P->p), "!=", 2) != 0 && accept(P, "!")))
        return arena_printf(P->a, "(int64_t)(%s == 0)", p_not(P));
    return p_cmp(P);
}

static const char *p_and(ExprParser *P) {
    const char *e = p_not(P);
    while (accept(P, "and") || accept(P, "&&"))
        e = arena_printf(P->a, "(int64_t)(%s != 0 && %s != 0)", e, p_not(P));
    return e;
}

static const char *p_or(ExprParser *P) {
    const char *e = p_and(P);
    while (accept(P, "or") || accept(P, "||"))
        e = arena_printf(P->a, "(int64_t)(%s != 0 || %s != 0)", e, p_and(P));
    return e;
}

/* The C expression (int64_t, using `ok`) of `text`, or NULL after a
 * diagnostic. */
static const char *translate(MtContext *ctx, const char *what, const char *text, int nnames,
                             const char *const *names, const char *const *c_names) {
    ExprParser P = {ctx, ctx->arena, what, text, text, nnames, names, c_names, 0};
    const char *e = p_or(&P);
    skip_ws(&P);
    if (!P.failed && *P.p) perr(&P, "unexpected text");
    return P.failed ? NULL : e;
}

/* ---- the variants ---------------------------------------------------------- */

typedef struct Dispatch {
    MtContext *ctx;
    Arena *a;
    const Spec *s;
    const mt_dispatch *d;
    const char *hash;
    int *key_param;        /* per key: runtime parameter index */
    const char **when_c;   /* per config: C condition over key[], or NULL */
    int *restore_param;    /* per RESTORE entry */
    const char **extent_c; /* per RESTORE entry: C element count over p->, or NULL */
} Dispatch;

/* An integer scalar (not bool): what KEY, WHEN, extents and the
 * divisibility specialization use, as Triton specializes integers. */
static int int_scalar(Type t) {
    return !t.ptr && dtype_is_int((DType)t.dtype) && t.dtype != DT_BOOL;
}

static int param_index(const Spec *s, const char *name) {
    for (int i = 0; i < s->f->nparams; i++)
        if (strcmp(s->pyname[i], name) == 0) return i;
    return -1;
}

static const char *c_string_lit(Arena *a, const char *s) {
    StrBuf sb;
    sb_init(&sb, a);
    sb_c_string(&sb, s, 0);
    return sb_str(&sb);
}

/* Checks the description and translates its expressions; 0 after a
 * diagnostic. */
static int prepare(Dispatch *D) {
    MtContext *ctx = D->ctx;
    const Spec *s = D->s;
    const mt_dispatch *d = D->d;
    Arena *a = D->a;
    if (d->nconfigs < 1) {
        mt_error(ctx, srcpos(0, 0), "a dispatching launcher needs at least one config");
        return 0;
    }
    if (d->nkeys > 8) {
        mt_error(ctx, srcpos(0, 0), "KEY: at most 8 parameters (got %d)", d->nkeys);
        return 0;
    }
    D->key_param = ARENA_ARRAY(a, int, d->nkeys + 1);
    const char **key_c = ARENA_ARRAY(a, const char *, d->nkeys + 1);
    for (int k = 0; k < d->nkeys; k++) {
        int p = param_index(s, d->keys[k]);
        if (p < 0 || !int_scalar(s->f->params[p].type)) {
            mt_error(ctx, srcpos(0, 0), "KEY: '%s' is not an integer runtime parameter of %s",
                     d->keys[k], s->kernel);
            return 0;
        }
        for (int j = 0; j < k; j++)
            if (D->key_param[j] == p) {
                mt_error(ctx, srcpos(0, 0), "KEY: '%s' given twice", d->keys[k]);
                return 0;
            }
        D->key_param[k] = p;
        key_c[k] = arena_printf(a, "key[%d]", k);
    }
    D->when_c = ARENA_ARRAY(a, const char *, d->nconfigs + 1);
    for (int c = 0; c < d->nconfigs; c++) {
        if (!d->configs[c].when) continue;
        D->when_c[c] =
            translate(ctx, arena_printf(a, "WHEN of config %d (%s)", c, d->configs[c].text),
                      d->configs[c].when, d->nkeys, d->keys, key_c);
        if (!D->when_c[c]) return 0;
    }
    /* extents may use every integer runtime parameter */
    const char **i32_names = ARENA_ARRAY(a, const char *, s->f->nparams + 1);
    const char **i32_c = ARENA_ARRAY(a, const char *, s->f->nparams + 1);
    int ni32 = 0;
    for (int i = 0; i < s->f->nparams; i++) {
        Type t = s->f->params[i].type;
        if (!int_scalar(t)) continue;
        i32_names[ni32] = s->pyname[i];
        i32_c[ni32++] = arena_printf(a, "(int64_t)p->%s", s->pnames[i]);
    }
    D->restore_param = ARENA_ARRAY(a, int, d->nrestore + 1);
    D->extent_c = ARENA_ARRAY(a, const char *, d->nrestore + 1);
    for (int r = 0; r < d->nrestore; r++) {
        const char *entry = d->restore[r];
        const char *eq = strchr(entry, '=');
        const char *name = eq ? arena_strndup(a, entry, (size_t)(eq - entry)) : entry;
        while (*name == ' ') name++;
        char *end = (char *)name + strlen(name);
        while (end > name && end[-1] == ' ') *--end = '\0';
        int p = param_index(s, name);
        if (p < 0 || !s->f->params[p].type.ptr) {
            mt_error(ctx, srcpos(0, 0), "RESTORE: '%s' is not a pointer parameter of %s", name,
                     s->kernel);
            return 0;
        }
        if (s->written && !s->written[p]) {
            mt_error(ctx, srcpos(0, 0),
                     "RESTORE: %s never stores through '%s' (only written buffers need restoring)",
                     s->kernel, name);
            return 0;
        }
        for (int j = 0; j < r; j++)
            if (D->restore_param[j] == p) {
                mt_error(ctx, srcpos(0, 0), "RESTORE: '%s' given twice", name);
                return 0;
            }
        D->restore_param[r] = p;
        if (eq) {
            D->extent_c[r] =
                translate(ctx, arena_printf(a, "RESTORE %s", name), eq + 1, ni32, i32_names, i32_c);
            if (!D->extent_c[r]) return 0;
        } else if (s->backends & BACKEND_HOST) {
            mt_error(ctx, srcpos(0, 0),
                     "RESTORE %s: the host backend needs the buffer's extent in elements (RESTORE "
                     "\"%s=<expression>\", "
                     "e.g. %s=M*N); CUDA finds it from the allocation",
                     name, name, name);
            return 0;
        }
    }
    return 1;
}

/* The parameters of a variant launcher call from the args struct `p`. */
static void call_args(StrBuf *sb, const Spec *s, int cuda) {
    int first = 1;
    if (cuda) sb_puts(sb, "p->stream"), first = 0;
    if (!s->grid) sb_printf(sb, "%sp->grid", first ? "" : ", "), first = 0;
    for (int i = 0; i < s->f->nparams; i++) {
        sb_printf(sb, "%sp->%s", first ? "" : ", ", s->pnames[i]);
        first = 0;
    }
}

/* The args struct, the specialization test and mt_run's switch over the
 * configs. */
static void emit_run(StrBuf *sb, Dispatch *D, int cuda) {
    const Spec *s = D->s;
    const mt_dispatch *d = D->d;
    Arena *a = D->a;
    const char *n = s->name;
    const char *sfx = cuda ? "" : "_host";
    const char *err_t = cuda ? "cudaError_t" : "mytriton_status";
    const char *inval = cuda ? "cudaErrorInvalidValue" : "MYTRITON_INVALID_VALUE";
    const char *launcher = arena_printf(a, "launch_%s%s", n, sfx);

    /* the arguments */
    sb_printf(sb, "typedef struct mt_args_%s {\n", n);
    if (cuda) sb_puts(sb, "    cudaStream_t stream;\n");
    if (!s->grid) sb_puts(sb, "    mytriton_grid grid;\n");
    for (int i = 0; i < s->f->nparams; i++) {
        Type t = s->f->params[i].type;
        sb_printf(sb, "    %s %s;\n", c_launcher_type(a, t, t.ptr && !s->written[i]), s->pnames[i]);
    }
    if (!s->f->nparams && !cuda && s->grid) sb_puts(sb, "    int unused;\n");
    sb_printf(sb, "} mt_args_%s;\n\n", n);

    if (d->specialize) {
        sb_printf(
            sb,
            "/* Triton's specialization: every pointer 16-byte aligned, every integer divisible by "
            "16 */\n");
        sb_printf(sb, "static int mt_d16_%s(const mt_args_%s *p) {\n    return 1", n, n);
        for (int i = 0; i < s->f->nparams; i++) {
            Type t = s->f->params[i].type;
            if (t.ptr) sb_printf(sb, " &&\n           ((uintptr_t)p->%s & 15u) == 0", s->pnames[i]);
            else if (int_scalar(t) && !(s->hints && s->hints[i] == 1)) /* :1: always 1 */
                sb_printf(sb, " &&\n           p->%s %% 16 == 0", s->pnames[i]);
        }
        if (!s->f->nparams) sb_puts(sb, " + 0 * (int)sizeof *p");
        sb_puts(sb, ";\n}\n\n");
    }

    sb_printf(sb, "static %s mt_run_%s(const mt_args_%s *p, int config) {\n", err_t, n, n);
    if (d->specialize) sb_printf(sb, "    int d16 = mt_d16_%s(p);\n", n);
    sb_puts(sb, "    switch (config) {\n");
    for (int c = 0; c < d->nconfigs; c++) {
        sb_printf(sb, "    case %d: /* %s */\n        return ", c,
                  c_comment_text(a, d->configs[c].text));
        if (d->specialize) {
            sb_printf(sb, "d16 ? launch_%s_cfg%d_d16%s(", n, c, sfx);
            call_args(sb, s, cuda);
            sb_puts(sb, ")\n                   : ");
        }
        sb_printf(sb, "launch_%s_cfg%d%s(", n, c, sfx);
        call_args(sb, s, cuda);
        sb_puts(sb, ");\n");
    }
    sb_puts(sb, "    default:\n        break;\n    }\n");
    sb_printf(sb,
              "    mytriton_set_last_error(\"%s: no config %%d\", config);\n    return %s;\n}\n\n",
              launcher, inval);
}

/* A tuned dispatch's tuner: its configs, WHEN conditions and keys, the
 * tuner record and the timing of one config. */
static void emit_tuner(StrBuf *sb, Dispatch *D, int cuda) {
    const mt_dispatch *d = D->d;
    Arena *a = D->a;
    const char *n = D->s->name;
    const char *sfx = cuda ? "" : "_host";

    /* the tuner */
    const char *hdr = arena_printf(a, "%s%s", n, sfx);
    sb_printf(sb, "static const char *const mt_configs_%s[] = {", hdr);
    for (int c = 0; c < d->nconfigs; c++)
        sb_printf(sb, "%s\n    %s", c ? "," : "", c_string_lit(a, d->configs[c].text));
    sb_puts(sb, "};\n");
    sb_printf(sb, "static const char *const mt_conditions_%s[] = {", hdr);
    for (int c = 0; c < d->nconfigs; c++)
        sb_printf(sb, "%s%s", c ? ", " : "",
                  d->configs[c].when ? c_string_lit(a, d->configs[c].when) : "NULL");
    sb_puts(sb, "};\n");
    if (d->nkeys) {
        sb_printf(sb, "static const char *const mt_keys_%s[] = {", hdr);
        for (int k = 0; k < d->nkeys; k++)
            sb_printf(sb, "%s%s", k ? ", " : "", c_string_lit(a, d->keys[k]));
        sb_puts(sb, "};\n");
    }
    sb_puts(sb, "\n");
    int any_when = 0;
    for (int c = 0; c < d->nconfigs; c++) any_when |= D->when_c[c] != NULL;
    if (any_when) {
        sb_printf(sb, "/* the WHEN conditions, over the key (a failing check is false) */\n");
        sb_printf(
            sb,
            "static int mt_allowed_%s(int config, const int64_t *key) {\n    int ok = 1;\n    "
            "int64_t v = 1;\n",
            hdr);
        sb_puts(sb, "    switch (config) {\n");
        for (int c = 0; c < d->nconfigs; c++) {
            if (!D->when_c[c]) continue;
            sb_printf(sb, "    case %d: /* %s */\n        v = %s;\n        break;\n", c,
                      c_comment_text(a, d->configs[c].when), D->when_c[c]);
        }
        sb_puts(
            sb,
            "    default:\n        break;\n    }\n    (void)key;\n    return ok && v != 0;\n}\n\n");
    }
    sb_printf(
        sb,
        "static int mt_pretune_%s(void *stream, void *const *args, const mytriton_grid *grid);\n\n",
        hdr);
    sb_printf(sb, "static mytriton_tuner mt_tuner_%s = {\n    \"%s\", \"%s\", \"%s\",\n", hdr, n,
              cuda ? "cuda" : "host", D->hash);
    sb_printf(sb, "    %d, mt_configs_%s, mt_conditions_%s,\n", d->nconfigs, hdr, hdr);
    if (d->nkeys) sb_printf(sb, "    %d, mt_keys_%s,\n", d->nkeys, hdr);
    else sb_puts(sb, "    0, NULL,\n");
    sb_printf(sb, "    %s, mt_pretune_%s, NULL};\n\n",
              any_when ? arena_printf(a, "mt_allowed_%s", hdr) : "NULL", hdr);

    /* timing one config */
    sb_printf(sb,
              "static int mt_launch_%s(void *ctx, int config) {\n    return (int)mt_run_%s((const "
              "mt_args_%s *)ctx, config);\n}\n\n",
              hdr, n, n);
    sb_printf(sb, "static int mt_time_%s(void *ctx, int config, double *ms) {\n", hdr);
    if (cuda)
        sb_printf(sb,
                  "    return mytriton_cuda_time(mt_launch_%s, ctx, config, ((const mt_args_%s "
                  "*)ctx)->stream, ms);\n}\n\n",
                  hdr, n);
    else
        sb_printf(sb,
                  "    return mytriton_autotune_time_host(mt_launch_%s, ctx, config, ms);\n}\n\n",
                  hdr);
}

/* The config of a new key, tuned on scratch copies of the RESTORE
 * buffers. */
static void emit_choose(StrBuf *sb, Dispatch *D, int cuda) {
    const Spec *s = D->s;
    const mt_dispatch *d = D->d;
    Arena *a = D->a;
    const char *n = s->name;
    const char *err_t = cuda ? "cudaError_t" : "mytriton_status";
    const char *ok_v = cuda ? "cudaSuccess" : "MYTRITON_SUCCESS";
    const char *inval = cuda ? "cudaErrorInvalidValue" : "MYTRITON_INVALID_VALUE";
    const char *sfx = cuda ? "" : "_host";
    const char *launcher = arena_printf(a, "launch_%s%s", n, sfx);
    const char *hdr = arena_printf(a, "%s%s", n, sfx);

    /* choosing the config of a new key */
    sb_printf(sb,
              "/* The config of an untuned key: timed on scratch copies of the RESTORE\n"
              " * buffers%s. */\n",
              cuda ? " (or the default, without timing, under graph capture)" : "");
    sb_printf(sb,
              "static %s mt_choose_%s(const mt_args_%s *p, const int64_t *key, int *config) {\n",
              err_t, hdr, n);
    sb_printf(sb, "    mt_args_%s s = *p;\n    mytriton_device_id dev;\n    %s err;\n", n, err_t);
    if (cuda) {
        sb_puts(sb, "    if (mytriton_cuda_capturing(p->stream)) {\n");
        sb_printf(sb, "        *config = mytriton_autotune_default(&mt_tuner_%s, key);\n", hdr);
        sb_puts(sb,
                "        mytriton_autotune_note_default();\n        return cudaSuccess;\n    }\n");
        sb_puts(sb, "    err = mytriton_cuda_device_id(&dev);\n");
        sb_printf(sb,
                  "    if (err != cudaSuccess) {\n        mytriton_set_last_error(\"%s: %%s\", "
                  "cudaGetErrorString(err));\n"
                  "        return err;\n    }\n",
                  launcher);
    } else {
        sb_puts(sb, "    memset(&dev, 0, sizeof dev);\n    strcpy(dev.name, \"host\");\n");
    }
    if (d->nrestore) {
        int nr = d->nrestore;
        sb_printf(sb, "    void *ptrs[%d], *bases[%d];\n    int64_t bytes[%d];\n    int ok = 1;\n",
                  nr, nr, nr);
        for (int r = 0; r < nr; r++) {
            int pi = D->restore_param[r];
            sb_printf(sb, "    ptrs[%d] = (void *)s.%s;\n", r, s->pnames[pi]);
            if (D->extent_c[r])
                sb_printf(sb, "    bytes[%d] = mytriton_i64_mul(%s, (int64_t)sizeof *s.%s, &ok);\n",
                          r, D->extent_c[r], s->pnames[pi]);
            else sb_printf(sb, "    bytes[%d] = -1; /* to the end of the allocation */\n", r);
        }
        sb_printf(
            sb,
            "    if (!ok) {\n        mytriton_set_last_error(\"%s: a RESTORE extent overflows or "
            "divides by a non-positive value\");\n"
            "        return %s;\n    }\n",
            launcher, inval);
        if (cuda)
            sb_printf(sb,
                      "    err = mytriton_cuda_scratch_begin(%d, ptrs, bytes, bases, p->stream, "
                      "\"%s\");\n",
                      nr, launcher);
        else
            sb_printf(
                sb,
                "    err = (mytriton_status)mytriton_autotune_host_scratch_begin(%d, ptrs, bytes, "
                "bases, \"%s\");\n",
                nr, launcher);
        sb_printf(sb, "    if (err == %s) {\n", ok_v);
        for (int r = 0; r < nr; r++) {
            int pi = D->restore_param[r];
            Type t = s->f->params[pi].type;
            sb_printf(sb, "        s.%s = (%s)ptrs[%d];\n", s->pnames[pi], c_launcher_type(a, t, 0),
                      r);
        }
        sb_printf(
            sb,
            "        err = (%s)mytriton_autotune_tune(&mt_tuner_%s, &dev, key, mt_time_%s, &s, "
            "config);\n    }\n",
            err_t, hdr, hdr);
        if (cuda) sb_printf(sb, "    mytriton_cuda_scratch_end(%d, bases, p->stream);\n", nr);
        else sb_printf(sb, "    mytriton_autotune_host_scratch_end(%d, bases);\n", nr);
        sb_puts(sb, "    return err;\n}\n\n");
    } else {
        sb_printf(sb,
                  "    err = (%s)mytriton_autotune_tune(&mt_tuner_%s, &dev, key, mt_time_%s, &s, "
                  "config);\n    return err;\n}\n\n",
                  err_t, hdr, hdr);
    }
}

/* Everything but the launcher itself: the args struct, the WHEN test, the
 * specialization test, the config switch; for more than one config the
 * tuner, the timing and the tuning on scratch copies. */
static void emit_body(StrBuf *sb, Dispatch *D, int cuda) {
    emit_run(sb, D, cuda);
    if (D->d->nconfigs < 2) return;
    emit_tuner(sb, D, cuda);
    emit_choose(sb, D, cuda);
}

/* `int64_t key[..] = {...};` from the args struct `p` or the parameters. */
static void emit_key(StrBuf *sb, Dispatch *D, const char *prefix) {
    sb_printf(sb, "    int64_t key[%d] = {", D->d->nkeys ? D->d->nkeys : 1);
    for (int k = 0; k < D->d->nkeys; k++)
        sb_printf(sb, "%s(int64_t)%s%s", k ? ", " : "", prefix, D->s->pnames[D->key_param[k]]);
    if (!D->d->nkeys) sb_puts(sb, "0");
    sb_puts(sb, "};\n");
}

static void emit_init_args(StrBuf *sb, Dispatch *D, int cuda) {
    const Spec *s = D->s;
    sb_printf(sb, "    mt_args_%s p;\n", s->name);
    if (cuda) sb_puts(sb, "    p.stream = stream;\n");
    if (!s->grid) sb_puts(sb, "    p.grid = grid;\n");
    for (int i = 0; i < s->f->nparams; i++)
        sb_printf(sb, "    p.%s = %s;\n", s->pnames[i], s->pnames[i]);
    if (!s->f->nparams && !cuda && s->grid) sb_puts(sb, "    p.unused = 0;\n");
}

/* The launcher, the pre-tuning entry and the registry entry. */
static void emit_launcher_fn(StrBuf *sb, Dispatch *D, int cuda) {
    const Spec *s = D->s;
    Arena *a = D->a;
    const char *n = s->name;
    const char *sfx = cuda ? "" : "_host";
    const char *hdr = arena_printf(a, "%s%s", n, sfx);
    const char *err_t = cuda ? "cudaError_t" : "mytriton_status";
    const char *ok_v = cuda ? "cudaSuccess" : "MYTRITON_SUCCESS";
    int tuned = D->d->nconfigs > 1;

    sb_printf(sb, "%s%s launch_%s(%s) {\n", cuda ? "extern \"C\" " : "", err_t, hdr,
              launcher_params(a, s, cuda));
    emit_init_args(sb, D, cuda);
    if (!tuned) {
        sb_printf(sb, "    return mt_run_%s(&p, 0);\n}\n\n", n);
    } else {
        emit_key(sb, D, "p.");
        if (cuda) sb_puts(sb, "    int device = 0;\n    (void)cudaGetDevice(&device);\n");
        sb_printf(sb, "    int config = mytriton_autotune_lookup(&mt_tuner_%s, %s, key);\n", hdr,
                  cuda ? "device" : "0");
        sb_printf(sb, "    if (config < 0) {\n        %s err = mt_choose_%s(&p, key, &config);\n",
                  err_t, hdr);
        sb_printf(sb, "        if (err != %s) return err;\n    }\n", ok_v);
        sb_printf(sb, "    return mt_run_%s(&p, config);\n}\n\n", n);

        /* pre-tuning from generic arguments */
        sb_printf(
            sb,
            "static int mt_pretune_%s(void *stream, void *const *args, const mytriton_grid *grid) "
            "{\n",
            hdr);
        if (!cuda) sb_puts(sb, "    (void)stream;\n");
        if (s->grid) sb_puts(sb, "    (void)grid;\n");
        else
            sb_printf(
                sb,
                "    if (!grid) {\n        mytriton_set_last_error(\"launch_%s: this kernel needs "
                "an explicit grid\");\n"
                "        return 1;\n    }\n",
                hdr);
        if (!s->f->nparams) sb_puts(sb, "    (void)args;\n");
        sb_printf(sb, "    mt_args_%s p;\n", n);
        if (cuda) sb_puts(sb, "    p.stream = (cudaStream_t)stream;\n");
        if (!s->grid) sb_puts(sb, "    p.grid = *grid;\n");
        for (int i = 0; i < s->f->nparams; i++) {
            Type t = s->f->params[i].type;
            const char *ct = c_launcher_type(a, t, t.ptr && !s->written[i]);
            sb_printf(sb, "    p.%s = *(%s const *)args[%d];\n", s->pnames[i], ct, i);
        }
        if (!s->f->nparams && !cuda && s->grid) sb_puts(sb, "    p.unused = 0;\n");
        emit_key(sb, D, "p.");
        if (cuda) sb_puts(sb, "    int device = 0;\n    (void)cudaGetDevice(&device);\n");
        sb_printf(sb, "    int config = mytriton_autotune_lookup(&mt_tuner_%s, %s, key);\n", hdr,
                  cuda ? "device" : "0");
        sb_printf(sb,
                  "    if (config >= 0) return 0;\n    return (int)mt_choose_%s(&p, key, "
                  "&config);\n}\n\n",
                  hdr);
    }
    const char *generic = arena_printf(a, "mytriton_generic_%s", hdr);
    emit_generic(sb, a, s, arena_printf(a, "launch_%s", hdr), generic, cuda);
    Spec info = *s;
    StrBuf cx;
    sb_init(&cx, a);
    for (int c = 0; c < D->d->nconfigs; c++)
        sb_printf(&cx, "%s%s", c ? " | " : "", D->d->configs[c].text);
    info.constexprs = sb_str(&cx);
    emit_info(sb, a, &info, sfx, cuda ? "cuda" : "host", generic,
              tuned ? arena_printf(a, "&mt_tuner_%s", hdr) : NULL, NULL);
}

static Dispatch *dispatch_new(MtContext *ctx, const Spec *s, const mt_dispatch *d,
                              const char *hash) {
    Dispatch *D = ARENA_NEW(ctx->arena, Dispatch);
    D->ctx = ctx;
    D->a = ctx->arena;
    D->s = s;
    D->d = d;
    D->hash = hash;
    return prepare(D) ? D : NULL;
}

int dispatch_check(MtContext *ctx, const Spec *s, const mt_dispatch *d) {
    return dispatch_new(ctx, s, d, "") != NULL;
}

const char *emit_dispatch_unit(MtContext *ctx, const Spec *s, const mt_dispatch *d,
                               const char *hash, int cuda) {
    Dispatch *D = dispatch_new(ctx, s, d, hash);
    if (!D) return NULL;
    StrBuf sb;
    sb_init(&sb, ctx->arena);
    const char *cm = cuda ? "//" : "/*";
    const char *ce = cuda ? "" : " */";
    sb_printf(&sb, "%s Generated by %s from %s (kernel %s). Do not edit.%s\n", cm, VERSION_LINE,
              s->source, s->kernel, ce);
    sb_printf(&sb, "%s launch_%s%s: dispatches over %d config%s%s%s.%s\n", cm, s->name,
              cuda ? "" : "_host", d->nconfigs, d->nconfigs == 1 ? "" : "s",
              d->nconfigs > 1 ? " (autotuned)" : "",
              d->specialize ? " and their divisibility-16 variants" : "", ce);
    if (cuda) sb_puts(&sb, "#include <stdint.h>\n#include <string.h>\n#include <cuda_runtime.h>\n");
    else sb_puts(&sb, "#include <stdint.h>\n#include <string.h>\n");
    sb_puts(&sb, "#include \"mytriton/runtime.h\"\n#include \"mytriton/autotune.h\"\n");
    if (cuda && d->nconfigs > 1) sb_puts(&sb, "#include \"mytriton/autotune_cuda.h\"\n");
    sb_printf(&sb, "#include \"%s.h\"\n",
              s->name); /* the dispatcher's header includes the variants' */
    sb_puts(&sb, "\n");
    emit_body(&sb, D, cuda);
    emit_launcher_fn(&sb, D, cuda);
    return sb_str(&sb);
}

const char *emit_dispatch_header(MtContext *ctx, const Spec *s, const mt_dispatch *d,
                                 const char *hash) {
    Dispatch *D = dispatch_new(ctx, s, d, hash);
    if (!D) return NULL;
    Arena *a = ctx->arena;
    StrBuf sb;
    sb_init(&sb, a);
    char *guard = arena_printf(a, "MYTRITON_GENERATED_%s_H", s->name);
    for (char *p = guard; *p; p++) *p = (char)toupper((unsigned char)*p);
    sb_printf(&sb, "/* Generated by %s from %s (kernel %s). Do not edit. */\n", VERSION_LINE,
              s->source, s->kernel);
    sb_printf(&sb, "#ifndef %s\n#define %s\n\n#include <stdint.h>\n", guard, guard);
    if (s->backends & BACKEND_CUDA) sb_puts(&sb, "#include <cuda_runtime_api.h>\n");
    sb_puts(&sb, "#include \"mytriton/runtime.h\"\n#include \"mytriton/autotune.h\"\n");
    for (int c = 0; c < d->nconfigs; c++) {
        sb_printf(&sb, "#include \"%s_cfg%d.h\"\n", s->name, c);
        if (d->specialize) sb_printf(&sb, "#include \"%s_cfg%d_d16.h\"\n", s->name, c);
    }
    sb_puts(&sb, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    sb_printf(&sb, "/* %s: kernel %s from %s, dispatching over its variants\n", s->name, s->kernel,
              s->source);
    sb_printf(&sb, " *   signature: %s\n", s->signature);
    if (s->grid) sb_printf(&sb, " *   grid: %s\n", c_comment_text(a, s->grid->text));
    else sb_puts(&sb, " *   grid: given by the caller (mytriton_grid)\n");
    if (d->nconfigs > 1) {
        sb_puts(&sb, " *   autotuned on the key (");
        for (int k = 0; k < d->nkeys; k++) sb_printf(&sb, "%s%s", k ? ", " : "", d->keys[k]);
        sb_printf(&sb, "%s): the first call of a new key times every config\n",
                  d->nkeys ? "" : "none: once per device");
        sb_printf(&sb, " *   whose WHEN holds and keeps the fastest (kernel hash %s)\n", hash);
    }
    if (d->nrestore) {
        sb_puts(&sb, " *   tuned on scratch copies of:");
        for (int r = 0; r < d->nrestore; r++)
            sb_printf(&sb, " %s", c_comment_text(a, d->restore[r]));
        sb_puts(&sb, "\n");
    }
    for (int c = 0; c < d->nconfigs; c++) {
        sb_printf(&sb, " *   config %d: %s (launch_%s_cfg%d)", c,
                  c_comment_text(a, d->configs[c].text), s->name, c);
        if (d->configs[c].when) sb_printf(&sb, " WHEN %s", c_comment_text(a, d->configs[c].when));
        sb_puts(&sb, "\n");
    }
    if (d->specialize)
        sb_printf(&sb,
                  " *   each also as launch_%s_cfg<i>_d16, used when every pointer is 16-byte\n"
                  " *   aligned and every integer argument divisible by 16\n",
                  s->name);
    sb_puts(&sb, " */\n");
    if (s->backends & BACKEND_CUDA) {
        sb_printf(&sb, "cudaError_t launch_%s(%s);\n", s->name, launcher_params(a, s, 1));
        sb_printf(&sb, "extern const mytriton_kernel_info mytriton_kernel_info_%s;\n", s->name);
    }
    if (s->backends & BACKEND_HOST) {
        sb_printf(&sb, "mytriton_status launch_%s_host(%s);\n", s->name, launcher_params(a, s, 0));
        sb_printf(&sb, "extern const mytriton_kernel_info mytriton_kernel_info_%s_host;\n",
                  s->name);
    }
    sb_printf(&sb, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n", guard);
    return sb_str(&sb);
}

/* FNV-1a, 64 bits. */
static uint64_t fnv(uint64_t h, const char *s) {
    for (; s && *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    h ^= 0xff; /* field separator */
    h *= 1099511628211ull;
    return h;
}

const char *dispatch_hash(MtContext *ctx, const mt_options *o) {
    uint64_t h = 1469598103934665603ull;
    h = fnv(h, VERSION_LINE);
    h = fnv(h, ctx->source);
    h = fnv(h, o->kernel);
    h = fnv(h, o->signature);
    h = fnv(h, o->grid);
    h = fnv(h, arena_printf(ctx->arena, "O%d", o->opt_level));
    for (int i = 0; i < o->ndefines; i++) {
        h = fnv(h, o->defines[i].name);
        h = fnv(h, o->defines[i].value);
    }
    for (int c = 0; o->dispatch && c < o->dispatch->nconfigs; c++) {
        h = fnv(h, o->dispatch->configs[c].text);
        h = fnv(h, o->dispatch->configs[c].when);
    }
    return arena_printf(ctx->arena, "%016llx", (unsigned long long)h);
}

int dispatch_config_parse(MtContext *ctx, const char *text, mt_define *defs, int *ndefs,
                          int *num_warps, int *num_stages) {
    Arena *a = ctx->arena;
    const char *p = text;
    int any = 0;
    *num_warps = 0;
    *num_stages = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        const char *s = p;
        while (*p && *p != ' ' && *p != '\t') p++;
        const char *tok = arena_strndup(a, s, (size_t)(p - s));
        const char *eq = strchr(tok, '=');
        int ident = eq && eq != tok && (isalpha((unsigned char)tok[0]) || tok[0] == '_');
        for (const char *q = tok; ident && q < eq; q++)
            ident = isalnum((unsigned char)*q) || *q == '_';
        if (!ident || !eq[1]) {
            mt_error(ctx, srcpos(0, 0), "%s: config '%s': '%s' is not NAME=VALUE",
                     mt_option_name(ctx, MT_OPT_CONFIG), text, tok);
            return 0;
        }
        const char *name = arena_strndup(a, tok, (size_t)(eq - tok));
        if (strcmp(name, "NUM_WARPS") == 0 || strcmp(name, "NUM_STAGES") == 0) {
            char *end;
            long v = strtol(eq + 1, &end, 10);
            int warps = name[4] == 'W';
            if (*end || (warps && (v < 1 || v > 32 || (v & (v - 1)))) ||
                (!warps && (v < 1 || v > 16))) {
                mt_error(ctx, srcpos(0, 0), "%s: config '%s': %s must be %s (got '%s')",
                         mt_option_name(ctx, MT_OPT_CONFIG), text, name,
                         warps ? "a power of two from 1 to 32" : "from 1 to 16", eq + 1);
                return 0;
            }
            *(warps ? num_warps : num_stages) = (int)v;
        } else {
            for (int i = 0; i < *ndefs; i++)
                if (strcmp(defs[i].name, name) == 0) {
                    mt_error(ctx, srcpos(0, 0), "%s: config '%s': %s given twice (or also in %s)",
                             mt_option_name(ctx, MT_OPT_CONFIG), text, name,
                             mt_option_name(ctx, MT_OPT_DEFINE));
                    return 0;
                }
            defs[*ndefs].name = name;
            defs[*ndefs].value = eq + 1;
            (*ndefs)++;
        }
        any = 1;
    }
    if (!any) {
        mt_error(ctx, srcpos(0, 0), "%s: an empty config", mt_option_name(ctx, MT_OPT_CONFIG));
        return 0;
    }
    return 1;
}
