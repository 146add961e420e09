/* mytriton_rank_forms_gen: mytritonc for the forms that only the rank
 * lowering will produce (the remap op, tl.dot's batched form {batch=B}),
 * which no kernel source reaches yet. It compiles a kernel as mytritonc
 * does and rewrites its SSA after the passes (compile.h's
 * mt_compile_rewrite), then writes the outputs as mytritonc's -o does:
 *
 *   --remap D0,D1,..:S0,S1,..:OFF  (repeatable) the k-th reshape of the
 *       kernel (program order) becomes a remap with index dimensions D,
 *       strides S and offset OFF (the result keeps the reshape's shape)
 *   --batch B  every tl.dot becomes the batched form {batch=B}: its second
 *       operand is replaced by the kernel's first load of shape (B*K, N)
 *       (K: the first operand's columns, N: the result's), which the
 *       kernel keeps alive by storing it
 *
 * Other options, as mytritonc's: FILE --kernel NAME --signature SIG
 * [-D NAME=VALUE]... [--grid EXPR] [--name NAME] [-O0|-O1|-O2]
 * [--num-warps N] [--backends LIST] [--python PATH] --shim PATH -o DIR.
 * Exit status 0, 1 on a diagnostic, 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/compile.h"
#include "passes/passes.h"
#include "ir/ssa.h"

enum { MAX_REMAPS = 8, MAX_DEFINES = 64 };

typedef struct Rewrite {
    int nremaps;
    Attrs remap[MAX_REMAPS];
    int batch;
    int next_reshape; /* (while rewriting) */
    int failed;
} Rewrite;

static int parse_ints(const char *s, int32_t *v, int max, const char **end) {
    int n = 0;
    for (;;) {
        char *e;
        long x = strtol(s, &e, 10);
        if (e == s || n == max) return -1;
        v[n++] = (int32_t)x;
        s = e;
        if (*s != ',') break;
        s++;
    }
    *end = s;
    return n;
}

/* "D0,D1:S0,S1:OFF" */
static int parse_remap(const char *s, Attrs *at) {
    const char *e;
    int nd = parse_ints(s, at->vdims, MT_MAX_RANK, &e);
    if (nd < 1 || *e != ':') return 0;
    int ns = parse_ints(e + 1, at->vstride, MT_MAX_RANK, &e);
    if (ns != nd || *e != ':') return 0;
    char *end;
    long off = strtol(e + 1, &end, 10);
    if (end == e + 1 || *end) return 0;
    at->nv = nd;
    at->voff = (int32_t)off;
    return 1;
}

static const Inst *first_load(const Function *f, const Block *b, Type want) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) {
            const Inst *l = first_load(f, sub[k], want);
            if (l) return l;
        }
        if (in->op == OP_LOAD && in->type.rank == 2 && in->type.dims[0] == want.dims[0] &&
            in->type.dims[1] == want.dims[1] && in->type.dtype == want.dtype)
            return in;
    }
    return NULL;
}

static void rewrite_block(Rewrite *R, Function *f, Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++) rewrite_block(R, f, sub[k]);
        if (in->op == OP_RESHAPE && R->next_reshape < R->nremaps) {
            const Attrs *m = &R->remap[R->next_reshape++];
            in->op = OP_REMAP;
            in->attrs.nv = m->nv;
            for (int k = 0; k < MT_MAX_RANK; k++) {
                in->attrs.vdims[k] = m->vdims[k];
                in->attrs.vstride[k] = m->vstride[k];
            }
            in->attrs.voff = m->voff;
        }
        if (in->op == OP_DOT && R->batch > 1) {
            Type x = operand_type(f, in->args[0]), y = operand_type(f, in->args[1]);
            Type want = y;
            want.dims[0] = R->batch * x.dims[1];
            want.dims[1] = in->type.dims[1];
            const Inst *ld = first_load(f, &f->body, want);
            if (!ld) {
                fprintf(stderr, "rank_forms_gen: no load of (%d, %d) for the batched dot\n",
                        (int)want.dims[0], (int)want.dims[1]);
                R->failed = 1;
                return;
            }
            in->args[1] = opd_value(ld->result);
            in->attrs.axis = R->batch;
        }
    }
}

static int rewrite(struct Arena *a, struct Function *f, void *user) {
    Rewrite *R = user;
    rewrite_block(R, f, &f->body);
    if (R->next_reshape != R->nremaps) {
        fprintf(stderr, "rank_forms_gen: %d --remap given, %d reshapes in the kernel\n", R->nremaps,
                R->next_reshape);
        return 0;
    }
    PassStats st = {0};
    pass_dce(a, f, &st); /* (a replaced operand may be dead) */
    return !R->failed;
}

