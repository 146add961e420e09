/* mytritonc: the command-line compiler (DESIGN 10).
 *
 *   mytritonc FILE.py --kernel NAME --signature SIG [-D NAME=VALUE]...
 *             [--grid EXPR] [--name NAME] [-O0|-O1|-O2] [--emit=STAGE]...
 *             [--backends LIST] [--mlir-binary FILE] [-o DIR]
 *   mytritonc --check ARGS [--next ARGS]...   (the arguments checked only)
 *
 * Exit status: 0 success, 1 a diagnostic, 2 a usage error. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mytriton/mytriton.h"

static const char usage[] =
    "usage: mytritonc FILE.py --kernel NAME --signature SIG [options]\n"
    "       mytritonc --check FILE.py --kernel NAME --signature SIG [options]\n"
    "                 [--next FILE.py --kernel NAME --signature SIG [options]]...\n"
    "\n"
    "Compiles one @triton.jit kernel of FILE.py ahead of time.\n"
    "\n"
    "  --kernel NAME        the kernel function\n"
    "  --signature SIG      the runtime parameters' types in order, e.g. \"*fp32, *fp16, i32\":\n"
    "                       i1 i8 i16 i32 i64 u8 u16 u32 u64 fp16 bf16 fp32 fp64 fp8e4nv\n"
    "                       fp8e5, * before one for a pointer, \"name: type\" to name the\n"
    "                       parameter; hints :16 (\"*fp32:16\" 16-byte aligned, \"i32:16\"\n"
    "                       divisible by 16; any power of two up to 1024) and :1 (\"i32:1\":\n"
    "                       the value is 1); tensordesc<fp16[64, 64]> for a host tensor\n"
    "                       descriptor (its base, shape and strides); \"\" for none\n"
    "  -D NAME=VALUE        a tl.constexpr parameter's value (repeatable), a Python literal:\n"
    "                       an int, a float, True, False, None, a string ('text' or a bare\n"
    "                       word: -D ACT=relu), a tuple \"(1, 2)\", a dtype (tl.float16)\n"
    "  --module-value NAME=VALUE  (repeatable) a module-level name that Python computes\n"
    "                       at import time (IS_BLACKWELL = torch...), fixed for this build\n"
    "                       in every module read: module-level if conditions and kernels\n"
    "                       see VALUE (written as for -D, or a module of triton.language)\n"
    "  --grid EXPR          launch grid over the i32 runtime parameters and the constexprs,\n"
    "                       e.g. \"cdiv(M, BM), cdiv(N, BN)\" (+ - * // %, cdiv); without it\n"
    "                       launchers take a mytriton_grid\n"
    "  --grid-param NAME    a launcher-only int32_t parameter NAME (after the kernel's) that\n"
    "                       the grid may use, e.g. --grid \"rows\" --grid-param rows (repeatable)\n"
    "  --name NAME          name of the outputs and of launch_NAME (default: the kernel\n"
    "                       name without a _kernel suffix)\n"
    "  -O0 | -O1 | -O2      optimization level (default -O2)\n"
    "  --num-warps N        -O2: warps per program (threads per block = 32 N), a power of two\n"
    "                       from 1 to 32, as Triton's num_warps; default: from the kernel's shape\n"
    "  --num-stages N       Triton's num_stages (1-16), recorded in NAME.h: the depth of the\n"
    "                       copy ring of -O2's tensor-core matmul and attention kernels\n"
    "                       (other kernels do not use it)\n"
    "  --divisibility-16    Triton's specialization: every pointer 16-byte aligned, every\n"
    "                       integer divisible by 16 (as :16 on each of them in the signature)\n"
    "  --debug              compile tl.device_assert in (as Triton's debug=True or\n"
    "                       TRITON_DEBUG=1); without it device_assert is no code\n"
    "  --emit=STAGE         print a stage: ast, expr, ssa, layout, explain, cuda, header, host,\n"
    "                       mlir, mlir-launcher (repeatable; default without -o: cuda)\n"
    "  --explain            also print on stderr, as notes, the path each tl.dot takes on the\n"
    "                       CUDA backend: tensor cores and how, or CUDA cores and why\n"
    "  --backends LIST      comma-separated: cuda, host, mlir (default cuda); what -o writes\n"
    "  -o DIR               write DIR/NAME.cu and DIR/NAME.h (and DIR/NAME_host.c for host,\n"
    "                       DIR/NAME.mlir for mlir); an unchanged file is not rewritten\n"
    "  --config TEXT        (repeatable) a dispatching launcher: -o writes NAME.h, NAME.cu and\n"
    "                       NAME_host.c with launch_NAME over the variants NAME_cfg<i>\n"
    "                       (compiled separately, one per config \"BM=64 NUM_WARPS=4 ...\")\n"
    "  --when COND          the previous --config only runs when COND (over the key) holds:\n"
    "                       integers, + - * // %, comparisons, and, or, not\n"
    "  --key NAMES          integer parameters the configs are tuned for, e.g. \"M,N,K\"\n"
    "  --restore NAME[=EXT] (repeatable) a buffer the kernel writes, tuned on a scratch copy\n"
    "                       (EXT: its size in elements; CUDA default: to the allocation's end)\n"
    "  --specialize on|off  the configs also exist as NAME_cfg<i>_d16 (default on)\n"
    "  --depfile FILE       also write FILE, a Make-style depfile: DIR/NAME.h depends on\n"
    "                       the kernel file and every module it imports (build systems\n"
    "                       rerun mytritonc when one changes)\n"
    "  --mlir-binary FILE   mlir-opt's output for NAME.mlir (a gpu.binary holding PTX): the\n"
    "                       mlir-launcher stage embeds it, and -o then writes DIR/NAME_mlir.c\n"
    "                       alone (launch_NAME_mlir)\n"
    "  --check              check the arguments against the kernel's parameters (signature,\n"
    "                       -D and module values, grid, configs, --when, --key, --restore)\n"
    "                       without compiling the body or writing anything; --next starts\n"
    "                       another kernel's arguments. At the first kernel with an error,\n"
    "                       its number (from 1) goes to stdout and the checking stops\n"
    "  --python PATH        Python 3 interpreter for the parser shim (default python3,\n"
    "                       or $MYTRITON_PYTHON)\n"
    "  --shim PATH          the parser shim (default: mytriton_parse.py beside mytritonc,\n"
    "                       else ../libexec/mytriton/ from it, or $MYTRITON_SHIM)\n"
    "  --option-spelling cmake  diagnostics name options as mytriton_add_kernels() does\n"
    "                       (CONSTEXPR, GRID, SIGNATURE, NAME, ...); default cli (-D, --grid)\n"
    "  --help, --version\n"
    "\n"
    "Exit status: 0 on success, 1 when the kernel has an error, 2 on a usage error.\n";

static int usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "mytritonc: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(run 'mytritonc --help' for usage)\n");
    return 2;
}

/* The shim of an installed mytritonc, relative to its directory (set by
 * the build from CMAKE_INSTALL_BINDIR and CMAKE_INSTALL_LIBEXECDIR). */
