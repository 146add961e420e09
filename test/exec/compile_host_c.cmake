# ctest script: compiles every generated NAME_host.c listed in SOURCES (one
# path a line) with COMPILER as strict C11 with warnings as errors.
#   -DCOMPILER=<path or empty> -DNAME=<gcc|clang> -DSOURCES=<list file>
#   -DINCLUDES=<dir|dir|...> -DWORK_DIR=<scratch folder>
# Prints "MYTRITON_SKIP: ..." (the test's SKIP_REGULAR_EXPRESSION) and
# stops when the compiler is not installed (cmake_language(EXIT) needs
# CMake 3.29; Debian 12 has 3.25).
if(NOT COMPILER)
  message("MYTRITON_SKIP: ${NAME} was not found at configure time")
  return()
endif()
file(STRINGS "${SOURCES}" _sources)
if(NOT _sources)
  message(FATAL_ERROR "no generated host sources listed in ${SOURCES}")
endif()
foreach(_src IN LISTS _sources)
  if(NOT EXISTS "${_src}")
    message(FATAL_ERROR "${_src} does not exist (build the mytriton_exec_kernels_* targets first)")
  endif()
endforeach()
string(REPLACE "|" ";" _dirs "${INCLUDES}")
set(_flags -std=c11 -Wall -Wextra -Werror -pedantic -O2 -c)
foreach(_dir IN LISTS _dirs)
  list(APPEND _flags "-I${_dir}")
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND "${COMPILER}" ${_flags} ${_sources}
  WORKING_DIRECTORY "${WORK_DIR}"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
list(LENGTH _sources _n)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${NAME} (${COMPILER}) rejected the generated host C:\n${_out}")
endif()
message("${NAME}: ${_n} generated host files compile as C11 with -Wall -Wextra -Werror -pedantic")
