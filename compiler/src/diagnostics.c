/* Diagnostics in the format of DESIGN 4: `file:line:col: error: message`,
 * then the source line and a caret under the column. */
#include "context.h"

#include <stdlib.h>
#include <string.h>

MtContext *mt_context_new(const char *filename) {
    Arena *a = arena_new();
    MtContext *ctx = ARENA_NEW(a, MtContext);
    ctx->arena = a;
    ctx->filename = arena_strdup(a, filename ? filename : "<input>");
    sb_init(&ctx->diagnostics, a);
    return ctx;
}

void mt_context_free(MtContext *ctx) {
    if (ctx) arena_free(ctx->arena);
}

/* The text of line `line` (1-based) and its length; NULL if absent. */
static const char *source_line(const MtContext *ctx, int line, size_t *len) {
    if (!ctx->source || line < 1) return NULL;
    const char *p = ctx->source, *end = ctx->source + ctx->source_len;
    for (int l = 1; l < line; l++) {
        p = memchr(p, '\n', (size_t)(end - p));
        if (!p) return NULL;
        p++;
    }
    const char *e = memchr(p, '\n', (size_t)(end - p));
    if (!e) e = end;
    if (e > p && e[-1] == '\r') e--;
    *len = (size_t)(e - p);
    return p;
}

static void report(MtContext *ctx, const char *kind, SrcPos pos, const char *fmt, va_list ap) {
    StrBuf *sb = &ctx->diagnostics;
    if (pos.line > 0)
        sb_printf(sb, "%s:%d:%d: %s: ", ctx->filename, pos.line, pos.col > 0 ? pos.col : 1, kind);
    else
        sb_printf(sb, "%s: %s: ", ctx->filename, kind);
    sb_vprintf(sb, fmt, ap);
    sb_putc(sb, '\n');
    size_t len = 0;
    const char *text = source_line(ctx, pos.line, &len);
    if (!text) return;
    /* Show at most 200 bytes of a long line, around the column. */
    size_t col = pos.col > 0 ? (size_t)pos.col - 1 : 0;
    if (col > len) col = len;
    size_t from = 0, to = len;
    if (len > 200) {
        from = col > 100 ? col - 100 : 0;
        to = from + 200 < len ? from + 200 : len;
    }
    sb_puts(sb, "    ");
    if (from > 0) sb_puts(sb, "...");
    for (size_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)text[i];
        sb_putc(sb, (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c);
    }
    if (to < len) sb_puts(sb, "...");
    sb_putc(sb, '\n');
    sb_puts(sb, "    ");
    if (from > 0) sb_puts(sb, "   ");
    for (size_t i = from; i < col; i++) {
        unsigned char c = (unsigned char)text[i];
        /* keep tabs so the caret lines up; count a UTF-8 sequence as one */
        if (c == '\t') sb_putc(sb, '\t');
        else if ((c & 0xC0) != 0x80) sb_putc(sb, ' ');
    }
    sb_puts(sb, "^\n");
}

void mt_verror(MtContext *ctx, SrcPos pos, const char *fmt, va_list ap) {
    ctx->errors++;
    report(ctx, "error", pos, fmt, ap);
}

void mt_error(MtContext *ctx, SrcPos pos, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    mt_verror(ctx, pos, fmt, ap);
    va_end(ap);
}

void mt_note(MtContext *ctx, SrcPos pos, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(ctx, "note", pos, fmt, ap);
    va_end(ap);
}
