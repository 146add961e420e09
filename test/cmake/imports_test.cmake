# cmake.imports: a kernel importing a helper from kernels/common.py. The
# first build compiles and runs it; a no-op build compiles nothing; editing
# common.py (not the kernel file) recompiles the kernel, through the depfile
# mytritonc writes, and the program sees the new helper.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

mytriton_fresh_copy(imports _dir)
set(_src "${_dir}/src")
set(_bin "${_dir}/build")

function(_build title out_var)
  mytriton_step("${title}" OUTPUT _log
    COMMAND "${CMAKE_COMMAND}" --build "${_bin}" -- -d explain)
  string(REGEX MATCHALL "[^\n]*(ninja explain: [^\n]*common\\.py|mytriton: compiling|no work to do)[^\n]*" _lines "${_log}")
  foreach(_line IN LISTS _lines)
    message(STATUS "    | ${_line}")
  endforeach()
  set(${out_var} "${_log}" PARENT_SCOPE)
endfunction()

mytriton_configure("configure the project" "${_src}" "${_bin}")
_build("first build" _log)
mytriton_expect("${_log}" MATCHES "mytriton: compiling kernel scale_kernel" "scale_kernel compiled")
mytriton_step("run the program (factor 2)" ECHO COMMAND "${_bin}/check" 2)

_build("no-op build" _log)
mytriton_expect("${_log}" NOT_MATCHES "mytriton: compiling" "nothing recompiled")

execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(READ "${_src}/kernels/common.py" _text)
string(REPLACE "v * 2.0" "v * 3.0" _text "${_text}")
file(WRITE "${_src}/kernels/common.py" "${_text}")
message(STATUS "==> edited ${_src}/kernels/common.py (factor 3)")
_build("build after editing common.py" _log)
mytriton_expect("${_log}" MATCHES "mytriton: compiling kernel scale_kernel" "scale_kernel recompiled")
mytriton_step("run the program (factor 3)" ECHO COMMAND "${_bin}/check" 3)

_build("no-op build after the edit" _log)
mytriton_expect("${_log}" NOT_MATCHES "mytriton: compiling" "nothing recompiled again")
