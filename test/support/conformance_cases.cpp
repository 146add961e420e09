#include "conformance_cases.h"

namespace mt_test {

const std::vector<ConformanceCase> &conformance_cases() {
    static const std::vector<ConformanceCase> all = {
#include "conformance_cases.inc"
    };
    return all;
}

}  // namespace mt_test
