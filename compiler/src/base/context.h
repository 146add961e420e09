/* The compilation context: one per compilation, owning its arena, the
 * kernel source (for diagnostics) and the diagnostics collected so far.
 * There is no global state: two contexts can live in one process. */
#ifndef MT_CONTEXT_H
#define MT_CONTEXT_H

#include "base/arena.h"

/* A source position: 1-based line and column (column in bytes). Line 0
 * means "no position" (the diagnostic names the file only). */
typedef struct SrcPos {
    int line, col;
    int file; /* 0: the kernel's file; k > 0: ctx->files[k - 1] (an imported module) */
} SrcPos;

/* A file other than the kernel's that positions may point into. */
typedef struct MtFile {
    const char *name, *source;
    size_t source_len;
} MtFile;

typedef struct MtContext {
    Arena *arena;
    const char *filename; /* as the user named it: diagnostics print it */
    const char *source;   /* the file's bytes, NUL-terminated; NULL if unread */
    size_t source_len;
    StrBuf diagnostics; /* formatted diagnostics, in order */
    int errors;
    int cmake_spelling;        /* options named as mytriton_add_kernels() keywords */
    int triton_nan;            /* tl.maximum/tl.minimum ignore NaN by default, as
                           * Triton's (-O2); 0: NaN propagates, as the seed (-O1) */
    int unroll_limit;          /* the most iterations of a range() with compile-time
                                * bounds that the frontend unrolls; a longer one stays
                                * a loop, as Triton's (-O2: 8); 0: every one (-O1) */
    const char *python, *shim; /* to parse imported modules (NULL: no imports) */
    PtrVec deps;               /* const char *: the imported files, in order */
    int debug;                 /* tl.device_assert compiled in (--debug, Triton's debug=True) */
    int num_warps;             /* --num-warps (0: not given), tl.extra.cuda.num_warps() */
    PtrVec files;              /* MtFile *: imported modules, by SrcPos.file - 1 */
    int parse_file;            /* the SrcPos.file of the nodes the AST reader makes */
} MtContext;

/* The options a diagnostic may name, spelled as on the command line (-D,
 * --signature, --grid, --name) or, when mytritonc runs from CMake, as the
 * keywords of mytriton_add_kernels() (CONSTEXPR, SIGNATURE, GRID, NAME). */
typedef enum MtOption {
    MT_OPT_DEFINE,
    MT_OPT_SIGNATURE,
    MT_OPT_GRID,
    MT_OPT_GRID_PARAM,
    MT_OPT_NAME,
    MT_OPT_MODULE_VALUE,
    MT_OPT_CONFIG
} MtOption;
const char *mt_option_name(const MtContext *ctx, MtOption opt);

MtContext *mt_context_new(const char *filename);
void mt_context_free(MtContext *ctx);

/* Records `file:line:col: error: message`, the source line and a caret. */
void mt_error(MtContext *ctx, SrcPos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void mt_verror(MtContext *ctx, SrcPos pos, const char *fmt, va_list ap);
/* A note attached to the previous error, same format with "note". */
void mt_note(MtContext *ctx, SrcPos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline SrcPos srcpos(int line, int col) {
    SrcPos p = {line, col, 0};
    return p;
}

#endif
