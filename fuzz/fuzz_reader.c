/* Fuzz harness (a): the parser shim's output, as arbitrary bytes, through
 * the AST reader and, when it reads, the rest of the pipeline (frontend,
 * lowering, passes, every backend). Input: an optional options line (see
 * fuzz_pipeline.h; status=N makes it the output of a shim that failed) and
 * the serialization. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The kernel text the diagnostics quote: the positions in the fuzzed tree
 * land anywhere in it (a byte order mark, tabs, CRLF, UTF-8, invalid
 * bytes, control characters, a line longer than the 200 bytes shown). */
static const char source[] =
    "\xEF\xBB\xBFimport triton\n"
    "import triton.language as tl\r\n"
    "\n"
    "@triton.jit\n"
    "def k(x, n):\n"
    "\ty = '\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80' + n\n"
    "    z = '\xFF\xC3' + '\x01\x7F'\n"
    "    w = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + 14 + 15 + 16 + 17 + 18 + 19 + "
    "20 + 21 + 22 + 23 + "
    "24 + 25 + 26 + 27 + 28 + 29 + 30 + 31 + 32 + 33 + 34 + 35 + 36 + 37 + 38 + 39 + 40 + 41 + 42 "
    "+ 43 + 44 + 45 + 46 + "
    "47 + 48 + 49 + 50 + 51 + 52 + 53 + 54 + 55 + 56 + 57 + 58 + 59 + 60 + '\xE2\x82\xAC'\n"
    "    tl.store(x, y)";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzOptions fo;
    size_t body = fuzz_options_parse(data, size, &fo);
    fuzz_run_pipeline(&fo, fo.status, (const char *)data + body, size - body,
                      "Traceback\nError: "
                      "fuzz\n",
                      22, source, sizeof source - 1);
    fuzz_options_free(&fo);
    return 0;
}
