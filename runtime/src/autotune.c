/* The autotuning table and the persistent tuning cache (mytriton/autotune.h).
 *
 * One mutex guards everything. Each tuner's state is a small open-addressing
 * hash table (device, key) -> config, created on first use and reached
 * through the tuner's `state` pointer, so the hot path of a dispatching
 * launcher is one lock, one hash and a probe or two. The persistent cache is
 * a list of records (the lines of the file): loaded ones, and one per key
 * tuned by timing; saving writes them all. Tuning itself (the timing) runs
 * without the lock held. */
#include "mytriton/autotune.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CACHE_MAGIC "mytriton-autotune 1"
/* A cache line's most bytes (longer ones are skipped and reported). */
#define MAX_LINE 4096

typedef struct slot {
    int used;
    int device;
    int config;
    int64_t key[MYTRITON_AUTOTUNE_MAX_KEY];
} slot;

typedef struct tuner_state {
    slot *slots;
    int capacity; /* a power of two */
    int count;
    mytriton_tuner *tuner;
    struct tuner_state *next;
} tuner_state;

typedef struct record {
    char *name, *backend, *hash, *device;
    int cc, nkeys, config;
    int64_t key[MYTRITON_AUTOTUNE_MAX_KEY];
    char *config_text;
} record;

/* A key being timed now, on its tuning thread's stack: other threads
 * launching it wait for the choice (one timing per key). */
typedef struct tuning {
    const mytriton_tuner *tuner;
    int device;
    const int64_t *key;
    struct tuning *next;
} tuning;

static pthread_mutex_t tune_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tune_done = PTHREAD_COND_INITIALIZER; /* a tuning ended */
static tuner_state *states;                                 /* every tuner's state, for reset */
static record *records;
static int record_count, record_capacity;
/* records by key (hash_record): open addressing, -1 empty, load <= 1/2 */
static int *record_index, index_capacity;
static tuning *tunings;
static int env_loaded;
static mytriton_autotune_stats stats;

/* ---- the per-tuner table ------------------------------------------------ */

