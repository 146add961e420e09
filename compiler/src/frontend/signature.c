/* Parsing of --signature strings. */
#include "frontend/signature.h"

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

/* `tensordesc<DT[B0, B1, ...]>` at entry `s` (the base): its parts appended
 * to sig. 0 after a diagnostic. */
static int desc_entry(MtContext *ctx, Signature *sig, SigEntry *s, const char *type, int index) {
    Arena *a = ctx->arena;
    const char *open = strchr(type, '['), *close = strrchr(type, ']');
    size_t len = strlen(type);
    DType dt = open ? dtype_by_sig(trim(a, type + 11, (size_t)(open - type - 11))) : DT_NONE;
    int rank = 0;
    int ok = open && close && close > open && type[len - 1] == '>' && !strchr(close + 1, ']') &&
             trim(a, close + 1, len - 1 - (size_t)(close + 1 - type))[0] == 0;
    for (const char *q = open ? open + 1 : NULL; ok && q < close;) {
        char *end;
        long b = strtol(q, &end, 10);
        if (end == q || b <= 0 || b > MT_MAX_NUMEL || rank >= MT_MAX_RANK) {
            ok = 0;
            break;
        }
        s->desc_block[rank++] = (int32_t)b;
        while (isspace((unsigned char)*end)) end++;
        if (*end == ',') end++;
        else if (end != close) ok = 0;
        q = end;
    }
    if (!ok || rank == 0 || dt == DT_NONE || dt == DT_BOOL) {
        mt_error(ctx, srcpos(0, 0),
                 "%s: entry %d: '%s' is not a tensor descriptor type (tensordesc<DTYPE[B0, B1, "
                 "...]>: "
                 "a dtype and the block shape, 1 to %d positive sizes)",
                 mt_option_name(ctx, MT_OPT_SIGNATURE), index, type, MT_MAX_RANK);
        return 0;
    }
    s->type = type_ptr(dt);
    s->type_text = type;
    s->desc_rank = rank;
    for (int d = 0; d < 2 * rank; d++) {
        SigEntry *part = &sig->entries[sig->n++];
        part->type = type_scalar(d < rank ? DT_I32 : DT_I64);
        part->type_text = d < rank ? "i32" : "i64";
        part->divisibility = d == 2 * rank - 1; /* the last stride: 1 */
        part->desc_part = d + 1;
    }
    return 1;
}

Signature *signature_parse(MtContext *ctx, const char *text) {
    Arena *a = ctx->arena;
    Signature *sig = ARENA_NEW(a, Signature);
    PtrVec parts = {0};
    const char *p = text ? text : "";
    const char *all = trim(a, p, strlen(p));
    if (*all) {
        /* entries end at commas outside brackets (tensordesc<fp16[64, 64]>) */
        for (;;) {
            const char *q = p;
            int depth = 0;
            for (; *q && (depth > 0 || *q != ','); q++)
                depth += (*q == '[' || *q == '<') - (*q == ']' || *q == '>');
            ptrvec_push(a, &parts, (void *)trim(a, p, (size_t)(q - p)));
            if (!*q) break;
            p = q + 1;
        }
    }
    /* a descriptor takes 1 + 2 rank entries: room for rank 5 each */
    sig->entries = ARENA_ARRAY(a, SigEntry, parts.len * (1 + 2 * MT_MAX_RANK) + 1);
    sig->n = 0;
    StrBuf norm;
    sb_init(&norm, a);
    for (int i = 0; i < parts.len; i++) {
        const char *e = parts.items[i];
        SigEntry *s = &sig->entries[sig->n++];
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
        if (strncmp(type, "tensordesc<", 11) == 0) {
            if (!desc_entry(ctx, sig, s, type, i + 1)) return NULL;
            sb_printf(&norm, "%s%s", i ? ", " : "", s->type_text);
            continue;
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
