/* mytriton autotuning: the table of chosen configs of the dispatching
 * launchers that mytriton_add_kernels(... CONFIGS ... KEY ...) generates,
 * and the persistent tuning cache.
 *
 * A dispatching launcher launch_<name>() owns one `mytriton_tuner`. On each
 * call it builds the key (the values of the KEY parameters) and looks the
 * chosen config up for the current device; on the first call of a new key
 * it times every config whose WHEN condition holds (CUDA: events on the
 * caller's stream; host: a CPU clock), keeps the fastest and launches it.
 * Kernels that write buffers named in RESTORE are tuned on scratch copies
 * of those buffers, so tuning never changes the caller's data.
 *
 * Persistent cache: MYTRITON_AUTOTUNE_CACHE=<file> loads the file on the
 * first tuning of the process and rewrites it after every new tuning;
 * mytriton_autotune_load()/save() do the same explicitly. Only a regular
 * file of at most MYTRITON_AUTOTUNE_MAX_CACHE_BYTES is read (a FIFO or a
 * device is refused, never waited on), in time linear in its size. Saving
 * writes a new file beside the cache (created exclusively, its name
 * unique, never through a symbolic link) and renames it over the cache,
 * and only replaces a file that is a cache (its first line the header) or
 * empty: another file at the path is never overwritten. Concurrent first
 * launches of one key time it once: the others wait for its choice. The
 * format is text, one header line then one line per choice,
 * tab-separated:
 *
 *   mytriton-autotune 1
 *   <launcher>\t<backend>\t<kernel hash>\t<device name>\t<compute capability>\t<key values,
  * comma-separated>\t<config index>\t<config text>
 *
 * e.g. "matmul\tcuda\t3f2a...\tNVIDIA H200\t90\t4096,4096,4096\t2\tBM=64 BN=128 NUM_WARPS=8".
 * A line applies only when all of launcher, backend, hash (kernel source,
 * signature, configs and compiler version), device name, compute capability
 * and key match, and the config text is the one at that index; anything
 * else is ignored (a stale line is never used). Lines starting with '#'
 * are comments.
 *
 * CUDA graph capture: a dispatching launcher called while its stream is
 * capturing, with a key that is not tuned yet, launches the default config
 * (the first config, in CONFIGS order, whose WHEN holds for the key; config
 * 0 if none) and times nothing; the key stays untuned. Tune (or load the
 * cache, or force) before capturing to capture the best config.
 *
 * C11, thread-safe (one mutex), no CUDA dependency. */
#ifndef MYTRITON_AUTOTUNE_H
#define MYTRITON_AUTOTUNE_H

#include "mytriton/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MYTRITON_AUTOTUNE_MAX_KEY 8
#define MYTRITON_AUTOTUNE_DEVICE_NAME 128
/* The largest cache file read (larger ones are not caches). */
#define MYTRITON_AUTOTUNE_MAX_CACHE_BYTES (64 << 20)

/* Timings of one tuning: warm-up launches, then this many rounds of
 * repeated launches between two timestamps; the fastest round counts. */
#define MYTRITON_AUTOTUNE_ROUNDS 3
/* Each round lasts about this long (launches are repeated up to it). */
#define MYTRITON_AUTOTUNE_ROUND_MS 2.0

/* One dispatching launcher's tuning description (generated, one static
 * object per launcher; `state` belongs to the runtime). */
typedef struct mytriton_tuner {
    const char *name;    /* launch_<name> */
    const char *backend; /* "cuda" or "host" */
    const char *hash;    /* 16 hex digits: kernel source, signature, configs, compiler */
    int nconfigs;
    const char *const *configs;    /* e.g. "BM=64 BN=128 NUM_WARPS=8" */
    const char *const *conditions; /* per config: its WHEN text, or NULL */
    int nkeys;                     /* 0 .. MYTRITON_AUTOTUNE_MAX_KEY */
    const char *const *key_names;
    /* 1 when config `config` may run for `key` (its WHEN); NULL: always. */
    int (*allowed)(int config, const int64_t *key);
    /* Tunes the key of these arguments (as mytriton_launch() takes them)
     * if it is not tuned yet, without the final launch (RESTORE buffers
     * are untouched; other written buffers get the timing runs' output). */
    int (*pretune)(void *stream, void *const *args, const mytriton_grid *grid);
    void *state; /* the runtime's: NULL until first use */
} mytriton_tuner;

/* What the persistent cache keys a device by. */
typedef struct mytriton_device_id {
    int ordinal;                              /* CUDA device ordinal (0 on the host) */
    char name[MYTRITON_AUTOTUNE_DEVICE_NAME]; /* "NVIDIA H200"; "host" */
    int cc;                                   /* compute capability, 90 for 9.0; 0 on the host */
} mytriton_device_id;

