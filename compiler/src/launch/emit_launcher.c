/* Launchers, headers and registry entries (DESIGN 9, 12). A launcher is
 * a C-ABI function with typed arguments; it evaluates the grid in checked
 * 64-bit arithmetic, rejects negative sizes and grids beyond CUDA's limits
 * with cudaErrorInvalidValue and a message for mytriton_last_error(),
 * launches nothing for an empty grid, and reports launch errors. */
#include "launch/emit.h"

#include <ctype.h>
#include <string.h>

#include "cgen/cgen.h"

#define VERSION_LINE "mytritonc " MT_VERSION

const char *launcher_params(Arena *a, const Spec *s, int with_stream) {
    StrBuf sb;
    sb_init(&sb, a);
    int first = 1;
    if (with_stream) sb_puts(&sb, "cudaStream_t stream"), first = 0;
    if (!s->grid) sb_printf(&sb, "%smytriton_grid grid", first ? "" : ", "), first = 0;
    for (int i = 0; i < s->f->nparams; i++) {
        Type t = s->f->params[i].type;
        sb_printf(&sb, "%s%s %s", first ? "" : ", ", c_launcher_type(a, t, t.ptr && !s->written[i]),
                  s->pnames[i]);
        first = 0;
    }
    for (int j = 0; j < s->nextra; j++, first = 0)
        sb_printf(&sb, "%sint32_t %s", first ? "" : ", ", s->pnames[s->f->nparams + j]);
    if (first) sb_puts(&sb, "void");
    return sb_str(&sb);
}

static const char *upper_ident(Arena *a, const char *s) {
    char *u = arena_strdup(a, s);
    for (char *p = u; *p; p++)
        *p = isalnum((unsigned char)*p) ? (char)toupper((unsigned char)*p) : '_';
    return u;
}

static const char *arg_kind(Arena *a, Type t) {
    return arena_printf(a, "MYTRITON_ARG_%s%s", t.ptr ? "PTR_" : "",
                        dtype_info((DType)t.dtype)->arg);
}

static const char *c_string(Arena *a, const char *s) {
    StrBuf sb;
    sb_init(&sb, a);
    sb_c_string(&sb, s, 0);
    return sb_str(&sb);
}

/* The grid evaluation and checks shared by the CUDA and host launchers:
 * leaves `mytriton_grid grid` ready or returns `fail_value`. */
void emit_grid_prologue(StrBuf *sb, Arena *a, const Spec *s, const char *launcher,
                        const char *fail_value, const char *empty_value) {
    const Function *f = s->f;
    /* parameters the signature fixes to 1 (`i32:1`): the kernel was
     * compiled for that value alone */
    for (int i = 0; s->hints && i < f->nparams; i++) {
        if (s->hints[i] != 1) continue;
        sb_printf(sb, "    if (%s != 1) {\n", s->pnames[i]);
        sb_printf(
            sb,
            "        mytriton_set_last_error(\"%s: %s = %%lld, but the signature (:1) compiled "
            "the kernel for %s = 1\", (long long)%s);\n",
            launcher, s->pyname[i], s->pyname[i], s->pnames[i]);
        sb_printf(sb, "        return %s;\n    }\n", fail_value);
    }
    if (s->grid) {
        for (int i = 0; i < f->nparams + s->nextra && i < 64; i++) {
            if (!s->grid->uses_param[i]) continue;
            sb_printf(sb, "    if (%s < 0) {\n", s->pnames[i]);
            sb_printf(
                sb,
                "        mytriton_set_last_error(\"%s: %s = %%d is negative (it sizes the grid)\", "
                "(int)%s);\n",
                launcher, s->pyname[i], s->pnames[i]);
            sb_printf(sb, "        return %s;\n    }\n", fail_value);
        }
        sb_puts(sb, "    int ok = 1;\n    mytriton_grid grid;\n");
        for (int d = 0; d < 3; d++) {
            const char *v = d < s->grid->ndims ? grid_c_expr(a, s->grid->dims[d], s->pnames) : "1";
            sb_printf(sb, "    grid.%c = %s;\n", "xyz"[d], v);
        }
        sb_puts(sb, "    if (!ok) {\n        mytriton_set_last_error(");
        /* the grid's text is part of the format: its '%' doubled */
        sb_c_string(
            sb,
            arena_printf(a, "%s: the grid (%s) overflows or divides by a non-positive value",
                         launcher, s->grid->resolved),
            1);
        sb_puts(sb, ");\n");
        sb_printf(sb, "        return %s;\n    }\n", fail_value);
    }
    sb_puts(sb, "    int empty = 0;\n");
    sb_printf(sb, "    if (mytriton_check_%sgrid(\"%s\", &grid, &empty) != 0) return %s;\n",
              s->grid ? "" : "explicit_", launcher, fail_value);
    sb_printf(sb, "    if (empty) return %s;\n", empty_value);
}

