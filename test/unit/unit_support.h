// Helpers shared by the white-box unit tests: a builder for hand-written
// SSA, and compiling kernel text through the library (mt_compile).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "internal.h"
#include "mytriton/mytriton.h"
#include "process.h"

namespace mt_unit {

// One expected diagnostic (diagnostics_test.cpp, diagnostics_more_test.cpp):
// a kernel k(params) in k.py whose body starts at line 7.
struct DiagnosticCase {
    const char *name;
    const char *params;
    const char *signature;
    const char *body;      // from line 7
    const char *expected;  // the whole diagnostic output, file named k.py
    std::vector<std::pair<std::string, std::string>> defines = {};
    const char *grid = nullptr;
    const char *after = "";  // module text after the kernel
    int opt_level = 2;
    const char *file = nullptr;  // the whole file instead of the prologue and body
};

// ---- Types and operands --------------------------------------------------

inline Type i32() { return type_scalar(DT_I32); }
inline Type f32() { return type_scalar(DT_F32); }
inline Type boolean() { return type_scalar(DT_BOOL); }
inline Type ptr_f32() { return type_ptr(DT_F32); }
inline Type vec(Type elem, int n) {
    int32_t d[1] = {n};
    return type_with_shape(elem, 1, d);
}
inline Type blk(Type elem, int r, int c) {
    int32_t d[2] = {r, c};
    return type_with_shape(elem, 2, d);
}
inline Type shaped(Type elem, std::initializer_list<int32_t> dims) {
    int32_t d[MT_MAX_RANK] = {0};
    int n = 0;
    for (int32_t x : dims) d[n++] = x;
    return type_with_shape(elem, n, d);
}
inline Operand ci(int64_t v) { return opd_const(const_i32(v)); }
inline Operand cf(double v) { return opd_const(const_f32(v)); }
inline Operand cb(bool v) { return opd_const(const_bool(v)); }
inline Operand none() { return opd_none(); }
inline Operand val(int id) { return opd_value(id); }
inline Operand param(int index) { return opd_param(index); }

inline Attrs axis_attr(int axis) {
    Attrs at{};
    at.axis = axis;
    return at;
}
inline Attrs range_attr(int start, int end) {
    Attrs at{};
    at.start = start;
    at.end = end;
    return at;
}
inline Attrs shape_attr(std::vector<int> shape, DType dt) {
    Attrs at{};
    at.rank = static_cast<int>(shape.size());
    for (size_t i = 0; i < shape.size() && i < MT_MAX_RANK; i++) at.shape[i] = shape[i];
    at.dtype = dt;
    return at;
}

// A hand-built function (Ssa) that the verifier accepts, or rejects with a
// message holding `text`.
#define EXPECT_VALID(s) EXPECT_EQ((s).verify(), "") << (s).print()
#define EXPECT_REJECTED(s, text)                              \
    do {                                                      \
        std::string err_ = (s).verify();                      \
        EXPECT_NE(err_, "") << "accepted:\n" << (s).print();  \
        EXPECT_NE(err_.find(text), std::string::npos)         \
            << "message: " << err_ << "\nwanted: " << (text); \
    } while (0)

// ---- Hand-built SSA ----------------------------------------------------------

// Builds a Function item by item, as lowering would: ops get the next value
// number; a loop allocates its induction value and region arguments when
// it opens and its results when it closes.
class Ssa {
  public:
    explicit Ssa(std::vector<std::pair<std::string, Type>> params = {}) {
        a = arena_new();
        f = ssa_function_new(a, "k", static_cast<int>(params.size()));
        for (size_t i = 0; i < params.size(); i++) {
            f->params[i].name = arena_strdup(a, params[i].first.c_str());
            f->params[i].type = params[i].second;
        }
        cur = &f->body;
    }
    ~Ssa() { arena_free(a); }
    Ssa(const Ssa &) = delete;
    Ssa &operator=(const Ssa &) = delete;

