/* Parsing of --signature strings. */
#include "signature.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *trim(Arena *a, const char *s, size_t n) {
    while (n > 0 && isspace((unsigned char)*s)) s++, n--;
    while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    return arena_strndup(a, s, n);
}

static int is_ident(const char *s) {
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
    return 1;
}

Signature *signature_parse(MtContext *ctx, const char *text) {
    Arena *a = ctx->arena;
    Signature *sig = ARENA_NEW(a, Signature);
    PtrVec parts = {0};
    const char *p = text ? text : "";
    const char *all = trim(a, p, strlen(p));
    if (*all) {
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t n = comma ? (size_t)(comma - p) : strlen(p);
            ptrvec_push(a, &parts, (void *)trim(a, p, n));
            if (!comma) break;
            p = comma + 1;
        }
    }
    sig->n = parts.len;
    sig->entries = ARENA_ARRAY(a, SigEntry, parts.len + 1);
    StrBuf norm;
    sb_init(&norm, a);
    for (int i = 0; i < parts.len; i++) {
        const char *e = parts.items[i];
        SigEntry *s = &sig->entries[i];
        if (!*e) {
            mt_error(ctx, srcpos(0, 0),
                     "%s: entry %d is empty (entries are separated by commas: \"*fp32, i32\")",
                     mt_option_name(ctx, MT_OPT_SIGNATURE), i + 1);
            return NULL;
        }
        const char *colon = strchr(e, ':');
        const char *type = e;
        /* "name: type" — a colon followed by a non-digit is the name's */
        if (colon && !isdigit((unsigned char)trim(a, colon + 1, strlen(colon + 1))[0])) {
            s->name = trim(a, e, (size_t)(colon - e));
            if (!is_ident(s->name)) {
                mt_error(ctx, srcpos(0, 0), "%s: entry %d: '%s' is not a parameter name",
                         mt_option_name(ctx, MT_OPT_SIGNATURE), i + 1, s->name);
                return NULL;
            }
            type = trim(a, colon + 1, strlen(colon + 1));
        }
        const char *hint = strchr(type, ':');
        const char *base = hint ? trim(a, type, (size_t)(hint - type)) : type;
        if (hint) {
            const char *h = trim(a, hint + 1, strlen(hint + 1));
            char *end;
            long v = strtol(h, &end, 10);
            if (!*h || *end || v <= 0 || v > 1024 || (v & (v - 1)) != 0) {
                mt_error(ctx, srcpos(0, 0),
                         "%s: entry %d: the hint in '%s' must be a power of two up to 1024",
                         mt_option_name(ctx, MT_OPT_SIGNATURE), i + 1, type);
                return NULL;
            }
            s->divisibility = (int)v;
        }
        /* every dtype of dtypes.def, as a pointer (*fp16) or a scalar (i64) */
        int is_ptr = base[0] == '*';
        DType dt = dtype_by_sig(base + is_ptr);
        if (dt == DT_NONE) {
            StrBuf known;
            sb_init(&known, a);
            for (int d = 1; d < DT_COUNT; d++)
                sb_printf(&known, "%s%s", d > 1 ? ", " : "", dtype_info((DType)d)->sig);
            mt_error(ctx, srcpos(0, 0),
                     "%s: entry %d: unsupported type '%s' (a dtype, or * and a dtype, of: %s)",
                     mt_option_name(ctx, MT_OPT_SIGNATURE), i + 1, base, sb_str(&known));
            return NULL;
        }
        s->type = is_ptr ? type_ptr(dt) : type_scalar(dt);
        s->type_text = base;
        sb_printf(&norm, "%s%s", i ? ", " : "", base);
        if (s->divisibility) sb_printf(&norm, ":%d", s->divisibility);
    }
    sig->normalized = sb_str(&norm);
    return sig;
}
