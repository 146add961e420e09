// The parser shim and the AST reader (DESIGN 3.1-3.2): the reader turns
// every malformed serialization into a diagnostic and never crashes; the
// shim never imports or executes the kernel file, and its own failures
// (syntax errors, unreadable files, bad bytes, no interpreter) become
// diagnostics at Python's position, never a traceback.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdint>
#include <string>

#include "unit_support.h"

namespace {

using namespace mt_unit;
using mt_test::run_process;

const char *kSmallKernel =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "\n"
    "@triton.jit\n"
    "def k(x, n, BLOCK: tl.constexpr):\n"
    "    \"\"\"doc \xc3\xa9\"\"\"\n"
    "    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    acc = 0.0\n"
    "    for i in range(n):\n"
    "        acc += tl.load(x + o + i, mask=o < n, other=0.0)\n"
    "    tl.store(x + o, acc * 1.5e-3, mask=o < n)\n";

// What the shim prints for `text`.
std::string serialize(const std::string &text) {
    std::string path = write_kernel("reader_ser", "k.py", text);
    auto r = run_process({MT_TEST_PYTHON, "-I", "-S", MT_TEST_SHIM, path});
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
}

// pyast_read on `text`: "" and the Module's kind on success ("Module"), or
// the diagnostics.
struct ReadResult {
    bool ok;
    std::string kind, diagnostics;
};

ReadResult read(const std::string &text) {
    MtContext *ctx = mt_context_new("k.py");
    PyNode *n = pyast_read(ctx, text.data(), text.size());
    ReadResult r{n != nullptr, n ? n->kind : "", sb_str(&ctx->diagnostics)};
    // a failure always comes with a diagnostic, a success never
    EXPECT_EQ(r.ok, ctx->errors == 0) << r.diagnostics;
    mt_context_free(ctx);
    return r;
}

void expect_malformed(const std::string &text, const std::string &what) {
    ReadResult r = read(text);
    EXPECT_FALSE(r.ok) << text;
    EXPECT_EQ(r.diagnostics.rfind("k.py: error: malformed output from the parser shim at byte ", 0),
              0u)
        << r.diagnostics;
    EXPECT_NE(r.diagnostics.find(what), std::string::npos) << r.diagnostics << "wanted: " << what;
}

const std::string kEmptyModule = "mytriton-ast 1\nN Module 1 0 1 0 2\nbody L 0\ntype_ignores L 0\n";

TEST(Reader, ReadsWellFormedInput) {
    ReadResult r = read(kEmptyModule);
    EXPECT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(r.kind, "Module");

    MtContext *ctx = mt_context_new("k.py");
    std::string text = serialize(kSmallKernel);
    PyNode *m = pyast_read(ctx, text.data(), text.size());
    ASSERT_NE(m, nullptr) << sb_str(&ctx->diagnostics);
    const PyVal *body = pyast_list(m, "body");
    ASSERT_NE(body, nullptr);
    ASSERT_EQ(body->len, 3);  // two imports, one function
    PyNode *fn = body->items[2]->node;
    EXPECT_STREQ(fn->kind, "FunctionDef");
    EXPECT_STREQ(pyast_str(fn, "name"), "k");
    EXPECT_EQ(fn->pos.line, 6);  // the def line (decorators are separate)
    EXPECT_EQ(fn->pos.col, 1);
    // the docstring's UTF-8 survives
    const PyNode *doc = pyast_node(pyast_list(fn, "body")->items[0]->node, "value");
    EXPECT_STREQ(pyast_str(doc, "value"), "doc \xc3\xa9");
    mt_context_free(ctx);
}

TEST(Reader, EmptyAndTruncatedText) {
    expect_malformed("", "unexpected end of input");
    expect_malformed("mytriton-ast", "unexpected end of input");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 2\nbody L 0\n", "unexpected end of input");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody L 1\nN Expr 1 0 1 1 1\nvalue S 5 ab",
                     "text runs past the end");
}

