# mytriton_lang_suite(<suite> DEFINE <D> [SOURCE <kernels.py>] TEST <test.cpp>
#                     CASES <case>...
#                     [PREFIX <p>] [LIBRARY <name>] [PER_LEVEL] [NO_DEFAULT_GRID]
#                     [NO_WARNINGS] [TEST_OPTIONS <compile option>...]
#                     [TEST_DEFINITIONS <def>...] [TEST_LIBRARIES <lib>...]
#                     [DIRECTORY_LABELS <label>...] [HOST_LABELS <label>...]
#                     [HOST_FILTER <gtest filter>] [TEST_PROPERTIES <prop> <value>...]
#                     [NO_MLIR | MLIR_CASES <name>...] [ALWAYS_MLIR_TESTS]
#                     [NO_LOWERING | LOWERING_CASES <name>...]
#                     [EMU_PREFIX <ctest prefix> EMU_HEADER <file> [EMU_NAME <p>]
#                      [EMU_LABELS <label>...] [EMU_DEFINITIONS <def>...]]
#                     [HOST_C])
#
# One language-area suite (test/lang_*). Each case is
#   "name|kernel|signature|constexprs[|grid[|keywords]]"
#   kernel      a function of SOURCE, or <file.py>:<function> (the file
#               relative to the current source directory, as SOURCE)
#   constexprs  NAME=VALUE items separated by spaces; a value may hold spaces
#               (COEFS=(1.0, 2.0)): an item starts where NAME= does
#   grid        default "1"; with NO_DEFAULT_GRID an absent or empty grid
#               passes none (the launcher takes it)
#   keywords    more KERNEL keywords of mytriton_add_kernels() with their
#               values, space-separated ("DEBUG ON", "NUM_WARPS 4 GRID_PARAMS
#               B"); with OPT_LEVEL <l> among them the case is a single-level
#               one (below)
# and is compiled at -O1 and -O2 for the host (and, with a CUDA compiler,
# the CUDA) backend as launch_<n>_o1 / _o2, <n> being <p>_<name> (<name>
# without PREFIX), in the library mytriton_<suite>_kernels (or LIBRARY;
# PER_LEVEL: one library per level, mytriton_<suite>_o1 / _o2), and at -O1
# for the MLIR backend (with a CUDA compiler and mlir-opt of MLIR 19) as
# launch_<n>_m_mlir in mytriton_<suite>_mlir (MLIR_CASES: those cases alone;
# NO_MLIR: no such library). A single-level case is compiled at -O<l> alone
# as launch_<n> (no _o<l>), for the host and CUDA backends alone, after the
# other cases in its library (single-level cases in their order).
# The test program mytriton_<suite>_test is built from <test.cpp> with
# <D>_CUDA and <D>_MLIR (0 or 1), TEST_DEFINITIONS and TEST_OPTIONS (and the
# project's warnings unless NO_WARNINGS), linked with the suite's libraries
# and TEST_LIBRARIES, and run as
#   <suite>.Host.*   always (labels HOST_LABELS; HOST_FILTER: the gtest filter
#                    of these tests instead of Host*)
#   <suite>.Cuda.*   CUDA -O1 and -O2 (labels gpu; skipped without a GPU)
#   <suite>.Mlir.*   the MLIR backend (skipped without a GPU; registered only
#                    where the MLIR library is built, unless ALWAYS_MLIR_TESTS:
#                    then wherever CUDA is, the test program skipping them
#                    when built without <D>_MLIR)
# (TEST_PROPERTIES: more test properties of those three, as TIMEOUT 120);
#   <suite>.mlir.<name>_o1 / _o2   each kernel's MLIR module lowered to PTX
#                    by mlir-opt and assembled by ptxas (label mlir; with
#                    mlir-opt of MLIR 19; LOWERING_CASES: those cases alone,
#                    NO_LOWERING: none; not the single-level cases; no case
#                    with keywords, nor constexpr values with spaces).
# DIRECTORY_LABELS label every test of the directory.
# EMU_PREFIX: each case's generated CUDA at -O1 and -O2 (<EMU_NAME><name>_o<l>,
#   in emu/<that>/, EMU_NAME default <p>_) compiled as C++ against test/emu's
#   CPU emulation of CUDA into mytriton_<suite>_emu_test (<test.cpp> with
#   <D>_EMU=1 and EMU_DEFINITIONS; emu/<EMU_HEADER> includes every unit's
#   header), its tests <EMU_PREFIX>* (labels EMU_LABELS, timeout 300); not
#   the single-level cases; no case with keywords.
# HOST_C: every generated NAME_host.c compiled by gcc and clang as strict
#   C11, warnings as errors (<suite>.host_c.gcc / .clang; PER_LEVEL only).

