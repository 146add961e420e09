/* The expression-tree IR (DESIGN 3.3): what the frontend builds. Values
 * are immutable nodes shared by identity; a kernel body is a list of
 * statements: stores and runtime loops (the seed's ForRange, whose body is
 * again such a list). */
#ifndef MT_EXPR_H
#define MT_EXPR_H

#include "base/context.h"
#include "ir/types.h"

typedef enum ExprKind {
    EX_PARAM,      /* a runtime parameter of the kernel */
    EX_CONST,      /* a scalar constant */
    EX_OP,         /* an operation of the opcode table */
    EX_LOOP_INDEX, /* the induction variable of `loop` (i32) */
    EX_LOOP_CARRY, /* carried value `index` of `loop` at the start of an iteration */
    EX_LOOP_RESULT /* carried value `index` of `loop` after the loop */
} ExprKind;

typedef struct ForRange ForRange;

typedef struct Expr {
    ExprKind kind;
    Op op; /* EX_OP */
    Type type;
    SrcPos pos;
    int nargs;
    struct Expr *args[MT_MAX_OPERANDS]; /* EX_OP operands; NULL for an absent mask/other */
    Attrs attrs;
    ConstVal c;     /* EX_CONST */
    int strong;     /* EX_CONST: a value Triton holds as a tensor (a
                            * Python number assigned to a variable), not a
                            * weak Python scalar */
    int param;      /* EX_PARAM: index among the runtime parameters */
    ForRange *loop; /* EX_LOOP_* */
    int index;      /* EX_LOOP_CARRY / EX_LOOP_RESULT lane */
    int depth;      /* loop nesting depth where the node was built */
    int height;     /* 1 + the largest operand height: the longest
                            * chain of dependent operations ending here */
    int id;         /* creation order, for printing */
    /* SSA lowering's memo (lower.c) */
    int lowered;
    int lowered_value; /* the SSA value, or -1 for an operand without one */
} Expr;

typedef enum StmtKind { STMT_STORE, STMT_FOR, STMT_WHILE, STMT_IF } StmtKind;

typedef struct Stmt {
    StmtKind kind;
    SrcPos pos;
    Expr *store;      /* STMT_STORE: an EX_OP node with op OP_STORE */
    ForRange *loop;   /* STMT_FOR, STMT_WHILE, STMT_IF */
    PtrVec pre_loads; /* Expr*: loads of earlier statements, lowered first */
} Stmt;

/* A runtime region statement: a `for` over range(), a `while` (carried
 * lanes as a for's; `cond_body` and `cond`, the condition evaluated before
 * each iteration with the carried values in EX_LOOP_CARRY nodes), or an
 * `if` (`cond`; `body` and `else_body` with their `outputs` and
 * `else_outputs`; no inputs or args: a name the branches assign is lane i,
 * EX_LOOP_RESULT after the statement). */
struct ForRange {
    StmtKind kind; /* STMT_FOR, STMT_WHILE, STMT_IF */
    SrcPos pos;
    const char *index_name; /* for; NULL otherwise */
    Expr *index;            /* EX_LOOP_INDEX (for) */
    Expr *start, *stop, *step;
    int num_stages, unroll; /* tl.range's hints (0: none) */
    int warp_specialize;    /* tl.range's warp_specialize=True */
    Expr *cond;             /* if, while: an i1 scalar */
    PtrVec cond_body;       /* while: statements of the condition */
    PtrVec else_body;       /* if: Stmt* */
    Expr **else_outputs;    /* if */
    PtrVec captures;        /* Expr*: outer values read in the body, first-use order */
    PtrVec body;            /* Stmt* */
    int ncarried;
    const char **names; /* carried source names, in source order */
    Expr **inputs;      /* initial values */
    Expr **args;        /* EX_LOOP_CARRY nodes */
    Expr **outputs;     /* values at the end of an iteration */
    Expr **results;     /* EX_LOOP_RESULT nodes */
};

typedef struct KernelParam {
    const char *name;
    Type type;
    SrcPos pos;
    int is_constexpr;
    int runtime_index;          /* index among runtime parameters, or -1 */
    const char *constexpr_text; /* the value as given (-D) or defaulted */
} KernelParam;

typedef struct Kernel {
    const char *name; /* the Python function */
    SrcPos pos;
    int nparams;
    KernelParam *params; /* all parameters in order */
    int nruntime;
    KernelParam **runtime; /* the runtime ones in order */
    PtrVec body;           /* Stmt* */
    int nexprs;            /* nodes created (ids) */
} Kernel;

/* Prints the tree (--emit=expr). */
void expr_print_kernel(StrBuf *sb, Arena *a, const Kernel *k);

#endif