// Every prefix of a real serialization is rejected cleanly.
TEST(Reader, EveryTruncationIsADiagnostic) {
    std::string text = serialize(kSmallKernel);
    ASSERT_GT(text.size(), 200u);
    // trailing spaces/newlines do not matter; anything shorter must fail
    size_t full = text.find_last_not_of(" \n") + 1;
    for (size_t n = 0; n < full; n++) {
        ReadResult r = read(text.substr(0, n));
        // a cut inside a number token can still parse as a shorter number
        // only at the very end, where the structure is then incomplete
        EXPECT_FALSE(r.ok) << "prefix of " << n << " bytes was accepted";
        if (r.ok) break;
    }
    EXPECT_TRUE(read(text).ok);
}

TEST(Reader, BadHeaderAndVersion) {
    expect_malformed("mytriton-tsa 1\nZ\n", "missing 'mytriton-ast' header");
    expect_malformed("mytriton-ast 2\nZ\n", "unsupported serialization version");
    expect_malformed("mytriton-ast x\nZ\n", "bad number");
}

TEST(Reader, BadTags) {
    expect_malformed("mytriton-ast 1\nQ\n", "unknown value tag");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody L 1\nX 3\n", "unknown value tag");
    expect_malformed("mytriton-ast 1\nN Mod-ule 1 0 1 0 0\n", "bad name");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbo.dy L 0\n", "bad name");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody I 12a\n", "bad int");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody I -\n", "bad int");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody F 1.5x\n", "bad float");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody C 1.0\n", "unexpected end of input");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody B 2\n", "bad number");
}

TEST(Reader, BadCounts) {
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 -1\n", "bad number");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 65\n", "bad number");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 x\n", "bad number");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody L -3\n", "bad number");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody L 2\nZ\n",
                     "unexpected end of input");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody S -1 \n", "bad number");
    expect_malformed("mytriton-ast 1\nN Module 99999999999 0 1 0 0\n", "bad number");
}

TEST(Reader, LengthsPastTheEnd) {
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody S 100 short\n",
                     "text runs past the end");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody Y 7 abc", "text runs past the end");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody S 1073741824 x",
                     "text runs past the end");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody S 3\n", "missing space before text");
}

TEST(Reader, HugeCounts) {
    // counts are not trusted for allocation: the input runs out first
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody L 16777216\nZ\nZ\n",
                     "unexpected end of input");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody L 16777217\n", "bad number");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody L 999999999999999999999999\n",
                     "bad number");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody L " + std::string(40, '9') + "\n",
                     "number too long");
    expect_malformed("mytriton-ast 1\nN Module 1 0 1 0 1\nbody S 2147483648 x\n", "bad number");
    // a huge int literal is kept as text
    ReadResult r =
        read("mytriton-ast 1\nN Module 1 0 1 0 1\nbody I " + std::string(5000, '9') + "\n");
    EXPECT_TRUE(r.ok) << r.diagnostics;
}

TEST(Reader, NestingDeeperThanTheLimit) {
    std::string deep = "mytriton-ast 1\nN Module 1 0 1 0 1\nbody ";
    for (int i = 0; i < 100000; i++) deep += "L 1\n";
    deep += "Z\n";
    expect_malformed(deep, "nesting too deep");
    std::string nodes = "mytriton-ast 1\nN Module 1 0 1 0 1\nbody ";
    for (int i = 0; i < 100000; i++) nodes += "N UnaryOp 1 0 1 1 1\noperand ";
    nodes += "Z\n";
    expect_malformed(nodes, "nesting too deep");
    // shallow enough is fine
    std::string ok = "mytriton-ast 1\nN Module 1 0 1 0 1\nbody ";
    for (int i = 0; i < 500; i++) ok += "L 1\n";
    ok += "Z\n";
    EXPECT_TRUE(read(ok).ok);
}