#ifndef MT_SHIM_FROM_BINDIR
#define MT_SHIM_FROM_BINDIR "../libexec/mytriton/mytriton_parse.py"
#endif

/* The parser shim: beside the executable (the build tree), else where the
 * installed layout puts it (<prefix>/libexec/mytriton/). */
static char *shim_beside_exe(const char *argv0) {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 64);
    if (n <= 0) {
        size_t len = strlen(argv0);
        if (len >= sizeof buf - 64) return NULL;
        memcpy(buf, argv0, len);
        n = (ssize_t)len;
    }
    buf[n] = 0;
    char *slash = strrchr(buf, '/');
    const char *file = "mytriton_parse.py";
    char *base = slash ? slash + 1 : buf;
    size_t room = sizeof buf - (size_t)(base - buf);
    snprintf(base, room, "%s", file);
    if (access(buf, R_OK) != 0 && strlen(MT_SHIM_FROM_BINDIR) < room) {
        snprintf(base, room, "%s", MT_SHIM_FROM_BINDIR);
        if (access(buf, R_OK) != 0)
            snprintf(base, room, "%s", file); /* the message names the usual place */
    }
    return strdup(buf);
}

/* Whether the file at `path` holds exactly `text`. */
static int same_content(const char *path, const char *text) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return 0;
    size_t n = strlen(text), off = 0;
    char buf[8192];
    int same = 1;
    for (size_t got; same && (got = fread(buf, 1, sizeof buf, fp)) > 0; off += got)
        same = off + got <= n && memcmp(buf, text + off, got) == 0;
    same = same && !ferror(fp) && off == n;
    fclose(fp);
    return same;
}

