// Shared by the plan tests of test/lang_apps (attn_plan_test.cpp,
// mma_plan_test.cpp): a kernel file of kernels/ as text, and a text with
// one replacement made (a test failure where `from` is missing).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace mt_plan {

inline std::string kernel_source(const char *file) {
    std::ifstream in(std::string(MT_TEST_SOURCE_DIR) + "/lang_apps/kernels/" + file);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline std::string replaced(std::string s, const std::string &from, const std::string &to) {
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) s.replace(at, from.size(), to);
    return s;
}

}  // namespace mt_plan
