/* Fuzz harness (b): kernel source text through the whole pipeline, the
 * real parser shim included. Input: a kernel file whose first line may be
 * the options comment (fuzz_pipeline.h).
 *
 * Running python3 per input (what mt_compile does) gives some 30 inputs a
 * second; instead one Python process, started once, runs the real shim
 * script's main() per input (on a temporary file, stdout and stderr
 * captured, sys.exit caught) and answers with its exit status, stdout and
 * stderr, which go to mt_compile_shim_output: everything after spawning
 * the shim is the production code. If that process dies (Python itself
 * crashing on an input), the input is compiled once more with mt_compile,
 * which spawns the shim as production does, and the server restarts.
 *
 * MYTRITON_FUZZ_PYTHON and MYTRITON_FUZZ_SHIM override the interpreter and
 * the shim chosen at build time. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz_pipeline.h"

extern char **environ;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Requests: 8-byte little-endian length, the source. Answers: 4-byte
 * status, 8-byte length, stdout, 8-byte length, stderr. */
static const char server_code[] =
    "import io, os, sys, tempfile, traceback\n"
    "shim = sys.argv[1]\n"
    "ns = {'__name__': 'mytriton_parse', '__file__': shim}\n"
    "with open(shim, 'rb') as f:\n"
    "    exec(compile(f.read(), shim, 'exec'), ns)\n"
    "fd, path = tempfile.mkstemp(suffix='.py')\n"
    "os.close(fd)\n"
    "rin, rout = sys.stdin.buffer, sys.stdout.buffer\n"
    "def read(n):\n"
    "    b = b''\n"
    "    while len(b) < n:\n"
    "        c = rin.read(n - len(b))\n"
    "        if not c:\n"
    "            return None\n"
    "        b += c\n"
    "    return b\n"
    "try:\n"
    "    while True:\n"
    "        h = read(8)\n"
    "        if h is None:\n"
    "            break\n"
    "        src = read(int.from_bytes(h, 'little'))\n"
    "        with open(path, 'wb') as f:\n"
    "            f.write(src)\n"
    "        ob, eb = io.BytesIO(), io.BytesIO()\n"
    "        so, se = sys.stdout, sys.stderr\n"
    "        wo = io.TextIOWrapper(ob, encoding='utf-8', errors='replace', write_through=True)\n"
    "        we = io.TextIOWrapper(eb, encoding='utf-8', errors='replace', write_through=True)\n"
    "        sys.stdout, sys.stderr = wo, we\n"
    "        status = 0\n"
    "        try:\n"
    "            ns['main'](['mytriton_parse.py', path])\n"
    "        except SystemExit as e:\n"
    "            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)\n"
    "        except BaseException:\n"
    "            traceback.print_exc()\n"
    "            status = 1\n"
    "        finally:\n"
    "            sys.stdout, sys.stderr = so, se\n"
    "            wo.flush()\n"
    "            we.flush()\n"
    "        o, e = ob.getvalue(), eb.getvalue()\n"
    "        wo.detach()\n"
    "        we.detach()\n"
    "        rout.write((status & 0xffffffff).to_bytes(4, 'little') + len(o).to_bytes(8, 'little') "
    "+ o +\n"
    "                   len(e).to_bytes(8, 'little') + e)\n"
    "        rout.flush()\n"
    "finally:\n"
    "    os.unlink(path)\n";

static pid_t server_pid = -1;
static int to_server = -1, from_server = -1;

static const char *python_path(void) {
    const char *p = getenv("MYTRITON_FUZZ_PYTHON");
    return p && *p ? p : MT_FUZZ_PYTHON;
}

static const char *shim_path(void) {
    const char *p = getenv("MYTRITON_FUZZ_SHIM");
    return p && *p ? p : MT_FUZZ_SHIM;
}