/* A path's characters in a Make rule: spaces, '#' and '$' escaped. */
static void put_make_text(FILE *f, const char *p) {
    for (; *p; p++) {
        if (*p == ' ' || *p == '#' || *p == '\\') fputc('\\', f);
        if (*p == '$') fputc('$', f);
        fputc(*p, f);
    }
}

/* A path in a Make rule: absolute, spaces, '#' and '$' escaped. */
static void put_make_path(FILE *f, const char *path) {
    char cwd[4096];
    if (path[0] != '/' && getcwd(cwd, sizeof cwd)) put_make_text(f, cwd), fputc('/', f);
    put_make_text(f, path);
}

/* --depfile: "DIR/NAME.h: kernel.py imported.py ..." (malloc'ed; NULL
 * after a message). */
static char *depfile_text(const char *outdir, const mt_compilation *c) {
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f) {
        fprintf(stderr, "mytritonc: error: out of memory\n");
        return NULL;
    }
    size_t len = strlen(outdir) + strlen(mt_output_name(c)) + 8;
    char *target = malloc(len);
    if (target) {
        snprintf(target, len, "%s/%s.h", outdir, mt_output_name(c));
        put_make_path(f, target);
    }
    fputc(':', f);
    for (int i = 0; mt_dependency(c, i); i++) {
        fputs(" \\\n  ", f);
        put_make_path(f, mt_dependency(c, i));
    }
    fputc('\n', f);
    int ok = fclose(f) == 0 && target;
    free(target);
    if (!ok) {
        fprintf(stderr, "mytritonc: error: out of memory\n");
        free(text);
        return NULL;
    }
    return text;
}

/* The outputs of one compilation, written together or not at all: each
 * changed one to a temporary file beside it, then every temporary renamed
 * over its output. An output whose file already holds its text is not
 * written (it keeps its time: Ninja's restat recompiles nothing that
 * depends on it). */
typedef struct Output {
    char *path;       /* malloc'ed */
    const char *text; /* NULL: not written */
    char *tmp;        /* the temporary holding text, or NULL */
} Output;

enum { MAX_OUTPUTS = 8 };

/* The temporary of out->path, written and closed; 0 after a message. */
static int write_temporary(Output *out) {
    const char *slash = strrchr(out->path, '/');
    size_t dirlen = slash ? (size_t)(slash - out->path) + 1 : 0;
    size_t len = strlen(out->path) + 16;
    out->tmp = malloc(len);
    if (!out->tmp) {
        fprintf(stderr, "mytritonc: error: out of memory\n");
        return 0;
    }
    snprintf(out->tmp, len, "%.*s.%s.XXXXXX", (int)dirlen, out->path, out->path + dirlen);
    int fd = mkstemp(out->tmp);
    if (fd < 0) {
        fprintf(stderr, "mytritonc: error: cannot write %s: %s\n", out->path, strerror(errno));
        free(out->tmp);
        out->tmp = NULL;
        return 0;
    }
    int ok = 1, why = 0;
    size_t n = strlen(out->text);
    const char *p = out->text;
    while (ok && n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) ok = 0, why = w < 0 ? errno : ENOSPC;
        else p += w, n -= (size_t)w;
    }
    if (ok && fchmod(fd, 0644) != 0) ok = 0, why = errno;
    if (close(fd) != 0 && ok) ok = 0, why = errno;
    if (!ok) fprintf(stderr, "mytritonc: error: cannot write %s: %s\n", out->path, strerror(why));
    return ok;
}