static uint64_t hash_key(int device, const int64_t *key, int nkeys) {
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(unsigned)device;
    int i;
    for (i = 0; i < nkeys; i++) {
        h ^= (uint64_t)key[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

static int same_key(const slot *s, int device, const int64_t *key, int nkeys) {
    int i;
    if (s->device != device) return 0;
    for (i = 0; i < nkeys; i++)
        if (s->key[i] != key[i]) return 0;
    return 1;
}

/* The slot of (device, key): its own when present, else the empty one to
 * fill. NULL only when the table has no slots. Call with the lock held. */
static slot *probe(tuner_state *st, int nkeys, int device, const int64_t *key) {
    uint64_t mask, i;
    if (st == NULL || st->capacity == 0) return NULL;
    mask = (uint64_t)st->capacity - 1;
    for (i = hash_key(device, key, nkeys) & mask;; i = (i + 1) & mask) {
        slot *s = &st->slots[i];
        if (!s->used || same_key(s, device, key, nkeys)) return s;
    }
}

static tuner_state *state_of(mytriton_tuner *t) {
    tuner_state *st = (tuner_state *)t->state;
    if (st != NULL) return st;
    st = calloc(1, sizeof *st);
    if (st == NULL) return NULL;
    st->tuner = t;
    st->next = states;
    states = st;
    t->state = st;
    return st;
}

/* Sets the choice of (device, key). Call with the lock held. */
static int put_choice(mytriton_tuner *t, int device, const int64_t *key, int config) {
    tuner_state *st = state_of(t);
    slot *s;
    if (st == NULL) return MYTRITON_OUT_OF_MEMORY;
    if ((st->count + 1) * 2 > st->capacity) { /* keep the load at most 1/2 */
        int capacity = st->capacity ? st->capacity * 2 : 16, i;
        slot *old = st->slots, *fresh = calloc((size_t)capacity, sizeof *fresh);
        int old_capacity = st->capacity;
        if (fresh == NULL) return MYTRITON_OUT_OF_MEMORY;
        st->slots = fresh;
        st->capacity = capacity;
        for (i = 0; i < old_capacity; i++) {
            if (old[i].used) {
                slot *n = probe(st, t->nkeys, old[i].device, old[i].key);
                *n = old[i];
            }
        }
        free(old);
    }
    s = probe(st, t->nkeys, device, key);
    if (!s->used) {
        int i;
        s->used = 1;
        s->device = device;
        memset(s->key, 0, sizeof s->key);
        for (i = 0; i < t->nkeys; i++) s->key[i] = key[i];
        st->count++;
    }
    s->config = config;
    return MYTRITON_SUCCESS;
}

int mytriton_autotune_lookup(mytriton_tuner *t, int device, const int64_t *key) {
    int config = -1;
    slot *s;
    pthread_mutex_lock(&tune_lock);
    s = probe((tuner_state *)t->state, t->nkeys, device, key);
    if (s != NULL && s->used) config = s->config;
    pthread_mutex_unlock(&tune_lock);
    return config;
}

int mytriton_autotune_default(const mytriton_tuner *t, const int64_t *key) {
    int c;
    for (c = 0; c < t->nconfigs; c++)
        if (t->allowed == NULL || t->allowed(c, key)) return c;
    return 0;
}

void mytriton_autotune_note_default(void) {
    pthread_mutex_lock(&tune_lock);
    stats.defaults++;
    pthread_mutex_unlock(&tune_lock);
}

/* ---- records (the persistent cache) ------------------------------------- */

static void free_record(record *r) {
    free(r->name);
    free(r->backend);
    free(r->hash);
    free(r->device);
    free(r->config_text);
}

static char *dup_str(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL) memcpy(d, s, n);
    return d;
}

static int record_matches(const record *r, const char *name, const char *backend, const char *hash,
                          const char *device, int cc, int nkeys, const int64_t *key) {
    int i;
    if (strcmp(r->name, name) != 0 || strcmp(r->backend, backend) != 0 ||
        strcmp(r->hash, hash) != 0 || strcmp(r->device, device) != 0 || r->cc != cc ||
        r->nkeys != nkeys)
        return 0;
    for (i = 0; i < nkeys; i++)
        if (r->key[i] != key[i]) return 0;
    return 1;
}

#define FNV_PRIME 1099511628211ull

static uint64_t hash_text(uint64_t h, const char *s) {
    for (; *s; s++) h = (h ^ (unsigned char)*s) * FNV_PRIME;
    return (h ^ 0xffu) * FNV_PRIME; /* the end of the string */
}

static uint64_t hash_record(const char *name, const char *backend, const char *hash,
                            const char *device, int cc, int nkeys, const int64_t *key) {
    uint64_t h = 1469598103934665603ull;
    int i;
    h = hash_text(hash_text(hash_text(hash_text(h, name), backend), hash), device);
    h = (h ^ (uint64_t)(unsigned)cc) * FNV_PRIME;
    h = (h ^ (uint64_t)(unsigned)nkeys) * FNV_PRIME;
    for (i = 0; i < nkeys; i++) {
        h = (h ^ (uint64_t)key[i]) * FNV_PRIME;
        h ^= h >> 29;
    }
    return h;
}

/* The slot of record_index holding the record of this key, or the empty
 * slot where it goes (record_index has room: call with the lock held). */
static int *index_slot(const char *name, const char *backend, const char *hash, const char *device,
                       int cc, int nkeys, const int64_t *key) {
    uint64_t mask = (uint64_t)index_capacity - 1, i;
    for (i = hash_record(name, backend, hash, device, cc, nkeys, key) & mask;; i = (i + 1) & mask) {
        int *at = &record_index[i];
        if (*at < 0 || record_matches(&records[*at], name, backend, hash, device, cc, nkeys, key))
            return at;
    }
}

/* The index of the record of this key, or -1. Lock held. */
static int find_record(const char *name, const char *backend, const char *hash, const char *device,
                       int cc, int nkeys, const int64_t *key) {
    return index_capacity ? *index_slot(name, backend, hash, device, cc, nkeys, key) : -1;
}

/* Room in record_index for one more record (its load at most 1/2). */
static int grow_index(void) {
    int capacity, i, *fresh;
    if ((record_count + 1) * 2 <= index_capacity) return 1;
    capacity = index_capacity ? index_capacity * 2 : 64;
    fresh = malloc((size_t)capacity * sizeof *fresh);
    if (fresh == NULL) return 0;
    for (i = 0; i < capacity; i++) fresh[i] = -1;
    free(record_index);
    record_index = fresh;
    index_capacity = capacity;
    for (i = 0; i < record_count; i++) {
        const record *r = &records[i];
        *index_slot(r->name, r->backend, r->hash, r->device, r->cc, r->nkeys, r->key) = i;
    }
    return 1;
}

/* Adds (or replaces) a record; takes ownership of r's strings. Call with
 * the lock held. Constant time (a hash of the keys): loading n lines is
 * linear. */
static int add_record(record *r) {
    int *at;
    if (!grow_index()) {
        free_record(r);
        return MYTRITON_OUT_OF_MEMORY;
    }
    at = index_slot(r->name, r->backend, r->hash, r->device, r->cc, r->nkeys, r->key);
    if (*at >= 0) {
        free_record(&records[*at]);
        records[*at] = *r;
        return MYTRITON_SUCCESS;
    }
    if (record_count == record_capacity) {
        int capacity = record_capacity ? record_capacity * 2 : 16;
        record *items = realloc(records, (size_t)capacity * sizeof *items);
        if (items == NULL) {
            free_record(r);
            return MYTRITON_OUT_OF_MEMORY;
        }
        records = items;
        record_capacity = capacity;
    }
    *at = record_count;
    records[record_count++] = *r;
    return MYTRITON_SUCCESS;
}

/* Splits `line` at tabs into at most `max` fields (in place). */
static int split_tabs(char *line, char **fields, int max) {
    int n = 0;
    char *p = line;
    while (n < max) {
        char *tab = strchr(p, '\t');
        fields[n++] = p;
        if (tab == NULL) break;
        *tab = '\0';
        p = tab + 1;
    }
    return n;
}

static int parse_int64(const char *s, int64_t *out) {
    char *end;
    long long v;
    if (*s == '\0') return 0;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0') return 0;
    *out = (int64_t)v;
    return 1;
}

/* One line of a cache file into *r (strings allocated); 0 if malformed. */
static int parse_record(char *line, record *r) {
    char *f[9];
    int64_t v;
    int n = split_tabs(line, f, 9), nkeys = 0;
    char *p;
    memset(r, 0, sizeof *r);
    if (n != 8) return 0;
    if (!parse_int64(f[4], &v) || v < 0 || v > 100000) return 0;
    r->cc = (int)v;
    if (!parse_int64(f[6], &v) || v < 0 || v > 100000) return 0;
    r->config = (int)v;
    if (f[5][0] != '\0') {
        for (p = f[5];;) {
            char *comma = strchr(p, ',');
            if (comma != NULL) *comma = '\0';
            if (nkeys == MYTRITON_AUTOTUNE_MAX_KEY || !parse_int64(p, &r->key[nkeys])) return 0;
            nkeys++;
            if (comma == NULL) break;
            p = comma + 1;
        }
    }
    r->nkeys = nkeys;
    if (f[0][0] == '\0' || f[1][0] == '\0' || f[2][0] == '\0') return 0;
    r->name = dup_str(f[0]);
    r->backend = dup_str(f[1]);
    r->hash = dup_str(f[2]);
    r->device = dup_str(f[3]);
    r->config_text = dup_str(f[7]);
    if (!r->name || !r->backend || !r->hash || !r->device || !r->config_text) {
        free_record(r);
        return 0;
    }
    return 1;
}

/* Opens `path` for reading without blocking (a FIFO without a writer)
 * and without following a final symbolic link when `nofollow`; *st is
 * its status. -1 with errno when it cannot be opened. */
static int open_cache(const char *path, int nofollow, struct stat *st) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
    if (fd >= 0 && fstat(fd, st) != 0) {
        int why = errno;
        close(fd);
        errno = why;
        return -1;
    }
    return fd;
}

static void too_large(const char *fn, const char *path) {
    mytriton_set_last_error(
        "%s: %s is larger than %d bytes, more than a mytriton autotune cache "
        "holds",
        fn, path, MYTRITON_AUTOTUNE_MAX_CACHE_BYTES);
}

/* Reads a regular file of at most MYTRITON_AUTOTUNE_MAX_CACHE_BYTES into
 * *text (malloc'ed, NUL-terminated; *len bytes). `fn` names the caller in
 * the last error. */
static int read_cache(const char *fn, const char *path, char **text, size_t *len) {
    struct stat st;
    int fd = open_cache(path, 0, &st);
    size_t cap, n = 0;
    char *buf;
    if (fd < 0) {
        mytriton_set_last_error("%s: cannot open %s: %s", fn, path, strerror(errno));
        return errno == ENOENT ? MYTRITON_NOT_FOUND : MYTRITON_INVALID_VALUE;
    }
    if (!S_ISREG(st.st_mode) || st.st_size > MYTRITON_AUTOTUNE_MAX_CACHE_BYTES) {
        if (S_ISREG(st.st_mode)) too_large(fn, path);
        else mytriton_set_last_error("%s: %s is not a regular file", fn, path);
        close(fd);
        return MYTRITON_INVALID_VALUE;
    }
    cap = (size_t)st.st_size + 1;
    buf = malloc(cap + 1);
    if (buf == NULL) {
        close(fd);
        return MYTRITON_OUT_OF_MEMORY;
    }
    for (;;) { /* (up to one byte more than fstat said: a file that grew past the bound) */
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            mytriton_set_last_error("%s: error reading %s: %s", fn, path, strerror(errno));
            close(fd);
            free(buf);
            return MYTRITON_INVALID_VALUE;
        }
        if (got == 0) break;
        n += (size_t)got;
        if (n == cap) {
            char *bigger;
            if (cap > (size_t)MYTRITON_AUTOTUNE_MAX_CACHE_BYTES) break;
            bigger = realloc(buf, cap * 2 + 1);
            if (bigger == NULL) {
                close(fd);
                free(buf);
                return MYTRITON_OUT_OF_MEMORY;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    close(fd);
    if (n > (size_t)MYTRITON_AUTOTUNE_MAX_CACHE_BYTES) {
        too_large(fn, path);
        free(buf);
        return MYTRITON_INVALID_VALUE;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return MYTRITON_SUCCESS;
}

/* Whether the first line of text[0, len) is exactly the header (a NUL in
 * it, or a longer line, is not). */
static int is_header(const char *text, size_t len) {
    size_t n = strlen(CACHE_MAGIC);
    if (len < n || memcmp(text, CACHE_MAGIC, n) != 0) return 0;
    return len == n || text[n] == '\n' ||
           (text[n] == '\r' && (len == n + 1 || text[n + 1] == '\n'));
}

/* Loads `path` with the lock held: linear in its size. */
static int load_locked(const char *path) {
    char *text = NULL, *line, *end;
    size_t len = 0;
    int lineno = 0, bad = 0, status = read_cache("mytriton_autotune_load", path, &text, &len);
    if (status != MYTRITON_SUCCESS) return status;
    if (len > 0 && !is_header(text, len)) { /* (an empty file: an empty cache) */
        mytriton_set_last_error(
            "mytriton_autotune_load: %s is not a mytriton autotune cache "
            "(its first line is not '" CACHE_MAGIC "')",
            path);
        free(text);
        return MYTRITON_INVALID_VALUE;
    }
    end = text + len;
    for (line = text; line < end && status == MYTRITON_SUCCESS;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = (size_t)((nl != NULL ? nl : end) - line);
        const char *why = NULL;
        record r;
        lineno++;
        line[n] = '\0'; /* (the newline, or the terminator at the end) */
        if (n > 0 && line[n - 1] == '\r') line[--n] = '\0';
        if (lineno == 1 || n == 0 || line[0] == '#') {
            /* the header; an empty line; a comment */
        } else if (n >= MAX_LINE) {
            why = "line too long";
        } else if (strlen(line) != n) {
            why = "a NUL byte in the line";
        } else if (!parse_record(line, &r)) {
            why =
                "malformed line (expected 8 tab-separated fields: launcher, backend, hash, "
                "device, capability, key, config index, config)";
        } else {
            status = add_record(&r);
        }
        if (why != NULL && !bad++)
            mytriton_set_last_error("mytriton_autotune_load: %s:%d: %s", path, lineno, why);
        if (nl == NULL) break;
        line = nl + 1;
    }
    free(text);
    if (status == MYTRITON_SUCCESS && bad) status = MYTRITON_INVALID_VALUE;
    return status;
}

/* Whether `path` may be replaced: it does not exist, or it is a regular
 * file (not a symbolic link) that is empty or begins with the cache's
 * header: anything else is some other file, never overwritten. 0 after
 * a last error. */
static int replaceable(const char *path) {
    struct stat st;
    char head[sizeof CACHE_MAGIC + 1];
    size_t n = 0;
    int fd = open_cache(path, 1, &st);
    if (fd < 0) {
        if (errno == ENOENT) return 1;
        if (errno == ELOOP)
            mytriton_set_last_error(
                "mytriton_autotune_save: %s is a symbolic link: not overwritten", path);
        else
            mytriton_set_last_error("mytriton_autotune_save: cannot open %s: %s", path,
                                    strerror(errno));
        return 0;
    }
    if (S_ISREG(st.st_mode)) {
        while (n < sizeof head) {
            ssize_t got = read(fd, head + n, sizeof head - n);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            n += (size_t)got;
        }
    }
    close(fd);
    if (S_ISREG(st.st_mode) && (st.st_size == 0 || is_header(head, n))) return 1;
    mytriton_set_last_error(
        "mytriton_autotune_save: %s is not a mytriton autotune cache (%s): "
        "not overwritten",
        path,
        S_ISREG(st.st_mode) ? "its first line is not '" CACHE_MAGIC "'" : "not a regular file");
    return 0;
}

/* A new file beside `path` (its name unique: the process, a counter and
 * the clock), created exclusively and never through a symbolic link; its
 * name in tmp (len bytes). -1 after a last error. */
static int create_temporary(const char *path, char *tmp, size_t len) {
    static unsigned long counter;
    int attempt;
    for (attempt = 0; attempt < 100; attempt++) {
        struct timespec ts;
        uint64_t x;
        int fd;
        clock_gettime(CLOCK_REALTIME, &ts);
        x = ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)++counter << 48) ^
            (uint64_t)(uintptr_t)&ts;
        x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15ull; /* (a mix of the bits) */
        snprintf(tmp, len, "%s.tmp.%ld.%016llx", path, (long)getpid(),
                 (unsigned long long)(x ^ (x >> 29)));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) return fd;
        if (errno != EEXIST) break;
    }
    mytriton_set_last_error("mytriton_autotune_save: cannot create a file beside %s: %s", path,
                            strerror(errno));
    return -1;
}

/* Writes every record to a new file beside `path`, then renames it over
 * `path` (readers see the old file or the new one, never a part). */
static int save_locked(const char *path) {
    size_t len = strlen(path) + 64;
    char *tmp;
    FILE *fp;
    int i, j, ok = 1, fd;
    if (!replaceable(path)) return MYTRITON_INVALID_VALUE;
    tmp = malloc(len);
    if (tmp == NULL) return MYTRITON_OUT_OF_MEMORY;
    fd = create_temporary(path, tmp, len);
    if (fd < 0) {
        free(tmp);
        return MYTRITON_INVALID_VALUE;
    }
    fp = fdopen(fd, "w");
    if (fp == NULL) {
        close(fd);
        ok = 0;
    } else {
        ok = fprintf(fp, CACHE_MAGIC "\n") > 0;
        for (i = 0; i < record_count && ok; i++) {
            const record *r = &records[i];
            ok = fprintf(fp, "%s\t%s\t%s\t%s\t%d\t", r->name, r->backend, r->hash, r->device,
                         r->cc) > 0;
            for (j = 0; j < r->nkeys && ok; j++)
                ok = fprintf(fp, "%s%lld", j ? "," : "", (long long)r->key[j]) > 0;
            if (ok) ok = fprintf(fp, "\t%d\t%s\n", r->config, r->config_text) > 0;
        }
        if (fclose(fp) != 0) ok = 0;
    }
    if (ok && rename(tmp, path) != 0) ok = 0;
    if (!ok) {
        mytriton_set_last_error("mytriton_autotune_save: cannot write %s: %s", path,
                                strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return ok ? MYTRITON_SUCCESS : MYTRITON_INVALID_VALUE;
}

int mytriton_autotune_load(const char *path) {
    int status;
    if (path == NULL) {
        mytriton_set_last_error("mytriton_autotune_load: no path");
        return MYTRITON_INVALID_VALUE;
    }
    pthread_mutex_lock(&tune_lock);
    status = load_locked(path);
    pthread_mutex_unlock(&tune_lock);
    return status;
}

int mytriton_autotune_save(const char *path) {
    int status;
    if (path == NULL) {
        mytriton_set_last_error("mytriton_autotune_save: no path");
        return MYTRITON_INVALID_VALUE;
    }
    pthread_mutex_lock(&tune_lock);
    status = save_locked(path);
    pthread_mutex_unlock(&tune_lock);
    return status;
}

static const char *env_cache(void) {
    const char *p = getenv("MYTRITON_AUTOTUNE_CACHE");
    return p != NULL && p[0] != '\0' ? p : NULL;
}

void mytriton_autotune_reset(void) {
    int i;
    pthread_mutex_lock(&tune_lock);
    while (states != NULL) {
        tuner_state *st = states;
        states = st->next;
        st->tuner->state = NULL;
        free(st->slots);
        free(st);
    }
    for (i = 0; i < record_count; i++) free_record(&records[i]);
    free(records);
    records = NULL;
    record_count = record_capacity = 0;
    free(record_index);
    record_index = NULL;
    index_capacity = 0;
    env_loaded = 0;
    memset(&stats, 0, sizeof stats);
    pthread_mutex_unlock(&tune_lock);
}

void mytriton_autotune_get_stats(mytriton_autotune_stats *out) {
    pthread_mutex_lock(&tune_lock);
    *out = stats;
    pthread_mutex_unlock(&tune_lock);
}

/* ---- tuning -------------------------------------------------------------- */

/* The config of a loaded record for this key, or -1. Lock held. */
static int from_records(const mytriton_tuner *t, const mytriton_device_id *dev,
                        const int64_t *key) {
    int i = find_record(t->name, t->backend, t->hash, dev->name, dev->cc, t->nkeys, key);
    const record *r = i >= 0 ? &records[i] : NULL;
    if (r != NULL && r->config < t->nconfigs &&
        strcmp(r->config_text, t->configs[r->config]) == 0 &&
        (t->allowed == NULL || t->allowed(r->config, key)))
        return r->config;
    return -1;
}

/* Whether another thread is timing this key now. Lock held. */
static int being_tuned(const mytriton_tuner *t, int device, const int64_t *key) {
    const tuning *g;
    int i;
    for (g = tunings; g != NULL; g = g->next) {
        if (g->tuner != t || g->device != device) continue;
        for (i = 0; i < t->nkeys && g->key[i] == key[i]; i++) {}
        if (i == t->nkeys) return 1;
    }
    return 0;
}

/* Ends this thread's tuning of a key and wakes the threads waiting for
 * it. Lock held. */
static void end_tuning(const tuning *mine) {
    tuning **p = &tunings;
    while (*p != mine) p = &(*p)->next;
    *p = mine->next;
    pthread_cond_broadcast(&tune_done);
}

/* Times every allowed config of the key; the fastest in *config, or the
 * first failure. Without the lock. */
static int time_configs(const mytriton_tuner *t, const int64_t *key, mytriton_autotune_time_fn time,
                        void *ctx, int *config) {
    double best = 0.0;
    int c, chosen = -1, first_error = MYTRITON_SUCCESS, status;
    for (c = 0; c < t->nconfigs; c++) {
        double ms = 0.0;
        if (t->allowed != NULL && !t->allowed(c, key)) continue;
        status = time(ctx, c, &ms);
        pthread_mutex_lock(&tune_lock);
        stats.timed_configs++;
        pthread_mutex_unlock(&tune_lock);
        if (status != MYTRITON_SUCCESS) {
            if (first_error == MYTRITON_SUCCESS) first_error = status;
            continue; /* e.g. out of resources on this device: not a candidate */
        }
        if (chosen < 0 || ms < best) {
            chosen = c;
            best = ms;
        }
    }
    if (chosen < 0) {
        if (first_error == MYTRITON_SUCCESS) {
            mytriton_set_last_error("launch_%s: no config's WHEN condition holds for this key",
                                    t->name);
            first_error = MYTRITON_INVALID_VALUE;
        }
        return first_error;
    }
    *config = chosen;
    return MYTRITON_SUCCESS;
}

/* Records the timed choice of a key and saves the cache. Lock held. */
static int keep_choice(mytriton_tuner *t, const mytriton_device_id *dev, const int64_t *key,
                       int chosen, const char *cache) {
    record r;
    int c, status = put_choice(t, dev->ordinal, key, chosen);
    stats.tunings++;
    memset(&r, 0, sizeof r);
    r.name = dup_str(t->name);
    r.backend = dup_str(t->backend);
    r.hash = dup_str(t->hash);
    r.device = dup_str(dev->name);
    r.config_text = dup_str(t->configs[chosen]);
    r.cc = dev->cc;
    r.nkeys = t->nkeys;
    r.config = chosen;
    for (c = 0; c < t->nkeys; c++) r.key[c] = key[c];
    if (r.name && r.backend && r.hash && r.device && r.config_text) {
        if (add_record(&r) == MYTRITON_SUCCESS && cache != NULL)
            (void)save_locked(cache); /* a cache that cannot be written does not fail the launch */
    } else {
        free_record(&r);
    }
    return status;
}

int mytriton_autotune_tune(mytriton_tuner *t, const mytriton_device_id *dev, const int64_t *key,
                           mytriton_autotune_time_fn time, void *ctx, int *config) {
    const char *cache = env_cache();
    int chosen = -1, status;
    slot *s;
    tuning mine;

    if (t->nkeys < 0 || t->nkeys > MYTRITON_AUTOTUNE_MAX_KEY || t->nconfigs < 1) {
        mytriton_set_last_error("launch_%s: malformed tuner", t->name);
        return MYTRITON_INVALID_VALUE;
    }
    pthread_mutex_lock(&tune_lock);
    for (;;) {
        s = probe((tuner_state *)t->state, t->nkeys, dev->ordinal, key);
        if (s != NULL && s->used) { /* another thread tuned it meanwhile */
            *config = s->config;
            pthread_mutex_unlock(&tune_lock);
            return MYTRITON_SUCCESS;
        }
        if (!being_tuned(t, dev->ordinal, key)) break;
        /* another thread is timing this key: its choice is this one's (if
         * its timing fails, this thread times it) */
        pthread_cond_wait(&tune_done, &tune_lock);
    }
    if (cache != NULL && !env_loaded) {
        env_loaded = 1;
        (void)load_locked(cache); /* a missing or partly bad file: tune what it lacks */
        mytriton_clear_last_error();
    }
    chosen = from_records(t, dev, key);
    if (chosen >= 0) {
        status = put_choice(t, dev->ordinal, key, chosen);
        if (status == MYTRITON_SUCCESS) stats.cache_hits++;
        pthread_mutex_unlock(&tune_lock);
        *config = chosen;
        return status;
    }
    mine.tuner = t;
    mine.device = dev->ordinal;
    mine.key = key;
    mine.next = tunings;
    tunings = &mine;
    pthread_mutex_unlock(&tune_lock);

    status = time_configs(t, key, time, ctx, &chosen);

    pthread_mutex_lock(&tune_lock);
    if (status == MYTRITON_SUCCESS) {
        mytriton_clear_last_error();
        status = keep_choice(t, dev, key, chosen, cache);
        mytriton_clear_last_error();
    }
    end_tuning(&mine);
    pthread_mutex_unlock(&tune_lock);
    if (status == MYTRITON_SUCCESS) *config = chosen;
    return status;
}

double mytriton_autotune_clock_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int mytriton_autotune_time_host(mytriton_autotune_launch_fn launch, void *ctx, int config,
                                double *ms) {
    double t0, once, best = 0.0;
    int round, reps, i, status;

    t0 = mytriton_autotune_clock_ms();
    status = launch(ctx, config); /* warm-up, and the estimate of one launch */
    if (status != MYTRITON_SUCCESS) return status;
    once = mytriton_autotune_clock_ms() - t0;
    reps = once > 0.0 ? (int)(MYTRITON_AUTOTUNE_ROUND_MS / once) : 100;
    if (reps < 1) reps = 1;
    if (reps > 100) reps = 100;
    for (round = 0; round < MYTRITON_AUTOTUNE_ROUNDS; round++) {
        double elapsed;
        t0 = mytriton_autotune_clock_ms();
        for (i = 0; i < reps; i++) {
            status = launch(ctx, config);
            if (status != MYTRITON_SUCCESS) return status;
        }
        elapsed = (mytriton_autotune_clock_ms() - t0) / reps;
        if (round == 0 || elapsed < best) best = elapsed;
    }
    *ms = best;
    return MYTRITON_SUCCESS;
}

/* ---- the API by launcher name --------------------------------------------- */

mytriton_tuner *mytriton_autotune_find(const char *name, const char *backend) {
    const mytriton_kernel_info *info = mytriton_find_kernel(name, backend);
    return info != NULL ? info->tuner : NULL;
}

static mytriton_tuner *find_checked(const char *fn, const char *name, const char *backend,
                                    int nkeys) {
    mytriton_tuner *t = mytriton_autotune_find(name, backend);
    if (t == NULL) {
        mytriton_set_last_error("%s: no dispatching launcher named '%s'%s%s registered", fn,
                                name != NULL ? name : "(null)",
                                backend != NULL ? " for backend " : "",
                                backend != NULL ? backend : "");
        return NULL;
    }
    if (nkeys >= 0 && nkeys != t->nkeys) {
        mytriton_set_last_error("%s: launch_%s has %d key values, %d given", fn, t->name, t->nkeys,
                                nkeys);
        return NULL;
    }
    return t;
}

int mytriton_autotune_choice(const char *name, const char *backend, int device, const int64_t *key,
                             int nkeys, int *config) {
    mytriton_tuner *t = find_checked("mytriton_autotune_choice", name, backend, -1);
    int c;
    if (t == NULL) return MYTRITON_NOT_FOUND;
    if (nkeys != t->nkeys || config == NULL || (nkeys > 0 && key == NULL)) {
        mytriton_set_last_error("mytriton_autotune_choice: launch_%s has %d key values, %d given",
                                t->name, t->nkeys, nkeys);
        return MYTRITON_INVALID_VALUE;
    }
    c = mytriton_autotune_lookup(t, device, key);
    if (c < 0) {
        mytriton_set_last_error(
            "mytriton_autotune_choice: launch_%s: this key is not tuned on device %d", t->name,
            device);
        return MYTRITON_NOT_FOUND;
    }
    *config = c;
    return MYTRITON_SUCCESS;
}

int mytriton_autotune_force(const char *name, const char *backend, int device, const int64_t *key,
                            int nkeys, int config) {
    mytriton_tuner *t = find_checked("mytriton_autotune_force", name, backend, -1);
    int status;
    if (t == NULL) return MYTRITON_NOT_FOUND;
    if (nkeys != t->nkeys || (nkeys > 0 && key == NULL)) {
        mytriton_set_last_error("mytriton_autotune_force: launch_%s has %d key values, %d given",
                                t->name, t->nkeys, nkeys);
        return MYTRITON_INVALID_VALUE;
    }
    if (config < 0 || config >= t->nconfigs) {
        mytriton_set_last_error("mytriton_autotune_force: launch_%s has configs 0 to %d, not %d",
                                t->name, t->nconfigs - 1, config);
        return MYTRITON_INVALID_VALUE;
    }
    pthread_mutex_lock(&tune_lock);
    status = put_choice(t, device, key, config);
    pthread_mutex_unlock(&tune_lock);
    return status;
}

int mytriton_autotune_pretune(const char *name, const char *backend, void *stream,
                              void *const *const *arg_sets, int count, const mytriton_grid *grid) {
    mytriton_tuner *t = find_checked("mytriton_autotune_pretune", name, backend, -1);
    int i, status;
    if (t == NULL) return MYTRITON_NOT_FOUND;
    if (count < 0 || (count > 0 && arg_sets == NULL) || t->pretune == NULL) {
        mytriton_set_last_error("mytriton_autotune_pretune: launch_%s: no argument sets", t->name);
        return MYTRITON_INVALID_VALUE;
    }
    for (i = 0; i < count; i++) {
        if (arg_sets[i] == NULL) {
            mytriton_set_last_error("mytriton_autotune_pretune: launch_%s: argument set %d is NULL",
                                    t->name, i);
            return MYTRITON_INVALID_VALUE;
        }
        status = t->pretune(stream, arg_sets[i], grid);
        if (status != MYTRITON_SUCCESS) return status;
    }
    return MYTRITON_SUCCESS;
}

int mytriton_autotune_host_scratch_begin(int n, void **ptrs, const int64_t *bytes, void **bases,
                                         const char *launcher) {
    int i;
    for (i = 0; i < n; i++) bases[i] = NULL;
    for (i = 0; i < n; i++) {
        size_t shift = (size_t)((uintptr_t)ptrs[i] & 63u);
        char *copy;
        if (ptrs[i] == NULL) continue;
        if (bytes[i] < 0 || (uint64_t)bytes[i] > SIZE_MAX - 128) {
            mytriton_set_last_error(
                "%s: a RESTORE buffer's extent is negative or too large (%lld bytes)", launcher,
                (long long)bytes[i]);
            return MYTRITON_INVALID_VALUE;
        }
        bases[i] = malloc((size_t)bytes[i] + 128);
        if (bases[i] == NULL) {
            mytriton_set_last_error(
                "%s: no memory for a scratch copy of a RESTORE buffer while tuning", launcher);
            return MYTRITON_OUT_OF_MEMORY;
        }
        /* a 64-byte boundary, then the caller's offset from one */
        copy = (char *)bases[i] + ((64u - ((uintptr_t)bases[i] & 63u)) & 63u) + shift;
        memcpy(copy, ptrs[i], (size_t)bytes[i]);
        ptrs[i] = copy;
    }
    return MYTRITON_SUCCESS;
}

void mytriton_autotune_host_scratch_end(int n, void **bases) {
    int i;
    for (i = 0; i < n; i++) free(bases[i]);
}
