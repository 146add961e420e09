/* The AST reader: the shim's serialization (see shim/mytriton_parse.py)
 * into a pyast tree. Every malformed input is a diagnostic, never a crash;
 * nesting depth is bounded so hostile input cannot exhaust the stack. */
#include "frontend/pyast.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 2000 };

typedef struct Reader {
    MtContext *ctx;
    const char *p, *end, *start;
    const char *tok; /* the last token read */
    int failed;
} Reader;

static void fail(Reader *r, const char *what) {
    if (r->failed) return;
    r->failed = 1;
    mt_error(r->ctx, srcpos(0, 0), "malformed output from the parser shim at byte %ld: %s",
             (long)(r->p - r->start), what);
}

/* A failure about the last token: the offset names where it starts. */
static void fail_token(Reader *r, const char *what) {
    if (r->tok) r->p = r->tok;
    fail(r, what);
}

static void skip_space(Reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n')) r->p++;
}

/* A token: a run of bytes other than space and newline. */
static const char *token(Reader *r, size_t *len) {
    skip_space(r);
    const char *s = r->p;
    r->tok = s;
    while (r->p < r->end && *r->p != ' ' && *r->p != '\n') r->p++;
    *len = (size_t)(r->p - s);
    if (*len == 0) {
        fail(r, "unexpected end of input");
        return NULL;
    }
    return s;
}

static int token_is(const char *t, size_t len, const char *want) {
    return t && strlen(want) == len && memcmp(t, want, len) == 0;
}

static int read_int(Reader *r, long long lo, long long hi, long long *out) {
    size_t len;
    const char *t = token(r, &len);
    if (!t) return 0;
    char buf[32];
    if (len >= sizeof buf) return fail_token(r, "number too long"), 0;
    memcpy(buf, t, len);
    buf[len] = 0;
    char *e;
    errno = 0;
    long long v = strtoll(buf, &e, 10);
    if (*e || errno || v < lo || v > hi) return fail_token(r, "bad number"), 0;
    *out = v;
    return 1;
}

static const char *read_name(Reader *r) {
    size_t len;
    const char *t = token(r, &len);
    if (!t) return NULL;
    for (size_t i = 0; i < len; i++) {
        char c = t[i];
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9')))
            return fail_token(r, "bad name"), NULL;
    }
    return arena_strndup(r->ctx->arena, t, len);
}

static PyVal *read_value(Reader *r, int depth);

static PyVal *read_node(Reader *r, int depth) {
    Arena *a = r->ctx->arena;
    PyNode *n = ARENA_NEW(a, PyNode);
    long long line, col, eline, ecol, nfields;
    n->kind = read_name(r);
    n->kind_id = n->kind ? pyast_kind_of(n->kind) : PK_OTHER;
    if (!n->kind || !read_int(r, -1, 1 << 30, &line) || !read_int(r, -1, 1 << 30, &col) ||
        !read_int(r, -1, 1 << 30, &eline) || !read_int(r, -1, 1 << 30, &ecol) ||
        !read_int(r, 0, 64, &nfields))
        return NULL;
    n->pos = line > 0 ? srcpos((int)line, (int)col + 1) : srcpos(0, 0);
    n->end = eline > 0 ? srcpos((int)eline, (int)ecol + 1) : srcpos(0, 0);
    n->pos.file = n->end.file = r->ctx->parse_file;
    n->nfields = (int)nfields;
    n->names = ARENA_ARRAY(a, const char *, nfields + 1);
    n->values = ARENA_ARRAY(a, PyVal *, nfields + 1);
    for (int i = 0; i < n->nfields; i++) {
        n->names[i] = read_name(r);
        if (!n->names[i]) return NULL;
        n->values[i] = read_value(r, depth + 1);
        if (!n->values[i]) return NULL;
    }
    PyVal *v = ARENA_NEW(a, PyVal);
    v->kind = PYV_NODE;
    v->node = n;
    return v;
}