    // An op defining a value of type `t` (the caller states the type, so
    // tests can record a wrong one).
    Operand op(Op o, Type t, std::vector<Operand> args, Attrs at = Attrs{}) {
        Inst *in = raw(o, args, at);
        in->type = t;
        in->result = ssa_new_value(a, f, t, in);
        return opd_value(in->result);
    }
    // An op typed by the type rule (fails the test if the rule rejects it).
    Operand typed(Op o, std::vector<Operand> args, Attrs at = Attrs{}) {
        Type types[3] = {};
        int present[3] = {0, 0, 0};
        for (size_t i = 0; i < args.size(); i++) {
            types[i] = operand_type(f, args[i]);
            present[i] = args[i].kind != OPD_NONE;
        }
        Type t{};
        const char *err = nullptr;
        EXPECT_TRUE(op_result_type(a, o, types, present, &at, &t, &err)) << (err ? err : "");
        return op(o, t, args, at);
    }
    Inst *store(Operand ptr, Operand value, Operand mask = opd_none()) {
        Inst *in = raw(OP_STORE, {ptr, value, mask}, Attrs{});
        in->type = type_scalar(DT_NONE);
        return in;
    }
    // The item most recently added to the current block.
    Inst *last() const { return static_cast<Inst *>(cur->items.items[cur->items.len - 1]); }

    struct LoopRef {
        Inst *in = nullptr;
        Loop *l = nullptr;
        Operand index{};
        std::vector<Operand> args;
        Block *outer = nullptr;
    };
    // Opens `for %i in range(start, stop, step) iter_args(... = inits)`;
    // the body is built until end_loop.
    LoopRef begin_loop(Operand start, Operand stop, Operand step, std::vector<Operand> inits = {}) {
        LoopRef r;
        r.in = ssa_inst_new(a, OP_FOR, srcpos(1, 1));
        r.l = ARENA_NEW(a, Loop);
        r.in->loop = r.l;
        Loop *l = r.l;
        l->start = start;
        l->stop = stop;
        l->step = step;
        int n = static_cast<int>(inits.size());
        l->ncarried = l->nyields = l->nresults = n;
        l->inits = ARENA_ARRAY(a, Operand, n + 1);
        l->args = ARENA_ARRAY(a, int, n + 1);
        l->yields = ARENA_ARRAY(a, Operand, n + 1);
        l->results = ARENA_ARRAY(a, int, n + 1);
        for (int i = 0; i < n; i++) l->inits[i] = inits[i];
        l->index = ssa_new_value(a, f, type_scalar(DT_I32), r.in);
        r.index = opd_value(l->index);
        for (int i = 0; i < n; i++) {
            l->args[i] = ssa_new_value(a, f, operand_type(f, inits[i]), r.in);
            r.args.push_back(opd_value(l->args[i]));
        }
        r.outer = cur;
        cur = &l->body;
        return r;
    }
    // Closes the loop with `yield ...`; returns its results.
    std::vector<Operand> end_loop(const LoopRef &r, std::vector<Operand> yields = {}) {
        Loop *l = r.l;
        for (size_t i = 0; i < yields.size() && static_cast<int>(i) < l->nyields; i++)
            l->yields[i] = yields[i];
        cur = r.outer;
        std::vector<Operand> results;
        for (int i = 0; i < l->nresults; i++) {
            l->results[i] = ssa_new_value(a, f, f->types[l->args[i]], r.in);
            results.push_back(opd_value(l->results[i]));
        }
        ptrvec_push(a, &cur->items, r.in);
        return results;
    }

    std::string print() const {
        StrBuf sb;
        sb_init(&sb, a);
        ssa_print(&sb, a, f);
        return sb_str(&sb);
    }
    // The verifier's message, or "" when the function is valid.
    std::string verify() const {
        const char *err = nullptr;
        if (ssa_verify(a, f, &err)) return "";
        return err ? err : "(no message)";
    }

    Arena *a = nullptr;
    Function *f = nullptr;
    Block *cur = nullptr;