/* Writes every output that changed, all or none; 0 after a message. When
 * a temporary cannot be written (or an output's path is not a regular
 * file) nothing is renamed and the previous outputs stay as they were;
 * should a rename fail after others succeeded, every output is removed,
 * so that no mix of old and new files remains and the build system runs
 * the compiler again. The temporaries never outlive the call. */
static int write_outputs(Output *outs, int n) {
    int ok = 1;
    for (int i = 0; ok && i < n; i++) {
        struct stat st;
        if (stat(outs[i].path, &st) == 0 && !S_ISREG(st.st_mode)) {
            fprintf(stderr, "mytritonc: error: cannot write %s: it is not a regular file\n",
                    outs[i].path);
            ok = 0;
        } else if (same_content(outs[i].path, outs[i].text)) {
            outs[i].text = NULL;
        } else {
            ok = write_temporary(&outs[i]);
        }
    }
    int renamed = 0;
    for (int i = 0; ok && i < n; i++) {
        if (!outs[i].tmp) continue;
        if (rename(outs[i].tmp, outs[i].path) != 0) {
            fprintf(stderr, "mytritonc: error: cannot write %s: %s\n", outs[i].path,
                    strerror(errno));
            ok = 0;
            break;
        }
        free(outs[i].tmp);
        outs[i].tmp = NULL;
        renamed++;
    }
    for (int i = 0; i < n; i++) {
        if (outs[i].tmp) unlink(outs[i].tmp);
        free(outs[i].tmp);
        outs[i].tmp = NULL;
    }
    if (!ok && renamed)
        for (int i = 0; i < n; i++) unlink(outs[i].path);
    return ok;
}

/* The whole file as a NUL-terminated string (NULL after a message). */
static char *read_whole(const char *path) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "mytritonc: error: cannot read %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    for (size_t n; buf && (n = fread(buf + len, 1, cap - len - 1, fp)) > 0;) {
        len += n;
        if (cap - len - 1 == 0) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    int bad = ferror(fp);
    fclose(fp);
    if (!buf || bad) {
        fprintf(stderr, "mytritonc: error: cannot read %s\n", path);
        free(buf);
        return NULL;
    }
    buf[len] = 0;
    return buf;
}

static void remove_output(const char *dir, const char *name) {
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (!path) return;
    snprintf(path, len, "%s/%s", dir, name);
    unlink(path);
    free(path);
}

/* Frees the -D names (strndup'ed) and the array. */
static void free_defines(mt_define *defs, int n) {
    for (int i = 0; i < n; i++) free((char *)defs[i].name);
    free(defs);
}

/* One NAME=VALUE of -D or --module-value into defs[*n] (the name
 * strndup'ed); 0 if it is not NAME=VALUE. */
static int add_define(mt_define *defs, int *n, const char *d) {
    const char *eq = d ? strchr(d, '=') : NULL;
    if (!d || !eq || eq == d) return 0;
    defs[*n].name = strndup(d, (size_t)(eq - d));
    defs[*n].value = eq + 1;
    (*n)++;
    return 1;
}

/* The storage of the dispatch options (--config, --key, --restore) and of
 * --module-value, owned by main() so that every return of compile_main()
 * leaves nothing behind. */
typedef struct DispatchArgs {
    mt_dispatch_config *configs;
    const char **keys, **restore;
    char *key_copy;
    mt_define *mvals;
    int nmvals;
} DispatchArgs;

static int compile_main(int argc, char **argv, DispatchArgs *da, int check);

/* One command line (argv[0] the program): a compilation, or with check a
 * mt_check of one kernel's arguments. */