void emit_info(StrBuf *sb, Arena *a, const Spec *s, const char *suffix, const char *backend,
               const char *generic, const char *tuner, const char *attributes) {
    const Function *f = s->f;
    const char *id = arena_printf(a, "%s%s", s->name, suffix);
    int nargs = f->nparams + s->nextra;
    if (nargs) {
        sb_printf(sb, "static const char *const mytriton_arg_names_%s[] = {", id);
        for (int i = 0; i < nargs; i++)
            sb_printf(sb, "%s%s", i ? ", " : "", c_string(a, s->pyname[i]));
        sb_puts(sb, "};\n");
        sb_printf(sb, "static const mytriton_arg_kind mytriton_arg_kinds_%s[] = {", id);
        for (int i = 0; i < nargs; i++)
            sb_printf(sb, "%s%s", i ? ", " : "",
                      i < f->nparams ? arg_kind(a, f->params[i].type) : "MYTRITON_ARG_I32");
        sb_puts(sb, "};\n");
    }
    sb_printf(sb, "%sconst mytriton_kernel_info mytriton_kernel_info_%s = {\n",
              strcmp(backend, "host") ? "extern \"C\" " : "", id);
    sb_printf(sb, "    %s, \"%s\", %s, %s,\n", c_string(a, s->name), backend,
              c_string(a, s->kernel), c_string(a, s->source));
    sb_printf(sb, "    %s, %s, %s,\n", c_string(a, s->signature), c_string(a, s->constexprs),
              s->grid ? c_string(a, s->grid->text) : "NULL");
    sb_printf(sb, "    %d, %d,\n", s->tile->block_threads, nargs);
    if (nargs) sb_printf(sb, "    mytriton_arg_names_%s, mytriton_arg_kinds_%s,\n", id, id);
    else sb_puts(sb, "    NULL, NULL,\n");
    sb_printf(sb, "    %s,\n    %s, %s, NULL\n};\n", generic, tuner ? tuner : "NULL",
              attributes ? attributes : "NULL");
}

/* The generic launch: unpacks args[] for the typed launcher. */
void emit_generic(StrBuf *sb, Arena *a, const Spec *s, const char *launcher, const char *fname,
                  int cuda) {
    const Function *f = s->f;
    sb_printf(sb, "static int %s(void *stream, void *const *args, const mytriton_grid *grid) {\n",
              fname);
    if (!cuda) sb_puts(sb, "    (void)stream;\n");
    if (s->grid) sb_puts(sb, "    (void)grid;\n");
    else {
        sb_printf(
            sb,
            "    if (!grid) {\n        mytriton_set_last_error(\"%s: this kernel needs an explicit "
            "grid\");\n",
            launcher);
        sb_puts(sb, "        return 1;\n    }\n");
    }
    if (!f->nparams && !s->nextra) sb_puts(sb, "    (void)args;\n");
    sb_printf(sb, "    return (int)%s(", launcher);
    int first = 1;
    if (cuda) sb_puts(sb, "(cudaStream_t)stream"), first = 0;
    if (!s->grid) sb_printf(sb, "%s*grid", first ? "" : ", "), first = 0;
    for (int i = 0; i < f->nparams; i++) {
        Type t = f->params[i].type;
        const char *ct = c_launcher_type(a, t, t.ptr && !s->written[i]);
        sb_printf(sb, "%s*(%s const *)args[%d]", first ? "" : ", ", ct, i);
        first = 0;
    }
    for (int j = 0; j < s->nextra; j++, first = 0)
        sb_printf(sb, "%s*(int32_t const *)args[%d]", first ? "" : ", ", f->nparams + j);
    sb_puts(sb, ");\n}\n\n");
    (void)a;
}

