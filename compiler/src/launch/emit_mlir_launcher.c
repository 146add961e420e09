/* The MLIR backend's launcher (DESIGN 9, 13): NAME_mlir.c, a C11 file with
 * the PTX that mlir-opt made of NAME.mlir embedded, and
 *
 *   cudaError_t launch_NAME_mlir(cudaStream_t stream, <the CUDA launcher's
 *                                arguments>);
 *
 * which checks the grid like the other launchers (emit_grid_prologue),
 * loads the PTX once per CUDA context with the driver API (cuModuleLoadDataEx,
 * a mutex-protected list keyed by context and context id) and launches it
 * with cuLaunchKernel, one thread per tile element. The driver API is
 * resolved at run time (dlopen of libcuda.so.1): programs linking a kernel
 * library start on machines without a driver, as with the CUDA runtime
 * alone, and launches there fail with a message.
 *
 * The calling convention is the module's: every gpu.func argument is a
 * scalar (!llvm.ptr, or the dtype's MLIR type: i8 for bools and 8-bit
 * floats, f16/bf16 for 16-bit floats, as wide as the header's C type), so
 * the PTX entry has one .param per runtime parameter, in order, and the
 * launcher passes the address of each argument; it checks the count
 * against the PTX.
 *
 * Errors: a CUresult is returned as the cudaError_t of the same number (the
 * two enumerations share their numbers for the codes a launch can give) and
 * named in mytriton_last_error(), with the JIT log when loading fails. */
#include "launch/emit.h"

#include <string.h>

#include "cgen/cgen.h"

#define VERSION_LINE "mytritonc " MT_VERSION

/* ---- The PTX inside mlir-opt's output --------------------------------------- */

/* The `assembly = "..."` string of the module's only gpu.binary object,
 * decoded (MLIR prints \\ and \XX hex escapes; the PTX ends in a NUL,
 * dropped). NULL after a diagnostic. */
static const char *binary_ptx(MtContext *ctx, const char *text) {
    const char *key = "assembly = \"";
    const char *p = strstr(text, key);
    if (!p || !strstr(text, "gpu.binary")) {
        mt_error(ctx, srcpos(0, 0),
                 "--mlir-binary: no gpu.binary with an assembly attribute (lower NAME.mlir with "
                 "mlir-opt's "
                 "--gpu-module-to-binary='format=isa' pipeline first)");
        return NULL;
    }
    if (strstr(p + 1, key)) {
        mt_error(ctx, srcpos(0, 0),
                 "--mlir-binary: more than one gpu.binary object (one target only)");
        return NULL;
    }
    StrBuf sb;
    sb_init(&sb, ctx->arena);
    for (p += strlen(key); *p && *p != '"'; p++) {
        if (*p != '\\') {
            sb_putc(&sb, *p);
            continue;
        }
        if (p[1] == '\\') {
            sb_putc(&sb, '\\');
            p++;
            continue;
        }
        int v = 0;
        for (int k = 1; k <= 2; k++) {
            char c = p[k];
            int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                           : -1;
            if (d < 0) {
                mt_error(ctx, srcpos(0, 0),
                         "--mlir-binary: a malformed escape in the assembly string");
                return NULL;
            }
            v = v * 16 + d;
        }
        if (v == 0 && p[3] == '"') {
            p += 2; /* the PTX's terminating NUL */
            continue;
        }
        if (v == 0) {
            mt_error(ctx, srcpos(0, 0),
                     "--mlir-binary: a NUL byte in the assembly string (expected PTX text)");
            return NULL;
        }
        sb_putc(&sb, (char)v);
        p += 2;
    }
    if (*p != '"') {
        mt_error(ctx, srcpos(0, 0), "--mlir-binary: the assembly string is not terminated");
        return NULL;
    }
    return sb_str(&sb);
}

/* The number of .param entries of `.entry symbol(...)`, or -1 if absent. */
static int entry_params(const char *ptx, const char *symbol) {
    size_t n = strlen(symbol);
    for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
        const char *q = p + 7;
        while (*q == ' ') q++;
        if (strncmp(q, symbol, n) != 0 || (q[n] != '(' && q[n] != ' ' && q[n] != '\n')) continue;
        q += n;
        while (*q == ' ' || *q == '\n') q++;
        if (*q != '(') return 0;
        const char *end = strchr(q, ')');
        if (!end) return -1;
        int count = 0;
        for (const char *r = strstr(q, ".param"); r && r < end; r = strstr(r + 1, ".param"))
            count++;
        return count;
    }
    return -1;
}

