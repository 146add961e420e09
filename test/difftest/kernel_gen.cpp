// The random kernel generator (see kernel_gen.h).
#include "kernel_gen.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

namespace difftest {
namespace {

// ---- PRNG (splitmix64: the same sequence everywhere) ----------------------
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull) {}
    uint64_t next() {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    int range(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }  // inclusive
    bool chance(int percent) { return range(0, 99) < percent; }
    template <class T>
    const T &pick(const std::vector<T> &v) {
        return v[(size_t)range(0, (int)v.size() - 1)];
    }
};

// ---- Values ---------------------------------------------------------------
enum class DT { I32, F32, Bool };

// A shape: rank 0 (scalar), 1 (d0) or 2 (d0, d1).
struct Shape {
    int rank = 0, d0 = 1, d1 = 1;
    bool operator==(const Shape &o) const { return rank == o.rank && d0 == o.d0 && d1 == o.d1; }
    int numel() const { return rank == 0 ? 1 : rank == 1 ? d0 : d0 * d1; }
};

// numpy broadcasting of two shapes (rank 1 aligns with the last dimension);
// false when incompatible.
bool broadcast(Shape a, Shape b, Shape *out) {
    if (a.rank == 0) return *out = b, true;
    if (b.rank == 0) return *out = a, true;
    if (a.rank == 1 && b.rank == 1) return a.d0 == b.d0 ? (*out = a, true) : false;
    // rank 1 with rank 2 (numpy aligns it with the columns) is left out
    if (a.rank != b.rank) return false;
    auto dim = [](int x, int y, int *r) {
        if (x == y || y == 1) return *r = x, true;
        if (x == 1) return *r = y, true;
        return false;
    };
    Shape r{2, 1, 1};
    if (!dim(a.d0, b.d0, &r.d0) || !dim(a.d1, b.d1, &r.d1)) return false;
    *out = r;
    return true;
}

constexpr double kU = 1.0 / (1 << 22);  // a conservative unit roundoff of f32 (2 ulp)

struct Val {
    std::string text;  // a name or a parenthesized expression
    DT dt = DT::F32;
    Shape shape;
    double lo = 0, hi = 0;  // interval (bool: 0..1)
    int frac = 0;           // f32: fractional bits of an exact value
    double err = 0;         // bound on the difference between implementations
    bool constant = false;
    double mag() const { return std::max(std::fabs(lo), std::fabs(hi)); }
};

// Is an f32 result with this magnitude and these fractional bits exact?
bool representable(double mag, int frac) {
    return frac <= 40 && mag * std::ldexp(1.0, frac) < 16777216.0;
}

constexpr double kIntLimit = 1 << 30;  // |i32 values| stay below
constexpr double kFloatLimit = 1e30;   // |f32 values| stay below

std::string fmt_float(double v) {
    // constants are k/8 or small integers: exact, shortest text
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos && s.find("inf") == std::string::npos &&
        s.find("nan") == std::string::npos)
        s += ".0";
    return s;
}

// ---- The generator --------------------------------------------------------
struct Gen {
    Rng rng;
    Kernel k;
    Dialect dialect;
    std::vector<std::string> lines;
    std::vector<Val> pool;  // values visible now
    int next_name = 0;
    std::string indent = "    ";
    Shape block;  // the kernel's main tile
    bool rank2 = false;
    int loop_depth = 0;  // runtime loops around the statements made now

    Gen(uint64_t seed, Dialect d) : rng(seed), dialect(d) {
        k.seed = seed;
        k.dialect = d;
        k.name = "k" + std::to_string(seed);
        k.func = k.name + "_kernel";
    }

    std::string fresh(const char *prefix) {
        return std::string(prefix) + std::to_string(next_name++);
    }
    void emit(const std::string &s) { lines.push_back(indent + s); }

    Val bind(const char *prefix, Val v) {
        std::string n = fresh(prefix);
        emit(n + " = " + v.text);
        v.text = n;
        v.constant = false;
        pool.push_back(v);
        return v;
    }

    int add_arg(Arg a) {
        k.args.push_back(a);
        return (int)k.args.size() - 1;
    }

