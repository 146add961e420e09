/* Compile time of mytritonc per kernel: the median of 20 runs of
 * `mytritonc FILE --kernel K --signature S -D... --emit=cuda` for every
 * conformance kernel, and how much of it is Python's start-up and the
 * parser shim.
 *
 *   build/bin/mytriton_bench_compile [PYTHON]   (default: the build's interpreter)
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { RUNS = 20 };

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs argv with stdout and stderr to /dev/null; returns wall ms or -1. */
static double run_ms(char *const argv[]) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    double t0 = now_ms();
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return -1;
    int status = 0;
    waitpid(pid, &status, 0);
    double t = now_ms() - t0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_ms(char *const argv[]) {
    double t[RUNS];
    for (int i = 0; i < RUNS; i++) {
        t[i] = run_ms(argv);
        if (t[i] < 0) return -1;
    }
    qsort(t, RUNS, sizeof t[0], cmp);
    return (t[RUNS / 2 - 1] + t[RUNS / 2]) / 2;
}

int main(int argc, char **argv) {
    const char *python = argc > 1 ? argv[1] : MT_BENCH_PYTHON;
    static const struct {
        const char *file, *kernel, *sig, *d1, *d2;
    } cases[] = {
        {"vector_add.py", "add_kernel", "*fp32, *fp32, *fp32, i32", "BLOCK=256", NULL},
        {"activations.py", "scaled_relu_kernel", "*fp32, *fp32, i32, fp32", "BLOCK=128", NULL},
        {"activations.py", "silu_kernel", "*fp32, *fp32, i32", "BLOCK=128", NULL},
        {"activations.py", "clamp_kernel", "*fp32, *fp32, i32, fp32, fp32", "BLOCK=64", NULL},
        {"softmax.py", "softmax_kernel", "*fp32, *fp32, i32", "BLOCK=1024", NULL},
        {"softmax.py", "row_sum_kernel", "*fp32, *fp32, i32", "BLOCK=128", NULL},
        {"matrix_add_2d.py", "matrix_add_2d_kernel",
         "*fp32, *fp32, *fp32, i32, "
         "i32",
         "BM=16", "BN=32"},
        {"matmul.py", "seed_matmul_runtime_k_kernel",
         "*fp32, *fp32, *fp32, i32, i32, "
         "i32",
         "BM=4", "BN=8"},
        {"matmul.py", "matmul_runtime_k_kernel",
         "*fp32, *fp32, *fp32, i32, i32, "
         "i32",
         "BM=16", "BN=16"},
        {"loops.py", "runtime_sum_kernel", "*fp32, *fp32, i32", NULL, NULL},
        {"loops.py", "nested_count_kernel", "*fp32, i32, i32", NULL, NULL},
        {"loops.py", "two_carried_kernel", "*fp32, *fp32, i32", NULL, NULL},
        {"loops.py", "block_accumulate_kernel", "*fp32, *fp32, i32", "BLOCK=64", NULL},
    };
    char shim[4096];
    snprintf(shim, sizeof shim, "%s", MT_BENCH_COMPILER);
    char *slash = strrchr(shim, '/');
    snprintf(slash ? slash + 1 : shim, sizeof shim - (size_t)(slash ? slash + 1 - shim : 0),
             "mytriton_parse.py");

    char *py_argv[] = {(char *)python, "-I", "-S", "-c", "pass", NULL};
    double t_py = median_ms(py_argv);
    printf("python start-up (%s -I -S -c pass): %.1f ms (median of %d)\n", python, t_py, RUNS);
    double sum = 0, worst = 0, shim_sum = 0;
    int n = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", MT_BENCH_KERNELS, cases[i].file);
        char *args[16];
        int k = 0;
        args[k++] = MT_BENCH_COMPILER;
        args[k++] = file;
        args[k++] = "--kernel";
        args[k++] = (char *)cases[i].kernel;
        args[k++] = "--signature";
        args[k++] = (char *)cases[i].sig;
        if (cases[i].d1) args[k++] = "-D", args[k++] = (char *)cases[i].d1;
        if (cases[i].d2) args[k++] = "-D", args[k++] = (char *)cases[i].d2;
        args[k++] = "--emit=cuda";
        args[k++] = "--python";
        args[k++] = (char *)python;
        args[k] = NULL;
        double t = median_ms(args);
        char *shim_argv[] = {(char *)python, "-I", "-S", shim, file, NULL};
        double ts = median_ms(shim_argv);
        if (t < 0 || ts < 0) {
            printf("%-30s failed\n", cases[i].kernel);
            return 1;
        }
        printf(
            "%-30s mytritonc --emit=cuda %6.1f ms (the shim alone %5.1f "
            "ms)\n",
            cases[i].kernel, t, ts);
        sum += t;
        shim_sum += ts;
        worst = t > worst ? t : worst;
        n++;
    }
    printf(
        "compile time per kernel: mean %.1f ms, worst %.1f ms; the shim (python start-up and "
        "parse) is %.0f%% of it\n",
        sum / n, worst, 100.0 * shim_sum / sum);
    printf("  target: <= 30 ms per kernel including the shim: %s\n", worst <= 30 ? "MET"
                                                                                 : "NOT "
                                                                                   "MET");
    return 0;
}
