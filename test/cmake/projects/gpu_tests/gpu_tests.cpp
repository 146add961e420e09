// Each test checks that its CUDA_VISIBLE_DEVICES is the GPU ctest gave it
// (run by cmake.gpu_resources with a resource spec file of fake GPUs) and
// records it, so the driver can see that tests ran on different GPUs.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void check_gpu(const char *name) {
    const char *spec = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
    ASSERT_NE(spec, nullptr) << "not run with a resource spec file";
    std::string s = spec;  // "id:1,slots:1"
    ASSERT_EQ(s.rfind("id:", 0), 0u) << s;
    std::string id = s.substr(3, s.find(',') - 3);
    const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
    ASSERT_NE(visible, nullptr);
    EXPECT_EQ(id, visible);
    std::printf("%s ran on GPU %s\n", name, visible);
}

TEST(Gpu, A) { check_gpu("A"); }
TEST(Gpu, B) { check_gpu("B"); }
TEST(Gpu, C) { check_gpu("C"); }
TEST(Gpu, D) { check_gpu("D"); }

}  // namespace
