/* The backends (DESIGN 8, 9, 13): verified SSA into CUDA, launchers and
 * headers (and, in their own files, host C and MLIR). */
#ifndef MT_EMIT_H
#define MT_EMIT_H

#include "frontend/grid.h"
#include "mytriton/mytriton.h"
#include "layout/shape.h"
#include "ir/ssa.h"

enum { BACKEND_CUDA = 1, BACKEND_HOST = 2, BACKEND_MLIR = 4 };

/* One specialization: what the launcher, header and registry entry say. */
typedef struct Spec {
    const char *name;       /* NAME: launch_NAME, NAME.cu, NAME.h */
    const char *symbol;     /* the __global__ function */
    const char *kernel;     /* the Python function */
    const char *source;     /* the kernel file's name, no directories */
    const char *signature;  /* normalized */
    const char *constexprs; /* "BM=16, BN=16" ("" if none) */
    const Grid *grid;       /* NULL: the launcher takes a mytriton_grid */
    const Function *f;
    const TileInfo *tile;
    const char **pnames; /* C names of the runtime parameters, then of
                              * the nextra launcher-only grid parameters */
    const char **pyname; /* their Python names (same order) */
    int nextra;          /* launcher-only int32_t grid parameters */
    const int *written;  /* per runtime parameter: stored through */
    const int *hints;    /* per runtime parameter: the signature's :N hint (1: the value is 1) */
    int backends;
    int num_stages; /* the num_stages hint (0: none) */
} Spec;

/* The __global__ function alone (--emit=cuda; the golden files). */
const char *emit_cuda_kernel(Arena *a, const Function *f, const TileInfo *tile, const char *symbol);
/* The same; tensor_cores: tl.dot through mma.sync on sm_80+ (-O2). */
const char *emit_cuda_kernel_ex(Arena *a, const Function *f, const TileInfo *tile,
                                const char *symbol, int tensor_cores);
/* --emit=explain: the path emit_cuda_kernel_ex takes for dot `in`,
 * "tensor cores: ..." or "CUDA cores: why". */
const char *emit_cuda_dot_path(Arena *a, const Function *f, const Inst *in, int tensor_cores);
/* The definitions of mt_tf32_trunc and mt_tf32_rna (tl.dot's TF32 on CUDA
 * cores), once per translation unit. */
const char *cuda_tf32_helpers(void);
/* -O2's tensor-core kernel of a tl.dot kernel with large tiles
 * (emit_cuda_mma.c): cuda_mma_plan is the path's plan when the kernel has
 * that path's shape (NULL otherwise) and sets its threads per block and
 * dynamic shared memory in t (block_threads, dyn_smem; the *_sm90 fields:
 * on sm_90 devices, whose sm_90a branch may use more); cuda_mma_layout
 * describes the plan to the layout stage (layout.h); emit_cuda_mma prints
 * it as the __global__ function. */
typedef struct MmaPlan MmaPlan;
struct LayoutTc;
const MmaPlan *cuda_mma_plan(Arena *a, const Function *f, int num_warps, int num_stages,
                             TileInfo *t);
const struct LayoutTc *cuda_mma_layout(Arena *a, const Function *f, const MmaPlan *P);
const char *emit_cuda_mma(Arena *a, const Function *f, const MmaPlan *P, const char *symbol,
                          const int *param_div);
/* NAME.cu: includes, kernel, launcher, registry entry. */
const char *emit_cuda_unit(Arena *a, const Spec *s, const char *kernel);
/* NAME.h: the launchers of the requested backends. */
const char *emit_header(Arena *a, const Spec *s);
/* The grid evaluation and checks of a launcher (CUDA and host): leaves
 * `mytriton_grid grid` ready, or returns `fail_value` / `empty_value`. */
void emit_grid_prologue(StrBuf *sb, Arena *a, const Spec *s, const char *launcher,
                        const char *fail_value, const char *empty_value);
/* A launcher's parameter list: the stream (CUDA), the grid (without a grid
 * expression), the runtime parameters, then the launcher-only grid
 * parameters (int32_t); "void" if none. */
const char *launcher_params(Arena *a, const Spec *s, int with_stream);
/* The registry entry mytriton_kernel_info_<NAME><suffix> of `backend`,
 * whose generic launch is the function `generic`, whose tuner is the
 * object `tuner` and whose attribute function is `attributes` (NULL:
 * none). */
void emit_info(StrBuf *sb, Arena *a, const Spec *s, const char *suffix, const char *backend,
               const char *generic, const char *tuner, const char *attributes);
/* The generic launch `fname`: unpacks args[] for the typed `launcher`
 * (cuda: passes the stream). */
void emit_generic(StrBuf *sb, Arena *a, const Spec *s, const char *launcher, const char *fname,
                  int cuda);
/* NAME_host.c: the host (CPU) backend's translation unit (emit_host.c). */
const char *emit_host_unit(MtContext *ctx, const Spec *s);
/* The MLIR module (emit_mlir.c); NULL after a diagnostic naming what it
 * does not cover. */
const char *emit_mlir_module(MtContext *ctx, const Spec *s);
/* NAME_mlir.c: the MLIR backend's launcher launch_NAME_mlir with the PTX of
 * `binary` (mlir-opt's output for the module) embedded; NULL after a
 * diagnostic (emit_mlir_launcher.c). */
const char *emit_mlir_launcher_unit(MtContext *ctx, const Spec *s, const char *binary);
/* NAME.h's declarations of launch_NAME_mlir and its registry entry. */
void emit_mlir_header_decls(StrBuf *sb, Arena *a, const Spec *s);
/* Dispatching launchers (emit_dispatch.c): NAME.h, and NAME.cu (cuda 1)
 * or NAME_host.c (cuda 0) over the variants NAME_cfg<i>[_d16]; NULL after
 * a diagnostic. */
const char *emit_dispatch_header(MtContext *ctx, const Spec *s, const mt_dispatch *d,
                                 const char *hash);
const char *emit_dispatch_unit(MtContext *ctx, const Spec *s, const mt_dispatch *d,
                               const char *hash, int cuda);
/* The checks of emit_dispatch_* alone (mt_check): KEY, WHEN and RESTORE
 * against the parameters (s->written NULL: not whether the kernel stores
 * through a RESTORE buffer); 0 after a diagnostic. */
int dispatch_check(MtContext *ctx, const Spec *s, const mt_dispatch *d);
/* The kernel hash of the persistent tuning cache: compiler version, kernel
 * source, kernel, signature, grid, level, constexprs and configs. */
const char *dispatch_hash(MtContext *ctx, const mt_options *o);
/* Splits a config ("BM=64 BN=128 NUM_WARPS=8 NUM_STAGES=3") into its
 * constexprs (appended to defs, names and values arena strings) and its
 * options; 0 after a diagnostic. */
int dispatch_config_parse(MtContext *ctx, const char *text, mt_define *defs, int *ndefs,
                          int *num_warps, int *num_stages);
#endif