# The keywords of mytriton_lang_suite() (and of mytriton_lang_emu()).
set(_MYTRITON_LANG_OPTIONS PER_LEVEL NO_DEFAULT_GRID NO_WARNINGS HOST_C NO_MLIR ALWAYS_MLIR_TESTS
  NO_LOWERING)
set(_MYTRITON_LANG_ONE PREFIX DEFINE SOURCE TEST LIBRARY HOST_FILTER EMU_PREFIX EMU_HEADER
  EMU_NAME)
set(_MYTRITON_LANG_MULTI CASES DIRECTORY_LABELS HOST_LABELS TEST_OPTIONS TEST_LIBRARIES
  TEST_DEFINITIONS TEST_PROPERTIES MLIR_CASES LOWERING_CASES EMU_LABELS EMU_DEFINITIONS)

# One case of CASES: _case, _kernel, _src (its file as given, SOURCE when
# the kernel names none) and _src_path (absolute), _sig, _defs (a list),
# _grid, _keys (a list, without OPT_LEVEL) and _only (the level of a
# single-level case, else "").
function(_mytriton_lang_case entry default_grid source)
  string(REPLACE "|" ";" _f "${entry}")
  list(GET _f 0 _c)
  list(GET _f 1 _k)
  string(FIND "${_k}" ":" _colon REVERSE)
  if(NOT _colon EQUAL -1)
    string(SUBSTRING "${_k}" 0 ${_colon} source)
    math(EXPR _colon "${_colon} + 1")
    string(SUBSTRING "${_k}" ${_colon} -1 _k)
  endif()
  if(source STREQUAL "")
    message(FATAL_ERROR "mytriton_lang_suite(): case ${_c}: no SOURCE, and its kernel '${_k}' "
      "names no file (<file.py>:<function>)")
  elseif(IS_ABSOLUTE "${source}")
    set(_a "${source}")
  else()
    set(_a "${CMAKE_CURRENT_SOURCE_DIR}/${source}")
  endif()
  list(GET _f 2 _s)
  list(GET _f 3 _d)
  set(_g "${default_grid}")
  set(_w "")
  list(LENGTH _f _n)
  if(_n GREATER 4)
    list(GET _f 4 _g4)
    if(NOT _g4 STREQUAL "")
      set(_g "${_g4}")
    endif()
  endif()
  set(_l "")
  if(_n GREATER 5)
    list(GET _f 5 _w)
    string(REPLACE " " ";" _w "${_w}")
    list(FIND _w OPT_LEVEL _i)
    if(NOT _i EQUAL -1)
      list(REMOVE_AT _w ${_i})
      list(LENGTH _w _nw)
      if(NOT _i LESS _nw)
        message(FATAL_ERROR "mytriton_lang_suite(): case ${_c}: OPT_LEVEL without a level")
      endif()
      list(GET _w ${_i} _l)
      list(REMOVE_AT _w ${_i})
    endif()
  endif()
  string(STRIP "${_d}" _d)
  string(REGEX REPLACE " +([A-Za-z_][A-Za-z0-9_]*=)" ";\\1" _d "${_d}")
  set(_case "${_c}" PARENT_SCOPE)
  set(_kernel "${_k}" PARENT_SCOPE)
  set(_sig "${_s}" PARENT_SCOPE)
  set(_defs "${_d}" PARENT_SCOPE)
  set(_grid "${_g}" PARENT_SCOPE)
  set(_keys "${_w}" PARENT_SCOPE)
  set(_only "${_l}" PARENT_SCOPE)
  set(_src "${source}" PARENT_SCOPE)
  set(_src_path "${_a}" PARENT_SCOPE)
