# cmake.ccache: the generated translation units work with CMake's compiler
# launchers. A project is built with CMAKE_C_COMPILER_LAUNCHER and
# CMAKE_CUDA_COMPILER_LAUNCHER set to ccache (its own cache directory),
# then its build tree is deleted and it is built again: every compile of the
# second build is a cache hit (the generated files are byte-identical and
# hold no absolute path). Skipped without ccache (it prints
# "MYTRITON_SKIP: ...", the test's SKIP_REGULAR_EXPRESSION).
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

find_program(_ccache ccache)
if(NOT _ccache)
  message("MYTRITON_SKIP: ccache not found")
  return()
endif()
mytriton_fresh_copy(ccache _dir)
set(ENV{CCACHE_DIR} "${_dir}/cache")
set(ENV{CCACHE_NOHASHDIR} "1")
set(ENV{CCACHE_BASEDIR} "${_dir}")
set(_args "-DCMAKE_C_COMPILER_LAUNCHER=${_ccache}" "-DCMAKE_CUDA_COMPILER_LAUNCHER=${_ccache}")

mytriton_configure("configure with ccache as the compiler launcher" "${_dir}/src" "${_dir}/build" ARGS ${_args})
mytriton_step("first build (fills the cache)" OUTPUT _log COMMAND "${CMAKE_COMMAND}" --build "${_dir}/build" -v)
mytriton_expect("${_log}" MATCHES "ccache [^\n]*add64" "the generated units compiled through ccache")
mytriton_step("zero the statistics" COMMAND "${_ccache}" -z)

file(REMOVE_RECURSE "${_dir}/build")
message(STATUS "==> removed the build tree")
mytriton_configure("configure again" "${_dir}/src" "${_dir}/build" ARGS ${_args})
mytriton_step("second build from a clean tree" COMMAND "${CMAKE_COMMAND}" --build "${_dir}/build")
mytriton_step("ccache statistics" OUTPUT _stats COMMAND "${_ccache}" --print-stats)
string(REGEX MATCH "(^|\n)direct_cache_hit\t([0-9]+)" _m "${_stats}")
set(_direct "${CMAKE_MATCH_2}")
string(REGEX MATCH "(^|\n)preprocessed_cache_hit\t([0-9]+)" _m "${_stats}")
set(_pre "${CMAKE_MATCH_2}")
string(REGEX MATCH "(^|\n)cache_miss\t([0-9]+)" _m "${_stats}")
set(_miss "${CMAKE_MATCH_2}")
math(EXPR _hits "${_direct} + ${_pre}")
message(STATUS "    second build: ${_hits} hits, ${_miss} misses")
if(_hits EQUAL 0 OR NOT _miss EQUAL 0)
  message(FATAL_ERROR "the rebuild was not served from the cache (${_hits} hits, ${_miss} misses):\n${_stats}")
endif()
message(STATUS "    ok: every compile of the rebuild came from the cache")