    // A constant for an operand of dtype `dt`.
    Val constant(DT dt) {
        Val c;
        c.constant = true;
        c.dt = dt;
        if (dt == DT::I32) {
            int v = rng.range(-4, 8);
            c.text = std::to_string(v);
            c.lo = c.hi = v;
            if (v < 0) c.text = "(" + c.text + ")";
        } else {
            int n = rng.range(-16, 16);
            double v = n / 4.0;
            c.text = fmt_float(v);
            if (v < 0) c.text = "(" + c.text + ")";
            c.lo = c.hi = v;
            c.frac = 2;
        }
        return c;
    }

    // tl.full of the kernel's tile: an f32 block filled with an integer
    // literal half of the time (printed as written: full 2)
    Val full(DT dt) {
        Val c = constant(dt == DT::F32 && rng.chance(50) ? DT::I32 : dt);
        std::string dims = block.rank == 1 ? "(" + std::to_string(block.d0) + ",)"
                                           : "(" + std::to_string(block.d0) + ", " +
                                                 std::to_string(block.d1) + ")";
        c.text = "tl.full(" + dims + ", " + c.text + ", " +
                 (dt == DT::F32 ? "tl.float32" : "tl.int32") + ")";
        c.dt = dt;
        c.shape = block;
        c.constant = false;
        return c;
    }

    // ---- operations (the table) ----
    enum Kind { Arith, Div, Cmp, Logic, MinMax };
    struct BinOp {
        const char *name;  // Python: infix operator, or tl function
        Kind kind;
        bool infix;
        bool seed;  // accepted by the seed compiler
    };
    static const std::vector<BinOp> &binops() {
        static const std::vector<BinOp> t = {
            {"+", Arith, true, true},
            {"-", Arith, true, true},
            {"*", Arith, true, true},
            {"/", Div, true, true},
            {"<", Cmp, true, true},
            {"<=", Cmp, true, false},
            {">", Cmp, true, false},
            {">=", Cmp, true, false},
            {"==", Cmp, true, false},
            {"!=", Cmp, true, false},
            {"&", Logic, true, true},
            {"|", Logic, true, false},
            {"tl.maximum", MinMax, false, true},
            {"tl.minimum", MinMax, false, true},
        };
        return t;
    }

    static DT promote(DT a, DT b) { return (a == DT::F32 || b == DT::F32) ? DT::F32 : DT::I32; }

    // Applies op to a and b; false when the result could leave the safe
    // ranges (the caller picks something else).
    bool apply(const BinOp &op, const Val &a, const Val &b, Val *out) {
        Val r;
        if (!broadcast(a.shape, b.shape, &r.shape)) return false;
        std::string sa = a.text, sb = b.text;
        switch (op.kind) {
        case Logic:
            if (a.dt != DT::Bool || b.dt != DT::Bool) return false;
            r.dt = DT::Bool, r.lo = 0, r.hi = 1;
            break;
        case Cmp:
            if (a.dt == DT::Bool || b.dt == DT::Bool) return false;
            if (a.err != 0 || b.err != 0) return false;  // a comparison must not flip
            r.dt = DT::Bool, r.lo = 0, r.hi = 1;
            break;
        case MinMax:
        case Arith: {
            if (a.dt == DT::Bool || b.dt == DT::Bool) return false;
            r.dt = promote(a.dt, b.dt);
            double c[4];
            if (op.kind == MinMax) {
                // the seed prints isnan() of an int for mixed operands
                if (dialect == Dialect::Seed && a.dt != b.dt) return false;
                bool mx = std::strcmp(op.name, "tl.maximum") == 0;
                r.lo = mx ? std::max(a.lo, b.lo) : std::min(a.lo, b.lo);
                r.hi = mx ? std::max(a.hi, b.hi) : std::min(a.hi, b.hi);
                r.frac = std::max(a.frac, b.frac);
                r.err = std::max(a.err, b.err);
                break;
            }
            char o = op.name[0];
            if (o == '*') {
                c[0] = a.lo * b.lo, c[1] = a.lo * b.hi, c[2] = a.hi * b.lo, c[3] = a.hi * b.hi;
                r.frac = a.frac + b.frac;
                r.err = a.err * b.mag() + b.err * a.mag() + a.err * b.err;
            } else {
                double bl = o == '+' ? b.lo : -b.hi, bh = o == '+' ? b.hi : -b.lo;
                c[0] = c[1] = a.lo + bl, c[2] = c[3] = a.hi + bh;
                r.frac = std::max(a.frac, b.frac);
                r.err = a.err + b.err;
            }
            r.lo = *std::min_element(c, c + 4), r.hi = *std::max_element(c, c + 4);
            if (r.dt == DT::I32 && r.mag() >= kIntLimit) return false;
            if (r.dt == DT::F32) {
                if (r.mag() >= kFloatLimit) return false;
                if (!representable(r.mag(), r.frac)) r.err += kU * r.mag();
            }
            break;
        }
        case Div: {
            if (a.dt == DT::Bool || b.dt == DT::Bool) return false;
            // the seed types i32 / i32 as i32 (Triton: f32)
            if (dialect == Dialect::Seed && a.dt == DT::I32 && b.dt == DT::I32) return false;
            // the divisor must stay away from 0
            if (b.lo < 0.25 && b.hi > -0.25) return false;
            double dmin = std::min(std::fabs(b.lo), std::fabs(b.hi));
            r.dt = DT::F32;
            double m = a.mag() / dmin;
            if (m >= kFloatLimit) return false;
            r.lo = -m, r.hi = m;
            if (a.lo >= 0 && b.lo > 0) r.lo = 0;
            r.frac = 40;
            r.err = 2 * (a.err / dmin + a.mag() * b.err / (dmin * dmin)) + kU * m;
            if (b.err >= dmin / 2) return false;
            break;
        }
        }
        if (op.infix) {
            r.text = "(" + sa + " " + op.name + " " + sb + ")";
        } else {
            r.text = std::string(op.name) + "(" + sa + ", " + sb + ")";
        }
        *out = r;
        return true;
    }