/* Whether the block (or a loop in it) has an instruction of `op`. */
/* Whether `op` occurs in b or in a region below it (loops, ifs, whiles). */
static int has_op(const Block *b, Op op) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        if (in->op == op) return 1;
        if (in->loop && (has_op(&in->loop->body, op) || has_op(&in->loop->before, op) ||
                         has_op(&in->loop->orelse, op)))
            return 1;
    }
    return 0;
}

/* The CUDA unit's first lines: the banner, the CUDA headers of the
 * narrow float types the kernel uses, device_print's and device_assert's
 * declarations, the runtime's and the kernel's headers. */
static void emit_cuda_includes(StrBuf *sb, const Spec *s) {
    const Function *f = s->f;
    sb_printf(sb, "// Generated by %s from %s (kernel %s). Do not edit.\n", VERSION_LINE, s->source,
              s->kernel);
    sb_printf(sb, "#include <stdint.h>\n#include <cuda_runtime.h>\n");
    /* the CUDA headers of the narrow float types the kernel uses */
    int used[DT_COUNT] = {0};
    for (int i = 0; i < f->nparams; i++) used[f->params[i].type.dtype] = 1;
    for (int v = 0; v < f->nvalues; v++) used[f->types[v].dtype] = 1;
    if (used[DT_F16]) sb_puts(sb, "#include <cuda_fp16.h>\n");
    if (used[DT_BF16]) sb_puts(sb, "#include <cuda_bf16.h>\n");
    if (used[DT_F8E4NV] || used[DT_F8E5]) sb_puts(sb, "#include <cuda_fp8.h>\n");
    /* device_print's printf; device_assert's __assertfail */
    if (has_op(&f->body, OP_PRINT)) sb_puts(sb, "#include <cstdio>\n");
    if (has_op(&f->body, OP_ASSERT))
        /* CUDA's device-side assertion (what assert() calls; glibc hides
         * __assert_fail under NDEBUG) */
        sb_puts(sb,
                "extern \"C\" __device__ void __assertfail(const char *, const char *, unsigned, "
                "const char *, size_t);\n");
    sb_printf(sb, "#include \"mytriton/runtime.h\"\n#include \"%s.h\"\n\n", s->name);
}

/* The launcher's `mt_args` array for cudaLaunchKernel: read-only pointers
 * and narrow float scalars (as floats) through local copies, the other
 * parameters by address. */
static void emit_cuda_args(StrBuf *sb, Arena *a, const Spec *s) {
    const Function *f = s->f;
    for (int i = 0; i < f->nparams; i++) {
        Type t = f->params[i].type;
        if (t.ptr && !s->written[i])
            sb_printf(sb, "    %s mt_arg%d = (%s)%s;\n", c_param_type(a, t), i, c_param_type(a, t),
                      s->pnames[i]);
        else if (!t.ptr && dtype_info((DType)t.dtype)->compute !=
                               t.dtype) /* a narrow float scalar: as a float */
            sb_printf(sb, "    %s mt_arg%d = %s;\n", c_param_type(a, t), i,
                      c_load(a, (DType)t.dtype, C_HOST, s->pnames[i]));
    }
    sb_puts(sb, "    void *mt_args[] = {");
    for (int i = 0; i < f->nparams; i++) {
        Type t = f->params[i].type;
        if ((t.ptr && !s->written[i]) || (!t.ptr && dtype_info((DType)t.dtype)->compute != t.dtype))
            sb_printf(sb, "%s&mt_arg%d", i ? ", " : "", i);
        else sb_printf(sb, "%s(void *)&%s", i ? ", " : "", s->pnames[i]);
    }
    if (!f->nparams) sb_puts(sb, "NULL");
    sb_puts(sb, "};\n");
}

