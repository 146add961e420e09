// mytriton example: C = A @ B with the runtime-K matmul kernel compiled
// ahead of time by mytriton_add_kernels() (see CMakeLists.txt).
//
//   matmul_example [--backend auto|cuda|host|all]
//
// auto (the default) runs the CUDA launcher when cudaGetDeviceCount() finds
// a GPU, else the host launcher; all runs every backend it can. Every result
// is checked against a CPU reference; the program exits 1 if an error
// exceeds the tolerance (or an explicitly chosen backend cannot run), and
// never prints a result it did not compute.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "matmul_kernels.h"  // launch_matmul_runtime_k[_host], matmul_kernels_register_kernels

#if !defined(MYTRITON_EXAMPLE_CUDA) || !defined(MYTRITON_EXAMPLE_HOST)
#error "CMakeLists.txt defines MYTRITON_EXAMPLE_CUDA and MYTRITON_EXAMPLE_HOST"
#endif

namespace {

constexpr double kTolerance = 1e-3;  // max |C - reference|; inputs are in [-1, 1)

struct Size {
    int32_t M, N, K;
};
// A square case for the time, and odd sizes that exercise the masks (tiles
// are 16 x 16) and a short K.
constexpr Size kSizes[] = {{512, 512, 512}, {77, 45, 33}, {130, 66, 257}, {1, 1, 1}};

// A fixed-seed generator that gives the same matrices on every platform.
struct Lcg {
    uint32_t state;
    float next() {
        state = state * 1664525u + 1013904223u;
        return static_cast<float>(state >> 8) / 16777216.0f * 2.0f - 1.0f;
    }
};

struct Problem {
    Size size;
    std::vector<float> a, b;
    std::vector<double> reference;
};

Problem make_problem(Size s, uint32_t seed) {
    Problem p{s, std::vector<float>(size_t(s.M) * s.K), std::vector<float>(size_t(s.K) * s.N), {}};
    Lcg rng{seed};
    for (float &x : p.a) x = rng.next();
    for (float &x : p.b) x = rng.next();
    p.reference.assign(size_t(s.M) * s.N, 0.0);
    for (int32_t m = 0; m < s.M; m++)
        for (int32_t k = 0; k < s.K; k++) {
            double a = p.a[size_t(m) * s.K + k];
            for (int32_t n = 0; n < s.N; n++)
                p.reference[size_t(m) * s.N + n] += a * p.b[size_t(k) * s.N + n];
        }
    return p;
}

double max_error(const Problem &p, const std::vector<float> &c) {
    double worst = 0.0;
    for (size_t i = 0; i < c.size(); i++) {
        double err = std::fabs(double(c[i]) - p.reference[i]);
        if (std::isnan(err)) return std::numeric_limits<double>::infinity();  // never written
        if (err > worst) worst = err;
    }
    return worst;
}

// One run of one backend on one problem: the result C and the kernel time.
struct Run {
    bool launched = false;
    std::string failure;  // why nothing was computed
    std::vector<float> c;
    double ms = 0.0;
};

using Clock = std::chrono::steady_clock;
double elapsed_ms(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

#if MYTRITON_EXAMPLE_HOST
Run run_host(const Problem &p) {
    Run r;
    const Size s = p.size;
    r.c.assign(size_t(s.M) * s.N, std::numeric_limits<float>::quiet_NaN());
    auto t0 = Clock::now();
    mytriton_status st =
        launch_matmul_runtime_k_host(p.a.data(), p.b.data(), r.c.data(), s.M, s.N, s.K);
    r.ms = elapsed_ms(t0);
    if (st != MYTRITON_SUCCESS) {
        r.failure = std::string(
                        "launch_matmul_runtime_k_host: "
                        "") +
                    mytriton_status_string(st) + ": " + mytriton_last_error();
        return r;
    }
    r.launched = true;
    return r;
}
#endif

#if MYTRITON_EXAMPLE_CUDA
Run run_cuda(const Problem &p) {
    Run r;
    const Size s = p.size;
    const size_t na = p.a.size(), nb = p.b.size(), nc = size_t(s.M) * s.N;
    float *da = nullptr, *db = nullptr, *dc = nullptr;
    auto fail = [&](const char *what, cudaError_t e) {
        r.failure = std::string(what) + ": " + mytriton_cuda_error_text(e, cudaGetErrorString(e));
        if (e == cudaErrorInvalidValue && mytriton_last_error()[0] != '\0')
            r.failure += std::string(" (") + mytriton_last_error() + ")";
        cudaFree(da);
        cudaFree(db);
        cudaFree(dc);
        return r;
    };
    cudaError_t e;
    if ((e = cudaMalloc(reinterpret_cast<void **>(&da), na * sizeof(float))) != cudaSuccess)
        return fail("cudaMalloc", e);
    if ((e = cudaMalloc(reinterpret_cast<void **>(&db), nb * sizeof(float))) != cudaSuccess)
        return fail("cudaMalloc", e);
    if ((e = cudaMalloc(reinterpret_cast<void **>(&dc), nc * sizeof(float))) != cudaSuccess)
        return fail("cudaMalloc", e);
    if ((e = cudaMemcpy(da, p.a.data(), na * sizeof(float), cudaMemcpyHostToDevice)) != cudaSuccess)
        return fail("cudaMemcpy", e);
    if ((e = cudaMemcpy(db, p.b.data(), nb * sizeof(float), cudaMemcpyHostToDevice)) != cudaSuccess)
        return fail("cudaMemcpy", e);
    // 0xFF bytes are NaNs: an element the kernel does not write shows up.
    if ((e = cudaMemset(dc, 0xFF, nc * sizeof(float))) != cudaSuccess) return fail("cudaMemset", e);
    // Warm-up (module load), then the timed launch.
    if ((e = launch_matmul_runtime_k(nullptr, da, db, dc, s.M, s.N, s.K)) != cudaSuccess)
        return fail("launch_matmul_runtime_k", e);
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) return fail("kernel", e);
    auto t0 = Clock::now();
    if ((e = launch_matmul_runtime_k(nullptr, da, db, dc, s.M, s.N, s.K)) != cudaSuccess)
        return fail("launch_matmul_runtime_k", e);
    if ((e = cudaDeviceSynchronize()) != cudaSuccess) return fail("kernel", e);
    r.ms = elapsed_ms(t0);
    r.c.resize(nc);
    if ((e = cudaMemcpy(r.c.data(), dc, nc * sizeof(float), cudaMemcpyDeviceToHost)) != cudaSuccess)
        return fail("cudaMemcpy", e);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    r.launched = true;
    return r;
}
#endif

int usage(const char *argv0) {
    std::fprintf(stderr, "usage: %s [--backend auto|cuda|host|all]\n", argv0);
    return 2;
}

}  // namespace

