/* The fuzz harnesses' shared half: the options line and the pipeline after
 * the parser shim (fuzz_pipeline.h). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/compile.h"

static char *dup_n(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (!d) abort();
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static int key_is(const char *f, size_t n, const char *key) {
    return strlen(key) == n && memcmp(f, key, n) == 0;
}

size_t fuzz_options_parse(const uint8_t *data, size_t size, FuzzOptions *fo) {
    memset(fo, 0, sizeof *fo);
    const char *s = (const char *)data;
    size_t body = 0;
    if (size >= 4 && memcmp(s, "#mt|", 4) == 0) {
        const char *nl = memchr(s, '\n', size);
        size_t end = nl ? (size_t)(nl - s) : size;
        body = nl ? end + 1 : size;
        for (size_t i = 4; i <= end;) {
            size_t j = i;
            while (j < end && s[j] != '|') j++;
            const char *f = s + i, *eq = memchr(f, '=', j - i);
            if (eq) {
                size_t kl = (size_t)(eq - f), vl = j - i - kl - 1;
                const char *v = eq + 1;
                char **slot = key_is(f, kl, "kernel") ? &fo->kernel
                              : key_is(f, kl, "sig")  ? &fo->signature
                              : key_is(f, kl, "grid") ? &fo->grid
                              : key_is(f, kl, "name") ? &fo->name
                                                      : NULL;
                if (slot) {
                    free(*slot);
                    *slot = dup_n(v, vl);
                } else if (key_is(f, kl, "D") && fo->ndefines < FUZZ_MAX_DEFINES) {
                    const char *eq2 = memchr(v, '=', vl);
                    if (eq2) {
                        mt_define *d = &fo->defines[fo->ndefines++];
                        d->name = dup_n(v, (size_t)(eq2 - v));
                        d->value = dup_n(eq2 + 1, vl - (size_t)(eq2 - v) - 1);
                    }
                } else if (key_is(f, kl, "status")) {
                    char *t = dup_n(v, vl < 8 ? vl : 8);
                    fo->status = atoi(t);
                    free(t);
                }
            }
            i = j + 1;
        }
    }
    if (!fo->kernel) fo->kernel = dup_n("kernel", 6);
    if (!fo->signature) fo->signature = dup_n("*fp32, *fp32, i32", 17);
    return body;
}

void fuzz_options_free(FuzzOptions *fo) {
    free(fo->kernel);
    free(fo->signature);
    free(fo->grid);
    free(fo->name);
    for (int i = 0; i < fo->ndefines; i++) {
        free((char *)fo->defines[i].name);
        free((char *)fo->defines[i].value);
    }
    memset(fo, 0, sizeof *fo);
}

/* mlir-opt's output as the MLIR launcher expects it: one gpu.binary whose
 * PTX has `.entry NAME_kernel` with one .param per signature entry. */
static char *synthetic_binary(const FuzzOptions *fo) {
    const char *name = fo->name ? fo->name : fo->kernel;
    size_t nlen = strlen(name);
    if (!fo->name && nlen > 7 && strcmp(name + nlen - 7, "_kernel") == 0) nlen -= 7;
    int nparams = 0, any = 0;
    for (const char *p = fo->signature; *p; p++) {
        if (*p == ',') nparams++;
        else if (*p != ' ') any = 1;
    }
    nparams = any ? nparams + 1 : 0;
    if (nparams > 256) nparams = 256;
    size_t cap = nlen + 256 + (size_t)nparams * 32;
    char *b = malloc(cap);
    if (!b) abort();
    int at = snprintf(b, cap,
                      "gpu.binary @kernels [#gpu.object<#nvvm.target, assembly = "
                      "\".visible .entry %.*s_kernel(\\0A",
                      (int)nlen, name);
    for (int i = 0; i < nparams; i++)
        at += snprintf(b + at, cap - (size_t)at,
                       "\\09.param .u64 "
                       "p%d%s\\0A",
                       i, i + 1 < nparams ? "," : "");
    snprintf(b + at, cap - (size_t)at, ")\\0A{\\0A\\09ret;\\0A}\\0A\\00\">]\n");
    return b;
}

void fuzz_run_pipeline(const FuzzOptions *fo, int status, const char *out, size_t out_len,
                       const char *err, size_t err_len, const char *source, size_t source_len) {
    char *binary = synthetic_binary(fo);
    volatile size_t sink = 0;
    for (int level = 0; level <= 2; level++) {
        mt_options o;
        memset(&o, 0, sizeof o);
        o.path = "fuzz.py";
        o.kernel = fo->kernel;
        o.signature = fo->signature;
        o.defines = fo->defines;
        o.ndefines = fo->ndefines;
        o.grid = fo->grid;
        o.name = fo->name;
        o.opt_level = level;
        o.backends = MT_BACKEND_CUDA | MT_BACKEND_HOST | MT_BACKEND_MLIR;
        o.shim = "mytriton_parse.py";
        o.mlir_binary = binary;
        mt_compilation *c =
            mt_compile_shim_output(&o, status, out, out_len, err, err_len, source, source_len);
        for (int s = MT_EMIT_AST; s <= MT_EMIT_MLIR_LAUNCHER; s++) {
            const char *t = mt_emit(c, (mt_stage)s);
            if (t) sink += strlen(t);
        }
        sink += strlen(mt_diagnostics(c));
        if (getenv("MYTRITON_FUZZ_VERBOSE"))
            fprintf(stderr, "-O%d: %s%s", level, mt_ok(c) ? "compiled\n" : "", mt_diagnostics(c));
        if (mt_output_name(c)) sink += strlen(mt_output_name(c));
        mt_free(c);
    }
    free(binary);
    (void)sink;
}
