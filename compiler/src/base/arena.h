/* Arena allocation: all memory of one compilation lives in one arena,
 * freed at once with the compilation context. Also the two growable
 * containers the compiler uses: a pointer vector and a string buffer. */
#ifndef MT_ARENA_H
#define MT_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *a);
/* Zeroed memory; aborts (internal failure) only when malloc itself fails. */
void *arena_alloc(Arena *a, size_t size);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);
size_t arena_bytes(const Arena *a);

#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

/* A growable array of pointers in an arena. */
typedef struct PtrVec {
    void **items;
    int len, cap;
} PtrVec;
void ptrvec_push(Arena *a, PtrVec *v, void *item);
void ptrvec_insert(Arena *a, PtrVec *v, int index, void *item);
void ptrvec_remove(PtrVec *v, int index);

/* A growable string in an arena. */
typedef struct StrBuf {
    Arena *arena;
    char *data;
    size_t len, cap;
} StrBuf;
void sb_init(StrBuf *sb, Arena *a);
void sb_putc(StrBuf *sb, char c);
void sb_puts(StrBuf *sb, const char *s);
/* `s` as a C string literal: quotes, backslash escapes for quotes,
 * backslashes and control characters, "?" split so no trigraph forms. */
void sb_quote(StrBuf *sb, const char *s);
/* `s` as a C string literal: backslash escapes for quotes and
 * backslashes, octal ones for control characters and bytes above 0x7e,
 * \? after a question mark (no trigraph forms); with `format`, '%' is
 * doubled (the literal is a printf format: text never becomes a
 * conversion). */
void sb_c_string(StrBuf *sb, const char *s, int format);
/* `s` to print inside a C comment: control characters as '?', and neither
 * a comment's delimiter nor a trigraph forms ("*?", "/?", "? ?"). */
const char *c_comment_text(Arena *a, const char *s);
void sb_putn(StrBuf *sb, const char *s, size_t n);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap);
/* Appends `text` with every line indented by `indent` spaces. */
void sb_indent(StrBuf *sb, const char *text, int indent);
const char *sb_str(StrBuf *sb); /* NUL-terminated, never NULL */

/* Internal invariant failures abort with the place; user errors never do. */
#define MT_ASSERT(cond) ((cond) ? (void)0 : mt_internal_error(__FILE__, __LINE__, #cond))
_Noreturn void mt_internal_error(const char *file, int line, const char *what);

#endif