int main(int argc, char **argv) {
    std::string choice = "auto";
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--backend") == 0 && i + 1 < argc) choice = argv[++i];
        else return usage(argv[0]);
    }
    if (choice != "auto" && choice != "cuda" && choice != "host" && choice != "all")
        return usage(argv[0]);

    // The registry: what mytriton_add_kernels() compiled into this program.
    matmul_kernels_register_kernels();
    std::printf("mytriton %s; kernels registered by matmul_kernels_register_kernels():\n",
                MYTRITON_VERSION_STRING);
    for (int i = 0; i < mytriton_kernel_count(); i++) {
        const mytriton_kernel_info *k = mytriton_kernel_at(i);
        std::printf(
            "  %-18s backend %-4s  %s from %s  signature \"%s\"  %s  grid \"%s\"  "
            "%d threads per block\n",
            k->name, k->backend, k->kernel, k->source, k->signature, k->constexprs,
            k->grid ? k->grid : "(explicit)", k->threads_per_block);
    }

    // Which backends to run.
    bool gpu = false;
    std::string no_gpu_reason = "this build has no cuda backend";
#if MYTRITON_EXAMPLE_CUDA
    int devices = 0;
    cudaError_t de = cudaGetDeviceCount(&devices);
    gpu = de == cudaSuccess && devices > 0;
    // (without a driver CUDA says "driver version is insufficient": the
    // runtime's text says that no NVIDIA driver was found)
    no_gpu_reason = de != cudaSuccess ? mytriton_cuda_error_text(de, cudaGetErrorString(de))
                                      : "cudaGetDeviceCount found 0 devices";
    if (gpu) {
        cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
            std::printf("GPU: %s (%d devices)\n", prop.name, devices);
    }
#endif
    bool want_cuda = choice == "cuda" || choice == "all" || (choice == "auto" && gpu);
    bool want_host = choice == "host" || choice == "all" || (choice == "auto" && !gpu);
    if (!gpu && (want_cuda || choice == "auto")) {
        std::printf("No GPU available (%s): the cuda backend is not run.\n", no_gpu_reason.c_str());
        want_cuda = false;
    }
    if (want_host && !MYTRITON_EXAMPLE_HOST) {
        std::printf(
            "This build has no host backend (MYTRITON_EXAMPLE_BACKENDS): the host launcher "
            "is not run.\n");
        want_host = false;
    }
    if (want_host && !gpu && choice == "auto") std::printf("Using the host backend.\n");
    if (!want_cuda && !want_host) {
        std::printf("Nothing was computed.\n");
        return choice == "auto" || choice == "all"
                   ? 0
                   : 1;  // an explicit backend that cannot run fails
    }
    if (want_host)
        std::printf(
            "host backend threads: %d "
            "(MYTRITON_HOST_THREADS)\n",
            mytriton_host_threads());

    bool all_ok = true;
    for (const Size &s : kSizes) {
        Problem p = make_problem(s, 20261129u + uint32_t(s.M * 7 + s.N * 3 + s.K));
        for (const char *backend : {"cuda", "host"}) {
            Run r;
            if (std::strcmp(backend, "cuda") == 0) {
                if (!want_cuda) continue;
#if MYTRITON_EXAMPLE_CUDA
                r = run_cuda(p);
#endif
            } else {
                if (!want_host) continue;
#if MYTRITON_EXAMPLE_HOST
                r = run_host(p);
#endif
            }
            if (!r.launched) {
                std::printf("[%s] %dx%dx%d: FAILED, nothing computed: %s\n", backend, s.M, s.N, s.K,
                            r.failure.c_str());
                all_ok = false;
                continue;
            }
            double err = max_error(p, r.c);
            bool ok = err <= kTolerance;
            double gflops = 2.0 * s.M * s.N * s.K / (r.ms * 1e6);
            std::printf(
                "[%s] M=%d N=%d K=%d: max |error| = %.3g (tolerance %.0e), time %.3f ms "
                "(%.2f GFLOP/s): %s\n",
                backend, s.M, s.N, s.K, err, kTolerance, r.ms, gflops, ok ? "OK" : "FAILED");
            all_ok = all_ok && ok;
        }
    }
    std::printf("%s\n", all_ok ? "All results match the CPU reference."
                               : "Some results are "
                                 "wrong.");
    return all_ok ? 0 : 1;
}