    Val neg(const Val &a) {
        Val r = a;
        r.constant = false;
        r.lo = -a.hi, r.hi = -a.lo;
        r.text = "(-" + a.text + ")";
        return r;
    }

    bool exp(const Val &a, Val *out) {
        if (a.dt != DT::F32 || a.lo < -30 || a.hi > 20) return false;
        Val r = a;
        r.constant = false;
        r.lo = std::exp(a.lo), r.hi = std::exp(a.hi);
        r.frac = 40;
        // 2 ulp of a library expf; Triton's exp is ex2.approx(x * log2(e)),
        // whose rounded product adds |x| ulp
        r.err = r.hi * (a.err * 1.01 + (2 + a.mag()) * kU);
        r.text = "tl.exp(" + a.text + ")";
        *out = r;
        return true;
    }

    bool where(const Val &c, const Val &a, const Val &b, Val *out) {
        if (c.dt != DT::Bool || a.dt == DT::Bool || b.dt == DT::Bool) return false;
        // the seed folds where(c, x, x) to x even where c broadcasts x
        if (dialect == Dialect::Seed && a.text == b.text) return false;
        Val r;
        Shape s;
        if (!broadcast(a.shape, b.shape, &s) || !broadcast(c.shape, s, &r.shape)) return false;
        r.dt = promote(a.dt, b.dt);
        r.lo = std::min(a.lo, b.lo), r.hi = std::max(a.hi, b.hi);
        r.frac = std::max(a.frac, b.frac);
        r.err = std::max(a.err, b.err);
        r.text = "tl.where(" + c.text + ", " + a.text + ", " + b.text + ")";
        *out = r;
        return true;
    }

    // ---- picking operands ----
    std::vector<Val> candidates(const std::function<bool(const Val &)> &ok) {
        std::vector<Val> v;
        for (auto &p : pool)
            if (ok(p)) v.push_back(p);
        return v;
    }

    // Operands favour the newest values (chains, not a flat fan-out).
    Val any_value() {
        size_t n = pool.size();
        if (n > 3 && rng.chance(60)) return pool[n - 1 - (size_t)rng.range(0, 2)];
        return rng.pick(pool);
    }

    // An output: the newest value of the shape that nothing reads yet,
    // else the newest of that shape.
    Val sink(const std::function<bool(const Val &)> &ok) {
        for (size_t i = pool.size(); i-- > 0;) {
            if (!ok(pool[i])) continue;
            bool used = false;
            std::string n = pool[i].text;
            for (auto &l : lines) {
                size_t eq = l.find(" = ");
                size_t from = eq == std::string::npos ? 0 : eq + 3;
                size_t at = l.find(n, from);
                while (at != std::string::npos && !used) {
                    size_t end = at + n.size();
                    bool left =
                        at == 0 || !(std::isalnum((unsigned char)l[at - 1]) || l[at - 1] == '_');
                    bool right =
                        end >= l.size() || !(std::isalnum((unsigned char)l[end]) || l[end] == '_');
                    used = left && right;
                    at = l.find(n, at + 1);
                }
                if (used) break;
            }
            if (!used) {
                Val v = pool[i];
                pool.erase(pool.begin() + (long)i);
                return v;
            }
        }
        return rng.pick(candidates(ok));
    }

