/* Parsing and C emission of grid expressions. */
#include "frontend/grid.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct GParser {
    MtContext *ctx;
    const Kernel *k;
    const char *s, *p;
    Grid *g;
    StrBuf resolved;
    int failed;
    int depth;
    const char *const *extra; /* launcher-only grid parameters */
    int nextra;
} GParser;

static GridExpr *gnew(GParser *P, GridKind k, GridExpr *a, GridExpr *b) {
    GridExpr *e = ARENA_NEW(P->ctx->arena, GridExpr);
    e->kind = k;
    e->a = a;
    e->b = b;
    return e;
}

static GridExpr *gfail(GParser *P, const char *msg, const char *detail) {
    if (!P->failed)
        mt_error(P->ctx, srcpos(0, 0), "%s \"%s\": %s%s (at column %d)",
                 mt_option_name(P->ctx, MT_OPT_GRID), P->s, msg, detail ? detail : "",
                 (int)(P->p - P->s) + 1);
    P->failed = 1;
    return NULL;
}

static void skip(GParser *P) {
    while (isspace((unsigned char)*P->p)) P->p++;
}

static GridExpr *parse_sum(GParser *P);

static GridExpr *parse_atom(GParser *P) {
    skip(P);
    if (++P->depth > 200) return gfail(P, "the expression is nested too deeply", NULL);
    const char *start = P->p;
    if (*P->p == '(') {
        sb_putc(&P->resolved, '(');
        P->p++;
        GridExpr *e = parse_sum(P);
        skip(P);
        if (!e) return NULL;
        if (*P->p != ')') return gfail(P, "expected ')'", NULL);
        sb_putc(&P->resolved, ')');
        P->p++;
        P->depth--;
        return e;
    }
    if (*P->p == '-' || *P->p == '+') {
        char sign = *P->p++;
        sb_putc(&P->resolved, sign);
        GridExpr *e = parse_atom(P);
        P->depth--;
        return !e ? NULL : sign == '-' ? gnew(P, G_NEG, e, NULL) : e;
    }
    if (isdigit((unsigned char)*P->p)) {
        errno = 0;
        char *end;
        long long v = strtoll(P->p, &end, 10);
        if (errno || v > 2147483647LL * 65535LL) return gfail(P, "the number is too large", NULL);
        P->p = end;
        GridExpr *e = gnew(P, G_NUM, NULL, NULL);
        e->num = v;
        sb_putn(&P->resolved, start, (size_t)(P->p - start));
        P->depth--;
        return e;
    }
    if (isalpha((unsigned char)*P->p) || *P->p == '_') {
        while (isalnum((unsigned char)*P->p) || *P->p == '_') P->p++;
        char *name = arena_strndup(P->ctx->arena, start, (size_t)(P->p - start));
        skip(P);
        if (strcmp(name, "cdiv") == 0 && *P->p == '(') {
            sb_puts(&P->resolved, "cdiv(");
            P->p++;
            GridExpr *a = parse_sum(P);
            skip(P);
            if (!a) return NULL;
            if (*P->p != ',') return gfail(P, "cdiv takes two arguments", NULL);
            sb_puts(&P->resolved, ", ");
            P->p++;
            GridExpr *b = parse_sum(P);
            skip(P);
            if (!b) return NULL;
            if (*P->p != ')') return gfail(P, "expected ')' after cdiv's arguments", NULL);
            sb_putc(&P->resolved, ')');
            P->p++;
            P->depth--;
            return gnew(P, G_CDIV, a, b);
        }
        const Kernel *k = P->k;
        /* the def's parameters, then the runtime ones the def does not
         * name (a tensor descriptor's shape and strides) */
        for (int i = 0; i < k->nparams + k->nruntime; i++) {
            const KernelParam *kp = i < k->nparams ? &k->params[i] : k->runtime[i - k->nparams];
            if (strcmp(kp->name, name) != 0) continue;
            if (kp->is_constexpr) {
                char *end;
                errno = 0;
                long long v = kp->constexpr_text ? strtoll(kp->constexpr_text, &end, 0) : 0;
                if (!kp->constexpr_text || *end || errno) {
                    P->p = start;
                    return gfail(
                        P,
                        arena_printf(P->ctx->arena, "the constexpr '%s' is not an integer", name),
                        NULL);
                }
                GridExpr *e = gnew(P, G_NUM, NULL, NULL);
                e->num = v;
                sb_printf(&P->resolved, "%lld", v);
                P->depth--;
                return e;
            }
            if (kp->type.ptr || kp->type.dtype != DT_I32) {
                P->p = start;
                return gfail(P,
                             arena_printf(P->ctx->arena,
                                          "'%s' is %s, but the grid can only use i32 parameters",
                                          name, type_str(P->ctx->arena, kp->type)),
                             NULL);
            }
            GridExpr *e = gnew(P, G_PARAM, NULL, NULL);
            e->param = kp->runtime_index;
            if (e->param < 64) P->g->uses_param[e->param] = 1;
            sb_puts(&P->resolved, name);
            P->depth--;
            return e;
        }
        for (int j = 0; j < P->nextra; j++) {
            if (strcmp(P->extra[j], name) != 0) continue;
            GridExpr *e = gnew(P, G_PARAM, NULL, NULL);
            e->param = k->nruntime + j;
            if (e->param < 64) P->g->uses_param[e->param] = 1;
            sb_puts(&P->resolved, name);
            P->depth--;
            return e;
        }
        P->p = start;
        return gfail(
            P,
            arena_printf(P->ctx->arena,
                         "unknown name '%s' (the grid can use the kernel's i32 parameters, "
                         "its integer constexprs, launcher-only integers declared with %s, "
                         "and cdiv)",
                         name, mt_option_name(P->ctx, MT_OPT_GRID_PARAM)),
            NULL);
    }
    if (!*P->p) return gfail(P, "the expression ends too early", NULL);
    return gfail(P, arena_printf(P->ctx->arena, "unexpected character '%c'", *P->p), NULL);
}

