# cmake.incremental: a project with two kernels. Editing one kernel's source
# regenerates only that kernel's outputs; a no-op build regenerates nothing;
# a newer compiler regenerates both; a changed CONSTEXPR regenerates only its
# kernel; a comment-only edit rewrites no output and recompiles nothing; a
# kernel removed from the call loses its generated files. Evidence: Ninja's own explanation (-d explain), the custom
# commands' descriptions in the build log, and the outputs' timestamps.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

mytriton_fresh_copy(incremental _dir)
# The project builds against its own copy of the installed prefix: step 2
# touches the compiler, and the shared prefix's is read by the other scratch
# projects' builds running beside this test (they would recompile too).
set(_prefix "${_dir}/prefix")
file(COPY "${MYTRITON_PREFIX}/" DESTINATION "${_prefix}")
set(_use_prefix "-DCMAKE_PREFIX_PATH=${_prefix}")
set(_src "${_dir}/src")
set(_bin "${_dir}/build")
set(_gen "${_bin}/two_kernels/two_kernels")
set(_add_outputs "${_gen}/add.h" "${_gen}/add_host.c")
set(_scale_outputs "${_gen}/scale.h" "${_gen}/scale_host.c")

function(_stamps out_var)
  set(_result "")
  foreach(_file IN LISTS ARGN)
    if(NOT EXISTS "${_file}")
      message(FATAL_ERROR "missing output ${_file}")
    endif()
    file(TIMESTAMP "${_file}" _t "%Y-%m-%d %H:%M:%S" UTC)
    file(SHA256 "${_file}" _h)
    list(APPEND _result "${_t}/${_h}")
  endforeach()
  set(${out_var} "${_result}" PARENT_SCOPE)
endfunction()

function(_build title out_var)
  mytriton_step("${title}" OUTPUT _log
    COMMAND "${CMAKE_COMMAND}" --build "${_bin}" -- -d explain)
  # the explanations and the commands Ninja ran, without the noise
  string(REGEX MATCHALL "[^\n]*(ninja explain: [^\n]*(two_kernels|kernels/|mytritonc)|mytriton: compiling|no work to do)[^\n]*" _lines "${_log}")
  foreach(_line IN LISTS _lines)
    message(STATUS "    | ${_line}")
  endforeach()
  set(${out_var} "${_log}" PARENT_SCOPE)
endfunction()

mytriton_configure("configure the two-kernel project" "${_src}" "${_bin}" ARGS ${_use_prefix})
_build("first build" _log)
mytriton_expect("${_log}" MATCHES "mytriton: compiling kernel add_kernel" "add_kernel compiled")
mytriton_expect("${_log}" MATCHES "mytriton: compiling kernel scale_kernel" "scale_kernel compiled")
mytriton_step("run the program (host launchers, registry)" ECHO COMMAND "${_bin}/check")

_build("no-op build" _log)
mytriton_expect("${_log}" NOT_MATCHES "mytriton: compiling" "no kernel recompiled")

# 1. Edit add.py (timestamps have a one-second resolution here).
_stamps(_add_before ${_add_outputs})
_stamps(_scale_before ${_scale_outputs})
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
file(APPEND "${_src}/kernels/add.py" "\n# edited by cmake.incremental\n")
message(STATUS "==> edited ${_src}/kernels/add.py")
_build("build after editing add.py" _log)
mytriton_expect("${_log}" MATCHES "mytriton: compiling kernel add_kernel" "add_kernel recompiled")
mytriton_expect("${_log}" NOT_MATCHES "mytriton: compiling kernel scale_kernel" "scale_kernel not recompiled")
mytriton_expect("${_log}" MATCHES "ninja explain: [^\n]*(older than most recent input [^\n]*kernels/add\\.py|kernels/add\\.py is dirty)" "Ninja explains: add.py changed")
_stamps(_scale_after ${_scale_outputs})
if(NOT _scale_after STREQUAL _scale_before)
  message(FATAL_ERROR "scale's outputs changed: ${_scale_before} -> ${_scale_after}")
endif()
message(STATUS "    ok: scale.h and scale_host.c untouched (same time and content)")
_stamps(_add_after ${_add_outputs})
if(NOT _add_after STREQUAL _add_before)
  message(FATAL_ERROR "add's outputs were rewritten though only a comment changed: ${_add_before} -> ${_add_after}")
endif()
message(STATUS "    ok: add.h and add_host.c kept their time and content (outputs are written only when they change)")
mytriton_expect("${_log}" NOT_MATCHES "Building C object" "no object recompiled (add_host.c, main.c)")
_build("no-op build after the comment" _log)
mytriton_expect("${_log}" NOT_MATCHES "mytriton: compiling" "no kernel recompiled again")

# 2. A newer compiler regenerates everything.
file(GLOB _compiler "${_prefix}/bin/mytritonc*")
file(TOUCH_NOCREATE ${_compiler})
message(STATUS "==> touched ${_compiler}")
_build("build after touching the compiler" _log)
mytriton_expect("${_log}" MATCHES "mytriton: compiling kernel add_kernel" "add_kernel recompiled")
mytriton_expect("${_log}" MATCHES "mytriton: compiling kernel scale_kernel" "scale_kernel recompiled")

# 3. A changed CONSTEXPR regenerates only its kernel.
mytriton_configure("reconfigure with scale's BLOCK=128" "${_src}" "${_bin}" ARGS ${_use_prefix} -DSCALE_BLOCK=128)
_build("build after changing scale's CONSTEXPR" _log)
mytriton_expect("${_log}" MATCHES "mytriton: compiling kernel scale_kernel" "scale_kernel recompiled")
mytriton_expect("${_log}" NOT_MATCHES "mytriton: compiling kernel add_kernel" "add_kernel not recompiled")
mytriton_step("run the program again" ECHO COMMAND "${_bin}/check")

# 4. A kernel removed from the call: its generated files go at the next
# configure (no stale header left to include by mistake).
mytriton_configure("reconfigure without scale_kernel" "${_src}" "${_bin}" ARGS ${_use_prefix} -DDROP_SCALE=ON)
foreach(_file IN LISTS _scale_outputs)
  if(EXISTS "${_file}")
    message(FATAL_ERROR "stale output left behind: ${_file}")
  endif()
endforeach()
message(STATUS "    ok: scale.h and scale_host.c removed")
foreach(_file IN LISTS _add_outputs)
  if(NOT EXISTS "${_file}")
    message(FATAL_ERROR "a current output was removed: ${_file}")
  endif()
endforeach()
mytriton_step("build the library without scale_kernel" COMMAND "${CMAKE_COMMAND}" --build "${_bin}" --target two_kernels)