/* ---- C text ------------------------------------------------------------------- */

static void c_string_body(StrBuf *sb, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') sb_printf(sb, "\\%c", c);
        else if (c == '\n') sb_puts(sb, "\\n");
        else if (c == '\t') sb_puts(sb, "\\t");
        else if (c < 0x20 || c >= 0x7f) sb_printf(sb, "\\%03o", c);
        else if (c == '?' && i + 1 < n && s[i + 1] == '?') sb_puts(sb, "?\\"); /* no trigraph */
        else sb_putc(sb, (char)c);
    }
}

static const char *c_string(Arena *a, const char *s) {
    StrBuf sb;
    sb_init(&sb, a);
    sb_putc(&sb, '"');
    c_string_body(&sb, s, strlen(s));
    sb_putc(&sb, '"');
    return sb_str(&sb);
}

static const char *params(Arena *a, const Spec *s) {
    StrBuf sb;
    sb_init(&sb, a);
    sb_puts(&sb, "cudaStream_t stream");
    if (!s->grid) sb_puts(&sb, ", mytriton_grid grid");
    for (int i = 0; i < s->f->nparams; i++) {
        Type t = s->f->params[i].type;
        sb_printf(&sb, ", %s %s", c_launcher_type(a, t, t.ptr && !s->written[i]), s->pnames[i]);
    }
    for (int j = 0; j < s->nextra; j++)
        sb_printf(&sb, ", int32_t %s", s->pnames[s->f->nparams + j]);
    return sb_str(&sb);
}

void emit_mlir_header_decls(StrBuf *sb, Arena *a, const Spec *s) {
    sb_printf(sb,
              "/* launch_%s_mlir: the MLIR backend's PTX (%s_mlir.c), %d thread%s per block */\n",
              s->name, s->name, s->tile->threads, s->tile->threads == 1 ? "" : "s");
    sb_printf(sb, "cudaError_t launch_%s_mlir(%s);\n", s->name, params(a, s));
    sb_printf(sb, "extern const mytriton_kernel_info mytriton_kernel_info_%s_mlir;\n", s->name);
    sb_printf(sb,
              "/* loads the module in the current CUDA context now (before graph capture) */\n");
    sb_printf(sb, "cudaError_t preload_%s_mlir(void);\n", s->name);
}

static const char *arg_kind(Arena *a, Type t) {
    return arena_printf(a, "MYTRITON_ARG_%s%s", t.ptr ? "PTR_" : "",
                        dtype_info((DType)t.dtype)->arg);
}

