/* Replays inputs through a fuzz harness's LLVMFuzzerTestOneInput without
 * libFuzzer (any C compiler): the regression corpus in ctest.
 *
 *   mytriton_fuzz_<harness>_replay FILE_OR_DIRECTORY...
 *
 * Every file (directories: their files, sorted by name, not recursively)
 * is run once; an input that takes longer than 10 s fails the run, and so
 * does anything a sanitizer reports (in sanitizer builds). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { SLOW_SECONDS = 10 };

static int failures = 0, count = 0;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        failures++;
        return;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    for (size_t n; buf && (n = fread(buf + len, 1, cap - len, f)) > 0;) {
        len += n;
        if (len == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger) free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "out of memory reading %s\n", path);
        failures++;
        return;
    }
    double t0 = now();
    LLVMFuzzerTestOneInput(buf, len);
    double dt = now() - t0;
    free(buf);
    count++;
    if (dt > SLOW_SECONDS) {
        fprintf(stderr, "%s: %.1f s, more than %d s\n", path, dt, SLOW_SECONDS);
        failures++;
    }
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "no such file or directory: %s\n", path);
        failures++;
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        replay_file(path);
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", path);
        failures++;
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            char **bigger = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
            if (!bigger) break;
            names = bigger;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n]) break;
        snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) replay_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) replay(argv[i]);
    printf(
        "replayed %d input%s, %d "
        "failure%s\n",
        count, count == 1 ? "" : "s", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
