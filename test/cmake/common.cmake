# Helpers shared by the test drivers (run with cmake -P).
#
# Every driver gets: MYTRITON_BUILD_DIR (the build under test),
# MYTRITON_PREFIX (where cmake.install installed it), MYTRITON_WORK (scratch
# space), MYTRITON_CACHE (initial cache for scratch projects: compilers, CUDA
# architectures, CMAKE_PREFIX_PATH), MYTRITON_TEST_SOURCE (this folder) and
# MYTRITON_CONFIG (the ctest configuration, may be empty).

cmake_minimum_required(VERSION 3.24)

foreach(_var MYTRITON_BUILD_DIR MYTRITON_PREFIX MYTRITON_WORK MYTRITON_CACHE MYTRITON_TEST_SOURCE)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "test driver: ${_var} is not set")
  endif()
endforeach()

# mytriton_step(<title> [EXPECT_FAIL] [ECHO] [OUTPUT <var>] COMMAND <cmd>...)
# Runs a command, printing it first. ECHO shows its output as it runs;
# otherwise the output is shown only if the step fails. Stdout and stderr are
# merged into <var>.
function(mytriton_step title)
  cmake_parse_arguments(S "EXPECT_FAIL;ECHO" "OUTPUT" "COMMAND" ${ARGN})
  list(JOIN S_COMMAND " " _text)
  message(STATUS "==> ${title}")
  message(STATUS "    $ ${_text}")
  set(_echo "")
  if(S_ECHO)
    set(_echo ECHO_OUTPUT_VARIABLE ECHO_ERROR_VARIABLE)
  endif()
  execute_process(COMMAND ${S_COMMAND}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out ${_echo})
  if(S_EXPECT_FAIL AND _rc EQUAL 0)
    message(FATAL_ERROR "${title}: succeeded, but it must fail. Output:\n${_out}")
  elseif(NOT S_EXPECT_FAIL AND NOT _rc EQUAL 0)
    if(S_ECHO)
      message(FATAL_ERROR "${title}: failed (${_rc}); see the output above")
    endif()
    message(FATAL_ERROR "${title}: failed (${_rc}). Output:\n${_out}")
  endif()
  if(S_OUTPUT)
    set(${S_OUTPUT} "${_out}" PARENT_SCOPE)
  endif()
endfunction()

# mytriton_configure(<title> <source dir> <build dir> [EXPECT_FAIL] [ECHO]
#                    [OUTPUT <var>] [ARGS <cache args>...])
function(mytriton_configure title src bin)
  cmake_parse_arguments(C "EXPECT_FAIL;ECHO" "OUTPUT" "ARGS" ${ARGN})
  set(_flags "")
  if(C_EXPECT_FAIL)
    list(APPEND _flags EXPECT_FAIL)
  endif()
  if(C_ECHO)
    list(APPEND _flags ECHO)
  endif()
  mytriton_step("${title}" ${_flags} OUTPUT _out
    COMMAND "${CMAKE_COMMAND}" -S "${src}" -B "${bin}" -G Ninja -C "${MYTRITON_CACHE}" ${C_ARGS})
  if(C_OUTPUT)
    set(${C_OUTPUT} "${_out}" PARENT_SCOPE)
  endif()
endfunction()

# mytriton_expect(<text> MATCHES|NOT_MATCHES <regex> <what>)
function(mytriton_expect text mode regex what)
  if(mode STREQUAL "MATCHES" AND NOT text MATCHES "${regex}")
    message(FATAL_ERROR "expected ${what} (/${regex}/) in:\n${text}")
  elseif(mode STREQUAL "NOT_MATCHES" AND text MATCHES "${regex}")
    message(FATAL_ERROR "did not expect ${what} (/${regex}/) in:\n${text}")
  endif()
  message(STATUS "    ok: ${what}")
endfunction()

# A fresh copy of a scratch project of projects/ under the work folder.
function(mytriton_fresh_copy name out_var)
  set(_dir "${MYTRITON_WORK}/${name}")
  file(REMOVE_RECURSE "${_dir}")
  file(MAKE_DIRECTORY "${_dir}")
  file(COPY "${MYTRITON_TEST_SOURCE}/projects/${name}/" DESTINATION "${_dir}/src")
  set(${out_var} "${_dir}" PARENT_SCOPE)
endfunction()
