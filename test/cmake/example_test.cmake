# cmake.example: builds example_project against the installed mytriton with
# find_package(mytriton), the way a user would, then runs it. The program
# checks its results against a CPU reference and exits non-zero if they are
# wrong; without a GPU it runs the host backend.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(_bin "${MYTRITON_WORK}/example-build")
file(REMOVE_RECURSE "${_bin}")
mytriton_configure("configure example_project (find_package(mytriton) from ${MYTRITON_PREFIX})"
  "${MYTRITON_EXAMPLE_SOURCE}" "${_bin}" ECHO)
mytriton_step("build example_project" ECHO
  COMMAND "${CMAKE_COMMAND}" --build "${_bin}")

file(READ "${_bin}/matmul_kernels/matmul_kernels/matmul_runtime_k.h" _header)
message(STATUS "==> the generated launcher header, ${_bin}/matmul_kernels/matmul_kernels/matmul_runtime_k.h:\n${_header}")

mytriton_step("run the example" ECHO OUTPUT _run COMMAND "${_bin}/matmul_example")
# without a driver CUDA says "driver version is insufficient"; the example
# says what is missing first
if(_run MATCHES "No GPU available")
  mytriton_expect("${_run}" MATCHES
    "No GPU available \\((no NVIDIA (driver|GPU) was found|cudaGetDeviceCount found 0 devices|this build has no cuda backend)"
    "what is missing, in plain words")
endif()

message(STATUS "")
message(STATUS "mytriton is installed in ${MYTRITON_PREFIX}")
message(STATUS "  (use it with -DCMAKE_PREFIX_PATH=${MYTRITON_PREFIX} and find_package(mytriton))")
message(STATUS "example_project is built in ${_bin}; run it again with:")
message(STATUS "  ${_bin}/matmul_example")
