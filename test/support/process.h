// Test support: run a program without a shell and capture its output;
// temporary directories; whole-file reads.
#pragma once

#include <string>
#include <vector>

namespace mt_test {

struct ProcessResult {
    int status = -1;  // exit status, or -1 if it did not exit normally
    std::string out, err;
};

ProcessResult run_process(const std::vector<std::string> &argv,
                          const std::vector<std::string> &extra_env = {});
std::string read_file(const std::string &path);
bool file_exists(const std::string &path);
void write_file(const std::string &path, const std::string &text);
// A fresh directory under the build tree's test scratch space.
std::string make_temp_dir(const std::string &tag);

}  // namespace mt_test
