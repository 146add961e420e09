/* The driver: runs the pipeline stages in order on one compilation
 * context and produces each output on request. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cgen/cgen.h"
#include "driver/compile.h"
#include "backends/cuda/cuda_attn.h"
#include "backends/cuda/cuda_blocked.h"
#include "backends/cuda/cuda_dot_tc.h"
#include "launch/emit.h"
#include "frontend/frontend.h"
#include "layout/layout.h"
#include "ir/lower.h"
#include "mytriton/mytriton.h"
#include "passes/passes.h"
#include "passes/ptrbase.h"
#include "passes/ptrshape.h"
#include "frontend/pyast.h"
#include "passes/remat.h"
#include "ir/verify.h"

/* The largest tile: one thread per element at -O1, up to 64 elements per
 * thread of a 1024-thread block at -O2. */
enum { STAGE_COUNT = 14, MAX_TILE_O1 = 1024, MAX_TILE_O2 = 65536 };
/* The shared memory a CUDA block may have (sm_90: 227 KiB); the bytes of
 * a CUDA kernel's parameters (CUDA 12.1 and later on Volta and newer). */
enum { MAX_SMEM = 227 * 1024, MAX_PARAM_BYTES = 32764 };

struct mt_compilation {
    MtContext *ctx;
    mt_options opts;
    const char *name;
    PyNode *module;
    Kernel *kernel;
    Function *f;
    Grid *grid;
    int have_tile, tile_failed;
    int box_blocked; /* a bounding-box tile of more than 1024 elements spread by the
                      * -O2 blocked emitter (need_tile) */
    TileInfo tile;
    LayoutPlan *layout; /* the CUDA kernel's layout plan, built on first use
                         * (need_layout) */
    const MmaPlan *mma; /* -O2's tensor-core paths: their plans (need_tile) */
    const AttnPlan *attn;
    const char *path; /* the emitter that prints the CUDA kernel */
    int plan_group;   /* the blocked plan's column group: -1 the blocked
                         * emitter's (its axis analysis), 1 one thread per
                         * element */
    int layout_failed;
    int pointers_checked; /* ptrshape_check: 1 passed, -1 failed, 0 not run */
    Spec spec;
    int *param_div; /* the signature's :N hints */
    const char *text[STAGE_COUNT];
    int tried[STAGE_COUNT];
};

const char *mt_version(void) { return MT_VERSION; }

static const char *basename_of(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int valid_name(const char *s) {
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_') || (unsigned char)*s >= 0x80) return 0;
    return 1;
}

/* Names whose NAME.h, on the include path of the generated library, would
 * hide a header that the generated code or the headers it includes need:
 * the C library's, the POSIX ones the launchers include, CUDA's. */
static int system_header_name(const char *s) {
    static const char *const headers[] = {"assert",
                                          "complex",
                                          "ctype",
                                          "errno",
                                          "fenv",
                                          "float",
                                          "inttypes",
                                          "iso646",
                                          "limits",
                                          "locale",
                                          "math",
                                          "setjmp",
                                          "signal",
                                          "stdalign",
                                          "stdarg",
                                          "stdatomic",
                                          "stdbool",
                                          "stddef",
                                          "stdint",
                                          "stdio",
                                          "stdlib",
                                          "stdnoreturn",
                                          "string",
                                          "tgmath",
                                          "threads",
                                          "time",
                                          "uchar",
                                          "wchar",
                                          "wctype",
                                          "alloca",
                                          "dlfcn",
                                          "endian",
                                          "features",
                                          "memory",
                                          "pthread",
                                          "sched",
                                          "strings",
                                          "unistd",
                                          "cuda",
                                          "cudaProfiler",
                                          "cuda_runtime",
                                          "cuda_runtime_api",
                                          "builtin_types",
                                          "channel_descriptor",
                                          "common_functions",
                                          "cuda_device_runtime_api",
                                          "cuda_surface_types",
                                          "cuda_texture_types",
                                          "device_atomic_functions",
                                          "device_functions",
                                          "device_launch_parameters",
                                          "device_types",
                                          "driver_functions",
                                          "driver_types",
                                          "host_config",
                                          "host_defines",
                                          "library_types",
                                          "math_constants",
                                          "math_functions",
                                          "sm_20_atomic_functions",
                                          "surface_functions",
                                          "surface_types",
                                          "texture_fetch_functions",
                                          "texture_types",
                                          "vector_functions",
                                          "vector_types"};
    for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++)
        if (strcmp(headers[i], s) == 0) return 1;
    return 0;
}