    // One new expression from the pool (a statement's right-hand side).
    bool expression(Val *out) {
        int form = rng.range(0, 99);
        if (form < 55) {  // binary op
            std::vector<BinOp> ops;
            for (auto &o : binops())
                if (dialect == Dialect::Full || o.seed) ops.push_back(o);
            const BinOp &op = rng.pick(ops);
            Val a = any_value(), b = any_value();
            if (op.kind == Arith || op.kind == Div || op.kind == MinMax || op.kind == Cmp) {
                if (a.dt == DT::Bool) return false;
                if (rng.chance(25)) {
                    // a constant of the same dtype, on either side (0 + x stays at -O1)
                    b = rng.chance(15) ? full(a.dt) : constant(a.dt);
                    // (the seed has no reflected <: 3 < x is a TypeError there)
                    if (rng.chance(40) && op.kind != Div &&
                        !(dialect == Dialect::Seed && op.kind == Cmp))
                        std::swap(a, b);
                }
            }
            return apply(op, a, b, out);
        }
        if (form < 63) {
            Val a = any_value();
            if (a.dt == DT::Bool) return false;
            *out = neg(a);
            return true;
        }
        if (form < 72) {
            Val a = any_value();
            return exp(a, out);
        }
        if (form < 85) {
            auto conds = candidates([](const Val &v) { return v.dt == DT::Bool; });
            if (conds.empty()) return false;
            Val a = any_value(),
                b = rng.chance(30) ? constant(a.dt == DT::Bool ? DT::F32 : a.dt) : any_value();
            return where(rng.pick(conds), a, b, out);
        }
        // reduction of a block to a scalar (the seed's CUDA misses a barrier
        // after a reduction in a runtime loop: none there in its dialect)
        if (form < 93 && !rank2 && !(dialect == Dialect::Seed && loop_depth > 0)) {
            auto vs =
                candidates([&](const Val &v) { return v.shape == block && v.dt != DT::Bool; });
            if (vs.empty()) return false;
            Val a = rng.pick(vs);
            int which = rng.range(0, 2);
            Val r = a;
            r.constant = false;
            r.shape = Shape{};
            if (which == 0) {
                double n = block.numel();
                r.lo = std::min(0.0, a.lo) * n, r.hi = std::max(0.0, a.hi) * n;
                if (r.dt == DT::I32 && r.mag() >= kIntLimit) return false;
                if (r.dt == DT::F32) {
                    if (r.mag() >= kFloatLimit) return false;
                    // summation order differs between implementations
                    r.err = n * a.err + (representable(r.mag(), r.frac) ? 0 : n * kU * r.mag());
                }
                r.text = "tl.sum(" + a.text + ")";
            } else {
                r.text = std::string(which == 1 ? "tl.max(" : "tl.min(") + a.text + ")";
            }
            *out = r;
            return true;
        }
        // a comparison against a constant: masks and conditions
        Val a = any_value();
        if (a.dt == DT::Bool || a.err != 0) return false;
        BinOp lt = binops()[4];
        if (dialect == Dialect::Full && rng.chance(50)) lt = binops()[(size_t)rng.range(4, 9)];
        Val c = constant(a.dt);
        return apply(lt, a, c, out);
    }

    void statements(int n) {
        for (int i = 0; i < n; i++) {
            Val v;
            int tries = 0;
            while (!expression(&v))
                if (++tries > 50) return;
            bind("v", v);
        }
    }

