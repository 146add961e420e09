# cmake.bad_kernel: a kernel the compiler rejects fails the build, the
# compiler's diagnostic (file:line:col: error: ..., the source line, a caret)
# is in the build output, and no output file of that kernel is left. (The
# arguments' mistakes are configure errors: cmake.configure.*.)
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

mytriton_fresh_copy(bad_kernel _dir)
set(_bin "${_dir}/build")
mytriton_configure("configure (configuring succeeds: kernels compile at build time)"
  "${_dir}/src" "${_bin}")
mytriton_step("build: must fail" EXPECT_FAIL OUTPUT _log COMMAND "${CMAKE_COMMAND}" --build "${_bin}")
message(STATUS "    build output:\n${_log}")
mytriton_expect("${_log}" MATCHES "kernels/bad\\.py:8:5: error: [^\n]*'with'"
  "the diagnostic at bad.py:8:5 naming 'with'")
mytriton_expect("${_log}" MATCHES "\n *with pid < n:[^\n]*\n *\\^" "the source line and a caret")
mytriton_expect("${_log}" MATCHES "FAILED: [^\n]*bad_kernels/bad" "Ninja names the failed command")
file(GLOB _left "${_bin}/bad_kernels/bad_kernels/bad.*" "${_bin}/bad_kernels/bad_kernels/bad_host.c")
if(_left)
  message(FATAL_ERROR "a failed compile left files: ${_left}")
endif()
message(STATUS "    ok: no output file of the bad kernel")