static const PyNode *kernel_def(const PyNode *module, const char *name) {
    const PyVal *body = pyast_list(module, "body");
    for (int i = 0; body && i < body->len; i++) {
        const PyNode *s = body->items[i]->kind == PYV_NODE ? body->items[i]->node : NULL;
        if (s && pyast_isk(s, PK_FunctionDef) && pyast_str(s, "name") &&
            strcmp(pyast_str(s, "name"), name) == 0)
            return s;
    }
    return module;
}

/* What the parser shim gave, when the caller ran it (compile.h). */
typedef struct ShimOutput {
    int status;
    const char *out, *err, *source;
    size_t out_len, err_len, source_len;
} ShimOutput;

static PyNode *module_from_output(MtContext *ctx, const mt_options *o, const ShimOutput *g) {
    if (g->source) {
        ctx->source = arena_strndup(ctx->arena, g->source, g->source_len);
        ctx->source_len = g->source_len;
    }
    StrBuf out, err;
    sb_init(&out, ctx->arena);
    sb_init(&err, ctx->arena);
    if (g->out) sb_putn(&out, g->out, g->out_len);
    if (g->err) sb_putn(&err, g->err, g->err_len);
    return pyast_from_shim_output(ctx, g->status, &out, &err,
                                  o->python && *o->python ? o->python : "python3",
                                  o->shim ? o->shim : "mytriton_parse.py");
}

/* The launcher-only grid parameters: C identifiers, distinct, not the
 * kernel's parameter names, not names the generated C reserves. */
static int check_grid_params(MtContext *ctx, const Kernel *k, const mt_options *o) {
    const char *opt = mt_option_name(ctx, MT_OPT_GRID_PARAM);
    for (int j = 0; j < o->ngrid_params; j++) {
        const char *n = o->grid_params[j];
        int ok = n && (isalpha((unsigned char)n[0]) || n[0] == '_');
        for (const char *p = n; ok && *p; p++) ok = isalnum((unsigned char)*p) || *p == '_';
        if (!ok) {
            mt_error(ctx, srcpos(0, 0), "%s '%s': not an identifier", opt, n ? n : "");
            return 0;
        }
        if (c_name_reserved(n) || strncmp(n, "mt_", 3) == 0) {
            mt_error(ctx, srcpos(0, 0), "%s %s: the generated C uses this name; choose another",
                     opt, n);
            return 0;
        }
        for (int i = 0; i < k->nparams; i++)
            if (strcmp(k->params[i].name, n) == 0) {
                mt_error(
                    ctx, srcpos(0, 0),
                    "%s %s: the kernel already has a parameter '%s' (use it in the grid directly)",
                    opt, n, n);
                return 0;
            }
        for (int i = 0; i < j; i++)
            if (strcmp(o->grid_params[i], n) == 0) {
                mt_error(ctx, srcpos(0, 0), "%s %s is given twice", opt, n);
                return 0;
            }
    }
    return 1;
}

/* A rewrite of the SSA after the passes (mt_compile_rewrite). */
typedef struct Rewrite {
    MtRewriteFn fn;
    void *user;
} Rewrite;

/* NAME: --name, or the kernel name without a `_kernel` suffix; NULL
 * (reported) where it cannot name the generated files. */
static const char *output_name(MtContext *ctx, const mt_options *o) {
    const char *name = o->name;
    if (!name) {
        size_t n = strlen(o->kernel);
        name = (n > 7 && strcmp(o->kernel + n - 7, "_kernel") == 0)
                   ? arena_strndup(ctx->arena, o->kernel, n - 7)
                   : o->kernel;
    }
    if (!valid_name(name)) {
        mt_error(
            ctx, srcpos(0, 0),
            "'%s' cannot name the generated files and launcher (pass %s with an ASCII identifier)",
            name, mt_option_name(ctx, MT_OPT_NAME));
        return NULL;
    }
    if (system_header_name(name)) {
        mt_error(ctx, srcpos(0, 0),
                 "'%s' cannot name the generated files: %s.h, on the include path of the generated "
                 "code, would hide "
                 "the system header <%s.h> (pass %s with another name)",
                 name, name, name, mt_option_name(ctx, MT_OPT_NAME));
        return NULL;
    }
    return name;
}

/* sig with :16 on every pointer and integer (Triton's specialization,
 * --divisibility-16), parsed again; NULL (reported) on an error. */
