# cmake.install: installs the build under test into a fresh prefix (the
# fixture of the other scratch-project tests) and checks the package layout.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

# A fixture prefix is made afresh; a lasting one (MYTRITON_KEEP_PREFIX: the
# example preset's install/) is installed over.
if(NOT MYTRITON_KEEP_PREFIX)
  file(REMOVE_RECURSE "${MYTRITON_PREFIX}")
endif()
set(_config "")
if(MYTRITON_CONFIG)
  set(_config --config "${MYTRITON_CONFIG}")
endif()
mytriton_step("install mytriton into ${MYTRITON_PREFIX}"
  COMMAND "${CMAKE_COMMAND}" --install "${MYTRITON_BUILD_DIR}" --prefix "${MYTRITON_PREFIX}" ${_config})

file(GLOB_RECURSE _configs "${MYTRITON_PREFIX}/*/mytritonConfig.cmake")
list(LENGTH _configs _count)
if(NOT _count EQUAL 1)
  message(FATAL_ERROR "expected one mytritonConfig.cmake under ${MYTRITON_PREFIX}, found: ${_configs}")
endif()
get_filename_component(_cmakedir "${_configs}" DIRECTORY)
file(GLOB _runtime_libs "${MYTRITON_PREFIX}/lib*/libmytriton_runtime.a" "${MYTRITON_PREFIX}/lib*/*/libmytriton_runtime.a")
if(NOT _runtime_libs)
  message(FATAL_ERROR "libmytriton_runtime.a is not installed")
endif()
foreach(_file
    "${MYTRITON_PREFIX}/bin/mytritonc"
    "${MYTRITON_PREFIX}/libexec/mytriton/mytriton_parse.py"
    "${MYTRITON_PREFIX}/include/mytriton/runtime.h"
    "${_cmakedir}/mytritonConfigVersion.cmake"
    "${_cmakedir}/mytriton-compiler-targets.cmake"
    "${_cmakedir}/mytriton-runtime-targets.cmake"
    "${_cmakedir}/MytritonKernels.cmake")
  if(NOT EXISTS "${_file}")
    message(FATAL_ERROR "not installed: ${_file}")
  endif()
  message(STATUS "    installed: ${_file}")
endforeach()

# The package is relocatable: no path of the build tree in its CMake files.
file(GLOB _cmake_files "${_cmakedir}/*.cmake")
foreach(_file IN LISTS _cmake_files)
  file(READ "${_file}" _text)
  string(FIND "${_text}" "${MYTRITON_BUILD_DIR}" _at)
  if(NOT _at EQUAL -1)
    message(FATAL_ERROR "${_file} refers to the build tree ${MYTRITON_BUILD_DIR}")
  endif()
endforeach()
message(STATUS "    ok: no build-tree paths in the installed CMake files")
if(EXISTS "${MYTRITON_PREFIX}/bin/mytriton_parse.py")
  message(FATAL_ERROR "the parser shim is installed in bin/ (it belongs in libexec/mytriton/)")
endif()
# The installed compiler finds its shim in libexec/ by itself.
mytriton_step("the installed mytritonc compiles without --shim"
  COMMAND "${MYTRITON_PREFIX}/bin/mytritonc" "${MYTRITON_TEST_SOURCE}/projects/incremental/kernels/add.py"
          --kernel add_kernel --signature "*fp32, *fp32, *fp32, i32" -D BLOCK=64 --emit=ssa)