static PyVal *read_value(Reader *r, int depth) {
    Arena *a = r->ctx->arena;
    if (depth > MAX_DEPTH) return fail(r, "nesting too deep"), NULL;
    size_t len;
    const char *t = token(r, &len);
    if (!t) return NULL;
    PyVal *v = ARENA_NEW(a, PyVal);
    if (token_is(t, len, "N")) return read_node(r, depth);
    if (token_is(t, len, "L")) {
        long long count;
        if (!read_int(r, 0, 1 << 24, &count)) return NULL;
        v->kind = PYV_LIST;
        v->len = (int)count;
        /* Do not trust the count for the allocation: grow as items come. */
        PtrVec items = {0};
        for (long long i = 0; i < count; i++) {
            PyVal *item = read_value(r, depth + 1);
            if (!item) return NULL;
            ptrvec_push(a, &items, item);
        }
        v->items = (PyVal **)items.items;
        return v;
    }
    if (token_is(t, len, "S") || token_is(t, len, "Y")) {
        long long n;
        v->kind = t[0] == 'S' ? PYV_STR : PYV_BYTES;
        if (!read_int(r, 0, 1 << 30, &n)) return NULL;
        if (r->p >= r->end || *r->p != ' ') return fail(r, "missing space before text"), NULL;
        r->p++;
        if ((long long)(r->end - r->p) < n) return fail(r, "text runs past the end"), NULL;
        v->text = arena_strndup(a, r->p, (size_t)n);
        v->len = (int)n;
        r->p += n;
        return v;
    }
    if (token_is(t, len, "I")) {
        const char *d = token(r, &len);
        if (!d) return NULL;
        size_t i = (d[0] == '-') ? 1 : 0;
        if (i == len) return fail_token(r, "bad int"), NULL;
        for (size_t k = i; k < len; k++)
            if (d[k] < '0' || d[k] > '9') return fail_token(r, "bad int"), NULL;
        v->kind = PYV_INT;
        v->text = arena_strndup(a, d, len);
        errno = 0;
        char *e;
        long long x = strtoll(v->text, &e, 10);
        v->int_fits = (errno == 0 && *e == 0);
        v->i = v->int_fits ? x : 0;
        return v;
    }
    if (token_is(t, len, "F") || token_is(t, len, "C")) {
        int parts = t[0] == 'F' ? 1 : 2;
        v->kind = parts == 1 ? PYV_FLOAT : PYV_COMPLEX;
        for (int k = 0; k < parts; k++) {
            const char *d = token(r, &len);
            if (!d) return NULL;
            char *text = arena_strndup(a, d, len);
            char *e;
            double x = strtod(text, &e);
            if (*e) return fail_token(r, "bad float"), NULL;
            if (k == 0) v->f = x, v->text = text;
            else v->imag = x;
        }
        return v;
    }
    if (token_is(t, len, "B")) {
        long long b;
        if (!read_int(r, 0, 1, &b)) return NULL;
        v->kind = PYV_BOOL;
        v->i = b;
        return v;
    }
    if (token_is(t, len, "Z")) return v->kind = PYV_NONE, v;
    if (token_is(t, len, "E")) return v->kind = PYV_ELLIPSIS, v;
    fail_token(r, "unknown value tag");
    return NULL;
}

PyNode *pyast_read(MtContext *ctx, const char *text, size_t len) {
    Reader r = {ctx, text, text + len, text, NULL, 0};
    size_t n;
    const char *magic = token(&r, &n);
    if (!magic) return NULL;
    if (!token_is(magic, n, "mytriton-ast"))
        return fail_token(&r, "missing 'mytriton-ast' header"), NULL;
    long long version;
    if (!read_int(&r, 0, 1000, &version)) return NULL;
    if (version != 1) return fail_token(&r, "unsupported serialization version"), NULL;
    PyVal *v = read_value(&r, 0);
    if (!v) return NULL;
    skip_space(&r);
    if (r.p != r.end) return fail(&r, "trailing data"), NULL;
    if (v->kind != PYV_NODE || strcmp(v->node->kind, "Module") != 0)
        return fail(&r, "the top value is not a Module"), NULL;
    return v->node;
}