static void server_stop(void) {
    if (to_server >= 0) close(to_server);
    if (from_server >= 0) close(from_server);
    to_server = from_server = -1;
    if (server_pid > 0) {
        kill(server_pid, SIGKILL);
        while (waitpid(server_pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    server_pid = -1;
}

static int server_start(void) {
    int in[2], out[2];
    if (pipe(in) != 0) return 0;
    if (pipe(out) != 0) {
        close(in[0]), close(in[1]);
        return 0;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    char *argv[] = {(char *)python_path(), "-I", "-S", "-c", (char *)server_code,
                    (char *)shim_path(),   NULL};
    int rc = posix_spawnp(&server_pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        fprintf(stderr, "fuzz_source: cannot run %s: %s\n", argv[0], strerror(rc));
        close(in[1]), close(out[0]);
        server_pid = -1;
        return 0;
    }
    to_server = in[1];
    from_server = out[0];
    /* the harness must outlive a dying server's pipe */
    signal(SIGPIPE, SIG_IGN);
    return 1;
}

static int write_all(int fd, const void *buf, size_t n) {
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return 0;
        p += w, n -= (size_t)w;
    }
    return 1;
}

static int read_all(int fd, void *buf, size_t n) {
    char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 0;
        p += r, n -= (size_t)r;
    }
    return 1;
}

static uint64_t le64(const unsigned char *b) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    return v;
}

/* The shim's result for `source`, from the server; 0 if it died. */
static int shim_via_server(const uint8_t *source, size_t size, int *status, char **out,
                           size_t *out_len, char **err, size_t *err_len) {
    if (server_pid < 0 && !server_start()) return 0;
    unsigned char h[8];
    for (int i = 0; i < 8; i++) h[i] = (unsigned char)((uint64_t)size >> (8 * i));
    if (!write_all(to_server, h, 8) || !write_all(to_server, source, size)) return 0;
    unsigned char st[4], len[8];
    if (!read_all(from_server, st, 4)) return 0;
    *status = (int)((uint32_t)st[0] | (uint32_t)st[1] << 8 | (uint32_t)st[2] << 16 |
                    (uint32_t)st[3] << 24);
    char **bufs[2] = {out, err};
    size_t *lens[2] = {out_len, err_len};
    for (int k = 0; k < 2; k++) {
        if (!read_all(from_server, len, 8)) return 0;
        uint64_t n = le64(len);
        if (n > ((uint64_t)1 << 32)) return 0;
        *bufs[k] = malloc((size_t)n + 1);
        if (!*bufs[k] || !read_all(from_server, *bufs[k], (size_t)n)) return 0;
        (*bufs[k])[n] = 0;
        *lens[k] = (size_t)n;
    }
    return 1;
}

/* The production path: the source in a temporary file, mt_compile spawning
 * the shim. */
static void compile_with_real_shim(const FuzzOptions *fo, const uint8_t *data, size_t size) {
    char path[] = "/tmp/mytriton_fuzz_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return;
    int ok = write_all(fd, data, size);
    close(fd);
    if (ok) {
        mt_options o;
        memset(&o, 0, sizeof o);
        o.path = path;
        o.kernel = fo->kernel;
        o.signature = fo->signature;
        o.defines = fo->defines;
        o.ndefines = fo->ndefines;
        o.grid = fo->grid;
        o.name = fo->name;
        o.opt_level = 2;
        o.python = python_path();
        o.shim = shim_path();
        mt_compilation *c = mt_compile(&o);
        (void)mt_emit(c, MT_EMIT_CUDA_TU);
        mt_free(c);
    }
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzOptions fo;
    fuzz_options_parse(data, size, &fo);
    int status = 0;
    char *out = NULL, *err = NULL;
    size_t out_len = 0, err_len = 0;
    if (shim_via_server(data, size, &status, &out, &out_len, &err, &err_len)) {
        fuzz_run_pipeline(&fo, status, out, out_len, err, err_len, (const char *)data, size);
    } else {
        server_stop();
        compile_with_real_shim(&fo, data, size);
    }
    free(out);
    free(err);
    fuzz_options_free(&fo);
    return 0;
}