TEST(Reader, TopValueMustBeAModule) {
    expect_malformed("mytriton-ast 1\nN Name 1 0 1 1 1\nid S 1 x\n",
                     "the top value is not a Module");
    expect_malformed("mytriton-ast 1\nL 0\n", "the top value is not a Module");
    expect_malformed("mytriton-ast 1\nZ\n", "the top value is not a Module");
}

TEST(Reader, TrailingGarbage) {
    expect_malformed(kEmptyModule + "Z\n", "trailing data");
    expect_malformed(kEmptyModule + "garbage", "trailing data");
    EXPECT_TRUE(read(kEmptyModule + "\n\n  \n").ok);
}

TEST(Reader, ErrorNamesTheByteOffset) {
    ReadResult r = read("mytriton-ast 1\nQ\n");
    EXPECT_EQ(r.diagnostics,
              "k.py: error: malformed output from the parser shim at byte 15: unknown value tag\n");
}

// Deterministic mutations of a real serialization: the reader and then the
// frontend either accept the tree or report a diagnostic; nothing crashes.
TEST(Reader, MutatedSerializationsNeverCrash) {
    std::string text = serialize(kSmallKernel);
    uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&state]() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    const char alphabet[] = " \n0123456789-LNSZIFBYCEQ_abcxyz";
    int accepted = 0;
    for (int iter = 0; iter < 1500; iter++) {
        std::string m = text;
        int edits = 1 + static_cast<int>(next() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = next() % m.size();
            switch (next() % 3) {
            case 0: m[at] = alphabet[next() % (sizeof alphabet - 1)]; break;
            case 1: m.erase(at, 1 + next() % 8); break;
            default: m.insert(at, 1, alphabet[next() % (sizeof alphabet - 1)]); break;
            }
            if (m.empty()) m = "x";
        }
        MtContext *ctx = mt_context_new("k.py");
        PyNode *mod = pyast_read(ctx, m.data(), m.size());
        if (mod) {
            accepted++;
            Signature *sig = signature_parse(ctx, "*fp32, i32");
            Define d = {"BLOCK", "8", 0};
            Kernel *k = frontend_build(ctx, mod, "k", sig, &d, 1);
            if (k) {
                Function *f = lower_kernel(ctx, k, "k_kernel");
                passes_run(ctx, f, 2, nullptr);
            }
        } else {
            EXPECT_GT(ctx->errors, 0);
        }
        mt_context_free(ctx);
    }
    EXPECT_GT(accepted, 0);
}

// Structural mutations of a well-formed tree (what a broken or hostile
// shim could print): node kinds swapped, fields dropped, renamed or given
// values of another kind. The frontend reports a diagnostic or compiles;
// it never dereferences a missing field.
void collect(PyVal *v, std::vector<PyVal *> &vals, std::vector<PyNode *> &nodes) {
    vals.push_back(v);
    if (v->kind == PYV_NODE) {
        nodes.push_back(v->node);
        for (int i = 0; i < v->node->nfields; i++) collect(v->node->values[i], vals, nodes);
    } else if (v->kind == PYV_LIST) {
        for (int i = 0; i < v->len; i++) collect(v->items[i], vals, nodes);
    }
}