/* The loader: statics private to this file. */
static const char loader[] =
    "/* The CUDA driver API, resolved when first needed (dlopen): a program\n"
    " * linking this launcher starts on machines without a CUDA driver, as\n"
    " * programs linking only the CUDA runtime do. */\n"
    "typedef CUresult (*mytriton_mlir_ctx_get_current_t)(CUcontext *);\n"
    "typedef CUresult (*mytriton_mlir_ctx_get_id_t)(CUcontext, unsigned long long *);\n"
    "typedef CUresult (*mytriton_mlir_module_load_t)(CUmodule *, const void *, unsigned int, "
    "CUjit_option *, void **);\n"
    "typedef CUresult (*mytriton_mlir_module_get_function_t)(CUfunction *, CUmodule, const char "
    "*);\n"
    "typedef CUresult (*mytriton_mlir_module_unload_t)(CUmodule);\n"
    "typedef CUresult (*mytriton_mlir_launch_t)(CUfunction, unsigned int, unsigned int, unsigned "
    "int, unsigned int,\n"
    "                                           unsigned int, unsigned int, unsigned int, "
    "CUstream, void **, void **);\n"
    "typedef CUresult (*mytriton_mlir_error_text_t)(CUresult, const char **);\n"
    "static struct {\n"
    "    int loaded;\n"
    "    mytriton_mlir_ctx_get_current_t ctx_get_current;\n"
    "    mytriton_mlir_ctx_get_id_t ctx_get_id; /* NULL before CUDA 12 */\n"
    "    mytriton_mlir_module_load_t module_load;\n"
    "    mytriton_mlir_module_get_function_t module_get_function;\n"
    "    mytriton_mlir_module_unload_t module_unload;\n"
    "    mytriton_mlir_launch_t launch;\n"
    "    mytriton_mlir_error_text_t error_name, error_string;\n"
    "} mytriton_mlir_cu;\n"
    "\n"
    "/* The module loaded in one CUDA context. */\n"
    "struct mytriton_mlir_loaded {\n"
    "    struct mytriton_mlir_loaded *next;\n"
    "    CUcontext context;\n"
    "    unsigned long long context_id;\n"
    "    CUfunction function;\n"
    "};\n"
    "/* Guards mytriton_mlir_cu (written once) and the list. */\n"
    "static pthread_mutex_t mytriton_mlir_lock = PTHREAD_MUTEX_INITIALIZER;\n"
    "static struct mytriton_mlir_loaded *mytriton_mlir_loaded_list;\n"
    "\n"
    "static int mytriton_mlir_resolve(void *library, const char *name, void *function, size_t "
    "size) {\n"
    "    void *symbol = dlsym(library, name);\n"
    "    if (symbol == NULL) return 0;\n"
    "    memcpy(function, &symbol, size);\n"
    "    return 1;\n"
    "}\n"
    "\n"
    "/* Call with the lock held. */\n"
    "static cudaError_t mytriton_mlir_load_driver(void) {\n"
    "    void *library;\n"
    "    if (mytriton_mlir_cu.loaded) return cudaSuccess;\n"
    "    library = dlopen(\"libcuda.so.1\", RTLD_NOW | RTLD_LOCAL);\n"
    "    if (library == NULL) {\n"
    "        const char *why = dlerror();\n"
    "        mytriton_set_last_error(\"%s: the CUDA driver (libcuda.so.1) cannot be loaded: %s\", "
    "mytriton_mlir_launcher,\n"
    "                                why != NULL ? why : \"not found\");\n"
    "        return cudaErrorInsufficientDriver;\n"
    "    }\n"
    "#define MYTRITON_MLIR_RESOLVE(name, field) \\\n"
    "    mytriton_mlir_resolve(library, name, &mytriton_mlir_cu.field, sizeof "
    "mytriton_mlir_cu.field)\n"
    "    if (!MYTRITON_MLIR_RESOLVE(\"cuCtxGetCurrent\", ctx_get_current) ||\n"
    "        !MYTRITON_MLIR_RESOLVE(\"cuModuleLoadDataEx\", module_load) ||\n"
    "        !MYTRITON_MLIR_RESOLVE(\"cuModuleGetFunction\", module_get_function) ||\n"
    "        !MYTRITON_MLIR_RESOLVE(\"cuModuleUnload\", module_unload) ||\n"
    "        !MYTRITON_MLIR_RESOLVE(\"cuLaunchKernel\", launch) ||\n"
    "        !MYTRITON_MLIR_RESOLVE(\"cuGetErrorName\", error_name) ||\n"
    "        !MYTRITON_MLIR_RESOLVE(\"cuGetErrorString\", error_string)) {\n"
    "        mytriton_set_last_error(\"%s: the CUDA driver (libcuda.so.1) lacks a function the "
    "launcher needs\",\n"
    "                                mytriton_mlir_launcher);\n"
    "        return cudaErrorInsufficientDriver;\n"
    "    }\n"
    "    if (!MYTRITON_MLIR_RESOLVE(\"cuCtxGetId\", ctx_get_id)) mytriton_mlir_cu.ctx_get_id = "
    "NULL;\n"
    "#undef MYTRITON_MLIR_RESOLVE\n"
    "    mytriton_mlir_cu.loaded = 1;\n"
    "    return cudaSuccess;\n"
    "}\n"
    "\n"
    "/* Names a failed driver call in the last error; the CUresult as the\n"
    " * cudaError_t of the same number. */\n"
    "static cudaError_t mytriton_mlir_fail(CUresult r, const char *call, const char *log) {\n"
    "    const char *name = NULL, *text = NULL;\n"
    "    if (mytriton_mlir_cu.error_name(r, &name) != CUDA_SUCCESS || name == NULL) name = \"CUDA "
    "driver error\";\n"
    "    if (mytriton_mlir_cu.error_string(r, &text) != CUDA_SUCCESS || text == NULL) text = "
    "\"\";\n"
    "    mytriton_set_last_error(\"%s: %s: %s (%s)%s%s\", mytriton_mlir_launcher, call, name, "
    "text,\n"
    "                            log != NULL && log[0] != '\\0' ? \": \" : \"\", log != NULL ? log "
    ": \"\");\n"
    "    return (cudaError_t)r;\n"
    "}\n"
    "\n"
    "/* The kernel in the current CUDA context, its module loaded on first use\n"
    " * (call with the lock held). */\n"
    "static cudaError_t mytriton_mlir_function_locked(CUfunction *function) {\n"
    "    CUcontext context = NULL;\n"
    "    unsigned long long context_id = 0;\n"
    "    struct mytriton_mlir_loaded *entry;\n"
    "    CUresult r;\n"
    "    cudaError_t err = mytriton_mlir_load_driver();\n"
    "    if (err != cudaSuccess) return err;\n"
    "    r = mytriton_mlir_cu.ctx_get_current(&context);\n"
    "    if (r != CUDA_SUCCESS || context == NULL) {\n"
    "        /* nothing made a context current on this thread yet: the runtime\n"
    "         * makes the current device's primary context current, as a\n"
    "         * <<<>>> launch would */\n"
    "        err = cudaFree(NULL);\n"
    "        if (err != cudaSuccess) {\n"
    "            mytriton_set_last_error(\"%s: %s\", mytriton_mlir_launcher, "
    "cudaGetErrorString(err));\n"
    "            mytriton_set_status_text((int)err, cudaGetErrorString(err));\n"
    "            return err;\n"
    "        }\n"
    "        r = mytriton_mlir_cu.ctx_get_current(&context);\n"
    "        if (r != CUDA_SUCCESS) return mytriton_mlir_fail(r, \"cuCtxGetCurrent\", NULL);\n"
    "        if (context == NULL) return mytriton_mlir_fail(CUDA_ERROR_INVALID_CONTEXT, "
    "\"cuCtxGetCurrent\", NULL);\n"
    "    }\n"
    "    /* a new context may reuse the handle of a destroyed one: its id differs */\n"
    "    if (mytriton_mlir_cu.ctx_get_id != NULL) {\n"
    "        r = mytriton_mlir_cu.ctx_get_id(context, &context_id);\n"
    "        if (r != CUDA_SUCCESS) return mytriton_mlir_fail(r, \"cuCtxGetId\", NULL);\n"
    "    }\n"
    "    for (entry = mytriton_mlir_loaded_list; entry != NULL; entry = entry->next) {\n"
    "        if (entry->context == context && entry->context_id == context_id) {\n"
    "            *function = entry->function;\n"
    "            return cudaSuccess;\n"
    "        }\n"
    "    }\n"
    "    {\n"
    "        size_t size = 1, at = 0, i;\n"
    "        char *image, log[4096];\n"
    "        CUmodule module;\n"
    "        CUjit_option options[2] = {CU_JIT_ERROR_LOG_BUFFER, "
    "CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};\n"
    "        void *values[2];\n"
    "        for (i = 0; mytriton_mlir_ptx[i] != NULL; i++) size += strlen(mytriton_mlir_ptx[i]);\n"
    "        image = (char *)malloc(size);\n"
    "        entry = (struct mytriton_mlir_loaded *)malloc(sizeof *entry);\n"
    "        if (image == NULL || entry == NULL) {\n"
    "            free(image);\n"
    "            free(entry);\n"
    "            mytriton_set_last_error(\"%s: out of host memory loading the PTX\", "
    "mytriton_mlir_launcher);\n"
    "            return cudaErrorMemoryAllocation;\n"
    "        }\n"
    "        for (i = 0; mytriton_mlir_ptx[i] != NULL; i++) {\n"
    "            size_t n = strlen(mytriton_mlir_ptx[i]);\n"
    "            memcpy(image + at, mytriton_mlir_ptx[i], n);\n"
    "            at += n;\n"
    "        }\n"
    "        image[at] = '\\0';\n"
    "        log[0] = '\\0';\n"
    "        values[0] = log;\n"
    "        values[1] = (void *)(uintptr_t)sizeof log;\n"
    "        r = mytriton_mlir_cu.module_load(&module, image, 2, options, values);\n"
    "        free(image);\n"
    "        if (r == CUDA_SUCCESS) {\n"
    "            r = mytriton_mlir_cu.module_get_function(&entry->function, module, "
    "mytriton_mlir_symbol);\n"
    "            if (r != CUDA_SUCCESS) (void)mytriton_mlir_cu.module_unload(module);\n"
    "        }\n"
    "        if (r != CUDA_SUCCESS) {\n"
    "            free(entry);\n"
    "            return mytriton_mlir_fail(r, \"loading the PTX\", log);\n"
    "        }\n"
    "        entry->context = context;\n"
    "        entry->context_id = context_id;\n"
    "        entry->next = mytriton_mlir_loaded_list;\n"
    "        mytriton_mlir_loaded_list = entry;\n"
    "        *function = entry->function;\n"
    "    }\n"
    "    return cudaSuccess;\n"
    "}\n"
    "\n"
    "static cudaError_t mytriton_mlir_function(CUfunction *function) {\n"
    "    cudaError_t err;\n"
    "    pthread_mutex_lock(&mytriton_mlir_lock);\n"
    "    err = mytriton_mlir_function_locked(function);\n"
    "    pthread_mutex_unlock(&mytriton_mlir_lock);\n"
    "    return err;\n"
    "}\n\n";