static Signature *divisibility16_signature(MtContext *ctx, const Signature *sig) {
    StrBuf st;
    sb_init(&st, ctx->arena);
    for (int i = 0, first = 1; i < sig->n; i++) {
        const SigEntry *e = &sig->entries[i];
        if (e->desc_part) continue; /* a descriptor is written whole */
        int d = e->desc_rank ? 0 : e->divisibility;
        if (!d && !e->desc_rank &&
            (e->type.ptr || (dtype_is_int((DType)e->type.dtype) && e->type.dtype != DT_BOOL)))
            d = 16;
        sb_printf(&st, "%s%s%s%s", first ? "" : ", ", e->name ? e->name : "", e->name ? ": " : "",
                  e->type_text);
        first = 0;
        if (d) sb_printf(&st, ":%d", d);
    }
    return signature_parse(ctx, sb_str(&st));
}

/* A dispatching launcher: every config parsed, the kernel compiled against
 * config 0 (types, names, tile): its defines in *defines / *ndefines, its
 * num_warps and num_stages in c->opts. 0 (reported) on an error. */
static int dispatch_defines(mt_compilation *c, const mt_options *o, const mt_define **defines,
                            int *ndefines) {
    MtContext *ctx = c->ctx;
    if (c->opts.backends & MT_BACKEND_MLIR) {
        mt_error(ctx, srcpos(0, 0),
                 "CONFIGS: the mlir backend has no dispatching launcher yet (use cuda and host)");
        return 0;
    }
    for (int k = 0; k < o->dispatch->nconfigs; k++) {
        const char *text = o->dispatch->configs[k].text ? o->dispatch->configs[k].text : "";
        mt_define *d = ARENA_ARRAY(ctx->arena, mt_define, o->ndefines + strlen(text) / 2 + 2);
        int nd = o->ndefines, nw = 0, ns = 0;
        for (int i = 0; i < o->ndefines; i++) d[i] = o->defines[i];
        if (!dispatch_config_parse(ctx, text, d, &nd, &nw, &ns)) return 0;
        if (k == 0) {
            *defines = d;
            *ndefines = nd;
            if (nw) c->opts.num_warps = nw;
            if (ns) c->opts.num_stages = ns;
        }
    }
    return 1;
}

/* c's Spec for the launchers and backends: names, the comments' source
 * file and constexprs, the launcher's parameters. */
static void fill_spec(mt_compilation *c, const mt_options *o, const Signature *sig,
                      const char *symbol) {
    Arena *a = c->ctx->arena;
    Spec *s = &c->spec;
    s->name = c->name;
    s->symbol = symbol;
    s->kernel = o->kernel;
    /* the file name goes into comments of the generated files: a control
     * character (a newline ending a // comment) prints as '?', and no
     * trigraph forms (c_comment_text) */
    s->source = c_comment_text(a, basename_of(o->path));
    s->signature = sig->normalized;
    StrBuf cx;
    sb_init(&cx, a);
    for (int i = 0; i < c->kernel->nparams; i++) {
        const KernelParam *p = &c->kernel->params[i];
        if (p->is_constexpr)
            sb_printf(&cx, "%s%s=%s", cx.len ? ", " : "", p->name, p->constexpr_text);
    }
    s->constexprs = sb_str(&cx); /* (comments print it through c_comment_text) */
    s->grid = c->grid;
    s->f = c->f;
    /* the launcher's parameters: the kernel's, then the grid's own */
    const char **kernel_names = c_param_names(a, c->f);
    s->nextra = o->ngrid_params;
    s->pnames = ARENA_ARRAY(a, const char *, c->f->nparams + s->nextra + 1);
    s->pyname = ARENA_ARRAY(a, const char *, c->f->nparams + s->nextra + 1);
    for (int i = 0; i < c->f->nparams; i++)
        s->pnames[i] = kernel_names[i], s->pyname[i] = c->f->params[i].name;
    for (int j = 0; j < s->nextra; j++)
        s->pnames[c->f->nparams + j] = s->pyname[c->f->nparams + j] = o->grid_params[j];
    s->written = ssa_written_params(a, c->f);
    s->hints = c->param_div;
    s->backends = c->opts.backends;
    s->tile = &c->tile;
    s->num_stages = c->opts.num_stages;
}

/* num_warps is a -O2 option (at -O0 and -O1 the CUDA backend runs one
 * thread per element); 0 (reported) when given below -O2. */
static int check_warps_level(MtContext *ctx, int opt_level, int num_warps) {
    if (num_warps > 0 && opt_level < 2) {
        mt_error(ctx, srcpos(0, 0),
                 "num_warps applies to -O2 (at -O0 and -O1 the CUDA backend runs one thread per "
                 "element)");
        return 0;
    }
    return 1;
}

/* mt_check's part past the options: every config's constexprs (with the
 * options' defines and module values in defs[0..ndefs)) against the
 * kernel's parameters, and the dispatch's KEY, WHEN and RESTORE. */