TEST(Reader, StructurallyMutatedTreesNeverCrash) {
    std::string text = serialize(kSmallKernel);
    static const char *const kinds[] = {
        "Name",       "Constant",    "Call",      "Attribute", "BinOp",   "Compare",   "For",
        "If",         "Assign",      "AugAssign", "Tuple",     "List",    "Subscript", "Slice",
        "Expr",       "FunctionDef", "arguments", "arg",       "keyword", "alias",     "Import",
        "ImportFrom", "While",       "Return",    "UnaryOp",   "BoolOp",  "IfExp",     "Starred",
        "Module",     "Pass",        "Break",     "AnnAssign", "Load",    "Add",       "Mult",
        "Lt",         "USub",        "Not",       "And",       "Lambda",  "Dict"};
    static const char *const names[] = {
        "id",    "value",  "args",           "body",       "target",   "iter",        "func",
        "attr",  "left",   "right",          "op",         "ops",      "comparators", "elts",
        "slice", "test",   "orelse",         "targets",    "keywords", "arg",         "name",
        "names", "module", "decorator_list", "annotation", "defaults", "operand",     "values"};
    uint64_t state = 0x2545F4914F6CDD1Dull;
    auto next = [&state]() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    int compiled = 0, rejected = 0;
    for (int iter = 0; iter < 3000; iter++) {
        MtContext *ctx = mt_context_new("k.py");
        PyNode *mod = pyast_read(ctx, text.data(), text.size());
        PyNode *donor = pyast_read(ctx, text.data(), text.size());
        ASSERT_NE(mod, nullptr);
        ASSERT_NE(donor, nullptr);
        PyVal root{};
        root.kind = PYV_NODE;
        root.node = mod;
        PyVal droot = root;
        droot.node = donor;
        std::vector<PyVal *> vals, dvals;
        std::vector<PyNode *> nodes, dnodes;
        collect(&root, vals, nodes);
        collect(&droot, dvals, dnodes);
        int edits = 1 + static_cast<int>(next() % 3);
        for (int e = 0; e < edits; e++) {
            PyNode *n = nodes[1 + next() % (nodes.size() - 1)];  // keep the Module
            switch (next() % 4) {
            case 0: n->kind = kinds[next() % (sizeof kinds / sizeof kinds[0])]; break;
            case 1:
                if (n->nfields > 0) {
                    int i = static_cast<int>(next() % static_cast<uint64_t>(n->nfields));
                    n->names[i] = n->names[n->nfields - 1];
                    n->values[i] = n->values[n->nfields - 1];
                    n->nfields--;
                }
                break;
            case 2:
                if (n->nfields > 0)
                    n->names[next() % static_cast<uint64_t>(n->nfields)] =
                        names[next() % (sizeof names / sizeof names[0])];
                break;
            default:
                if (n->nfields > 0) {
                    PyVal *v = ARENA_NEW(ctx->arena, PyVal);
                    switch (next() % 6) {
                    case 0: v->kind = PYV_NONE; break;
                    case 1: v->kind = PYV_LIST; break;  // empty
                    case 2:
                        v->kind = PYV_INT, v->i = static_cast<int64_t>(next() % 5) - 1,
                        v->int_fits = 1, v->text = "1";
                        break;
                    case 3: v->kind = PYV_STR, v->text = names[next() % 4], v->len = 2; break;
                    case 4: v->kind = PYV_FLOAT, v->f = 0.5, v->text = "0.5"; break;
                    default:
                        v = dvals[next() % dvals.size()];
                        break;  // a subtree of the donor (no cycles)
                    }
                    n->values[next() % static_cast<uint64_t>(n->nfields)] = v;
                }
                break;
            }
        }
        Signature *sig = signature_parse(ctx, "*fp32, i32");
        Define d = {"BLOCK", "8", 0};
        Kernel *k = frontend_build(ctx, mod, "k", sig, &d, 1);
        if (k) {
            Function *f = lower_kernel(ctx, k, "k_kernel");
            EXPECT_TRUE(passes_run(ctx, f, 2, nullptr)) << sb_str(&ctx->diagnostics);
            compiled++;
        } else {
            EXPECT_GT(ctx->errors, 0);
            rejected++;
        }
        mt_context_free(ctx);
    }
    EXPECT_GT(compiled, 0);
    EXPECT_GT(rejected, 0);
}

// ---- The shim ---------------------------------------------------------------

