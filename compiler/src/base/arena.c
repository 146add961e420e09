#include "base/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Chunk {
    struct Chunk *next;
    size_t size, used;
    max_align_t data[];
} Chunk;

struct Arena {
    Chunk *head;
    size_t total;
};

_Noreturn void mt_internal_error(const char *file, int line, const char *what) {
    fprintf(stderr, "mytritonc: internal error at %s:%d: %s\n", file, line, what);
    abort();
}

Arena *arena_new(void) {
    Arena *a = calloc(1, sizeof *a);
    MT_ASSERT(a != NULL);
    return a;
}

void arena_free(Arena *a) {
    if (!a) return;
    Chunk *c = a->head;
    while (c) {
        Chunk *next = c->next;
        free(c);
        c = next;
    }
    free(a);
}

void *arena_alloc(Arena *a, size_t size) {
    size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    if (size == 0) size = align;
    Chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        size_t want = size > 64 * 1024 ? size : 64 * 1024;
        c = malloc(sizeof(Chunk) + want);
        MT_ASSERT(c != NULL);
        c->size = want;
        c->used = 0;
        c->next = a->head;
        a->head = c;
        a->total += want;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

size_t arena_bytes(const Arena *a) { return a->total; }

char *arena_strndup(Arena *a, const char *s, size_t n) {
    char *d = arena_alloc(a, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_vprintf(Arena *a, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    MT_ASSERT(n >= 0);
    char *d = arena_alloc(a, (size_t)n + 1);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    return d;
}

char *arena_printf(Arena *a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *d = arena_vprintf(a, fmt, ap);
    va_end(ap);
    return d;
}

void ptrvec_push(Arena *a, PtrVec *v, void *item) {
    if (v->len == v->cap) {
        int cap = v->cap ? v->cap * 2 : 8;
        void **items = ARENA_ARRAY(a, void *, cap);
        if (v->len) memcpy(items, v->items, sizeof(void *) * (size_t)v->len);
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = item;
}

void ptrvec_insert(Arena *a, PtrVec *v, int index, void *item) {
    MT_ASSERT(index >= 0 && index <= v->len);
    ptrvec_push(a, v, NULL);
    memmove(v->items + index + 1, v->items + index, sizeof(void *) * (size_t)(v->len - 1 - index));
    v->items[index] = item;
}

void ptrvec_remove(PtrVec *v, int index) {
    MT_ASSERT(index >= 0 && index < v->len);
    memmove(v->items + index, v->items + index + 1, sizeof(void *) * (size_t)(v->len - 1 - index));
    v->len--;
}

void sb_init(StrBuf *sb, Arena *a) {
    sb->arena = a;
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

static void sb_reserve(StrBuf *sb, size_t extra) {
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1) cap *= 2;
    char *d = arena_alloc(sb->arena, cap);
    if (sb->len) memcpy(d, sb->data, sb->len);
    sb->data = d;
    sb->cap = cap;
}

void sb_putn(StrBuf *sb, const char *s, size_t n) {
    sb_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void sb_putc(StrBuf *sb, char c) { sb_putn(sb, &c, 1); }
void sb_puts(StrBuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }

void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    MT_ASSERT(n >= 0);
    sb_reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_printf(StrBuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void sb_indent(StrBuf *sb, const char *text, int indent) {
    int at_line_start = 1;
    for (const char *p = text; *p; p++) {
        if (at_line_start && *p != '\n')
            for (int i = 0; i < indent; i++) sb_putc(sb, ' ');
        sb_putc(sb, *p);
        at_line_start = (*p == '\n');
    }
}

const char *sb_str(StrBuf *sb) {
    if (!sb->data) sb_reserve(sb, 0), sb->data[0] = 0;
    return sb->data;
}

void sb_quote(StrBuf *sb, const char *s) {
    sb_putc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') sb_printf(sb, "\\%c", *p);
        else if (*p == '\n') sb_puts(sb, "\\n");
        else if (*p == '\t') sb_puts(sb, "\\t");
        else if (*p < 0x20 || *p == 0x7f) sb_printf(sb, "\\%03o", *p);
        else if (*p == '?' && p[1] == '?') sb_puts(sb, "?\"\"");
        else sb_putc(sb, (char)*p);
    }
    sb_putc(sb, '"');
}

void sb_c_string(StrBuf *sb, const char *s, int format) {
    sb_putc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') sb_printf(sb, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f) sb_printf(sb, "\\%03o", *p);
        else if (*p == '?' && p[1] == '?') sb_puts(sb, "?\\");
        else if (*p == '%' && format) sb_puts(sb, "%%");
        else sb_putc(sb, (char)*p);
    }
    sb_putc(sb, '"');
}

/* The characters that make a trigraph after "??". */
static int trigraph_char(char c) { return c && strchr("=/'()!<>-", c) != NULL; }

const char *c_comment_text(Arena *a, const char *s) {
    StrBuf sb;
    sb_init(&sb, a);
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c == 0x7f) sb_putc(&sb, '?');
        else if (c == '*' && p[1] == '/') sb_puts(&sb, "*?"), p++;
        else if (c == '/' && p[1] == '*') sb_puts(&sb, "/?"), p++;
        else if (c == '?' && p[1] == '?' && trigraph_char(p[2])) sb_puts(&sb, "? ?"), p++;
        else sb_putc(&sb, (char)c);
    }
    return sb_str(&sb);
}