const char *emit_cuda_unit(Arena *a, const Spec *s, const char *kernel) {
    StrBuf sb;
    sb_init(&sb, a);
    const char *launcher = arena_printf(a, "launch_%s", s->name);
    emit_cuda_includes(&sb, s);
    /* A loop whose body never reads its index declares a variable nvcc
     * reports as unused (#177-D), which breaks -Werror builds; the kernel's
     * text (golden at -O1) stays as it is and the warning is off for the
     * generated code instead. */
    sb_puts(&sb,
            "#ifdef __NVCC__\n#pragma nv_diag_suppress 177 /* a loop index the body does not read "
            "*/\n#endif\n\n");
    sb_puts(&sb, kernel);
    sb_putc(&sb, '\n');
    /* a tensor-core dot kernel whose sm_90a (wgmma) branch has a larger ring
     * than the sm_80 one: the shared memory asked per device (an sm_80
     * device cannot give the larger; an sm_90 one runs either branch) */
    int dyn = s->tile->dyn_smem, dyn90 = s->tile->dyn_smem_sm90;
    int thr = s->tile->block_threads,
        thr90 = s->tile->block_threads_sm90 ? s->tile->block_threads_sm90 : thr;
    const char *sm90_fn =
        dyn90 > dyn || thr90 != thr ? arena_printf(a, "mytriton_sm90_%s", s->name) : NULL;
    if (sm90_fn)
        sb_printf(
            &sb,
            "static int %s(int dev) {\n    int major = 0;\n"
            "    return cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == "
            "cudaSuccess && major == 9;\n}\n\n",
            sm90_fn);
    /* per device where the branches differ: the shared memory and threads
     * (expressions of the device's sm90 flag) */
    const char *dyn_of = dyn90 > dyn ? arena_printf(a, "(%%s ? %d : %d)", dyn90, dyn) : NULL;
    const char *thr_of = thr90 != thr ? arena_printf(a, "(%%s ? %du : %du)", thr90, thr) : NULL;
    const char *dyn_expr = dyn90 > dyn ? "mt_smem" : arena_printf(a, "%d", dyn);
    const char *thr_expr = thr90 != thr ? "mt_threads" : arena_printf(a, "%d", thr);
    sb_printf(&sb, "extern \"C\" cudaError_t %s(%s) {\n", launcher, launcher_params(a, s, 1));
    emit_grid_prologue(&sb, a, s, launcher, "cudaErrorInvalidValue", "cudaSuccess");
    /* cudaLaunchKernel returns the launch's own error: no
     * cudaGetLastError() round trip (host time per launch matters) */
    emit_cuda_args(&sb, a, s);
    if (sm90_fn) {
        sb_printf(&sb,
                  "    int mt_dev = 0;\n    (void)cudaGetDevice(&mt_dev);\n    const int mt_sm90 = "
                  "%s(mt_dev);\n",
                  sm90_fn);
        if (dyn_of)
            sb_printf(&sb, "    const int mt_smem = %s;\n", arena_printf(a, dyn_of, "mt_sm90"));
        if (thr_of)
            sb_printf(&sb, "    const unsigned mt_threads = %s;\n",
                      arena_printf(a, thr_of, "mt_sm90"));
    }
    if (dyn > 48 * 1024 ||
        dyn90 > 48 * 1024) /* above the default limit: opted in per launch (per device) */
        sb_printf(&sb,
                  "    cudaError_t serr = cudaFuncSetAttribute((const void *)%s, "
                  "cudaFuncAttributeMaxDynamicSharedMemorySize, %s);\n"
                  "    if (serr != cudaSuccess) {\n        mytriton_set_last_error(\"%s: %%s\", "
                  "cudaGetErrorString(serr));\n"
                  "        mytriton_set_status_text((int)serr, cudaGetErrorString(serr));\n        "
                  "return serr;\n    }\n",
                  s->symbol, dyn_expr, launcher);
    const TileInfo *t = s->tile;
    if (t->group_m > 0) {
        /* several programs per block where the grid's x and y allow
         * (emit_cuda_fma.c layout_outer_group) */
        sb_printf(&sb, "    cudaError_t err;\n    if (grid.x %% %d == 0 && grid.y %% %d == 0)\n",
                  t->group_m, t->group_n);
        sb_printf(
            &sb,
            "        err = cudaLaunchKernel(%s, dim3((unsigned)(grid.x / %d), (unsigned)(grid.y / "
            "%d), "
            "(unsigned)grid.z), dim3(%d), mt_args, %s, stream);\n    else\n    ",
            tile_group_symbol(a, s->symbol, t), t->group_m, t->group_n,
            t->block_threads * t->group_m * t->group_n, dyn_expr);
    }
    sb_printf(
        &sb,
        "    %scudaLaunchKernel(%s, dim3((unsigned)grid.x, (unsigned)grid.y, (unsigned)grid.z), "
        "dim3(%s), mt_args, %s, stream);\n",
        t->group_m > 0 ? "err = " : "cudaError_t err = ", s->symbol, thr_expr, dyn_expr);
    sb_printf(&sb,
              "    if (err != cudaSuccess) {\n        mytriton_set_last_error(\"%s: %%s\", "
              "cudaGetErrorString(err));\n",
              launcher);
    sb_puts(&sb, "        mytriton_set_status_text((int)err, cudaGetErrorString(err));\n    }\n");
    sb_puts(&sb, "    return err;\n}\n\n");
    const char *generic = arena_printf(a, "mytriton_generic_%s", s->name);
    emit_generic(&sb, a, s, launcher, generic, 1);
    /* the attributes for the registry, read on first use per device */
    const char *attributes = arena_printf(a, "mytriton_attributes_%s", s->name);
    sb_printf(&sb, "static int %s(mytriton_kernel_attributes *out) {\n", attributes);
    sb_puts(&sb, "    int dev = 0, blocks = 0, sms = 0;\n    cudaFuncAttributes fa;\n");
    sb_puts(&sb, "    cudaError_t err = cudaGetDevice(&dev);\n");
    if (sm90_fn) sb_printf(&sb, "    const int sm90 = %s(dev);\n", sm90_fn);
    const char *dyn_dev = dyn_of ? arena_printf(a, dyn_of, "sm90") : arena_printf(a, "%d", dyn);
    const char *thr_dev = thr_of ? arena_printf(a, thr_of, "sm90") : arena_printf(a, "%d", thr);
    sb_printf(
        &sb,
        "    if (err == cudaSuccess && mytriton_attributes_cached((const void *)%s, dev, out)) "
        "return 0;\n",
        s->symbol);
    sb_printf(&sb,
              "    if (err == cudaSuccess) err = cudaFuncGetAttributes(&fa, (const void *)%s);\n",
              s->symbol);
    sb_printf(
        &sb,
        "    if (err == cudaSuccess) err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, "
        "(const void *)%s, %s, %s);\n",
        s->symbol, thr_dev, dyn_dev);
    sb_puts(&sb,
            "    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, "
            "cudaDevAttrMultiProcessorCount, dev);\n");
    sb_printf(&sb,
              "    if (err != cudaSuccess) {\n        mytriton_set_last_error(\"%s: %%s\", "
              "cudaGetErrorString(err));\n"
              "        return (int)err;\n    }\n",
              launcher);
    sb_puts(
        &sb,
        "    out->device = dev;\n    out->registers = fa.numRegs;\n    out->static_shared_bytes = "
        "(int)fa.sharedSizeBytes;\n");
    sb_printf(
        &sb,
        "    out->dynamic_shared_bytes = %s;\n    out->local_bytes = (int)fa.localSizeBytes;\n",
        dyn_dev);
    sb_printf(&sb, "    out->threads_per_block = %s;\n", thr_dev);
    sb_puts(&sb,
            "    out->max_threads_per_block = fa.maxThreadsPerBlock;\n    out->max_blocks_per_sm = "
            "blocks;\n");
    sb_puts(&sb, "    out->multiprocessor_count = sms;\n");
    sb_printf(&sb, "    mytriton_attributes_store((const void *)%s, out);\n    return 0;\n}\n\n",
              s->symbol);
    emit_info(&sb, a, s, "", "cuda", generic, NULL, attributes);
    return sb_str(&sb);
}

