/* Diagnostics in the format of DESIGN 4: `file:line:col: error: message`,
 * then the source line and a caret under the column. */
#include "base/context.h"

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

const char *mt_option_name(const MtContext *ctx, MtOption opt) {
    static const char *const names[][2] = {
        [MT_OPT_DEFINE] = {"-D", "CONSTEXPR"},
        [MT_OPT_SIGNATURE] = {"--signature", "SIGNATURE"},
        [MT_OPT_GRID] = {"--grid", "GRID"},
        [MT_OPT_GRID_PARAM] = {"--grid-param", "GRID_PARAMS"},
        [MT_OPT_NAME] = {"--name", "NAME"},
        [MT_OPT_MODULE_VALUE] = {"--module-value", "MODULE_VALUES"},
        [MT_OPT_CONFIG] = {"--config", "CONFIGS"},
    };
    return names[opt][ctx->cmake_spelling ? 1 : 0];
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
    /* Python drops a UTF-8 byte order mark: columns on line 1 start after it */
    if (line == 1 && end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
    const char *e = memchr(p, '\n', (size_t)(end - p));
    if (!e) e = end;
    if (e > p && e[-1] == '\r') e--;
    *len = (size_t)(e - p);
    return p;
}

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
    size_t len = s[0] < 0x80                    ? 1
                 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2
                 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
                 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
                                                : 0;
    if (len == 0 || len > n) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if (len == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0))) return 0;
    if (len == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))) return 0;
    return len;
}

static void report(MtContext *ctx, const char *kind, SrcPos pos, const char *fmt, va_list ap) {
    StrBuf *sb = &ctx->diagnostics;
    /* a position in an imported module names its file and quotes its line */
    MtContext view = *ctx;
    if (pos.file > 0 && pos.file <= ctx->files.len) {
        const MtFile *f = ctx->files.items[pos.file - 1];
        view.filename = f->name;
        view.source = f->source;
        view.source_len = f->source_len;
    }
    if (pos.line > 0)
        sb_printf(sb, "%s:%d:%d: %s: ", view.filename, pos.line, pos.col > 0 ? pos.col : 1, kind);
    else sb_printf(sb, "%s: %s: ", view.filename, kind);
    sb_vprintf(sb, fmt, ap);
    sb_putc(sb, '\n');
    size_t len = 0;
    const char *text = source_line(&view, pos.line, &len);
    if (!text) return;
    /* Show at most 200 bytes of a long line, around the column. */
    size_t col = pos.col > 0 ? (size_t)pos.col - 1 : 0;
    if (col > len) col = len;
    size_t from = 0, to = len;
    if (len > 200) {
        from = col > 100 ? col - 100 : 0;
        to = from + 200 < len ? from + 200 : len;
    }
    /* A byte that is no part of valid UTF-8 prints as '?', as do control
     * characters; the caret line counts one column per character. */
    const unsigned char *u = (const unsigned char *)text;
    while (from > 0 && from < len && (u[from] & 0xC0) == 0x80) from--;
    sb_puts(sb, "    ");
    if (from > 0) sb_puts(sb, "...");
    for (size_t i = from; i < to;) {
        size_t n = utf8_seq(u + i, len - i);
        if (n == 0 || i + n > to) n = 1, sb_putc(sb, '?');
        else if (n == 1)
            sb_putc(sb, (u[i] < 0x20 && u[i] != '\t') || u[i] == 0x7f ? '?' : (char)u[i]);
        else sb_putn(sb, text + i, n);
        i += n;
    }
    if (to < len) sb_puts(sb, "...");
    sb_putc(sb, '\n');
    sb_puts(sb, "    ");
    if (from > 0) sb_puts(sb, "   ");
    for (size_t i = from; i < col;) {
        /* keep tabs so the caret lines up; a UTF-8 sequence is one column */
        size_t n = utf8_seq(u + i, len - i);
        sb_putc(sb, u[i] == '\t' ? '\t' : ' ');
        i += n ? n : 1;
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