  private:
    Inst *raw(Op o, const std::vector<Operand> &args, const Attrs &at) {
        Inst *in = ssa_inst_new(a, o, srcpos(1, 1));
        in->nargs = static_cast<int>(args.size());
        for (size_t i = 0; i < args.size() && i < 3; i++) in->args[i] = args[i];
        in->attrs = at;
        ptrvec_push(a, &cur->items, in);
        return in;
    }
};

// ---- Compiling kernel text ---------------------------------------------------

struct Compiled {
    bool ok = false;
    std::string diagnostics;
    std::string ssa, cuda, layout;
    std::string explain;  // --emit=explain, when CompileArgs.explain asks
};

struct CompileArgs {
    std::string path;
    std::string kernel = "k";
    std::string signature;
    std::vector<std::pair<std::string, std::string>> defines;
    const char *grid = nullptr;
    int opt_level = 2;
    int num_warps = 0;
    const char *python = MT_TEST_PYTHON;
    bool explain = false;
};

// Compiles with the library; ssa/cuda are filled when they succeed.
inline Compiled compile(const CompileArgs &args) {
    std::vector<mt_define> defs;
    for (auto &d : args.defines) defs.push_back({d.first.c_str(), d.second.c_str()});
    mt_options o{};
    o.path = args.path.c_str();
    o.kernel = args.kernel.c_str();
    o.signature = args.signature.c_str();
    o.defines = defs.empty() ? nullptr : defs.data();
    o.ndefines = static_cast<int>(defs.size());
    o.grid = args.grid;
    o.opt_level = args.opt_level;
    o.num_warps = args.num_warps;
    o.python = args.python;
    o.shim = MT_TEST_SHIM;
    mt_compilation *c = mt_compile(&o);
    Compiled r;
    if (mt_ok(c)) {
        const char *s = mt_emit(c, MT_EMIT_SSA);
        if (s) r.ssa = s;
        const char *cu = mt_emit(c, MT_EMIT_CUDA);
        if (cu) r.cuda = cu;
        const char *l = mt_emit(c, MT_EMIT_LAYOUT);
        if (l) r.layout = l;
        const char *e = args.explain ? mt_emit(c, MT_EMIT_EXPLAIN) : nullptr;
        if (e) r.explain = e;
    }
    r.ok = mt_ok(c) != 0;
    r.diagnostics = mt_diagnostics(c);
    mt_free(c);
    return r;
}

inline std::string conformance_kernel(const std::string &file) {
    return std::string(MT_TEST_SOURCE_DIR) + "/conformance/kernels/" + file;
}

// A kernel file `name` in a fresh scratch directory holding `text`.
inline std::string write_kernel(const std::string &tag, const std::string &name,
                                const std::string &text) {
    std::string dir = mt_test::make_temp_dir(tag);
    std::string path = dir + "/" + name;
    mt_test::write_file(path, text);
    return path;
}

// The standard prologue of the snippets: imports, two blank lines, the
// decorator and `def k(PARAMS):` on line 6; the body starts on line 7.
inline std::string kernel_text(const std::string &params, const std::string &body) {
    return "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(" + params +
           "):\n" + body;
}

// The diagnostics of compiling DiagnosticCase c (its kernel written to a
// scratch directory tagged `tag`), that directory's path removed; 0 in
// *ok when it compiled.
inline std::string case_diagnostics(const DiagnosticCase &c, const std::string &tag,
                                    bool *ok = nullptr) {
    std::string text = c.file ? c.file : kernel_text(c.params, c.body) + c.after;
    std::string path = write_kernel(tag + c.name, "k.py", text);
    std::string dir = path.substr(0, path.size() - 4);
    CompileArgs a;
    a.path = path;
    a.signature = c.signature;
    a.defines = c.defines;
    a.grid = c.grid;
    a.opt_level = c.opt_level;
    Compiled r = compile(a);
    if (ok) *ok = r.ok;
    std::string got = r.diagnostics;
    for (size_t at; (at = got.find(dir)) != std::string::npos;) got.erase(at, dir.size());
    return got;
}

}  // namespace mt_unit
