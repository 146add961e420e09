// Deterministic random inputs of the tests: n floats uniform in [lo, hi)
// from std::mt19937 seeded with `seed` (the same values on every platform
// the standard library's distribution gives them on).
#pragma once

#include <cstddef>
#include <random>
#include <vector>

namespace mt_test {

inline std::vector<float> random_floats(size_t n, unsigned seed, float lo = -1.0f,
                                        float hi = 1.0f) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v) x = d(g);
    return v;
}

}  // namespace mt_test