endfunction()

function(mytriton_lang_suite suite)
  cmake_parse_arguments(PARSE_ARGV 1 S "${_MYTRITON_LANG_OPTIONS}" "${_MYTRITON_LANG_ONE}"
    "${_MYTRITON_LANG_MULTI}")
  if(S_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mytriton_lang_suite(${suite}): unexpected arguments: "
      "${S_UNPARSED_ARGUMENTS}")
  endif()
  set(_p "")
  if(S_PREFIX)
    set(_p "${S_PREFIX}_")
  endif()
  set(_default_grid 1)
  if(S_NO_DEFAULT_GRID)
    set(_default_grid "")
  endif()
  set(_backends host)
  if(CMAKE_CUDA_COMPILER)
    set(_backends cuda host)
  endif()
  # The two-level cases at -O1, then at -O2, then the single-level ones (an
  # OPT_LEVEL among their keywords) in their order.
  set(_margs "")
  set(_host_sources "")
  set(_args "")
  set(_args_1 "")
  set(_args_2 "")
  foreach(_pass 1 2 single)
    foreach(_entry IN LISTS S_CASES)
      _mytriton_lang_case("${_entry}" "${_default_grid}" "${S_SOURCE}")
      if(_pass STREQUAL "single")
        if(_only STREQUAL "")
          continue()
        endif()
        set(_level ${_only})
        set(_name ${_p}${_case})
      else()
        if(NOT _only STREQUAL "")
          continue()
        endif()
        set(_level ${_pass})
        set(_name ${_p}${_case}_o${_level})
      endif()
      set(_g "")
      if(NOT _grid STREQUAL "")
        set(_g GRID "${_grid}")
      endif()
      set(_into _args)
      if(S_PER_LEVEL)
        set(_into _args_${_level})
        set(_lib mytriton_${suite}_o${_level})
        list(APPEND _host_sources "${CMAKE_CURRENT_BINARY_DIR}/${_lib}/${_lib}/${_name}_host.c")
      endif()
      set(_lk "${_keys}")
      if(NOT _level STREQUAL "2")
        _mytriton_lang_num_warps(_lk _unused) # (-O2's alone)
      endif()
      list(APPEND ${_into} KERNEL ${_kernel} SOURCE ${_src} NAME ${_name}
        SIGNATURE "${_sig}" OPT_LEVEL ${_level} CONSTEXPR ${_defs} ${_g} ${_lk})
      if(_pass STREQUAL "1" AND (NOT S_MLIR_CASES OR _case IN_LIST S_MLIR_CASES))
        list(APPEND _margs KERNEL ${_kernel} SOURCE ${_src} NAME ${_p}${_case}_m
          SIGNATURE "${_sig}" OPT_LEVEL 1 CONSTEXPR ${_defs} ${_g} ${_lk})
      endif()
    endforeach()
  endforeach()
  if(S_PER_LEVEL)
    set(_libs mytriton_${suite}_o1 mytriton_${suite}_o2)
    mytriton_add_kernels(mytriton_${suite}_o1 ${_args_1} BACKENDS ${_backends})
    mytriton_add_kernels(mytriton_${suite}_o2 ${_args_2} BACKENDS ${_backends})
  else()
    set(_libs mytriton_${suite}_kernels)
    if(S_LIBRARY)
      set(_libs ${S_LIBRARY})
    endif()
    mytriton_add_kernels(${_libs} ${_args} BACKENDS ${_backends})
  endif()
  foreach(_lib IN LISTS _libs)
    set_target_properties(${_lib} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
    target_compile_options(${_lib} PRIVATE
      $<$<COMPILE_LANG_AND_ID:C,GNU,Clang>:-Wall -Wextra -Werror -pedantic>
      $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)
  endforeach()

  if(S_HOST_C)
    _mytriton_lang_host_c(${suite} "${_host_sources}" "${_libs}")
  endif()

  set(_mlir OFF)
  mytriton_find_mlir_opt(_mlir_opt)
  if(CMAKE_CUDA_COMPILER AND _mlir_opt AND NOT S_NO_MLIR)
    set(_mlir ON)
    mytriton_add_kernels(mytriton_${suite}_mlir ${_margs} BACKENDS mlir)
  endif()

  set(_test mytriton_${suite}_test)
  add_executable(${_test} ${S_TEST})
  target_link_libraries(${_test} PRIVATE ${_libs} ${S_TEST_LIBRARIES} GTest::gtest_main)
  target_compile_features(${_test} PRIVATE cxx_std_17)
  if(CMAKE_CUDA_COMPILER)
    target_compile_definitions(${_test} PRIVATE ${S_DEFINE}_CUDA=1)
    target_link_libraries(${_test} PRIVATE CUDA::cudart)
    if(_mlir)
      target_compile_definitions(${_test} PRIVATE ${S_DEFINE}_MLIR=1)
      target_link_libraries(${_test} PRIVATE mytriton_${suite}_mlir)
    endif()
  else()
    target_compile_definitions(${_test} PRIVATE ${S_DEFINE}_CUDA=0)
  endif()
  if(NOT S_NO_WARNINGS)
    mytriton_target_warnings(${_test})
  endif()
  if(S_TEST_DEFINITIONS)
    target_compile_definitions(${_test} PRIVATE ${S_TEST_DEFINITIONS})
  endif()
  if(S_TEST_OPTIONS)
    target_compile_options(${_test} PRIVATE ${S_TEST_OPTIONS})
  endif()

  if(S_DIRECTORY_LABELS)
    set_property(DIRECTORY PROPERTY LABELS ${S_DIRECTORY_LABELS})
  endif()
  set(_host_props "")
  if(S_HOST_LABELS OR S_TEST_PROPERTIES)
    set(_host_props PROPERTIES)
  endif()
  if(S_HOST_LABELS)
    string(REPLACE ";" "\\;" _hl "${S_HOST_LABELS}")
    list(APPEND _host_props LABELS "${_hl}")
  endif()
  list(APPEND _host_props ${S_TEST_PROPERTIES})
  set(_gpu_props "")
  if(S_TEST_PROPERTIES)
    set(_gpu_props PROPERTIES ${S_TEST_PROPERTIES})
  endif()
  set(_host_filter "Host*")
  if(S_HOST_FILTER)
    set(_host_filter "${S_HOST_FILTER}")
  endif()
  gtest_discover_tests(${_test} TEST_PREFIX "${suite}." TEST_FILTER "${_host_filter}" ${_host_props}
    DISCOVERY_MODE PRE_TEST)
  if(CMAKE_CUDA_COMPILER)
    mytriton_add_gpu_test(${_test} TEST_PREFIX "${suite}." TEST_FILTER "Cuda*" ${_gpu_props})
    if(_mlir OR S_ALWAYS_MLIR_TESTS)
      mytriton_add_gpu_test(${_test} TEST_PREFIX "${suite}." TEST_FILTER "Mlir*" ${_gpu_props})
    endif()
  endif()

  mytriton_lang_emu(${suite} ${ARGN})

  if(NOT S_NO_LOWERING)
    foreach(_entry IN LISTS S_CASES)
      _mytriton_lang_case("${_entry}" "" "${S_SOURCE}")
      if(NOT _only STREQUAL "" OR (S_LOWERING_CASES AND NOT _case IN_LIST S_LOWERING_CASES))
        continue()
      endif()
      _mytriton_lang_num_warps(_keys _unused)
      if(_keys)
        message(FATAL_ERROR "mytriton_lang_suite(${suite}): the lowering tests take no case with "
          "keywords (${_case}: ${_keys}); NO_LOWERING or LOWERING_CASES")
      endif()
      list(JOIN _defs " " _d)
      mytriton_mlir_lowering_tests(PREFIX ${suite} SOURCE ${_src_path} MLIR_OPT "${_mlir_opt}"
        LABELS ${suite} mlir CASES "${_case}|${_kernel}|${_sig}|${_d}")
    endforeach()
  endif()
endfunction()

# A case's NUM_WARPS N taken out of the keyword list `keys_var` into
# `args_var` as mytritonc's --num-warps N (empty without it): -O2's
# emulated CUDA takes it; -O1 and the MLIR lowering tests go without.
function(_mytriton_lang_num_warps keys_var args_var)
  set(_k "${${keys_var}}")
  set(_a "")
  list(FIND _k NUM_WARPS _i)
  if(NOT _i EQUAL -1)
    math(EXPR _v "${_i} + 1")
    list(GET _k ${_v} _n)
    set(_a --num-warps ${_n})
    list(REMOVE_AT _k ${_v} ${_i})
  endif()
  set(${keys_var} "${_k}" PARENT_SCOPE)
  set(${args_var} "${_a}" PARENT_SCOPE)
endfunction()

# The EMU_* part of mytriton_lang_suite() (the same arguments).
function(mytriton_lang_emu suite)
  cmake_parse_arguments(PARSE_ARGV 1 S "${_MYTRITON_LANG_OPTIONS}" "${_MYTRITON_LANG_ONE}"
    "${_MYTRITON_LANG_MULTI}")
  if(NOT S_EMU_PREFIX)
    return()
  endif()
  if(DEFINED S_EMU_NAME)
    set(_p "${S_EMU_NAME}")
  elseif(S_PREFIX)
    set(_p "${S_PREFIX}_")
  else()
    set(_p "")
  endif()
  set(_default_grid 1)
  if(S_NO_DEFAULT_GRID)
    set(_default_grid "")
  endif()
  set(_gen "${CMAKE_CURRENT_BINARY_DIR}/emu")
  set(_sources "")
  set(_incs "")
  set(_header "")
  foreach(_entry IN LISTS S_CASES)
    _mytriton_lang_case("${_entry}" "${_default_grid}" "${S_SOURCE}")
    if(NOT _only STREQUAL "")
      continue()
    endif()
    _mytriton_lang_num_warps(_keys _wargs)
    if(_keys)
      message(FATAL_ERROR "mytriton_lang_suite(${suite}): EMU_PREFIX takes no case with keywords "
        "other than NUM_WARPS (${_case}: ${_keys})")
    endif()
    set(_dargs "")
    foreach(_d IN LISTS _defs)
      list(APPEND _dargs -D ${_d})
    endforeach()
    set(_gargs "")
    if(NOT _grid STREQUAL "")
      set(_gargs --grid "${_grid}")
    endif()
    foreach(_level 1 2)
      set(_name ${_p}${_case}_o${_level})
      set(_dir "${_gen}/${_name}")
      set(_lw "")
      if(_level STREQUAL "2")
        set(_lw ${_wargs})
      endif()
      add_custom_command(
        OUTPUT "${_dir}/${_name}.cu" "${_dir}/${_name}.h"
        COMMAND ${CMAKE_COMMAND} -E make_directory "${_dir}"
        COMMAND mytritonc "${_src_path}" --kernel ${_kernel} --signature "${_sig}" ${_dargs} ${_gargs}
                ${_lw} --name ${_name} -O${_level} --python "${MYTRITON_TEST_PYTHON}" -o "${_dir}"
        DEPENDS "${_src_path}" mytritonc "${MYTRITON_SHIM}"
        COMMENT "mytritonc ${_name} (-O${_level}, emulated CUDA)" VERBATIM)
      add_custom_command(
        OUTPUT "${_dir}/${_name}_emu.cpp"
        COMMAND ${CMAKE_COMMAND} -E copy "${_dir}/${_name}.cu" "${_dir}/${_name}_emu.cpp"
        DEPENDS "${_dir}/${_name}.cu" VERBATIM)
      list(APPEND _sources "${_dir}/${_name}_emu.cpp")
      list(APPEND _incs "${_dir}")
      string(APPEND _header "#include \"${_name}.h\"\n")
    endforeach()
  endforeach()
  file(WRITE "${_gen}/${S_EMU_HEADER}" "${_header}")
  set(_test mytriton_${suite}_emu_test)
  add_executable(${_test} ${S_TEST} ${PROJECT_SOURCE_DIR}/test/emu/emu_globals.cpp ${_sources})
  target_include_directories(${_test} PRIVATE ${PROJECT_SOURCE_DIR}/test/emu/fake_cuda ${_gen} ${_incs})
  target_compile_definitions(${_test} PRIVATE ${S_DEFINE}_EMU=1 ${S_EMU_DEFINITIONS})
  target_link_libraries(${_test} PRIVATE mytriton::runtime GTest::gtest_main Threads::Threads)
  target_compile_features(${_test} PRIVATE cxx_std_17)
  set_source_files_properties(${_sources} PROPERTIES LANGUAGE CXX)
  if(S_TEST_OPTIONS)
    target_compile_options(${_test} PRIVATE ${S_TEST_OPTIONS})
  endif()
  string(REPLACE ";" "\\;" _el "${S_EMU_LABELS}")
  gtest_discover_tests(${_test} TEST_PREFIX "${S_EMU_PREFIX}"
    PROPERTIES LABELS "${_el}" TIMEOUT 300 DISCOVERY_MODE PRE_TEST)
endfunction()

# HOST_C of mytriton_lang_suite(): the generated NAME_host.c (listed in
# host_sources.txt) with gcc and clang as strict C11, -Werror
# (../exec/compile_host_c.cmake; skipped without the compiler).
function(_mytriton_lang_host_c suite sources libs)
  string(REPLACE ";" "\n" _list "${sources}")
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/host_sources.txt" "${_list}\n")
  set(_includes "${PROJECT_SOURCE_DIR}/runtime/include")
  foreach(_lib IN LISTS libs)
    list(APPEND _includes "${CMAKE_CURRENT_BINARY_DIR}/${_lib}/${_lib}")
  endforeach()
  if(CMAKE_CUDA_COMPILER)
    list(APPEND _includes ${CUDAToolkit_INCLUDE_DIRS})
  endif()
  string(REPLACE ";" "|" _includes "${_includes}")
  foreach(_cc gcc clang)
    find_program(MYTRITON_EXEC_${_cc} NAMES ${_cc})
    set(_compiler "${MYTRITON_EXEC_${_cc}}")
    if(NOT _compiler)
      set(_compiler "")
    endif()
    add_test(NAME ${suite}.host_c.${_cc}
      COMMAND ${CMAKE_COMMAND} -DCOMPILER=${_compiler} -DNAME=${_cc}
        -DSOURCES=${CMAKE_CURRENT_BINARY_DIR}/host_sources.txt -DINCLUDES=${_includes}
        -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/host_c_${_cc}
        -P ${PROJECT_SOURCE_DIR}/test/exec/compile_host_c.cmake)
    set_tests_properties(${suite}.host_c.${_cc} PROPERTIES SKIP_REGULAR_EXPRESSION "MYTRITON_SKIP:"
      LABELS ${suite})
  endforeach()
endfunction()
