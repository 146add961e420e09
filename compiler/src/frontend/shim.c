/* The parser shim, run as a subprocess: python3 (no shell) executes
 * shim/mytriton_parse.py on the kernel file; its stdout is read and handed
 * to the AST reader. The shim's own failures (a Python syntax error, an
 * unreadable file, no interpreter) become diagnostics, never a traceback. */
#define _POSIX_C_SOURCE 200809L
#include "frontend/pyast.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* MAX_SOURCE: the largest kernel or module file read (the shim's
 * MAX_SOURCE_BYTES): Python's parser and its AST take about 230 times a
 * file's size in memory and seconds per megabyte. */
enum { SHIM_TIMEOUT_MS = 60000, MAX_SOURCE = 2 << 20, MAX_OUTPUT = 512 << 20 };

/* ctx->filename's text, read into ctx->source: a regular file (a FIFO, a
 * device or a socket would block or never end: opened without blocking and
 * refused) of at most MAX_SOURCE bytes; 0 after a diagnostic. */
static int read_source(MtContext *ctx) {
    int fd = open(ctx->filename, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        mt_error(ctx, srcpos(0, 0), "cannot read the kernel file: %s", strerror(errno));
        if (fd >= 0) close(fd);
        return 0;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (S_ISDIR(st.st_mode))
            mt_error(ctx, srcpos(0, 0), "cannot read the kernel file: %s", strerror(EISDIR));
        else
            mt_error(ctx, srcpos(0, 0),
                     "cannot read the kernel file: it is not a regular file (a FIFO, a device or "
                     "a socket)");
        return 0;
    }
    StrBuf sb;
    sb_init(&sb, ctx->arena);
    char buf[65536];
    int why = 0;
    while (st.st_size <= MAX_SOURCE && sb.len <= MAX_SOURCE) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) why = errno;
        if (n <= 0) break;
        sb_putn(&sb, buf, (size_t)n);
    }
    close(fd);
    if (why) {
        mt_error(ctx, srcpos(0, 0), "cannot read the kernel file: %s", strerror(why));
        return 0;
    }
    if (st.st_size > MAX_SOURCE || sb.len > MAX_SOURCE) {
        mt_error(ctx, srcpos(0, 0),
                 "the file is larger than %d MiB, the most mytritonc reads (Python's parser "
                 "needs about 230 times a file's size in memory)",
                 MAX_SOURCE >> 20);
        return 0;
    }
    ctx->source = sb_str(&sb);
    ctx->source_len = sb.len;
    return 1;
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Runs argv, collecting stdout and stderr. Returns the exit status (or -1
 * after a diagnostic when it could not run or was stopped). */
