/* mytriton runtime: what generated launchers and applications share.
 *
 * C11, no global constructors, no CUDA dependency in this header: CUDA
 * launchers return cudaError_t, host launchers return mytriton_status, and
 * both use the same numbers for the codes they share (0 success, 1 invalid
 * value).
 */
#ifndef MYTRITON_RUNTIME_H
#define MYTRITON_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include "mytriton/dtypes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MYTRITON_VERSION_STRING "0.1.0"

/* A launch grid: programs along x, y, z. 64-bit so that launchers can check
 * negative and oversized values before narrowing them for CUDA. */
typedef struct mytriton_grid {
    int64_t x, y, z;
} mytriton_grid;

/* Grids of one, two and three dimensions, the others 1. Prefer them to an
 * initializer: in C, `mytriton_grid g = {n};` leaves y and z at 0, which a
 * launcher rejects (CUDA's dim3(n) would mean n x 1 x 1). */
static inline mytriton_grid mytriton_grid_1d(int64_t x) {
    mytriton_grid g;
    g.x = x, g.y = 1, g.z = 1;
    return g;
}
static inline mytriton_grid mytriton_grid_2d(int64_t x, int64_t y) {
    mytriton_grid g;
    g.x = x, g.y = y, g.z = 1;
    return g;
}
static inline mytriton_grid mytriton_grid_3d(int64_t x, int64_t y, int64_t z) {
    mytriton_grid g;
    g.x = x, g.y = y, g.z = z;
    return g;
}

/* CUDA's grid limits; launchers check them before launching anything. */
#define MYTRITON_GRID_X_MAX INT64_C(2147483647)
#define MYTRITON_GRID_YZ_MAX INT64_C(65535)

/* Status of host launchers and of the registry's generic calls. The values
 * shared with cudaError_t are equal to CUDA's. */
typedef enum mytriton_status {
    MYTRITON_SUCCESS = 0,        /* == cudaSuccess */
    MYTRITON_INVALID_VALUE = 1,  /* == cudaErrorInvalidValue */
    MYTRITON_OUT_OF_MEMORY = 2,  /* == cudaErrorMemoryAllocation */
    MYTRITON_NOT_FOUND = 500,    /* == cudaErrorNotFound: no such kernel */
    MYTRITON_NO_DEVICE = 100,    /* == cudaErrorNoDevice */
    MYTRITON_LAUNCH_FAILED = 719 /* == cudaErrorLaunchFailure */
} mytriton_status;

/* A description of a status (never NULL): mytriton's own codes, then the
 * text a CUDA launcher set for the code of its last failure on this thread
 * (cudaGetErrorString's), then the name of any other cudaError_t code
 * ("cudaErrorInvalidConfiguration"), else "unknown status". */
const char *mytriton_status_string(int status);
/* Remembers, for this thread, the text of a status code the runtime cannot
 * know (CUDA launchers pass cudaGetErrorString(err)); 255 bytes at most.
 * For the codes of mytriton_cuda_error_text() it keeps that text. */
void mytriton_set_status_text(int status, const char *text);
/* A CUDA error for people: for the codes CUDA reports on a machine without
 * an NVIDIA driver or GPU, what is missing, CUDA's own text after it
 * ("no NVIDIA driver was found (CUDA: CUDA driver version is insufficient
 * for CUDA runtime version)") for cudaErrorInsufficientDriver (35),
 * cudaErrorStubLibrary (34) and cudaErrorNoDevice (100); any other code's
 * cuda_text as it is (its name when cuda_text is NULL). The text is this
 * thread's until the next call. */
const char *mytriton_cuda_error_text(int code, const char *cuda_text);

/* The message of the last failed launch on this thread ("" if none). */
const char *mytriton_last_error(void);
/* Set by launchers when they fail; printf-style, truncated to 1023 bytes. */
void mytriton_set_last_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void mytriton_clear_last_error(void);

/* ---- Checked 64-bit arithmetic for grid expressions ----------------------
 * Each helper returns the result and sets *ok = 0 on overflow or on a
 * division by a non-positive divisor; Python semantics (floor division,
 * floor modulo, cdiv(a, b) = (a + b - 1) // b). */
