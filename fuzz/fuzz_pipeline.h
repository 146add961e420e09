/* Shared by the fuzz harnesses: the options line at the head of an input
 * and the whole pipeline after the parser shim.
 *
 * An input may start with one line of options,
 *
 *   #mt|kernel=add_kernel|sig=*fp32, *fp32, i32|D=BLOCK=256|grid=cdiv(n, BLOCK)|status=0
 *
 * ('|'-separated key=value; D repeatable; name=NAME sets --name; status is
 * the shim's exit status for the reader harness). For the source harness the
 * line is a Python comment, so seeds stay valid kernel files. Without it
 * the kernel is "kernel" and the signature "*fp32, *fp32, i32". */
#ifndef MT_FUZZ_PIPELINE_H
#define MT_FUZZ_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "mytriton/mytriton.h"

enum { FUZZ_MAX_DEFINES = 16 };

typedef struct FuzzOptions {
    char *kernel, *signature, *grid, *name; /* malloc'ed; grid and name may be NULL */
    mt_define defines[FUZZ_MAX_DEFINES];
    int ndefines;
    int status; /* the shim's exit status (reader harness) */
} FuzzOptions;

/* Reads the options line (if any) into `fo`; returns the offset of the
 * text after it. Release with fuzz_options_free. */
size_t fuzz_options_parse(const uint8_t *data, size_t size, FuzzOptions *fo);
void fuzz_options_free(FuzzOptions *fo);

/* Compiles at -O0, -O1 and -O2 from the shim's result (status, stdout,
 * stderr) with every backend, and asks for every stage: the AST, the
 * expression tree, SSA, CUDA (-O1 and the -O2 blocked backend), the header,
 * the CUDA unit, host C, the MLIR module and its launcher (with a
 * synthetic mlir-opt output whose PTX entry matches the signature). Only a
 * crash, a sanitizer report, a hang or a leak can fail. With the environment
 * variable MYTRITON_FUZZ_VERBOSE set, prints each level's diagnostics. */
void fuzz_run_pipeline(const FuzzOptions *fo, int status, const char *out, size_t out_len,
                       const char *err, size_t err_len, const char *source, size_t source_len);

#endif