    // ---- loads ----
    // An input buffer of `count` elements loaded at `offs` under `mask`.
    Val load(ArgKind kind, int64_t count, const std::string &offs, const std::string &mask,
             Shape shape) {
        std::string name = "in" + std::to_string(k.args.size());
        Arg a;
        a.name = name;
        a.kind = kind;
        a.count = count;
        add_arg(a);
        Val v;
        v.dt = kind == ArgKind::PtrF32 ? DT::F32 : DT::I32;
        v.shape = shape;
        if (v.dt == DT::F32) v.lo = -4, v.hi = 4, v.frac = 3;
        else v.lo = -16, v.hi = 16;
        std::string other =
            v.dt == DT::F32 ? fmt_float(rng.range(-8, 8) / 4.0) : std::to_string(rng.range(-4, 4));
        if (other[0] == '-') other = "(" + other + ")";
        v.text = "tl.load(" + name + " + " + offs + ", mask=" + mask + ", other=" + other + ")";
        return v;
    }

    ArgKind buffer_kind() {
        if (dialect == Dialect::Seed) return ArgKind::PtrF32;
        return rng.chance(30) ? ArgKind::PtrI32 : ArgKind::PtrF32;
    }

    // Stores `v` converted to the output buffer's type.
    void store(const Val &v0, const std::string &offs, const std::string &mask, int64_t count) {
        Val v = v0;
        if (v.dt == DT::Bool) {
            Val one, zero;
            one.dt = zero.dt = DT::I32;
            one.text = "1", zero.text = "0", one.lo = one.hi = 1;
            where(v, one, zero, &v);
        }
        if (dialect == Dialect::Seed && v.dt == DT::I32) {
            // the seed stores f32 only; + 0.0 converts (and is not folded)
            if (v.mag() >= 16777216.0) return;
            v.text = "(" + v.text + " + 0.0)";
            v.dt = DT::F32;
        }
        Arg a;
        a.name = "out" + std::to_string(k.args.size());
        a.kind = v.dt == DT::F32 ? ArgKind::PtrF32 : ArgKind::PtrI32;
        a.output = true;
        a.count = count;
        a.tol = v.dt == DT::F32 ? v.err * 2 : 0.0;
        add_arg(a);
        if (mask.empty()) emit("tl.store(" + a.name + " + " + offs + ", " + v.text + ")");
        else emit("tl.store(" + a.name + " + " + offs + ", " + v.text + ", mask=" + mask + ")");
    }

    Val scalar_param(DT dt) {
        Arg a;
        a.name = (dt == DT::F32 ? "f" : "s") + std::to_string(k.args.size());
        Val v;
        v.dt = dt;
        v.text = a.name;
        if (dt == DT::F32) {
            a.kind = ArgKind::F32;
            a.fval = (float)(rng.range(-16, 16) / 4.0);
            v.lo = v.hi = a.fval;  // the value it is launched with
            v.frac = 2;
        } else {
            a.kind = ArgKind::I32;
            a.ival = rng.range(-8, 8);
            v.lo = v.hi = a.ival;
        }
        add_arg(a);
        return v;
    }