static void check_configs(mt_compilation *c, const mt_options *o, const Signature *sig,
                          const Define *defs, int ndefs) {
    MtContext *ctx = c->ctx;
    Arena *a = ctx->arena;
    for (int k = 1; k < o->dispatch->nconfigs; k++) {
        const char *text = o->dispatch->configs[k].text ? o->dispatch->configs[k].text : "";
        mt_define *cd = ARENA_ARRAY(a, mt_define, o->ndefines + strlen(text) / 2 + 2);
        int ncd = o->ndefines, nw = 0, ns = 0;
        for (int i = 0; i < o->ndefines; i++) cd[i] = o->defines[i];
        if (!dispatch_config_parse(ctx, text, cd, &ncd, &nw, &ns)) return;
        if (!check_warps_level(ctx, o->opt_level, nw)) return;
        Define *d = ARENA_ARRAY(a, Define, ncd + ndefs + 1);
        int nd = 0;
        for (int i = 0; i < ncd; i++) d[nd].name = cd[i].name, d[nd++].value = cd[i].value;
        for (int i = 0; i < ndefs; i++)
            if (defs[i].module_value) d[nd++] = defs[i];
        if (!frontend_params(ctx, c->module, o->kernel, sig, d, nd)) {
            mt_note(ctx, srcpos(0, 0), "with the constexprs of config %d of %s ('%s')", k,
                    mt_option_name(ctx, MT_OPT_CONFIG), text);
            return;
        }
    }
    /* the launcher's parameters (the body is not compiled: whether the
     * kernel writes a RESTORE buffer is left to the compilation) */
    c->spec.written = NULL;
    dispatch_check(ctx, &c->spec, o->dispatch);
}

/* given: the shim's output, or NULL to run the shim on o->path; rw: a
 * rewrite of the SSA, or NULL; check: mt_check (the kernel's parameters
 * only, not its body). */
static mt_compilation *compile_from(const mt_options *o, const ShimOutput *given, const Rewrite *rw,
                                    int check) {
    MtContext *ctx = mt_context_new(o->path);
    mt_compilation *c = ARENA_NEW(ctx->arena, mt_compilation);
    Arena *a = ctx->arena;
    c->ctx = ctx;
    ctx->cmake_spelling = o->cmake_spelling;
    c->opts = *o;
    if (!c->opts.backends) c->opts.backends = MT_BACKEND_CUDA;
    if (!o->path || !o->kernel || (!o->shim && !given)) {
        mt_error(ctx, srcpos(0, 0),
                 "a kernel file, a kernel name and the parser shim are required");
        return c;
    }
    const char *name = output_name(ctx, o);
    if (!name) return c;
    c->name = arena_strdup(a, name);
    Signature *sig = signature_parse(ctx, o->signature ? o->signature : "");
    if (!sig) return c;
    if (o->divisibility16) { /* Triton's specialization: :16 on every pointer and integer */
        sig = divisibility16_signature(ctx, sig);
        if (!sig) return c;
    }
    const mt_define *defines = o->defines;
    int ndefines = o->ndefines;
    if (o->dispatch && !dispatch_defines(c, o, &defines, &ndefines)) return c;
    if (!check_warps_level(ctx, o->opt_level, c->opts.num_warps)) return c;
    c->param_div = ARENA_ARRAY(a, int, sig->n + 1);
    for (int i = 0; i < sig->n; i++) c->param_div[i] = sig->entries[i].divisibility;
    c->module =
        given ? module_from_output(ctx, o, given) : pyast_parse_file(ctx, o->python, o->shim);
    if (!c->module) return c;
    Define *defs = ARENA_ARRAY(a, Define, ndefines + o->nmodule_values + 1);
    for (int i = 0; i < ndefines; i++)
        defs[i].name = defines[i].name, defs[i].value = defines[i].value;
    for (int i = 0; i < o->nmodule_values; i++) {
        Define *d = &defs[ndefines++];
        d->name = o->module_values[i].name;
        d->value = o->module_values[i].value;
        d->module_value = 1;
    }
    ctx->triton_nan = o->opt_level >= 2;
    ctx->unroll_limit = o->opt_level >= 2 ? 8 : 0;
    ctx->python = o->python;
    ctx->debug = o->debug;
    ctx->num_warps = c->opts.num_warps;
    ctx->shim = o->shim;
    c->kernel = check ? frontend_params(ctx, c->module, o->kernel, sig, defs, ndefines)
                      : frontend_build(ctx, c->module, o->kernel, sig, defs, ndefines);
    if (!c->kernel) return c;
    if (o->ngrid_params && !o->grid) {
        mt_error(ctx, srcpos(0, 0), "%s needs %s: the launcher-only parameters only size the grid",
                 mt_option_name(ctx, MT_OPT_GRID_PARAM), mt_option_name(ctx, MT_OPT_GRID));
        return c;
    }
    if (!check_grid_params(ctx, c->kernel, o)) return c;
    if (o->grid) {
        c->grid = grid_parse(ctx, o->grid, c->kernel, o->grid_params, o->ngrid_params);
        if (!c->grid) return c;
        for (int j = 0; j < o->ngrid_params; j++) {
            int index = c->kernel->nruntime + j;
            if (index < 64 && !c->grid->uses_param[index]) {
                mt_error(ctx, srcpos(0, 0), "%s %s: the grid \"%s\" does not use it",
                         mt_option_name(ctx, MT_OPT_GRID_PARAM), o->grid_params[j], o->grid);
                return c;
            }
        }
    }
    const char *symbol = arena_printf(a, "%s_kernel", c->name);
    c->f = lower_kernel(ctx, c->kernel, symbol);
    if (check) {
        /* (the function of the parameters alone: the body is empty) */
        fill_spec(c, o, sig, symbol);
        if (o->dispatch) check_configs(c, o, sig, defs, ndefines);
        c->f = NULL; /* nothing to emit */
        return c;
    }
    if (!passes_run(ctx, c->f, o->opt_level, NULL)) {
        c->f = NULL;
        return c;
    }
    if (rw) {
        const char *err = NULL;
        if (!rw->fn(a, c->f, rw->user) || !ssa_verify(a, c->f, &err)) {
            mt_error(ctx, srcpos(0, 0), "the SSA rewrite failed%s%s", err ? ": " : "",
                     err ? err : "");
            c->f = NULL;
            return c;
        }
    }
    fill_spec(c, o, sig, symbol);
    return c;
}