const char *emit_mlir_launcher_unit(MtContext *ctx, const Spec *s, const char *binary) {
    Arena *a = ctx->arena;
    const Function *f = s->f;
    if (!binary) {
        mt_error(ctx, srcpos(0, 0),
                 "the MLIR launcher needs the lowered module (--mlir-binary FILE)");
        return NULL;
    }
    const char *ptx = binary_ptx(ctx, binary);
    if (!ptx) return NULL;
    int np = entry_params(ptx, s->symbol);
    if (np < 0) {
        mt_error(ctx, srcpos(0, 0),
                 "--mlir-binary: the PTX has no '.entry %s' (was it lowered from %s.mlir?)",
                 s->symbol, s->name);
        return NULL;
    }
    if (np != f->nparams) {
        mt_error(
            ctx, srcpos(0, 0),
            "--mlir-binary: '.entry %s' takes %d parameters, the kernel %d (the launcher passes "
            "one per runtime "
            "parameter: keep mlir-opt's default calling convention for scalar arguments)",
            s->symbol, np, f->nparams);
        return NULL;
    }
    const char *launcher = arena_printf(a, "launch_%s_mlir", s->name);
    StrBuf sb;
    sb_init(&sb, a);
    sb_printf(&sb, "/* Generated by %s from %s (kernel %s). Do not edit. */\n", VERSION_LINE,
              s->source, s->kernel);
    sb_printf(&sb,
              "/* The MLIR backend's launcher of %s: the PTX below is what mlir-opt\n"
              " * made of %s.mlir (kernel %s, %d thread%s per block);\n"
              " * it is loaded once per CUDA context with the driver API. */\n",
              s->name, s->name, s->symbol, s->tile->threads, s->tile->threads == 1 ? "" : "s");
    sb_puts(&sb,
            "#include <dlfcn.h>\n#include <pthread.h>\n#include <stdbool.h>\n#include "
            "<stdint.h>\n#include <stdlib.h>\n"
            "#include <string.h>\n\n");
    sb_puts(&sb, "#include <cuda.h>\n#include <cuda_runtime_api.h>\n\n");
    sb_printf(&sb, "#include \"mytriton/runtime.h\"\n#include \"%s.h\"\n\n", s->name);
    sb_printf(&sb,
              "static const char mytriton_mlir_launcher[] = \"%s\";\nstatic const char "
              "mytriton_mlir_symbol[] = \"%s\";\n\n",
              launcher, s->symbol);
    /* the PTX, a literal per line (no literal beyond what C requires compilers to accept) */
    sb_puts(&sb, "static const char *const mytriton_mlir_ptx[] = {\n");
    for (const char *p = ptx; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        for (size_t off = 0; off < n;) {
            size_t chunk = n - off > 1000 ? 1000 : n - off;
            sb_puts(&sb, "    \"");
            c_string_body(&sb, p + off, chunk);
            sb_puts(&sb, "\",\n");
            off += chunk;
        }
        p += n;
    }
    sb_puts(&sb, "    NULL};\n\n");
    sb_puts(&sb, loader);

    sb_printf(&sb, "cudaError_t %s(%s) {\n", launcher, params(a, s));
    emit_grid_prologue(&sb, a, s, launcher, "cudaErrorInvalidValue", "cudaSuccess");
    sb_puts(&sb, "    CUfunction mt_function;\n");
    sb_puts(&sb, "    CUresult mt_r;\n");
    sb_puts(&sb, "    cudaError_t mt_err = mytriton_mlir_function(&mt_function);\n");
    sb_puts(&sb, "    if (mt_err != cudaSuccess) return mt_err;\n");
    if (f->nparams) {
        sb_puts(&sb, "    void *mt_args[] = {");
        for (int i = 0; i < f->nparams; i++)
            sb_printf(&sb, "%s(void *)&%s", i ? ", " : "", s->pnames[i]);
        sb_puts(&sb, "};\n");
    } else {
        sb_puts(&sb, "    void **mt_args = NULL;\n");
    }
    sb_printf(&sb,
              "    mt_r = mytriton_mlir_cu.launch(mt_function, (unsigned)grid.x, (unsigned)grid.y, "
              "(unsigned)grid.z, %d, 1, 1, 0,\n"
              "                                   (CUstream)stream, mt_args, NULL);\n",
              s->tile->threads);
    sb_puts(&sb,
            "    if (mt_r != CUDA_SUCCESS) return mytriton_mlir_fail(mt_r, \"cuLaunchKernel\", "
            "NULL);\n");
    sb_puts(&sb, "    return cudaSuccess;\n}\n\n");

    /* the explicit preload: loads the module in the current context now, so
     * that a later launch (e.g. under CUDA graph capture) loads nothing */
    const char *id = arena_printf(a, "%s_mlir", s->name);
    sb_printf(&sb,
              "cudaError_t preload_%s(void) {\n    CUfunction mt_function;\n    return "
              "mytriton_mlir_function(&mt_function);\n}\n\n",
              id);
    sb_printf(&sb, "static int mytriton_preload_%s(void) {\n    return (int)preload_%s();\n}\n\n",
              id, id);
    /* the generic launch and the registry entry */
    sb_printf(&sb,
              "static int mytriton_generic_%s(void *stream, void *const *args, const mytriton_grid "
              "*grid) {\n",
              id);
    if (s->grid) sb_puts(&sb, "    (void)grid;\n");
    else {
        sb_printf(
            &sb,
            "    if (!grid) {\n        mytriton_set_last_error(\"%s: this kernel needs an explicit "
            "grid\");\n",
            launcher);
        sb_puts(&sb, "        return 1;\n    }\n");
    }
    if (!f->nparams && !s->nextra) sb_puts(&sb, "    (void)args;\n");
    sb_printf(&sb, "    return (int)%s((cudaStream_t)stream", launcher);
    if (!s->grid) sb_puts(&sb, ", *grid");
    for (int i = 0; i < f->nparams; i++) {
        Type t = f->params[i].type;
        sb_printf(&sb, ", *(%s const *)args[%d]", c_launcher_type(a, t, t.ptr && !s->written[i]),
                  i);
    }
    for (int j = 0; j < s->nextra; j++)
        sb_printf(&sb, ", *(int32_t const *)args[%d]", f->nparams + j);
    sb_puts(&sb, ");\n}\n\n");
    int nargs = f->nparams + s->nextra;
    if (nargs) {
        sb_printf(&sb, "static const char *const mytriton_arg_names_%s[] = {", id);
        for (int i = 0; i < nargs; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "", c_string(a, s->pyname[i]));
        sb_puts(&sb, "};\n");
        sb_printf(&sb, "static const mytriton_arg_kind mytriton_arg_kinds_%s[] = {", id);
        for (int i = 0; i < nargs; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "",
                      i < f->nparams ? arg_kind(a, f->params[i].type) : "MYTRITON_ARG_I32");
        sb_puts(&sb, "};\n");
    }
    sb_printf(&sb, "const mytriton_kernel_info mytriton_kernel_info_%s = {\n", id);
    sb_printf(&sb, "    %s, \"mlir\", %s, %s,\n", c_string(a, s->name), c_string(a, s->kernel),
              c_string(a, s->source));
    sb_printf(&sb, "    %s, %s, %s,\n", c_string(a, s->signature), c_string(a, s->constexprs),
              s->grid ? c_string(a, s->grid->text) : "NULL");
    sb_printf(&sb, "    %d, %d,\n", s->tile->threads, nargs);
    if (nargs) sb_printf(&sb, "    mytriton_arg_names_%s, mytriton_arg_kinds_%s,\n", id, id);
    else sb_puts(&sb, "    NULL, NULL,\n");
    sb_printf(&sb, "    mytriton_generic_%s,\n    NULL, NULL, mytriton_preload_%s\n};\n", id, id);
    return sb_str(&sb);
}