    // A runtime loop accumulating into one carried value.
    void runtime_loop(const std::string &offs, int64_t count, const Shape &shape) {
        // trip count: a runtime i32 argument
        Arg t;
        t.name = "trips" + std::to_string(k.args.size());
        t.kind = ArgKind::I32;
        t.ival = rng.range(0, 5);
        add_arg(t);
        int step = rng.chance(70) ? 1 : rng.range(2, 3);
        int start = rng.chance(70) ? 0 : rng.range(1, 2);
        int trips = t.ival > start ? (t.ival - start + step - 1) / step : 0;
        std::string range = step == 1 && start == 0
                                ? "range(" + t.name + ")"
                                : "range(" + std::to_string(start) + ", " + t.name + ", " +
                                      std::to_string(step) + ")";
        // the carried value, typed and shaped from the start (Triton
        // requires a loop-carried value to keep its type)
        bool vec = rng.chance(60);
        DT dt = dialect == Dialect::Full && rng.chance(25) ? DT::I32 : DT::F32;
        std::string acc = fresh("acc");
        Shape ashape = vec ? shape : Shape{};
        if (vec) {
            std::string dims = shape.rank == 1 ? "(" + std::to_string(shape.d0) + ",)"
                                               : "(" + std::to_string(shape.d0) + ", " +
                                                     std::to_string(shape.d1) + ")";
            emit(acc + " = tl.zeros(" + dims + ", " + (dt == DT::F32 ? "tl.float32" : "tl.int32") +
                 ")");
        } else {
            emit(acc + (dt == DT::F32 ? " = 0.0" : " = 0"));
        }
        std::string kv = fresh("i");
        emit("for " + kv + " in " + range + ":");
        std::string saved = indent;
        indent += "    ";
        size_t saved_pool = pool.size();
        Val idx;
        idx.dt = DT::I32;
        idx.text = kv;
        idx.lo = 0, idx.hi = std::max(0, t.ival);
        pool.push_back(idx);
        // a load at a shifted index, masked by the buffer's size
        std::string sh = fresh("o");
        emit(sh + " = " + offs + " + " + kv);
        Val l =
            load(buffer_kind(), count, sh, "(" + sh + " < " + std::to_string(count) + ")", shape);
        bind("v", l);
        loop_depth++;
        statements(rng.range(1, 3));
        loop_depth--;
        // the update: acc + e or maximum(acc, e), e of the carried shape and dtype
        auto fits = [&](const Val &v) {
            Shape s;
            return v.dt != DT::Bool && (v.dt == dt || dt == DT::F32) &&
                   broadcast(ashape, v.shape, &s) && s == ashape;
        };
        auto vs = candidates(fits);
        Val e = vs.empty() ? l : vs.back();  // the newest: the body's last value
        if (!fits(e)) e = idx;
        Val r;
        r.dt = dt;
        r.shape = ashape;
        r.text = acc;
        r.frac = e.frac;
        double n = std::max(1, trips);
        r.lo = std::min(0.0, e.lo) * n, r.hi = std::max(0.0, e.hi) * n;
        bool add =
            rng.chance(70) && !(dt == DT::I32 && r.mag() >= kIntLimit) && r.mag() < kFloatLimit;
        // the seed prints isnan() of an int for a mixed maximum
        if (dialect == Dialect::Seed && e.dt != dt) add = true;
        if (add) {
            r.err = n * e.err + (representable(r.mag(), r.frac) ? 0 : n * kU * r.mag());
            emit(acc + " = " + acc + " + " + e.text);
        } else {  // bounded by e's range whatever the trip count
            r.lo = std::max(0.0, e.lo), r.hi = std::max(0.0, e.hi);
            r.err = e.err;
            emit(acc + " = tl.maximum(" + acc + ", " + e.text + ")");
        }
        pool.resize(saved_pool);
        indent = saved;
        pool.push_back(r);
    }

    // A compile-time unrolled accumulation of loads.
    void static_loop(const std::string &offs, int64_t count, const Shape &shape) {
        int n = rng.range(1, 3);
        std::string acc = fresh("acc");
        emit(acc + " = tl.zeros((" + std::to_string(shape.d0) + ",), tl.float32)");
        std::string j = fresh("j");
        emit("for " + j + " in tl.static_range(0, " + std::to_string(n) + "):");
        std::string saved = indent;
        indent += "    ";
        Val l = load(ArgKind::PtrF32, count, "(" + offs + " + " + j + ")",
                     "((" + offs + " + " + j + ") < " + std::to_string(count) + ")", shape);
        Val c = constant(DT::F32);
        emit(acc + " = " + acc + " + " + l.text + " * " + c.text);
        indent = saved;
        Val r;
        r.dt = DT::F32;
        r.shape = shape;
        r.text = acc;
        r.lo = -4 * c.mag() * n, r.hi = 4 * c.mag() * n;
        r.frac = 5;
        pool.push_back(r);
    }