static GridExpr *parse_product(GParser *P) {
    GridExpr *e = parse_atom(P);
    for (;;) {
        skip(P);
        if (!e) return NULL;
        GridKind k;
        if (P->p[0] == '/' && P->p[1] == '/')
            k = G_FLOORDIV, P->p += 2, sb_puts(&P->resolved, " // ");
        else if (*P->p == '*' && P->p[1] != '*') k = G_MUL, P->p++, sb_puts(&P->resolved, " * ");
        else if (*P->p == '%') k = G_MOD, P->p++, sb_puts(&P->resolved, " % ");
        else if (*P->p == '/')
            return gfail(P, "use // for division (grid sizes are integers)", NULL);
        else if (*P->p == '*') return gfail(P, "'**' is not supported", NULL);
        else return e;
        GridExpr *r = parse_atom(P);
        if (!r) return NULL;
        e = gnew(P, k, e, r);
    }
}

static GridExpr *parse_sum(GParser *P) {
    GridExpr *e = parse_product(P);
    for (;;) {
        skip(P);
        if (!e) return NULL;
        GridKind k;
        if (*P->p == '+') k = G_ADD, sb_puts(&P->resolved, " + ");
        else if (*P->p == '-') k = G_SUB, sb_puts(&P->resolved, " - ");
        else return e;
        P->p++;
        GridExpr *r = parse_product(P);
        if (!r) return NULL;
        e = gnew(P, k, e, r);
    }
}

Grid *grid_parse(MtContext *ctx, const char *text, const Kernel *k, const char *const *extra,
                 int nextra) {
    Grid *g = ARENA_NEW(ctx->arena, Grid);
    GParser P = {ctx, k, text, text, g, {0}, 0, 0, extra, nextra};
    sb_init(&P.resolved, ctx->arena);
    g->text = text;
    for (;;) {
        if (g->ndims == 3) {
            gfail(&P, "a grid has at most three dimensions", NULL);
            return NULL;
        }
        GridExpr *e = parse_sum(&P);
        if (!e) return NULL;
        g->dims[g->ndims++] = e;
        skip(&P);
        if (*P.p == ',') {
            P.p++;
            sb_puts(&P.resolved, ", ");
            continue;
        }
        if (*P.p) {
            gfail(&P,
                  arena_printf(
                      ctx->arena,
                      "unexpected text '%s' after a dimension (dimensions are separated by commas)",
                      P.p),
                  NULL);
            return NULL;
        }
        break;
    }
    g->resolved = sb_str(&P.resolved);
    return g;
}

const char *grid_c_expr(Arena *a, const GridExpr *e, const char *const *names) {
    switch (e->kind) {
    case G_NUM: return arena_printf(a, "INT64_C(%lld)", e->num);
    case G_PARAM: return arena_printf(a, "(int64_t)%s", names[e->param]);
    case G_NEG: return arena_printf(a, "mytriton_i64_sub(0, %s, &ok)", grid_c_expr(a, e->a, names));
    default: break;
    }
    static const char *const fn[] = {[G_ADD] = "add",           [G_SUB] = "sub", [G_MUL] = "mul",
                                     [G_FLOORDIV] = "floordiv", [G_MOD] = "mod", [G_CDIV] = "cdiv"};
    return arena_printf(a, "mytriton_i64_%s(%s, %s, &ok)", fn[e->kind], grid_c_expr(a, e->a, names),
                        grid_c_expr(a, e->b, names));
}