mt_compilation *mt_compile(const mt_options *o) { return compile_from(o, NULL, NULL, 0); }

mt_compilation *mt_check(const mt_options *o) { return compile_from(o, NULL, NULL, 1); }

mt_compilation *mt_compile_rewrite(const mt_options *o, MtRewriteFn fn, void *user) {
    Rewrite rw = {fn, user};
    return compile_from(o, NULL, &rw, 0);
}

mt_compilation *mt_compile_shim_output(const mt_options *o, int status, const char *out,
                                       size_t out_len, const char *err, size_t err_len,
                                       const char *source, size_t source_len) {
    ShimOutput g = {status, out, err, source, out_len, err_len, source_len};
    return compile_from(o, &g, NULL, 0);
}

int mt_ok(const mt_compilation *c) { return c->ctx->errors == 0; }
const char *mt_dependency(const mt_compilation *c, int i) {
    if (!c || i < 0) return NULL;
    if (i == 0) return c->opts.path;
    return i - 1 < c->ctx->deps.len ? c->ctx->deps.items[i - 1] : NULL;
}

const char *mt_diagnostics(const mt_compilation *c) { return sb_str(&c->ctx->diagnostics); }
const char *mt_output_name(const mt_compilation *c) { return c->name; }

void mt_free(mt_compilation *c) {
    if (c) mt_context_free(c->ctx);
}

/* The CUDA and host backends' check of the pointers (ptrshape.h), once. */
static int need_index_pointers(mt_compilation *c) {
    if (!c->pointers_checked) c->pointers_checked = ptrshape_check(c->ctx, c->f) ? 1 : -1;
    return c->pointers_checked > 0;
}