std::vector<std::string> cli(const std::string &path, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {MT_TEST_COMPILER, path,    "--kernel",  "k",
                                     "--signature",    "*fp32", "--emit=ssa"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return argv;
}

void expect_no_traceback(const mt_test::ProcessResult &r) {
    EXPECT_EQ(r.err.find("Traceback"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("Traceback"), std::string::npos) << r.out;
}

TEST(Shim, NeverExecutesTheKernelFile) {
    std::string dir = mt_test::make_temp_dir("shim_exec");
    std::string marker = dir + "/executed.txt";
    std::string text =
        "import os\n"
        "import triton\n"
        "import triton.language as tl\n"
        "open("
        "'" +
        marker +
        "', 'w').write('the kernel file ran')\n"
        "os.system('touch " +
        marker +
        "')\n"
        "raise SystemExit(3)\n"
        "\n"
        "@triton.jit\n"
        "def k(x):\n"
        "    tl.store(x, 1.0)\n";
    std::string path = dir + "/k.py";
    mt_test::write_file(path, text);
    auto r = run_process(cli(path));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "store x, 1.0, none\n");
    EXPECT_FALSE(mt_test::file_exists(marker)) << "the shim executed the kernel file";
    // nor through the library
    CompileArgs a;
    a.path = path;
    a.signature = "*fp32";
    Compiled c = compile(a);
    EXPECT_TRUE(c.ok) << c.diagnostics;
    EXPECT_FALSE(mt_test::file_exists(marker));
}

TEST(Shim, PythonSyntaxErrorAtPythonsPosition) {
    std::string path = write_kernel("shim_syntax", "k.py",
                                    "import triton\n\n@triton.jit\ndef k(x):\n    y = 1 +* 2\n");
    auto r = run_process(cli(path));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, path +
                         ":5:12: error: Python syntax error: invalid syntax\n"
                         "        y = 1 +* 2\n"
                         "               ^\n");
    expect_no_traceback(r);
}

TEST(Shim, PythonSyntaxErrorUnclosedParenthesis) {
    std::string path = write_kernel("shim_paren", "k.py",
                                    "import triton\n\n@triton.jit\ndef k(x):\n    y = (1 +\n");
    auto r = run_process(cli(path));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, path +
                         ":5:9: error: Python syntax error: '(' was never closed\n"
                         "        y = (1 +\n"
                         "            ^\n");
    expect_no_traceback(r);
}

TEST(Shim, SyntaxErrorColumnCountsBytesAfterNonAscii) {
    // the column counts bytes (é is two), the caret characters: it stands
    // under the '*'
    std::string path =
        write_kernel("shim_utf8col", "k.py",
                     "import triton\n\n@triton.jit\ndef k(x):\n    y = '\xc3\xa9' +* 2\n");
    auto r = run_process(cli(path));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, path +
                         ":5:15: error: Python syntax error: invalid syntax\n"
                         "        y = '\xc3\xa9' +* 2\n"
                         "                 ^\n");
}

TEST(Shim, IndentationError) {
    std::string path =
        write_kernel("shim_indent", "k.py", "import triton\n\n@triton.jit\ndef k(x):\npass\n");
    auto r = run_process(cli(path));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find(path + ":5:1: error: Python syntax error: expected an indented block"),
              std::string::npos)
        << r.err;
    expect_no_traceback(r);
}

TEST(Shim, NonexistentFile) {
    std::string dir = mt_test::make_temp_dir("shim_missing");
    auto r = run_process(cli(dir + "/missing.py"));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err,
              dir + "/missing.py: error: cannot read the kernel file: No such file or directory\n");
}

TEST(Shim, UnreadableFile) {
    // a directory opens but cannot be read (a mode-000 file would be
    // readable by root, who runs some CI jobs)
    std::string dir = mt_test::make_temp_dir("shim_unreadable");
    std::string path = dir + "/k.py";
    ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
    auto r = run_process(cli(path));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, path + ": error: cannot read the kernel file: Is a directory\n");
}

TEST(Shim, NonUtf8Bytes) {
    std::string path = write_kernel(
        "shim_utf8", "k.py", "import triton\n\n@triton.jit\ndef k(x):\n    y = \"\xff\xfe\"\n");
    auto r = run_process(cli(path));
    EXPECT_EQ(r.status, 1);
    // the bad bytes print as '?', the caret under the first
    EXPECT_EQ(r.err, path +
                         ":5:10: error: file is not valid UTF-8\n"
                         "        y = \"??\"\n"
                         "             ^\n");
    expect_no_traceback(r);
}