static int write_file(const char *dir, const char *name, const char *suffix, const char *text) {
    size_t len = strlen(dir) + strlen(name) + strlen(suffix) + 2;
    char *path = malloc(len);
    if (!path) return 0;
    snprintf(path, len, "%s/%s%s", dir, name, suffix);
    FILE *fp = fopen(path, "wb");
    int ok = fp && fputs(text, fp) >= 0;
    if (fp && fclose(fp) != 0) ok = 0;
    if (!ok) fprintf(stderr, "rank_forms_gen: cannot write %s\n", path);
    free(path);
    return ok;
}

static int usage(const char *what) {
    fprintf(stderr, "rank_forms_gen: %s (see the comment at the top of rank_forms_gen.c)\n", what);
    return 2;
}

int main(int argc, char **argv) {
    mt_options o;
    memset(&o, 0, sizeof o);
    o.opt_level = 2;
    mt_define defs[MAX_DEFINES];
    Rewrite R;
    memset(&R, 0, sizeof R);
    const char *outdir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-O0") == 0 || strcmp(a, "-O1") == 0 || strcmp(a, "-O2") == 0) {
            o.opt_level = a[2] - '0';
            continue;
        }
        if (a[0] != '-') {
            o.path = a;
            continue;
        }
        if (!v) return usage("an option without its value");
        i++;
        if (strcmp(a, "--kernel") == 0) o.kernel = v;
        else if (strcmp(a, "--signature") == 0) o.signature = v;
        else if (strcmp(a, "--grid") == 0) o.grid = v;
        else if (strcmp(a, "--name") == 0) o.name = v;
        else if (strcmp(a, "--python") == 0) o.python = v;
        else if (strcmp(a, "--shim") == 0) o.shim = v;
        else if (strcmp(a, "--num-warps") == 0) o.num_warps = atoi(v);
        else if (strcmp(a, "-o") == 0) outdir = v;
        else if (strcmp(a, "--batch") == 0) R.batch = atoi(v);
        else if (strcmp(a, "-D") == 0) {
            const char *eq = strchr(v, '=');
            if (!eq || o.ndefines == MAX_DEFINES) return usage("-D NAME=VALUE");
            char *name = malloc((size_t)(eq - v) + 1);
            if (!name) return 1;
            memcpy(name, v, (size_t)(eq - v));
            name[eq - v] = 0;
            defs[o.ndefines].name = name;
            defs[o.ndefines++].value = eq + 1;
        } else if (strcmp(a, "--remap") == 0) {
            if (R.nremaps == MAX_REMAPS || !parse_remap(v, &R.remap[R.nremaps]))
                return usage("--remap D0,D1,..:S0,S1,..:OFFSET");
            R.nremaps++;
        } else if (strcmp(a, "--backends") == 0) {
            o.backends = (strstr(v, "cuda") ? MT_BACKEND_CUDA : 0) |
                         (strstr(v, "host") ? MT_BACKEND_HOST : 0) |
                         (strstr(v, "mlir") ? MT_BACKEND_MLIR : 0);
        } else {
            return usage(a);
        }
    }
    o.defines = defs;
    if (!o.path || !o.kernel || !o.signature || !o.shim || !outdir)
        return usage("FILE, --kernel, --signature, --shim and -o are required");
    if (!o.backends) o.backends = MT_BACKEND_CUDA;
    mt_compilation *c = mt_compile_rewrite(&o, rewrite, &R);
    const char *name = mt_ok(c) ? mt_output_name(c) : NULL;
    const char *h = name ? mt_emit(c, MT_EMIT_HEADER) : NULL;
    const char *cu = h && (o.backends & MT_BACKEND_CUDA) ? mt_emit(c, MT_EMIT_CUDA_TU) : "";
    const char *host = h && cu && (o.backends & MT_BACKEND_HOST) ? mt_emit(c, MT_EMIT_HOST) : "";
    const char *mlir =
        h && cu && host && (o.backends & MT_BACKEND_MLIR) ? mt_emit(c, MT_EMIT_MLIR) : "";
    int ok = h && cu && host && mlir;
    fputs(mt_diagnostics(c), stderr);
    if (ok) ok = write_file(outdir, name, ".h", h);
    if (ok && (o.backends & MT_BACKEND_CUDA)) ok = write_file(outdir, name, ".cu", cu);
    if (ok && (o.backends & MT_BACKEND_HOST)) ok = write_file(outdir, name, "_host.c", host);
    if (ok && (o.backends & MT_BACKEND_MLIR)) ok = write_file(outdir, name, ".mlir", mlir);
    mt_free(c);
    for (int i = 0; i < o.ndefines; i++) free((void *)defs[i].name);
    return ok ? 0 : 1;
}