static int run_one(int argc, char **argv, int check) {
    DispatchArgs da = {0};
    int rc = 2;
    da.configs = calloc((size_t)argc + 1, sizeof *da.configs);
    da.keys = calloc((size_t)argc + 1, sizeof *da.keys);
    da.restore = calloc((size_t)argc + 1, sizeof *da.restore);
    da.mvals = calloc((size_t)argc + 1, sizeof *da.mvals);
    if (da.configs && da.keys && da.restore && da.mvals) rc = compile_main(argc, argv, &da, check);
    free_defines(da.mvals, da.nmvals);
    free(da.configs);
    free(da.keys);
    free(da.restore);
    free(da.key_copy);
    return rc;
}

/* --check: the arguments of one kernel, or of several separated by --next,
 * checked in order; at the first kernel with an error its number (1-based)
 * goes to stdout, its diagnostics to stderr, and the checking stops. */
static int check_main(int argc, char **argv) {
    char **seg = calloc((size_t)argc + 1, sizeof *seg);
    if (!seg) return 2;
    seg[0] = argv[0];
    int n = 1, index = 1, rc = 0;
    for (int i = 1; i <= argc && rc == 0; i++) {
        if (i < argc && strcmp(argv[i], "--check") == 0) continue;
        if (i < argc && strcmp(argv[i], "--next") != 0) {
            seg[n++] = argv[i];
            continue;
        }
        /* the end of one kernel's arguments (an empty one is no kernel) */
        if (n == 1) continue;
        rc = run_one(n, seg, 1);
        if (rc != 0) printf("%d\n", index);
        index++;
        n = 1;
    }
    free(seg);
    if (fflush(stdout) != 0 && rc == 0) rc = 1;
    return rc;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) break;
        if (strcmp(argv[i], "--check") == 0) return check_main(argc, argv);
    }
    return run_one(argc, argv, 0);
}