    // ---- kernel families ----
    void rank1() {
        int bs = 1 << rng.range(4, 8);  // 16..256
        block_shape(Shape{1, bs, 1});
        k.constexprs.push_back({"BLOCK", bs});
        int n = rng.range(1, 3 * bs);
        k.grid[0] = (n + bs - 1) / bs;
        Arg na;
        na.name = "n";
        na.kind = ArgKind::I32;
        na.ival = n;
        add_arg(na);
        emit("pid = tl.program_id(0)");
        emit("offs = pid * BLOCK + tl.arange(0, BLOCK)");
        emit("mask = offs < n");
        Val offs;
        offs.dt = DT::I32, offs.shape = block, offs.text = "offs";
        offs.lo = 0, offs.hi = k.grid[0] * bs - 1;
        pool.push_back(offs);
        Val pid;
        pid.dt = DT::I32, pid.text = "pid", pid.lo = 0, pid.hi = k.grid[0] - 1;
        pool.push_back(pid);
        int nloads = rng.range(1, 3);
        for (int i = 0; i < nloads; i++) bind("x", load(buffer_kind(), n, "offs", "mask", block));
        int nscalars = rng.range(0, 2);
        for (int i = 0; i < nscalars; i++)
            pool.push_back(scalar_param(rng.chance(50) ? DT::F32 : DT::I32));
        statements(rng.range(2, 6));
        if (rng.chance(30)) static_loop("offs", n, block);
        if (rng.chance(35)) runtime_loop("offs", n, block);
        statements(rng.range(1, 5));
        // outputs: one or two blocks, maybe a per-program scalar
        // The seed dialect stores once: the seed lowers loads lazily, so a
        // load read after another store numbers differently (and reads
        // memory in another order) there; mytriton keeps source order.
        int nout = dialect == Dialect::Seed ? 1 : rng.range(1, 3);
        auto scalar = [&](const Val &v) { return v.shape.rank == 0 && v.text != "pid"; };
        bool scalar_out =
            !candidates(scalar).empty() && rng.chance(dialect == Dialect::Seed ? 25 : 50);
        if (dialect == Dialect::Seed && scalar_out) nout = 0;
        for (int i = 0; i < nout; i++)
            store(sink([&](const Val &v) { return v.shape == block; }), "offs", "mask", n);
        if (scalar_out) store(sink(scalar), "pid", "", k.grid[0]);
    }

    void rank2_family() {
        rank2 = true;
        int bm = 1 << rng.range(1, 4), bn = 1 << rng.range(2, 5);  // up to 16 x 32
        block_shape(Shape{2, bm, bn});
        k.constexprs.push_back({"BM", bm});
        k.constexprs.push_back({"BN", bn});
        int M = rng.range(1, 3 * bm), N = rng.range(1, 2 * bn);
        k.grid[0] = (M + bm - 1) / bm;
        k.grid[1] = (N + bn - 1) / bn;
        Arg ma, na;
        ma.name = "M", ma.kind = ArgKind::I32, ma.ival = M;
        na.name = "N", na.kind = ArgKind::I32, na.ival = N;
        add_arg(ma);
        add_arg(na);
        emit("pid_m = tl.program_id(0)");
        emit("pid_n = tl.program_id(1)");
        Shape tile = block, rowv{1, bm, 1}, colv{1, bn, 1};
        // Two spellings: rank-1 index vectors expanded where used, or
        // aranges expanded at once (the seed's rank-2 CUDA needs the latter).
        bool expanded = dialect == Dialect::Seed || rng.chance(50);
        std::string rmask = "rmask", cmask = "cmask";
        if (expanded) {
            emit("rows = pid_m * BM + tl.arange(0, BM)[:, None]");
            emit("cols = pid_n * BN + tl.arange(0, BN)[None, :]");
            emit("offs = rows * N + cols");
            emit("mask = (rows < M) & (cols < N)");
            rowv = Shape{2, bm, 1}, colv = Shape{2, 1, bn};
            rmask = "(rows < M)", cmask = "(cols < N)";
        } else {
            emit("rows = pid_m * BM + tl.arange(0, BM)");
            emit("cols = pid_n * BN + tl.arange(0, BN)");
            emit("rmask = rows < M");
            emit("cmask = cols < N");
            emit("offs = rows[:, None] * N + cols[None, :]");
            emit("mask = rmask[:, None] & cmask[None, :]");
        }
        Val rows;
        rows.dt = DT::I32, rows.shape = rowv, rows.text = "rows", rows.lo = 0,
        rows.hi = k.grid[0] * bm - 1;
        Val cols = rows;
        cols.shape = colv, cols.text = "cols", cols.hi = k.grid[1] * bn - 1;
        Val offs = rows;
        offs.shape = tile, offs.text = "offs",
        offs.hi = (double)k.grid[0] * bm * N + k.grid[1] * bn;
        pool.push_back(offs);
        if (expanded) {
            pool.push_back(rows);
            pool.push_back(cols);
        }
        int nt = rng.range(1, 2);
        for (int i = 0; i < nt; i++)
            bind("t", load(buffer_kind(), (int64_t)M * N, "offs", "mask", tile));
        // row and column vectors (expanded to (BM, 1) and (1, BN))
        if (rng.chance(60)) {
            Val r = bind("r", load(buffer_kind(), M, "rows", rmask, rowv));
            if (!expanded) {
                Val e = r;
                e.text = r.text + "[:, None]";
                e.shape = Shape{2, bm, 1};
                bind("re", e);
            }
        }
        if (rng.chance(60)) {
            Val c = bind("c", load(buffer_kind(), N, "cols", cmask, colv));
            if (!expanded) {
                Val e = c;
                e.text = c.text + "[None, :]";
                e.shape = Shape{2, 1, bn};
                bind("ce", e);
            }
        }
        if (rng.chance(30)) pool.push_back(scalar_param(rng.chance(50) ? DT::F32 : DT::I32));
        statements(rng.range(2, 6));
        if (rng.chance(35)) {
            // a runtime-K outer product (the seed's matmul)
            Arg ka;
            ka.name = "K", ka.kind = ArgKind::I32, ka.ival = rng.range(0, 4);
            add_arg(ka);
            int K = ka.ival;
            std::string acc = fresh("acc");
            // the seed's own spelling of a zero tile, or tl.zeros
            emit(acc + (dialect == Dialect::Seed ? " = offs * 0.0"
                                                 : " = tl.zeros((BM, BN), tl.float32)"));
            emit("for kk in range(K):");
            std::string saved = indent;
            indent += "    ";
            Val a =
                load(ArgKind::PtrF32, (int64_t)M * std::max(K, 1), "rows * K + kk", rmask, rowv);
            Val b =
                load(ArgKind::PtrF32, (int64_t)std::max(K, 1) * N, "kk * N + cols", cmask, colv);
            emit("a = " + a.text);
            emit("b = " + b.text);
            if (expanded) emit(acc + " = " + acc + " + a * b");
            else emit(acc + " += a[:, None] * b[None, :]");
            indent = saved;
            Val r;
            r.dt = DT::F32, r.shape = tile, r.text = acc;
            r.lo = -16.0 * std::max(K, 1), r.hi = 16.0 * std::max(K, 1), r.frac = 6;
            pool.push_back(r);
        }
        statements(rng.range(1, 4));
        int nout = dialect == Dialect::Seed ? 1 : rng.range(1, 2);
        for (int i = 0; i < nout; i++)
            store(sink([&](const Val &v) { return v.shape == tile; }), "offs", "mask",
                  (int64_t)M * N);
    }

