/* pyast: the generic Python AST that the parser shim prints, read into C.
 * A node has a kind ("FunctionDef"), a position and named fields; the
 * reader knows no mytriton semantics (the frontend gives them meaning). */
#ifndef MT_PYAST_H
#define MT_PYAST_H

#include <stdint.h>

#include "base/context.h"

typedef enum PyValKind {
    PYV_NODE,    /* an AST node */
    PYV_LIST,    /* a list of values */
    PYV_STR,     /* str (UTF-8) */
    PYV_BYTES,   /* bytes */
    PYV_INT,     /* int; `i` valid when `int_fits`, `text` always */
    PYV_FLOAT,   /* float */
    PYV_COMPLEX, /* complex (real in `f`, imaginary in `imag`) */
    PYV_BOOL,    /* True / False in `i` */
    PYV_NONE,    /* None (also an absent optional field) */
    PYV_ELLIPSIS /* ... */
} PyValKind;

typedef struct PyNode PyNode;

/* A node's kind, read once (pyast_kinds.def). */
typedef enum PyKind {
    PK_OTHER = 0,
#define PK(name) PK_##name,
#include "frontend/pyast_kinds.def"
#undef PK
    PK_COUNT
} PyKind;

typedef struct PyVal {
    PyValKind kind;
    PyNode *node;         /* PYV_NODE */
    struct PyVal **items; /* PYV_LIST */
    int len;              /* PYV_LIST: count; PYV_STR/BYTES: bytes */
    const char *text;     /* PYV_STR/BYTES: data; PYV_INT/FLOAT: digits */
    int64_t i;            /* PYV_INT (when int_fits), PYV_BOOL */
    int int_fits;         /* PYV_INT: the value fits in int64_t */
    double f, imag;       /* PYV_FLOAT, PYV_COMPLEX */
} PyVal;

struct PyNode {
    const char *kind; /* the class name, as printed */
    PyKind kind_id;   /* the same as an enum (PK_OTHER if unknown) */
    SrcPos pos;       /* 1-based line and column; 0 if none */
    SrcPos end;
    int nfields;
    const char **names;
    PyVal **values;
};

/* Parses the shim's output. On malformed input records a diagnostic that
 * says where the text broke and returns NULL. */
PyNode *pyast_read(MtContext *ctx, const char *text, size_t len);

/* Runs the shim on ctx->filename: `python` (NULL: "python3") and `shim`
 * name the interpreter and the script. Reads the kernel file into
 * ctx->source too. Returns the module node or NULL after a diagnostic. */
PyNode *pyast_parse_file(MtContext *ctx, const char *python, const char *shim);

/* The second half of pyast_parse_file: the shim's exit status, stdout and
 * stderr into the module, or NULL after the diagnostic they call for
 * (`python` and `shim` name what ran, for the messages). */
PyNode *pyast_from_shim_output(MtContext *ctx, int status, StrBuf *out, StrBuf *err,
                               const char *python, const char *shim);

/* A field by name (NULL if the node has none). */
const PyVal *pyast_field(const PyNode *node, const char *name);
/* The field as a node / list / string, or NULL when it is None/absent or
 * of another kind. */
PyNode *pyast_node(const PyNode *node, const char *name);
const PyVal *pyast_list(const PyNode *node, const char *name);
const char *pyast_str(const PyNode *node, const char *name);
int pyast_is(const PyNode *node, const char *kind);
/* Whether the node exists and is of kind k. */
static inline int pyast_isk(const PyNode *node, PyKind k) { return node && node->kind_id == k; }
/* The kind of a class name (PK_OTHER if none). */
PyKind pyast_kind_of(const char *name);

/* Writes the tree in an indented text form (--emit=ast). */
void pyast_print(StrBuf *sb, const PyNode *node);

#endif