static int compile_main(int argc, char **argv, DispatchArgs *da, int check) {
    mt_options o = {0};
    const char *grid_params[64];
    o.grid_params = grid_params;
    o.opt_level = 2;
    mt_define *defs = calloc((size_t)argc + 1, sizeof *defs);
    mt_stage stages[64];
    int nstages = 0, explain = 0;
    const char *outdir = NULL, *shim = NULL, *python = NULL, *mlir_binary = NULL, *depfile = NULL;
    mt_dispatch_config *configs = da->configs;
    const char **keys = da->keys, **restore = da->restore;
    mt_dispatch dispatch = {0};
    dispatch.specialize = 1;
    if (!defs) return 2;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = NULL;
#define OPTION(flag)                                                           \
    ((strcmp(arg, flag) == 0 &&                                                \
      (i + 1 < argc ? (val = argv[++i], 1)                                     \
                    : (usage_error("%s needs a value", flag), exit(2), 0))) || \
     (strncmp(arg, flag "=", strlen(flag) + 1) == 0 && (val = arg + strlen(flag) + 1, 1)))
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(usage, stdout);
            free_defines(defs, o.ndefines);
            return 0;
        }
        if (strcmp(arg, "--version") == 0) {
            printf("mytritonc %s\n", mt_version());
            free_defines(defs, o.ndefines);
            return 0;
        }
        if (OPTION("--kernel")) o.kernel = val;
        else if (OPTION("--signature")) o.signature = val;
        else if (OPTION("--grid")) o.grid = val;
        else if (OPTION("--grid-param")) {
            if (o.ngrid_params == 64) {
                free_defines(defs, o.ndefines);
                return usage_error("at most 64 --grid-param%s", "");
            }
            grid_params[o.ngrid_params++] = val;
        } else if (OPTION("--num-warps")) {
            char *end;
            long w = strtol(val, &end, 10);
            if (*end || w < 1 || w > 32 || (w & (w - 1)) != 0) {
                free_defines(defs, o.ndefines);
                return usage_error("--num-warps takes a power of two from 1 to 32 (got '%s')", val);
            }
            o.num_warps = (int)w;
        } else if (OPTION("--num-stages")) {
            char *end;
            long v = strtol(val, &end, 10);
            if (*end || v < 1 || v > 16) {
                free_defines(defs, o.ndefines);
                return usage_error("--num-stages takes 1 to 16 (got '%s')", val);
            }
            o.num_stages = (int)v;
        } else if (strcmp(arg, "--divisibility-16") == 0) o.divisibility16 = 1;
        else if (strcmp(arg, "--debug") == 0) o.debug = 1;
        else if (strcmp(arg, "--explain") == 0) explain = 1;
        else if (OPTION("--config")) configs[dispatch.nconfigs++].text = val;
        else if (OPTION("--when")) {
            if (!dispatch.nconfigs) {
                free_defines(defs, o.ndefines);
                return usage_error(
                    "--when '%s' before any --config (it applies to the previous one)", val);
            }
            configs[dispatch.nconfigs - 1].when = val;
        } else if (OPTION("--key")) {
            char *save = NULL;
            free(da->key_copy);
            da->key_copy = strdup(val);
            dispatch.nkeys = 0;
            for (char *t = da->key_copy ? strtok_r(da->key_copy, ", ", &save) : NULL; t;
                 t = strtok_r(NULL, ", ", &save))
                keys[dispatch.nkeys++] = t;
        } else if (OPTION("--restore")) restore[dispatch.nrestore++] = val;
        else if (OPTION("--specialize")) {
            if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0) {
                free_defines(defs, o.ndefines);
                return usage_error("--specialize takes on or off (got '%s')", val);
            }
            dispatch.specialize = strcmp(val, "on") == 0;
        } else if (OPTION("--name")) o.name = val;
        else if (OPTION("--option-spelling")) {
            if (strcmp(val, "cmake") != 0 && strcmp(val, "cli") != 0) {
                free_defines(defs, o.ndefines);
                return usage_error("--option-spelling is cli or cmake (got '%s')", val);
            }
            o.cmake_spelling = strcmp(val, "cmake") == 0;
        } else if (OPTION("--python")) python = val;
        else if (OPTION("--shim")) shim = val;
        else if (OPTION("-o")) outdir = val;
        else if (OPTION("--mlir-binary")) mlir_binary = val;
        else if (OPTION("--depfile")) depfile = val;
        else if (OPTION("--backends")) {
            o.backends = 0;
            char *copy = strdup(val), *save = NULL;
            for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                while (*t == ' ') t++;
                if (strcmp(t, "cuda") == 0) o.backends |= MT_BACKEND_CUDA;
                else if (strcmp(t, "host") == 0) o.backends |= MT_BACKEND_HOST;
                else if (strcmp(t, "mlir") == 0) o.backends |= MT_BACKEND_MLIR;
                else {
                    int rc = usage_error("unknown backend '%s' (backends: cuda, host, mlir)", t);
                    free(copy);
                    free_defines(defs, o.ndefines);
                    return rc;
                }
            }
            free(copy);
        } else if (OPTION("--emit")) {
            static const struct {
                const char *name;
                mt_stage stage;
            } names[] = {{"ast", MT_EMIT_AST},         {"expr", MT_EMIT_EXPR},
                         {"ssa", MT_EMIT_SSA},         {"layout", MT_EMIT_LAYOUT},
                         {"explain", MT_EMIT_EXPLAIN}, {"cuda", MT_EMIT_CUDA},
                         {"header", MT_EMIT_HEADER},   {"host", MT_EMIT_HOST},
                         {"mlir", MT_EMIT_MLIR},       {"mlir-launcher", MT_EMIT_MLIR_LAUNCHER}};
            int found = -1;
            for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
                if (strcmp(val, names[k].name) == 0) found = (int)names[k].stage;
            if (found < 0) {
                free_defines(defs, o.ndefines);
                return usage_error(
                    "unknown stage '%s' (stages: ast, expr, ssa, layout, explain, cuda, "
                    "header, host, mlir, mlir-launcher)",
                    val);
            }
            if (nstages < 64) stages[nstages++] = (mt_stage)found;
        } else if (strcmp(arg, "-O0") == 0 || strcmp(arg, "-O1") == 0 || strcmp(arg, "-O2") == 0) {
            o.opt_level = arg[2] - '0';
        } else if (OPTION("--module-value")) {
            if (!add_define(da->mvals, &da->nmvals, val)) {
                free_defines(defs, o.ndefines);
                return usage_error("--module-value needs NAME=VALUE (got '%s')", val);
            }
            o.module_values = da->mvals;
            o.nmodule_values = da->nmvals;
        } else if (strncmp(arg, "-D", 2) == 0) {
            const char *d = arg[2] ? arg + 2 : (i + 1 < argc ? argv[++i] : NULL);
            if (!add_define(defs, &o.ndefines, d)) {
                free_defines(defs, o.ndefines);
                return usage_error("-D needs NAME=VALUE (got '%s')", d ? d : "");
            }
        } else if (arg[0] == '-' && arg[1]) {
            free_defines(defs, o.ndefines);
            return usage_error("unknown option '%s'", arg);
        } else if (!o.path) {
            o.path = arg;
        } else {
            free_defines(defs, o.ndefines);
            return usage_error("more than one kernel file ('%s')", arg);
        }