static int need_tile(mt_compilation *c) {
    if (c->have_tile) return 1;
    if (c->tile_failed || !c->f) return 0;
    /* index blocks used as both the rows and the columns of a tile get a
     * copy per orientation (remat.h) */
    remat_index_blocks(c->ctx->arena, c->f);
    int dot = shape_needs_box(c->f);
    int blocked = c->opts.opt_level >= 2 && !dot;
    /* a dot kernel (or one whose blocks' shapes differ: shape.h dot_box)
     * runs one CUDA thread per element of its tile at -O1 (and at -O2 up
     * to 1024 elements, where the tensor-core and attention paths do not
     * take it); -O2 spreads a larger one over the threads as the blocked
     * emitter does (several elements of the box per thread); built for
     * the host backend alone, its tile may be as large as -O2's */
    int host_only = dot && c->opts.backends == MT_BACKEND_HOST;
    int box_o2 = dot && c->opts.opt_level >= 2;
    /* -O2: a dot kernel of the tensor-core path's shape (emit_cuda_mma.c)
     * or a fused attention forward, two dots per iteration, of the
     * attention path's (emit_cuda_attn.c): their threads per block and
     * shared memory in tc_tile */
    TileInfo tc_tile = {0};
    int tc = dot && c->opts.opt_level >= 2 && (c->opts.backends & MT_BACKEND_CUDA);
    c->mma =
        tc ? cuda_mma_plan(c->ctx->arena, c->f, c->opts.num_warps, c->opts.num_stages, &tc_tile)
           : NULL;
    int mma = c->mma != NULL;
    c->attn = tc && !mma ? cuda_attn_plan(c->ctx->arena, c->f, c->opts.num_warps,
                                          c->opts.num_stages, &tc_tile)
                         : NULL;
    int attn = c->attn != NULL;
    if (!shape_analyze(c->ctx, c->f,
                       blocked || host_only || mma || attn || box_o2 ? MAX_TILE_O2 : MAX_TILE_O1,
                       &c->tile)) {
        c->tile_failed = 1;
        return 0;
    }
    c->box_blocked = box_o2 && !mma && !attn && (c->opts.backends & MT_BACKEND_CUDA) &&
                     c->tile.threads > MAX_TILE_O1;
    if (blocked || c->box_blocked) {
        const char *err = layout_choose(c->ctx->arena, c->f, &c->tile, c->opts.num_warps);
        if (err) {
            mt_error(c->ctx, c->kernel->pos, "%s (num_warps %d)", err, c->opts.num_warps);
            c->tile_failed = 1;
            return 0;
        }
        if (c->box_blocked) {
            /* its exchanges' buffers: one dynamic shared pool */
            c->tile.smem_pool = 1;
            c->tile.dyn_smem = cuda_box_smem(c->f, &c->tile);
            if (c->tile.dyn_smem > MAX_SMEM) {
                mt_error(c->ctx, c->kernel->pos,
                         "the tile %s needs %d bytes of shared memory for the elements it "
                         "exchanges between threads (a transpose, reshape, reduction along an "
                         "axis or tl.dot's operands), more than the %d of a CUDA block: use "
                         "smaller blocks",
                         tile_str(c->ctx->arena, &c->tile), c->tile.dyn_smem, MAX_SMEM);
                c->tile_failed = 1;
                return 0;
            }
        }
    } else if (mma || attn) {
        c->tile.block_threads = tc_tile.block_threads;
        c->tile.block_threads_sm90 = tc_tile.block_threads_sm90;
        c->tile.dyn_smem = tc_tile.dyn_smem;
        c->tile.dyn_smem_sm90 = tc_tile.dyn_smem_sm90;
    }
    if (blocked || c->box_blocked) {
        c->path = "-O2 blocked emitter, emit_cuda_blocked.c";
        c->plan_group = -1;
    } else if (mma || attn) {
        c->path = attn ? "-O2 attention on tensor cores, emit_cuda_attn.c"
                       : "-O2 tl.dot on tensor cores, emit_cuda_mma.c and emit_cuda_wgmma.c";
    } else {
        c->path = "one thread per element, emit_cuda.c";
        c->plan_group = 1;
    }
    c->have_tile = 1;
    return 1;
}

/* The CUDA kernel's layout plan (DESIGN 8b), built and verified when the
 * CUDA kernel or --emit=layout first needs it (not for the host and MLIR
 * backends, which do not read it). */
static int need_layout(mt_compilation *c) {
    if (!need_tile(c) || c->layout_failed) return 0;
    if (c->layout) return 1;
    Arena *a = c->ctx->arena;
    /* (the host backend checks its own; the MLIR backend's pointers are
     * addresses) */
    if (!need_index_pointers(c) || !ssa_check_pointer_lanes(c->ctx, a, c->f)) {
        c->layout_failed = 1;
        return 0;
    }
    LayoutPlan *p;
    if (c->mma || c->attn) {
        p = layout_plan_tc(
            a, c->f, &c->tile,
            c->mma ? cuda_mma_layout(a, c->f, c->mma) : cuda_attn_layout(a, c->f, c->attn),
            c->path);
    } else {
        int group = c->plan_group < 0 ? cuda_blocked_group(a, c->f, &c->tile, c->param_div) : 1;
        p = layout_plan(a, c->f, &c->tile, group, c->plan_group < 0, c->path);
    }
    if (!layout_verify(c->ctx, c->f, p)) {
        c->layout_failed = 1;
        return 0;
    }
    c->layout = p;
    return 1;
}