    void block_shape(Shape s) { block = s; }

    Kernel run() {
        if (rng.chance(60)) rank1();
        else rank2_family();
        k.body = lines;
        return k;
    }
};

const char *arg_type(ArgKind k) {
    switch (k) {
    case ArgKind::PtrF32: return "*fp32";
    case ArgKind::PtrI32: return "*i32";
    case ArgKind::I32: return "i32";
    case ArgKind::F32: return "fp32";
    }
    return "?";
}

}  // namespace

std::string Kernel::signature() const {
    std::string s;
    for (size_t i = 0; i < args.size(); i++)
        s += (i ? ", " : "") + std::string(arg_type(args[i].kind));
    return s;
}

std::string Kernel::defines() const {
    std::string s;
    for (size_t i = 0; i < constexprs.size(); i++)
        s += (i ? " " : "") + constexprs[i].first + "=" + std::to_string(constexprs[i].second);
    return s;
}

std::string Kernel::source_with(const std::vector<std::string> &lines) const {
    std::string s = "# Generated by mytriton's difftest generator: seed " + std::to_string(seed) +
                    (dialect == Dialect::Seed ? ", seed dialect" : "") + ".\n";
    s += "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef " + func + "(";
    for (size_t i = 0; i < args.size(); i++) s += (i ? ", " : "") + args[i].name;
    for (auto &c : constexprs) s += ", " + c.first + ": tl.constexpr";
    s += "):\n";
    for (auto &l : lines) s += l + "\n";
    return s;
}

std::string Kernel::source() const { return source_with(body); }

Kernel generate(uint64_t seed, Dialect dialect) {
    Gen g(seed, dialect);
    return g.run();
}

void fill_input(const Kernel &k, int index, void *data) {
    const Arg &a = k.args[(size_t)index];
    Rng r(k.seed * 1000003ull + (uint64_t)index);
    for (int64_t i = 0; i < a.count; i++) {
        if (a.kind == ArgKind::PtrF32) ((float *)data)[i] = (float)r.range(-32, 32) / 8.0f;
        else ((int32_t *)data)[i] = r.range(-16, 16);
    }
}

}  // namespace difftest
