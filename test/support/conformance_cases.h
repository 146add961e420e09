// The conformance cases of conformance/manifest.json (read at configure
// time by test/conformance_cases.cmake).
#pragma once

#include <string>
#include <vector>

namespace mt_test {

struct ConformanceCase {
    const char *name;
    const char *file;  // relative to test/conformance
    const char *kernel;
    const char *signature;
    std::vector<std::string> defines;  // "NAME=VALUE"
    const char *grid;                  // nullptr: the launcher takes a grid
};

const std::vector<ConformanceCase> &conformance_cases();

}  // namespace mt_test