static int run(MtContext *ctx, char *const argv[], StrBuf *out, StrBuf *err) {
    int pout[2], perr[2];
    if (pipe(pout) != 0) {
        mt_error(ctx, srcpos(0, 0), "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe(perr) != 0) {
        close(pout[0]), close(pout[1]);
        mt_error(ctx, srcpos(0, 0), "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
    posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
    posix_spawn_file_actions_addclose(&fa, pout[0]);
    posix_spawn_file_actions_addclose(&fa, perr[0]);
    posix_spawn_file_actions_addclose(&fa, pout[1]);
    posix_spawn_file_actions_addclose(&fa, perr[1]);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(pout[1]);
    close(perr[1]);
    if (rc != 0) {
        close(pout[0]), close(perr[0]);
        mt_error(ctx, srcpos(0, 0),
                 "cannot run the Python interpreter '%s': %s (mytritonc runs python3 to parse "
                 "kernel files; name another with --python or MYTRITON_PYTHON)",
                 argv[0], strerror(rc));
        return -1;
    }
    struct pollfd fds[2] = {{pout[0], POLLIN, 0}, {perr[0], POLLIN, 0}};
    int open_fds = 2, too_big = 0, timed_out = 0;
    long long deadline = now_ms() + SHIM_TIMEOUT_MS;
    while (open_fds > 0) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        int n = poll(fds, 2, (int)left);
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buf[65536];
            ssize_t got = read(fds[i].fd, buf, sizeof buf);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
                continue;
            }
            StrBuf *dst = i == 0 ? out : err;
            if (dst->len + (size_t)got > MAX_OUTPUT) too_big = 1;
            else sb_putn(dst, buf, (size_t)got);
        }
        if (too_big) break;
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0) close(fds[i].fd);
    if (timed_out || too_big) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (timed_out) {
        mt_error(ctx, srcpos(0, 0), "the parser shim did not finish within %d s",
                 SHIM_TIMEOUT_MS / 1000);
        return -1;
    }
    if (too_big) {
        mt_error(ctx, srcpos(0, 0), "the parser shim's output exceeds 512 MiB");
        return -1;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    mt_error(ctx, srcpos(0, 0), "the parser shim was stopped by signal %d",
             WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return -1;
}

/* The shim's `mytriton-ast-error LINE COL NBYTES MESSAGE` line. */
static int report_shim_error(MtContext *ctx, const char *text, size_t len) {
    const char *prefix = "mytriton-ast-error ";
    size_t plen = strlen(prefix);
    if (len < plen || memcmp(text, prefix, plen) != 0) return 0;
    char *copy = arena_strndup(ctx->arena, text + plen, len - plen);
    int line = 0, col = 0, consumed = 0;
    long nbytes = 0;
    if (sscanf(copy, "%d %d %ld %n", &line, &col, &nbytes, &consumed) < 3 || consumed <= 0)
        return 0;
    const char *msg = copy + consumed;
    size_t mlen = strlen(msg);
    if (nbytes >= 0 && (size_t)nbytes < mlen) mlen = (size_t)nbytes;
    while (mlen > 0 && (msg[mlen - 1] == '\n' || msg[mlen - 1] == '\r')) mlen--;
    if (line < 0) line = 0;
    if (col < 0) col = 0;
    mt_error(ctx, srcpos(line, line > 0 ? col + 1 : 0), "%.*s", (int)mlen, msg);
    return 1;
}

/* The last non-empty line of a Python error output (never the traceback). */
static const char *last_line(MtContext *ctx, StrBuf *sb) {
    const char *s = sb_str(sb);
    size_t end = sb->len;
    while (end > 0 && (s[end - 1] == '\n' || s[end - 1] == '\r' || s[end - 1] == ' ')) end--;
    size_t start = end;
    while (start > 0 && s[start - 1] != '\n') start--;
    if (end - start > 300) end = start + 300;
    return arena_strndup(ctx->arena, s + start, end - start);
}

PyNode *pyast_parse_file(MtContext *ctx, const char *python, const char *shim) {
    if (!read_source(ctx)) return NULL;
    if (!python || !*python) python = "python3";
    char *argv[] = {(char *)python, "-I", "-S", (char *)shim, (char *)ctx->filename, NULL};
    StrBuf out, err;
    sb_init(&out, ctx->arena);
    sb_init(&err, ctx->arena);
    int rc = run(ctx, argv, &out, &err);
    if (rc < 0) return NULL;
    return pyast_from_shim_output(ctx, rc, &out, &err, python, shim);
}

PyNode *pyast_from_shim_output(MtContext *ctx, int rc, StrBuf *out, StrBuf *err, const char *python,
                               const char *shim) {
    if (rc != 0) {
        if (report_shim_error(ctx, sb_str(out), out->len)) return NULL;
        const char *why = err->len ? last_line(ctx, err) : "no output";
        if (rc == 127 || strstr(why, "No such file") || strstr(why, "can't open file"))
            mt_error(ctx, srcpos(0, 0), "cannot run the parser shim '%s' with '%s': %s", shim,
                     python, why);
        else mt_error(ctx, srcpos(0, 0), "the parser shim failed (exit status %d): %s", rc, why);
        return NULL;
    }
    return pyast_read(ctx, sb_str(out), out->len);
}