const PyVal *pyast_field(const PyNode *node, const char *name) {
    if (!node) return NULL;
    for (int i = 0; i < node->nfields; i++)
        if (strcmp(node->names[i], name) == 0) return node->values[i];
    return NULL;
}

PyNode *pyast_node(const PyNode *node, const char *name) {
    const PyVal *v = pyast_field(node, name);
    return v && v->kind == PYV_NODE ? v->node : NULL;
}

const PyVal *pyast_list(const PyNode *node, const char *name) {
    const PyVal *v = pyast_field(node, name);
    return v && v->kind == PYV_LIST ? v : NULL;
}

const char *pyast_str(const PyNode *node, const char *name) {
    const PyVal *v = pyast_field(node, name);
    return v && v->kind == PYV_STR ? v->text : NULL;
}

static const char *const kind_names[] = {
    "",
#define PK(name) #name,
#include "frontend/pyast_kinds.def"
#undef PK
};

PyKind pyast_kind_of(const char *name) {
    int lo = 1, hi = PK_COUNT - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(name, kind_names[mid]);
        if (c == 0) return (PyKind)mid;
        if (c < 0) hi = mid - 1;
        else lo = mid + 1;
    }
    return PK_OTHER;
}

int pyast_is(const PyNode *node, const char *kind) { return node && strcmp(node->kind, kind) == 0; }

static void print_value(StrBuf *sb, const PyVal *v, int indent);

static void print_node(StrBuf *sb, const PyNode *n, int indent) {
    sb_puts(sb, n->kind);
    if (n->pos.line > 0) sb_printf(sb, " @%d:%d", n->pos.line, n->pos.col);
    sb_putc(sb, '\n');
    for (int i = 0; i < n->nfields; i++) {
        const PyVal *v = n->values[i];
        if (v->kind == PYV_NONE) continue;
        if (v->kind == PYV_LIST && v->len == 0) continue;
        if (v->kind == PYV_NODE && v->node->nfields == 0 && v->node->pos.line == 0 &&
            (strcmp(n->names[i], "ctx") == 0))
            continue;
        sb_printf(sb, "%*s%s: ", indent + 2, "", n->names[i]);
        print_value(sb, v, indent + 2);
    }
}

static void print_value(StrBuf *sb, const PyVal *v, int indent) {
    switch (v->kind) {
    case PYV_NODE: print_node(sb, v->node, indent); break;
    case PYV_LIST:
        sb_puts(sb, "[\n");
        for (int i = 0; i < v->len; i++) {
            sb_printf(sb, "%*s", indent + 2, "");
            print_value(sb, v->items[i], indent + 2);
        }
        sb_printf(sb, "%*s]\n", indent, "");
        break;
    case PYV_STR:
    case PYV_BYTES: {
        sb_puts(sb, v->kind == PYV_BYTES ? "b'" : "'");
        for (int i = 0; i < v->len; i++) {
            unsigned char c = (unsigned char)v->text[i];
            if (c == '\'' || c == '\\') sb_printf(sb, "\\%c", c);
            else if (c < 0x20 || c == 0x7f) sb_printf(sb, "\\x%02x", c);
            else sb_putc(sb, (char)c);
        }
        sb_puts(sb, "'\n");
        break;
    }
    case PYV_INT: sb_printf(sb, "%s\n", v->text); break;
    case PYV_FLOAT: sb_printf(sb, "%s\n", v->text); break;
    case PYV_COMPLEX: sb_printf(sb, "complex(%.17g, %.17g)\n", v->f, v->imag); break;
    case PYV_BOOL: sb_puts(sb, v->i ? "True\n" : "False\n"); break;
    case PYV_NONE: sb_puts(sb, "None\n"); break;
    case PYV_ELLIPSIS: sb_puts(sb, "...\n"); break;
    }
}

void pyast_print(StrBuf *sb, const PyNode *node) { print_node(sb, node, 0); }