const char *emit_header(Arena *a, const Spec *s) {
    StrBuf sb;
    sb_init(&sb, a);
    const char *guard = arena_printf(a, "MYTRITON_GENERATED_%s_H", upper_ident(a, s->name));
    sb_printf(&sb, "/* Generated by %s from %s (kernel %s). Do not edit. */\n", VERSION_LINE,
              s->source, s->kernel);
    sb_printf(&sb, "#ifndef %s\n#define %s\n\n#include <stdint.h>\n", guard, guard);
    /* C spells i1 parameters `bool` through <stdbool.h> (C++ has it built in) */
    int any_bool = 0;
    for (int i = 0; i < s->f->nparams; i++) any_bool |= s->f->params[i].type.dtype == DT_BOOL;
    if (any_bool) sb_puts(&sb, "#include <stdbool.h>\n");
    if (s->backends & (BACKEND_CUDA | BACKEND_MLIR))
        sb_puts(&sb, "#include <cuda_runtime_api.h>\n");
    sb_puts(&sb,
            "#include \"mytriton/runtime.h\"\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    sb_printf(&sb, "/* %s: kernel %s from %s\n", s->name, s->kernel, s->source);
    sb_printf(&sb, " *   signature: %s\n", s->signature);
    /* a string constexpr's text must not end the comment, open another or
     * form a trigraph */
    sb_printf(&sb, " *   constexprs: %s\n",
              *s->constexprs ? c_comment_text(a, s->constexprs) : "(none)");
    if (s->grid) sb_printf(&sb, " *   grid: %s\n", s->grid->resolved);
    else sb_puts(&sb, " *   grid: given by the caller (mytriton_grid)\n");
    for (int j = 0; j < s->nextra; j++)
        sb_printf(&sb, " *   %s: a launcher-only parameter of the grid\n",
                  s->pnames[s->f->nparams + j]);
    /* the tensor-core paths (shared memory of their own) ring num_stages buffers */
    if (s->num_stages > 0)
        sb_printf(&sb, " *   num_stages: %d%s\n", s->num_stages,
                  s->tile->dyn_smem && !s->tile->smem_pool
                      ? ""
                      : " (a hint this kernel's code does not use)");
    sb_printf(&sb, " *   threads per block: %d", s->tile->block_threads);
    if (s->tile->block_threads_sm90 && s->tile->block_threads_sm90 != s->tile->block_threads)
        sb_printf(&sb, " (%d on sm_90 devices: its producer warps)", s->tile->block_threads_sm90);
    else if (s->tile->dyn_smem && !s->tile->smem_pool) sb_printf(&sb, " (num_warps)");
    else if (s->tile->block_threads != s->tile->threads)
        sb_printf(&sb, " (tile %s of %d elements, %d per thread)", tile_str(a, s->tile),
                  s->tile->threads, s->tile->tm * s->tile->tn);
    sb_puts(&sb, " */\n");
    if (s->backends & BACKEND_CUDA) {
        sb_printf(&sb, "cudaError_t launch_%s(%s);\n", s->name, launcher_params(a, s, 1));
        sb_printf(&sb, "extern const mytriton_kernel_info mytriton_kernel_info_%s;\n", s->name);
    }
    if (s->backends & BACKEND_HOST) {
        sb_printf(&sb, "mytriton_status launch_%s_host(%s);\n", s->name, launcher_params(a, s, 0));
        sb_printf(&sb, "extern const mytriton_kernel_info mytriton_kernel_info_%s_host;\n",
                  s->name);
    }
    if (s->backends & BACKEND_MLIR) emit_mlir_header_decls(&sb, a, s);
    sb_printf(&sb, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n", guard);
    return sb_str(&sb);
}
