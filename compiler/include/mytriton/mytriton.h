/* libmytriton_compiler: the mytriton compiler as a C library.
 *
 *   mt_options o = {0};
 *   o.path = "kernels/add.py"; o.kernel = "add_kernel";
 *   o.signature = "*fp32, *fp32, *fp32, i32"; ...
 *   mt_compilation *c = mt_compile(&o);
 *   const char *cuda = mt_emit(c, MT_EMIT_CUDA);   // NULL on error
 *   fputs(mt_diagnostics(c), stderr);
 *   mt_free(c);
 *
 * Each compilation owns all of its memory (one arena); there is no global
 * state, so compilations may run concurrently in one process. The library
 * never exits the process: errors are diagnostics. */
#ifndef MYTRITON_COMPILER_H
#define MYTRITON_COMPILER_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mt_define {
    const char *name;
    const char *value; /* an int, a float, True or False, as text */
} mt_define;

enum { MT_BACKEND_CUDA = 1, MT_BACKEND_HOST = 2, MT_BACKEND_MLIR = 4 };

/* A dispatching launcher over configs (mytriton_add_kernels CONFIGS): see
 * MT_EMIT_DISPATCH_*. Config i's variant is compiled separately as
 * NAME_cfg<i> and, with `specialize`, NAME_cfg<i>_d16 (divisibility16). */
typedef struct mt_dispatch_config {
    const char *text; /* "BM=64 BN=128 NUM_WARPS=8 NUM_STAGES=3" */
    const char *when; /* NULL, or a condition over the key names */
} mt_dispatch_config;

typedef struct mt_dispatch {
    int nconfigs;
    const mt_dispatch_config *configs;
    int nkeys;
    const char *const *keys; /* integer runtime parameters */
    int nrestore;
    const char *const *restore; /* "c" or "c=M*N" (the extent in elements) */
    int specialize;             /* the _d16 variants exist */
} mt_dispatch;

typedef struct mt_options {
    const char *path;      /* the kernel file */
    const char *kernel;    /* the @triton.jit function */
    const char *signature; /* "*fp32, *fp32, i32" */
    const mt_define *defines;
    int ndefines;
    const mt_define *module_values; /* module-level names Python computes at
                              * import time (IS_BLACKWELL = torch...), fixed
                              * for this build in every module read: module
                              * conditions and kernels see VALUE (-D's syntax) */
    int nmodule_values;
    const char *grid;               /* NULL: launchers take a mytriton_grid */
    const char *const *grid_params; /* launcher-only int32_t parameters the
                                     * grid may use, after the kernel's */
    int ngrid_params;
    const char *name;            /* NULL: the kernel name without "_kernel" */
    int opt_level;               /* 0, 1, 2 */
    int backends;                /* MT_BACKEND_*; 0 means CUDA */
    const char *python;          /* NULL: "python3" */
    const char *shim;            /* the parser shim script (required) */
    const char *mlir_binary;     /* mlir-opt's output for the MLIR module (the
                              * text): MT_EMIT_MLIR_LAUNCHER embeds its PTX */
    int num_warps;               /* -O2 CUDA: warps per program (threads per
                              * block / 32), as Triton's num_warps; 0: chosen
                              * by the kernel's shape */
    int num_stages;              /* software pipelining depth, as Triton's
                              * num_stages: recorded, and the copy ring's
                              * depth of -O2's tensor-core matmul and
                              * attention kernels; 0: their default */
    int divisibility16;          /* Triton's specialization: every pointer
                              * parameter 16-byte aligned and every i32
                              * parameter divisible by 16 (as if the
                              * signature said :16 on each) */
    const mt_dispatch *dispatch; /* non-NULL: -o writes the dispatching
                              * launcher (MT_EMIT_DISPATCH_*), compiled
                              * against config 0's constexprs */
    int debug;                   /* 1: tl.device_assert is compiled in (Triton's
                              * debug=True / TRITON_DEBUG=1); 0: it is no code */
    int cmake_spelling;          /* 1: diagnostics name the options as the keywords
                              * of mytriton_add_kernels() (CONSTEXPR, GRID,
                              * SIGNATURE, NAME), not -D, --grid, ... */
} mt_options;

typedef enum mt_stage {
    MT_EMIT_AST,             /* the kernel's Python AST */
    MT_EMIT_EXPR,            /* the expression tree */
    MT_EMIT_SSA,             /* optimized SSA */
    MT_EMIT_CUDA,            /* the __global__ function */
    MT_EMIT_HEADER,          /* NAME.h */
    MT_EMIT_CUDA_TU,         /* NAME.cu */
    MT_EMIT_HOST,            /* NAME_host.c */
    MT_EMIT_MLIR,            /* the MLIR module */
    MT_EMIT_MLIR_LAUNCHER,   /* NAME_mlir.c: launch_NAME_mlir, the PTX of
                            * options.mlir_binary embedded */
    MT_EMIT_DISPATCH_HEADER, /* options.dispatch: NAME.h of the dispatcher */
    MT_EMIT_DISPATCH_CUDA,   /* NAME.cu: launch_NAME over the variants */
    MT_EMIT_DISPATCH_HOST,   /* NAME_host.c: launch_NAME_host over them */
    MT_EMIT_LAYOUT,          /* the SSA with each value's layout over the
                            * threads of a CUDA block (DESIGN 8b) */
    MT_EMIT_EXPLAIN          /* each tl.dot's path on the CUDA backend, as notes:
                            * tensor cores and how, or CUDA cores and why */
} mt_stage;

typedef struct mt_compilation mt_compilation;

mt_compilation *mt_compile(const mt_options *options);
/* The options checked against the kernel's parameters, its body not
 * compiled (mytritonc --check; mytriton_add_kernels() at configure time):
 * the name, the signature's types and its entries against the runtime
 * parameters, the constexpr and module values (every config's), the grid
 * and its parameters, the configs, their WHEN conditions, KEY and RESTORE.
 * mt_ok() and mt_diagnostics() give the result; errors of the kernel's
 * body are left to mt_compile(), and mt_emit() gives only the ast and
 * expr stages. */
mt_compilation *mt_check(const mt_options *options);
/* 1 while no error has been reported. */
int mt_ok(const mt_compilation *c);
/* The text of a stage, computed on first request; NULL after an error
 * (see mt_diagnostics). */
const char *mt_emit(mt_compilation *c, mt_stage stage);
/* All diagnostics so far, formatted ("" if none). */
const char *mt_diagnostics(const mt_compilation *c);
/* The files the compilation read: 0 is the kernel file, then each module
 * imported beside it, in the order read; NULL past the end. */
const char *mt_dependency(const mt_compilation *c, int i);
/* The output name (NAME). */
const char *mt_output_name(const mt_compilation *c);
void mt_free(mt_compilation *c);
const char *mt_version(void);

#ifdef __cplusplus
}
#endif
#endif
