# cmake.configure.<case>: mistakes in mytriton_add_kernels() calls are
# reported at configure time, pointing at the call: missing required
# keywords and duplicate launcher names are errors, unknown keywords
# warnings. See projects/configure_errors/CMakeLists.txt for the calls.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(_bin "${MYTRITON_WORK}/configure-${MYTRITON_CASE}")
file(REMOVE_RECURSE "${_bin}")
set(_src "${MYTRITON_TEST_SOURCE}/projects/configure_errors")
set(_at "CMakeLists.txt:[0-9]+ \\(mytriton_add_kernels\\)")

if(MYTRITON_CASE STREQUAL "unknown_keyword")
  mytriton_configure("configure: unknown keyword FROBNICATE" "${_src}" "${_bin}"
    OUTPUT _out ARGS -DCASE=${MYTRITON_CASE})
  message(STATUS "    output:\n${_out}")
  string(REGEX REPLACE "[ \t\r\n]+" " " _out "${_out}")  # CMake wraps long messages
  mytriton_expect("${_out}" MATCHES "CMake Warning at [^\n]*MytritonKernels.cmake" "a CMake warning")
  mytriton_expect("${_out}" MATCHES "unknown keyword FROBNICATE" "naming the keyword")
  mytriton_expect("${_out}" MATCHES "${_at}" "pointing at the call")
  mytriton_expect("${_out}" MATCHES "Generating done" "configuring still succeeds")
  return()
endif()

if(MYTRITON_CASE STREQUAL "missing_signature")
  set(_expected "KERNEL add_kernel has no SIGNATURE \\(required\\)")
elseif(MYTRITON_CASE STREQUAL "missing_source")
  set(_expected "KERNEL add_kernel has no SOURCE \\(required\\)")
elseif(MYTRITON_CASE STREQUAL "missing_kernel")
  set(_expected "no KERNEL given")
elseif(MYTRITON_CASE STREQUAL "duplicate_name")
  set(_expected "duplicate launcher name 'vector_add' \\(launch_vector_add\\)")
elseif(MYTRITON_CASE STREQUAL "duplicate_name_across_targets")
  set(_expected "duplicate launcher name 'add' \\(launch_add\\), already made by mytriton_add_kernels\\(first_kernels\\)")
elseif(MYTRITON_CASE STREQUAL "symbol_collision")
  set(_expected "two kernels would both define launch_x_host")
elseif(MYTRITON_CASE STREQUAL "wrong_version")
  set(_expected "mytriton[^\n]*version")
  set(_at "CMakeLists.txt:[0-9]+ \\(find_package\\)")
else()
  message(FATAL_ERROR "unknown case ${MYTRITON_CASE}")
endif()
mytriton_configure("configure: ${MYTRITON_CASE} must fail" "${_src}" "${_bin}" EXPECT_FAIL
  OUTPUT _out ARGS -DCASE=${MYTRITON_CASE})
message(STATUS "    output:\n${_out}")
string(REGEX REPLACE "[ \t\r\n]+" " " _out "${_out}")  # CMake wraps long messages
mytriton_expect("${_out}" MATCHES "CMake Error" "a CMake error")
mytriton_expect("${_out}" MATCHES "${_expected}" "the message")
mytriton_expect("${_out}" MATCHES "${_at}" "pointing at the call")