static inline int64_t mytriton_i64_add(int64_t a, int64_t b, int *ok) {
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) {
        *ok = 0;
        return 0;
    }
    return a + b;
}
static inline int64_t mytriton_i64_sub(int64_t a, int64_t b, int *ok) {
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) {
        *ok = 0;
        return 0;
    }
    return a - b;
}
static inline int64_t mytriton_i64_mul(int64_t a, int64_t b, int *ok) {
    if (a == 0 || b == 0) return 0;
    if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN)) {
        *ok = 0;
        return 0;
    }
    if ((a > 0 && b > 0 && a > INT64_MAX / b) || (a < 0 && b < 0 && a < INT64_MAX / b) ||
        (a > 0 && b < 0 && b < INT64_MIN / a) || (a < 0 && b > 0 && a < INT64_MIN / b)) {
        *ok = 0;
        return 0;
    }
    return a * b;
}
static inline int64_t mytriton_i64_floordiv(int64_t a, int64_t b, int *ok) {
    int64_t q;
    if (b <= 0) {
        *ok = 0;
        return 0;
    }
    q = a / b;
    if ((a % b != 0) && (a < 0)) q -= 1;
    return q;
}
static inline int64_t mytriton_i64_mod(int64_t a, int64_t b, int *ok) {
    int64_t r;
    if (b <= 0) {
        *ok = 0;
        return 0;
    }
    r = a % b;
    if (r < 0) r += b;
    return r;
}
static inline int64_t mytriton_i64_cdiv(int64_t a, int64_t b, int *ok) {
    return mytriton_i64_floordiv(mytriton_i64_add(a, b - 1, ok), b, ok);
}

/* Checks a grid against CUDA's limits. Returns MYTRITON_SUCCESS (launch),
 * MYTRITON_INVALID_VALUE (after setting the last error, naming `launcher`),
 * or sets *empty = 1 when a dimension is 0 (launch nothing, succeed). */
int mytriton_check_grid(const char *launcher, const mytriton_grid *grid, int *empty);
/* Checks a grid the caller passed to a launcher (a kernel without a GRID):
 * as mytriton_check_grid, except that a y or z of 0 is MYTRITON_INVALID_VALUE
 * with a message (it is what `{n}` leaves there, never a way to ask for an
 * empty launch). An x of 0 is an empty grid: nothing is launched and the
 * launcher succeeds, as for computed grids (where any dimension may be 0). */
int mytriton_check_explicit_grid(const char *launcher, const mytriton_grid *grid, int *empty);

/* ---- Registry of generated kernels ----------------------------------------
 * Every generated translation unit defines one `const mytriton_kernel_info`
 * named mytriton_kernel_info_<NAME> (and mytriton_kernel_info_<NAME>_host
 * for the host backend). Nothing registers itself at start-up: the library
 * target made by mytriton_add_kernels() has a function
 * <target>_register_kernels() that registers all of its kernels; call it
 * once, then look kernels up by name. */
typedef enum mytriton_arg_kind {
    MYTRITON_ARG_PTR_FP32 = 0, /* float*   */
    MYTRITON_ARG_PTR_I32 = 1,  /* int32_t* */
    MYTRITON_ARG_I32 = 2,      /* int32_t  */
    MYTRITON_ARG_FP32 = 3,     /* float    */
    /* the other dtypes (the compiler's dtypes.def): scalars, then pointers */
    MYTRITON_ARG_I1 = 4,       /* bool */
    MYTRITON_ARG_I8 = 5,       /* int8_t */
    MYTRITON_ARG_I16 = 6,      /* int16_t */
    MYTRITON_ARG_I64 = 7,      /* int64_t */
    MYTRITON_ARG_U8 = 8,       /* uint8_t */
    MYTRITON_ARG_U16 = 9,      /* uint16_t */
    MYTRITON_ARG_U32 = 10,     /* uint32_t */
    MYTRITON_ARG_U64 = 11,     /* uint64_t */
    MYTRITON_ARG_FP16 = 12,    /* mytriton_fp16 */
    MYTRITON_ARG_BF16 = 13,    /* mytriton_bf16 */
    MYTRITON_ARG_FP64 = 14,    /* double */
    MYTRITON_ARG_FP8E4NV = 15, /* mytriton_fp8e4nv */
    MYTRITON_ARG_FP8E5 = 16,   /* mytriton_fp8e5 */
    MYTRITON_ARG_PTR_I1 = 17,
    MYTRITON_ARG_PTR_I8 = 18,
    MYTRITON_ARG_PTR_I16 = 19,
    MYTRITON_ARG_PTR_I64 = 20,
    MYTRITON_ARG_PTR_U8 = 21,
    MYTRITON_ARG_PTR_U16 = 22,
    MYTRITON_ARG_PTR_U32 = 23,
    MYTRITON_ARG_PTR_U64 = 24,
    MYTRITON_ARG_PTR_FP16 = 25,
    MYTRITON_ARG_PTR_BF16 = 26,
    MYTRITON_ARG_PTR_FP64 = 27,
    MYTRITON_ARG_PTR_FP8E4NV = 28,
    MYTRITON_ARG_PTR_FP8E5 = 29
} mytriton_arg_kind;

struct mytriton_tuner;
struct mytriton_kernel_attributes;