/* The CUDA kernel's parameters fit CUDA's parameter space (nvcc rejects
 * the generated file otherwise); 0 after a diagnostic. */
static int check_param_bytes(mt_compilation *c) {
    long long bytes = c_param_bytes(c->f);
    if (bytes <= MAX_PARAM_BYTES) return 1;
    mt_error(c->ctx, c->kernel->pos,
             "the kernel's %d runtime parameters take %lld bytes as CUDA kernel parameters, more "
             "than CUDA's limit of %d bytes (pass fewer or smaller parameters: a pointer is 8 "
             "bytes, a scalar 4 or 8)",
             c->f->nparams, bytes, MAX_PARAM_BYTES);
    return 0;
}

/* The dots of block b and the blocks under it, in order. */
static void dots_of(Arena *a, const Block *b, PtrVec *out) {
    for (int i = 0; i < b->items.len; i++) {
        Inst *in = b->items.items[i];
        if (in->op == OP_DOT) ptrvec_push(a, out, in);
        Block *sub[2];
        int n = in->loop ? ssa_blocks(in, sub) : 0;
        for (int k = 0; k < n; k++) dots_of(a, sub[k], out);
    }
}

/* Lines of `text` each once, in the order of their first occurrence, with
 * " (N copies: an unrolled loop)" where one occurs N > 1 times. */
static const char *unique_lines(Arena *a, const char *text) {
    PtrVec lines = {0};
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        ptrvec_push(a, &lines, arena_strndup(a, p, n));
        p += n + (nl != NULL);
    }
    StrBuf sb;
    sb_init(&sb, a);
    for (int i = 0; i < lines.len; i++) {
        int copies = 0, first = 1;
        for (int k = 0; k < lines.len; k++) {
            if (strcmp(lines.items[k], lines.items[i]) != 0) continue;
            if (k < i) first = 0;
            copies++;
        }
        if (!first) continue;
        sb_puts(&sb, lines.items[i]);
        if (copies > 1) sb_printf(&sb, " (%d copies: an unrolled loop)", copies);
        sb_puts(&sb, "\n");
    }
    return sb_str(&sb);
}

/* --emit=explain: the path of each tl.dot on the CUDA backend, as notes
 * "FILE:LINE:COL: note: tl.dot ...: tensor cores: how" or "...: CUDA
 * cores: why" (docs/dot.md). The blocked emitter reports its own
 * decisions (emit_cuda_blocked_explain). */
static const char *explain(mt_compilation *c) {
    if (!need_layout(c)) return NULL;
    Arena *a = c->ctx->arena;
    const char *file = c->ctx->filename;
    StrBuf sb;
    sb_init(&sb, a);
    if ((c->opts.opt_level >= 2 && !c->tile.dot_box) || c->box_blocked) {
        const char *notes = emit_cuda_blocked_explain(a, c->f, c->layout, c->param_div);
        for (const char *p = notes; *p;) {
            const char *nl = strchr(p, '\n'), *text = strstr(p, ": ");
            int head = (int)(text - p);
            sb_printf(&sb, "%s:%.*s: note: %.*s\n", file, head, p, (int)(nl - text - 2), text + 2);
            p = nl + 1;
        }
        return unique_lines(a, sb_str(&sb));
    }
    PtrVec dots = {0};
    dots_of(a, &c->f->body, &dots);
    for (int i = 0; i < dots.len; i++) {
        const Inst *in = dots.items[i];
        const char *path =
            c->attn  ? "tensor cores: the attention plan (emit_cuda_attn.c: both dots of each "
                       "iteration on mma.sync, wgmma on sm_90a)"
            : c->mma ? "tensor cores: the matmul plan (emit_cuda_mma.c: mma.sync, wgmma on "
                       "sm_90a, the K loop's copies in a ring of num_stages)"
                     : emit_cuda_dot_path(a, c->f, in, c->opts.opt_level >= 2);
        sb_printf(&sb, "%s:%d:%d: note: %s: %s\n", file, in->pos.line, in->pos.col,
                  cuda_dot_describe(a, c->f, in), path);
    }
    return unique_lines(a, sb_str(&sb));
}