TEST(Shim, NoPythonInterpreterOption) {
    std::string path =
        write_kernel("shim_nopy", "k.py", "import triton\n\n@triton.jit\ndef k(x):\n    pass\n");
    auto r = run_process(cli(path, {"--python", "/nonexistent/python3"}));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(
        r.err,
        path +
            ": error: cannot run the Python interpreter '/nonexistent/python3': No such file or "
            "directory (mytritonc runs python3 to parse kernel files; name another with --python or "
            "MYTRITON_PYTHON)\n");
}

TEST(Shim, NoPythonInterpreterEnvironment) {
    std::string path = write_kernel("shim_nopy_env", "k.py",
                                    "import triton\n\n@triton.jit\ndef k(x):\n    pass\n");
    auto r = run_process(cli(path), {"MYTRITON_PYTHON=/nonexistent/python3"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find(": error: cannot run the Python interpreter '/nonexistent/python3'"),
              std::string::npos)
        << r.err;
    // the option wins over the environment
    auto ok = run_process(cli(path, {"--python", MT_TEST_PYTHON}),
                          {"MYTRITON_PYTHON=/nonexistent/python3"});
    EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST(Shim, NoPythonThroughTheLibrary) {
    std::string path = write_kernel("shim_nopy_lib", "k.py",
                                    "import triton\n\n@triton.jit\ndef k(x):\n    pass\n");
    CompileArgs a;
    a.path = path;
    a.signature = "*fp32";
    a.python = "/nonexistent/python3";
    Compiled c = compile(a);
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.diagnostics.find("cannot run the Python interpreter '/nonexistent/python3'"),
              std::string::npos)
        << c.diagnostics;
}

TEST(Shim, InterpreterThatFailsOrPrintsGarbage) {
    std::string path =
        write_kernel("shim_badpy", "k.py", "import triton\n\n@triton.jit\ndef k(x):\n    pass\n");
    auto f = run_process(cli(path, {"--python", "false"}));
    EXPECT_EQ(f.status, 1);
    EXPECT_EQ(f.err, path + ": error: the parser shim failed (exit status 1): no output\n");
    auto e = run_process(cli(path, {"--python", "echo"}));
    EXPECT_EQ(e.status, 1);
    EXPECT_NE(
        e.err.find(
            path +
            ": error: malformed output from the parser shim at byte 0: missing 'mytriton-ast' header"),
        std::string::npos)
        << e.err;
}

TEST(Shim, MissingShimScript) {
    std::string path = write_kernel("shim_noscript", "k.py",
                                    "import triton\n\n@triton.jit\ndef k(x):\n    pass\n");
    auto r = run_process(cli(path, {"--shim", "/nonexistent/mytriton_parse.py"}));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(
        r.err.find(path + ": error: cannot run the parser shim '/nonexistent/mytriton_parse.py'"),
        std::string::npos)
        << r.err;
    expect_no_traceback(r);
}

TEST(Shim, DeeplyNestedSourceIsADiagnostic) {
    std::string body = "    y = " + std::string(20000, '(') + "1" + std::string(20000, ')') + "\n";
    std::string path =
        write_kernel("shim_deep", "k.py", "import triton\n\n@triton.jit\ndef k(x):\n" + body);
    auto r = run_process(cli(path));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find(": error: "), std::string::npos) << r.err.substr(0, 300);
    expect_no_traceback(r);
    std::string chain = "    y = " + std::string(30000, '-') + "1\n";
    path = write_kernel("shim_deep2", "k.py", "import triton\n\n@triton.jit\ndef k(x):\n" + chain);
    r = run_process(cli(path));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find(": error: "), std::string::npos) << r.err.substr(0, 300);
    expect_no_traceback(r);
}

TEST(Shim, ByteOrderMarkIsIgnored) {
    std::string path = write_kernel(
        "shim_bom", "k.py",
        "\xef\xbb\xbfimport triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x):\n    tl.store(x, 1.0)\n");
    auto r = run_process(cli(path));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "store x, 1.0, none\n");
}

}  // namespace
