# cmake.gpu_resources: GPU tests on runners with several GPUs.
#  1. scripts/gpu_resource_spec.sh writes ctest's resource spec file from
#     nvidia-smi (a stand-in nvidia-smi listing two GPUs here);
#  2. a user's project registers its GoogleTest tests with the installed
#     mytriton_add_gpu_test(): with `ctest -j 2 --resource-spec-file`, each
#     test gets RESOURCE_GROUPS gpus:1 and its CUDA_VISIBLE_DEVICES is the
#     GPU ctest gave it, both GPUs used;
#  3. this build's own GPU tests (exec.Cuda*) declare RESOURCE_GROUPS.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(_work "${MYTRITON_WORK}/gpu_resources")
file(REMOVE_RECURSE "${_work}")
file(MAKE_DIRECTORY "${_work}/bin")

# 1. the script, with an nvidia-smi that lists GPUs 0 and 1
file(WRITE "${_work}/bin/nvidia-smi" "#!/bin/sh\nprintf '0\\n1\\n'\n")
file(CHMOD "${_work}/bin/nvidia-smi" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
mytriton_step("scripts/gpu_resource_spec.sh with two GPUs"
  COMMAND "${CMAKE_COMMAND}" -E env "PATH=${_work}/bin:$ENV{PATH}"
          bash "${MYTRITON_SOURCE_DIR}/scripts/gpu_resource_spec.sh" "${_work}/gpus.json")
file(READ "${_work}/gpus.json" _spec)
string(JSON _n LENGTH "${_spec}" local 0 gpus)
string(JSON _id1 GET "${_spec}" local 0 gpus 1 id)
string(JSON _major GET "${_spec}" version major)
if(NOT _n EQUAL 2 OR NOT _id1 STREQUAL "1" OR NOT _major EQUAL 1)
  message(FATAL_ERROR "unexpected resource spec:\n${_spec}")
endif()
message(STATUS "    ok: gpus.json lists GPUs 0 and 1")

# 2. a user's GPU tests through the installed helper
set(_src "${MYTRITON_TEST_SOURCE}/projects/gpu_tests")
mytriton_configure("configure a project with mytriton_add_gpu_test()" "${_src}" "${_work}/build")
mytriton_step("build it" COMMAND "${CMAKE_COMMAND}" --build "${_work}/build")
mytriton_step("ctest -j 2 --resource-spec-file gpus.json" OUTPUT _out
  COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${_work}/build" -j 2 --resource-spec-file "${_work}/gpus.json"
          --output-on-failure -V)
mytriton_expect("${_out}" MATCHES "100% tests passed, 0 tests failed out of 4" "the four tests passed")
mytriton_expect("${_out}" MATCHES "ran on GPU 0" "a test on GPU 0")
mytriton_expect("${_out}" MATCHES "ran on GPU 1" "a test on GPU 1")
mytriton_step("ctest --show-only=json-v1" OUTPUT _json
  COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${_work}/build" --show-only=json-v1)
mytriton_expect("${_json}" MATCHES "\"name\" : \"RESOURCE_GROUPS\"" "RESOURCE_GROUPS declared")

# 3. this build's GPU tests
if(MYTRITON_HAVE_CUDA)
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${MYTRITON_BUILD_DIR}" -R "^exec\\.Cuda"
                          --show-only=json-v1
    OUTPUT_VARIABLE _json RESULT_VARIABLE _rc)
  string(JSON _count LENGTH "${_json}" tests)
  set(_with 0)
  math(EXPR _last "${_count} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _props ERROR_VARIABLE _err GET "${_json}" tests ${_i} properties)
    if(_props MATCHES "RESOURCE_GROUPS" AND _props MATCHES "gpus")
      math(EXPR _with "${_with} + 1")
    endif()
  endforeach()
  if(_count EQUAL 0 OR NOT _with EQUAL _count)
    message(FATAL_ERROR "${_with} of ${_count} exec.Cuda* tests declare RESOURCE_GROUPS gpus")
  endif()
  message(STATUS "    ok: all ${_count} exec.Cuda* tests declare RESOURCE_GROUPS gpus:1")
endif()
