# cmake.readme: the README's first kernel, as a user follows it: its files
# (kernels/add.py, CMakeLists.txt, main.c) and its commands, taken from the
# README by scripts/check_docs.py, run against the installed package; the
# program must print what the README says.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(_dir "${MYTRITON_WORK}/readme")
file(REMOVE_RECURSE "${_dir}")
file(MAKE_DIRECTORY "${_dir}")
mytriton_step("the README's first kernel, its files and commands"
  COMMAND "${MYTRITON_PYTHON}" "${MYTRITON_SOURCE_DIR}/scripts/check_docs.py" extract
          "${MYTRITON_SOURCE_DIR}/README.md" --to "${_dir}" --prefix "${MYTRITON_PREFIX}")
foreach(_file kernels/add.py CMakeLists.txt main.c)
  if(NOT EXISTS "${_dir}/first_kernel/${_file}")
    message(FATAL_ERROR "the README gives no first_kernel/${_file}")
  endif()
endforeach()
# (an instrumented runtime, MYTRITON_SANITIZE, needs the sanitizers' link flags)
set(_env "")
if(MYTRITON_SANITIZE)
  set(_env "LDFLAGS=-fsanitize=address,undefined")
endif()
mytriton_step("run the README's commands" OUTPUT _out
  COMMAND "${CMAKE_COMMAND}" -E env ${_env} sh "${_dir}/first_kernel.sh")
message(STATUS "    output:\n${_out}")
mytriton_expect("${_out}" MATCHES "out\\[9999\\] = 29997\\.0" "the result the README promises")