/* Runs config `config` once on the arguments behind ctx (the launcher's
 * own launch; no timing): a cudaError_t / mytriton_status. */
typedef int (*mytriton_autotune_launch_fn)(void *ctx, int config);
/* Times config `config`: *ms is one launch's time in milliseconds. */
typedef int (*mytriton_autotune_time_fn)(void *ctx, int config, double *ms);

/* ---- Used by generated dispatchers ------------------------------------- */

/* The config chosen for `key` on device `device`, or -1 when the key is not
 * tuned (forced, loaded or timed) there yet. */
int mytriton_autotune_lookup(mytriton_tuner *t, int device, const int64_t *key);
/* The config used for an untuned key during graph capture (see above). */
int mytriton_autotune_default(const mytriton_tuner *t, const int64_t *key);
/* Chooses the config of an untuned key: from the persistent cache when it
 * has a matching line, else by timing every allowed config with `time`
 * (failing configs are skipped; all failing returns the first failure).
 * Sets *config and returns 0, or an error (and a last error). */
int mytriton_autotune_tune(mytriton_tuner *t, const mytriton_device_id *dev, const int64_t *key,
                           mytriton_autotune_time_fn time, void *ctx, int *config);
/* The host backend's timing: a CPU clock around `launch` (a warm-up, then
 * MYTRITON_AUTOTUNE_ROUNDS rounds). */
int mytriton_autotune_time_host(mytriton_autotune_launch_fn launch, void *ctx, int config,
                                double *ms);
/* Host scratch copies of RESTORE buffers: ptrs[i] is replaced by a copy of
 * bytes[i] bytes (>= 0) at the same offset modulo 64; bases[i] receives
 * what mytriton_autotune_host_scratch_end() frees. */
int mytriton_autotune_host_scratch_begin(int n, void **ptrs, const int64_t *bytes, void **bases,
                                         const char *launcher);
void mytriton_autotune_host_scratch_end(int n, void **bases);
/* A monotonic clock in milliseconds. */
double mytriton_autotune_clock_ms(void);

/* ---- The application's API --------------------------------------------- */

/* The tuner of the dispatching launcher `name` of `backend` (via the
 * registry: register the library's kernels first), or NULL. */
mytriton_tuner *mytriton_autotune_find(const char *name, const char *backend);
/* The config chosen for `key` (nkeys values, in KEY order) on `device`
 * (the CUDA ordinal; 0 on the host): MYTRITON_NOT_FOUND when untuned. */
int mytriton_autotune_choice(const char *name, const char *backend, int device, const int64_t *key,
                             int nkeys, int *config);
/* Makes `config` the choice for `key` on `device`, replacing any other;
 * forced choices are not written to the persistent cache. */
int mytriton_autotune_force(const char *name, const char *backend, int device, const int64_t *key,
                            int nkeys, int config);
/* Pre-tunes: for each of `count` argument sets (each as mytriton_launch()
 * takes them: arg_sets[i][j] points at the j-th argument) whose key is not
 * tuned on the current device, times the configs (on scratch copies of
 * RESTORE buffers; other written buffers receive the timing runs' output,
 * as a launch would write them); no final launch. `grid` as for
 * mytriton_launch (NULL when the kernel has a grid expression). */
int mytriton_autotune_pretune(const char *name, const char *backend, void *stream,
                              void *const *const *arg_sets, int count, const mytriton_grid *grid);
/* Loads a cache file (merging with what is known); lines that do not parse
 * are skipped and reported (MYTRITON_INVALID_VALUE, the last error names
 * the first). A missing file is MYTRITON_NOT_FOUND; a file that is not
 * regular, is too large or whose first line is not the header is
 * MYTRITON_INVALID_VALUE (nothing loaded). */
int mytriton_autotune_load(const char *path);
/* Writes every loaded and tuned choice to `path` (atomically);
 * MYTRITON_INVALID_VALUE, writing nothing, when `path` is something other
 * than a cache (see above) or a symbolic link. */
int mytriton_autotune_save(const char *path);
/* Forgets every choice and loaded line (and re-reads
 * MYTRITON_AUTOTUNE_CACHE at the next tuning). */
void mytriton_autotune_reset(void);

typedef struct mytriton_autotune_stats {
    long tunings;       /* keys tuned by timing */
    long timed_configs; /* configs timed */
    long cache_hits;    /* keys taken from loaded cache lines */
    long defaults;      /* untuned keys launched with the default during capture */
} mytriton_autotune_stats;
/* Counters since the start (or the last reset). */
void mytriton_autotune_get_stats(mytriton_autotune_stats *out);
/* Counts a capture-time default launch (called by dispatchers). */
void mytriton_autotune_note_default(void);

#ifdef __cplusplus
}
#endif
#endif /* MYTRITON_AUTOTUNE_H */