static const char *produce(mt_compilation *c, mt_stage stage) {
    Arena *a = c->ctx->arena;
    StrBuf sb;
    sb_init(&sb, a);
    switch (stage) {
    case MT_EMIT_AST:
        if (!c->module) return NULL;
        pyast_print(&sb, kernel_def(c->module, c->opts.kernel));
        return sb_str(&sb);
    case MT_EMIT_EXPR:
        if (!c->kernel) return NULL;
        expr_print_kernel(&sb, a, c->kernel);
        return sb_str(&sb);
    case MT_EMIT_SSA:
        if (!c->f) return NULL;
        ssa_print(&sb, a, c->f);
        return sb_str(&sb);
    case MT_EMIT_LAYOUT:
        if (!need_layout(c)) return NULL;
        return layout_print(a, c->f, c->layout);
    case MT_EMIT_EXPLAIN: return explain(c);
    case MT_EMIT_CUDA:
        if (!need_layout(c) || !check_param_bytes(c)) return NULL;
        if ((c->opts.opt_level >= 2 && !c->tile.dot_box) || c->box_blocked) {
            const char *k = emit_cuda_blocked(a, c->f, c->layout, c->spec.symbol, c->param_div);
            if (!c->tile.group_m) return k;
            /* and the kernel of several programs per block the launcher
             * takes where the grid allows (emit_cuda_fma.c layout_outer_group) */
            return arena_printf(
                a, "%s\n%s", k,
                emit_cuda_blocked_grouped(a, c->f, c->layout, c->spec.symbol, c->param_div));
        }
        if (c->attn) return emit_cuda_attn(a, c->f, c->attn, c->spec.symbol, c->param_div);
        if (c->mma) return emit_cuda_mma(a, c->f, c->mma, c->spec.symbol, c->param_div);
        if (c->tile.threads > MAX_TILE_O1) {
            /* (-O1, or -O2 without the cuda backend: the tile was sized
             * for the host backend alone) */
            mt_error(
                c->ctx, c->kernel->pos,
                "the tile %s of a kernel with %s needs %d CUDA threads, more than %d (built "
                "for the host backend alone, larger tiles are accepted%s)",
                tile_str(a, &c->tile),
                shape_has_dot(c->f) ? "tl.dot" : "a transpose or reshape between two rank-2 shapes",
                c->tile.threads, MAX_TILE_O1,
                c->opts.opt_level < 2 ? "; -O2 spreads them over the threads" : "");
            return NULL;
        }
        return emit_cuda_kernel_ex(a, c->f, &c->tile, c->spec.symbol, c->opts.opt_level >= 2);
    case MT_EMIT_HEADER:
        if (!need_tile(c)) return NULL;
        return emit_header(a, &c->spec);
    case MT_EMIT_CUDA_TU: {
        const char *k = mt_emit(c, MT_EMIT_CUDA);
        return k ? emit_cuda_unit(a, &c->spec, k) : NULL;
    }
    case MT_EMIT_HOST:
        if (!need_tile(c) || !need_index_pointers(c)) return NULL;
        return emit_host_unit(c->ctx, &c->spec);
    case MT_EMIT_MLIR:
        if (!need_tile(c)) return NULL;
        if (c->tile.dot_box && c->tile.threads > MAX_TILE_O1) {
            mt_error(
                c->ctx, c->kernel->pos,
                "the tile %s of a kernel with %s needs %d threads in the MLIR backend, "
                "more than %d",
                tile_str(a, &c->tile),
                shape_has_dot(c->f) ? "tl.dot" : "a transpose or reshape between two rank-2 shapes",
                c->tile.threads, MAX_TILE_O1);
            return NULL;
        }
        return emit_mlir_module(c->ctx, &c->spec);
    case MT_EMIT_MLIR_LAUNCHER:
        if (!mt_emit(c, MT_EMIT_MLIR)) return NULL;
        return emit_mlir_launcher_unit(c->ctx, &c->spec, c->opts.mlir_binary);
    case MT_EMIT_DISPATCH_HEADER:
    case MT_EMIT_DISPATCH_CUDA:
    case MT_EMIT_DISPATCH_HOST:
        if (!c->opts.dispatch) {
            mt_error(c->ctx, srcpos(0, 0), "a dispatching launcher needs configs (--config)");
            return NULL;
        }
        if (!need_tile(c)) return NULL;
        if (stage == MT_EMIT_DISPATCH_HEADER)
            return emit_dispatch_header(c->ctx, &c->spec, c->opts.dispatch,
                                        dispatch_hash(c->ctx, &c->opts));
        return emit_dispatch_unit(c->ctx, &c->spec, c->opts.dispatch,
                                  dispatch_hash(c->ctx, &c->opts), stage == MT_EMIT_DISPATCH_CUDA);
    }
    return NULL;
}

const char *mt_emit(mt_compilation *c, mt_stage stage) {
    if ((unsigned)stage >= STAGE_COUNT) return NULL;
    if (!c->tried[stage]) {
        c->tried[stage] = 1;
        c->text[stage] = produce(c, stage);
    }
    return c->text[stage];
}
