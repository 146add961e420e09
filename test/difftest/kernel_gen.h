// A random kernel generator for differential testing (issue 17): from a
// seed, a well-typed kernel of mytriton's language (valid Triton too), with
// its arguments, input data and launch grid, whose behaviour is defined:
// every access is in bounds (masked by the sizes it is launched with),
// integer values stay far from overflow (an interval per value), floats stay
// finite, no program reads what another writes, and no output element is
// written by two programs.
//
// Each value carries an interval, a bound on its magnitude's exactness and
// an error bound: how far two correct implementations may differ (0 when
// every operation is exact: inputs are small dyadic numbers, so + - * are
// exact until their bits run out; exp, division, inexact sums and
// reassociated reductions add to it). An output's tolerance is the error
// bound of the value stored; 0 means bit for bit.
//
// Same seed and dialect, same kernel, on every platform (the generator uses
// its own PRNG and prints numbers without locale).
//
// Adding constructs: an operation is a row of kBinOps/kUnOps in
// kernel_gen.cpp (its Python spelling, operand and result rules, interval
// and error rules); a statement form is a case of gen_statement; a new
// dtype needs a DType, its Python literal, data range and buffer kind.
#ifndef MT_DIFFTEST_KERNEL_GEN_H
#define MT_DIFFTEST_KERNEL_GEN_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace difftest {

// Seed: only what the seed compiler (the Python reference) accepts: `<`
// and `&`, *fp32 buffers. Full: the language as mytriton accepts it today.
enum class Dialect { Seed, Full };

enum class ArgKind { PtrF32, PtrI32, I32, F32 };

struct Arg {
    std::string name;
    ArgKind kind;
    bool output = false;  // pointers: written by the kernel (and never read)
    int64_t count = 0;    // pointers: elements
    int32_t ival = 0;     // I32 scalars
    float fval = 0.0f;    // F32 scalars
    double tol = 0.0;     // outputs: absolute tolerance (0: exact)
};

struct Kernel {
    uint64_t seed = 0;
    Dialect dialect = Dialect::Full;
    std::string name;               // k<seed>: files and launchers
    std::string func;               // the Python function
    std::vector<std::string> body;  // lines of the function body (indented)
    std::vector<Arg> args;          // runtime arguments, in order
    std::vector<std::pair<std::string, int>> constexprs;
    int grid[3] = {1, 1, 1};

    std::string signature() const;  // "*fp32, *i32, i32, fp32"
    std::string defines() const;    // "BLOCK=64 BM=8" (space separated)
    // The kernel file: imports, decorator, def line, `body`.
    std::string source() const;
    std::string source_with(const std::vector<std::string> &lines) const;
};

Kernel generate(uint64_t seed, Dialect dialect);

// Input data of pointer argument `index` (deterministic in the kernel's
// seed): f32 k/8 with |k| <= 32, i32 in [-16, 16]. Outputs are filled with
// kSentinel bits before a launch.
void fill_input(const Kernel &k, int index, void *data);
constexpr uint32_t kSentinel = 0x7fa5a5a5u;  // a NaN no kernel computes

}  // namespace difftest

#endif