typedef struct mytriton_kernel_info {
    const char *name;       /* launcher name without "launch_", e.g. "vector_add" */
    const char *backend;    /* "cuda", "host" or "mlir" */
    const char *kernel;     /* the Python function */
    const char *source;     /* the kernel file's name (no directories) */
    const char *signature;  /* normalized, e.g. "*fp32, *fp32, *fp32, i32" */
    const char *constexprs; /* e.g. "BLOCK=256" ("" when none) */
    const char *grid;       /* the grid expression, or NULL: explicit grid */
    int threads_per_block;
    int num_args;
    const char *const *arg_names;
    const mytriton_arg_kind *arg_kinds;
    /* Generic launch: args[i] points at the i-th runtime argument (a float*
     * variable for *fp32, an int32_t for i32, ...). `grid` is used only when
     * the kernel has no grid expression (pass NULL otherwise). `stream` is a
     * cudaStream_t for CUDA kernels and ignored by host kernels. Returns a
     * cudaError_t / mytriton_status code. */
    int (*launch)(void *stream, void *const *args, const mytriton_grid *grid);
    /* A dispatching launcher's tuner (mytriton/autotune.h), NULL for a
     * plain kernel or variant. */
    struct mytriton_tuner *tuner;
    /* CUDA kernels: fills the attributes on the current device (see
     * mytriton_kernel_get_attributes); NULL for host kernels and
     * dispatchers. */
    int (*attributes)(struct mytriton_kernel_attributes *out);
    /* Loads what the first launch would load lazily (the MLIR backend's
     * module), so that the launch is safe to capture in a CUDA graph; NULL
     * when there is nothing to load. */
    int (*preload)(void);
} mytriton_kernel_info;

/* A CUDA kernel's resources, from cudaFuncGetAttributes and
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor, read on first use per
 * device. A persistent kernel can size its grid as
 * max_blocks_per_sm * multiprocessor_count. */
typedef struct mytriton_kernel_attributes {
    int device;                /* the CUDA ordinal they were read on */
    int registers;             /* per thread */
    int static_shared_bytes;   /* per block */
    int dynamic_shared_bytes;  /* per block, as the launcher passes it */
    int local_bytes;           /* per thread */
    int threads_per_block;     /* what the launcher launches */
    int max_threads_per_block; /* the kernel's limit */
    int max_blocks_per_sm;     /* resident blocks per multiprocessor */
    int multiprocessor_count;  /* of the device */
} mytriton_kernel_attributes;

/* Attributes of a registered CUDA kernel (or variant) on the current
 * device: MYTRITON_NOT_FOUND, or MYTRITON_INVALID_VALUE for kernels without
 * device attributes (host kernels, dispatchers: query their variants). */
int mytriton_kernel_get_attributes(const char *name, const char *backend,
                                   mytriton_kernel_attributes *out);
/* The per-device cache generated attribute functions use: 1 and *out when
 * `kernel`'s attributes on `device` are known. */
int mytriton_attributes_cached(const void *kernel, int device, mytriton_kernel_attributes *out);
void mytriton_attributes_store(const void *kernel, const mytriton_kernel_attributes *attributes);
/* Runs the preload of a registered kernel (see the preload field); every
 * registered kernel when name is NULL. */
int mytriton_preload(const char *name, const char *backend);

/* Adds a kernel; MYTRITON_INVALID_VALUE if another kernel of the same name
 * and backend is registered already (registering the same info twice is a
 * no-op). Thread-safe. */
int mytriton_register_kernel(const mytriton_kernel_info *info);
/* Looks a kernel up by name and backend (backend NULL: the first found, in
 * registration order). NULL if none. */
const mytriton_kernel_info *mytriton_find_kernel(const char *name, const char *backend);
/* Registered kernels in registration order. */
int mytriton_kernel_count(void);
const mytriton_kernel_info *mytriton_kernel_at(int index);
/* Generic launch by name: MYTRITON_NOT_FOUND (and a last error) if absent;
 * MYTRITON_INVALID_VALUE when args (or one of its num_args entries) is NULL. */
int mytriton_launch(const char *name, const char *backend, void *stream, void *const *args,
                    const mytriton_grid *grid);

/* ---- Host executor ----------------------------------------------------------
 * Host-backend launchers run `program(ctx, pid_x, pid_y, pid_z)` for every
 * program of the grid, on several threads. Each program writes disjoint
 * data in correct kernels, so results do not depend on the schedule. */
typedef void (*mytriton_host_program)(const void *ctx, int32_t pid_x, int32_t pid_y, int32_t pid_z);
int mytriton_host_run(const mytriton_grid *grid, mytriton_host_program program, const void *ctx);
/* Threads the host executor uses (MYTRITON_HOST_THREADS, else the number of
 * processors; at most 1024, larger counts capped). 0, and a last error, when
 * MYTRITON_HOST_THREADS is set but is not decimal digits of a positive
 * integer (a sign, spaces, 0): host launches then fail with
 * MYTRITON_INVALID_VALUE rather than ignore it (docs/host-backend.md). */
int mytriton_host_threads(void);

#ifdef __cplusplus
}
#endif
#endif /* MYTRITON_RUNTIME_H */