#undef OPTION
    }
    if (!o.path) return free_defines(defs, o.ndefines), usage_error("no kernel file given%s", "");
    if (!o.kernel)
        return free_defines(defs, o.ndefines), usage_error("--kernel NAME is required%s", "");
    if (!o.signature)
        return free_defines(defs, o.ndefines),
               usage_error(
                   "--signature SIG is required (\"\" for a kernel without runtime parameters)%s",
                   "");
    if (!o.backends) o.backends = MT_BACKEND_CUDA;
    if (check) /* (nothing is written or printed) */
        nstages = 0, outdir = NULL, mlir_binary = NULL, depfile = NULL;
    int wants_launcher = 0;
    for (int k = 0; k < nstages; k++) wants_launcher |= stages[k] == MT_EMIT_MLIR_LAUNCHER;
    char *binary_text = NULL;
    if ((wants_launcher && !mlir_binary) ||
        (mlir_binary && !(binary_text = read_whole(mlir_binary)))) {
        int rc =
            mlir_binary ? 1 : usage_error("--emit=mlir-launcher needs --mlir-binary FILE%s", "");
        for (int i = 0; i < o.ndefines; i++) free((char *)defs[i].name);
        free(defs);
        return rc;
    }
    o.mlir_binary = binary_text;
    dispatch.configs = configs;
    dispatch.keys = keys;
    dispatch.restore = restore;
    if (dispatch.nconfigs) o.dispatch = &dispatch;
    else if (dispatch.nkeys || dispatch.nrestore) {
        free_defines(defs, o.ndefines);
        return usage_error("--key and --restore need --config%s", "");
    }
    if (!nstages && !outdir && !check) stages[nstages++] = MT_EMIT_CUDA;
    char *own_shim = NULL;
    if (!shim) shim = getenv("MYTRITON_SHIM");
    if (!shim) shim = own_shim = shim_beside_exe(argv[0]);
    if (!python) python = getenv("MYTRITON_PYTHON");
    o.shim = shim;
    o.python = python;
    o.defines = defs;

    mt_compilation *c = check ? mt_check(&o) : mt_compile(&o);
    int rc = 0;
    const char *texts[64];
    for (int k = 0; k < nstages && mt_ok(c); k++) texts[k] = mt_emit(c, stages[k]);
    const char *cu = NULL, *h = NULL, *host = NULL, *mlir = NULL, *mlir_launcher = NULL;
    if (outdir && mt_ok(c) && mlir_binary) {
        /* the MLIR backend's second step: the launcher alone */
        mlir_launcher = mt_emit(c, MT_EMIT_MLIR_LAUNCHER);
    } else if (outdir && mt_ok(c) && o.dispatch) {
        h = mt_emit(c, MT_EMIT_DISPATCH_HEADER);
        if (o.backends & MT_BACKEND_CUDA) cu = mt_emit(c, MT_EMIT_DISPATCH_CUDA);
        if (o.backends & MT_BACKEND_HOST) host = mt_emit(c, MT_EMIT_DISPATCH_HOST);
    } else if (outdir && mt_ok(c)) {
        h = mt_emit(c, MT_EMIT_HEADER);
        if (o.backends & MT_BACKEND_CUDA) cu = mt_emit(c, MT_EMIT_CUDA_TU);
        if (o.backends & MT_BACKEND_HOST) host = mt_emit(c, MT_EMIT_HOST);
        if (o.backends & MT_BACKEND_MLIR) mlir = mt_emit(c, MT_EMIT_MLIR);
    }
    const char *explained =
        explain && mt_ok(c) && (o.backends & MT_BACKEND_CUDA) ? mt_emit(c, MT_EMIT_EXPLAIN) : NULL;
    if (!mt_ok(c)) {
        fputs(mt_diagnostics(c), stderr);
        rc = 1;
        if (outdir && mt_output_name(c)) {
            char *base = strdup(mt_output_name(c));
            size_t len = strlen(base) + 16;
            char *f1 = malloc(len), *f2 = malloc(len), *f3 = malloc(len), *f4 = malloc(len),
                 *f5 = malloc(len);
            if (f1 && f2 && f3 && f4 && f5) {
                snprintf(f1, len, "%s.cu", base);
                snprintf(f2, len, "%s.h", base);
                snprintf(f3, len, "%s_host.c", base);
                snprintf(f4, len, "%s.mlir", base);
                snprintf(f5, len, "%s_mlir.c", base);
                if (!mlir_binary) {
                    remove_output(outdir, f1);
                    remove_output(outdir, f2);
                    remove_output(outdir, f3);
                    remove_output(outdir, f4);
                }
                remove_output(outdir, f5);
            }
            free(f1), free(f2), free(f3), free(f4), free(f5), free(base);
        }
    } else {
        fputs(mt_diagnostics(c), stderr);
        if (explained) fputs(explained, stderr);
        for (int k = 0; k < nstages; k++) fputs(texts[k], stdout);
        if (outdir) {
            mkdir(outdir, 0755);
            const char *name = mt_output_name(c);
            static const char *const suffix[] = {".cu", ".h", "_host.c", ".mlir", "_mlir.c"};
            const char *text[] = {cu, h, host, mlir, mlir_launcher};
            Output outs[MAX_OUTPUTS] = {{0}};
            int nout = 0, ok = 1;
            for (int k = 0; k < 5; k++) {
                if (!text[k]) continue;
                size_t len = strlen(outdir) + strlen(name) + 16;
                outs[nout].path = malloc(len);
                if (outs[nout].path)
                    snprintf(outs[nout].path, len, "%s/%s%s", outdir, name, suffix[k]);
                outs[nout++].text = text[k];
            }
            char *dep = depfile ? depfile_text(outdir, c) : NULL;
            if (depfile && !dep) ok = 0;
            if (dep) outs[nout].path = strdup(depfile), outs[nout++].text = dep;
            for (int k = 0; ok && k < nout; k++) ok = outs[k].path != NULL;
            if (ok) ok = write_outputs(outs, nout);
            else if (!depfile || dep) fprintf(stderr, "mytritonc: error: out of memory\n");
            for (int k = 0; k < nout; k++) free(outs[k].path);
            free(dep);
            if (!ok) rc = 1;
        }
    }
    mt_free(c);
    for (int i = 0; i < o.ndefines; i++) free((char *)defs[i].name);
    free(defs);
    free(own_shim);
    free(binary_text);
    if (fflush(stdout) != 0) rc = rc ? rc : 1;
    return rc;
}
