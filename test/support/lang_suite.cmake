# mytriton_lang_suite(<suite> PREFIX <p> DEFINE <D> SOURCE <kernels.py>
#                     TEST <test.cpp> CASES <case>...
#                     [O2_SOURCE <more.py> O2_CASES <case>...])
#
# One language-area suite (test/lang_shape, test/lang_rank): each case
# "name|kernel|signature|constexprs[|grid]" (grid default "1") compiled at
# -O1 and -O2 for the host (and, with a CUDA compiler, the CUDA) backend as
# launch_<p>_<name>_o1 / _o2 in the library mytriton_<suite>_kernels, and
# at -O1 for the MLIR backend (with mlir-opt of MLIR 19) as
# launch_<p>_<name>_m_mlir in mytriton_<suite>_mlir; the test program
# mytriton_<suite>_test built from <test.cpp> with <D>_CUDA and <D>_MLIR
# (0 or 1); O2_CASES, from O2_SOURCE, at -O2 alone (launch_<p>_<name>_o2,
# in the same library and tests; no MLIR); run as
#   <suite>.Host.*   always
#   <suite>.Cuda.*   CUDA -O1 and -O2 (labels gpu; skipped without a GPU)
#   <suite>.Mlir.*   the MLIR backend (skipped without a GPU)
#   <suite>.mlir.<name>_o1 / _o2   each kernel's MLIR module lowered to PTX
#                    by mlir-opt and assembled by ptxas (label mlir)
function(mytriton_lang_suite suite)
  cmake_parse_arguments(PARSE_ARGV 1 S "" "PREFIX;DEFINE;SOURCE;TEST;O2_SOURCE" "CASES;O2_CASES")
  set(_source "${CMAKE_CURRENT_SOURCE_DIR}/${S_SOURCE}")
  set(_backends host)
  if(CMAKE_CUDA_COMPILER)
    set(_backends cuda host)
  endif()
  set(_args "")
  set(_margs "")
  foreach(_level 1 2)
    foreach(_entry IN LISTS S_CASES)
      string(REPLACE "|" ";" _f "${_entry}")
      list(GET _f 0 _case)
      list(GET _f 1 _kernel)
      list(GET _f 2 _sig)
      list(GET _f 3 _defs)
      set(_grid 1)
      list(LENGTH _f _n)
      if(_n GREATER 4)
        list(GET _f 4 _grid)
      endif()
      string(REPLACE " " ";" _defs "${_defs}")
      list(APPEND _args KERNEL ${_kernel} SOURCE ${S_SOURCE} NAME ${S_PREFIX}_${_case}_o${_level}
        SIGNATURE "${_sig}" OPT_LEVEL ${_level} CONSTEXPR ${_defs} GRID "${_grid}")
      if(_level EQUAL 1)
        list(APPEND _margs KERNEL ${_kernel} SOURCE ${S_SOURCE} NAME ${S_PREFIX}_${_case}_m
          SIGNATURE "${_sig}" OPT_LEVEL 1 CONSTEXPR ${_defs} GRID "${_grid}")
      endif()
    endforeach()
  endforeach()
  foreach(_entry IN LISTS S_O2_CASES)
    string(REPLACE "|" ";" _f "${_entry}")
    list(GET _f 0 _case)
    list(GET _f 1 _kernel)
    list(GET _f 2 _sig)
    list(GET _f 3 _defs)
    string(REPLACE " " ";" _defs "${_defs}")
    list(APPEND _args KERNEL ${_kernel} SOURCE ${S_O2_SOURCE} NAME ${S_PREFIX}_${_case}_o2
      SIGNATURE "${_sig}" OPT_LEVEL 2 CONSTEXPR ${_defs} GRID "1")
  endforeach()
  set(_lib mytriton_${suite}_kernels)
  mytriton_add_kernels(${_lib} ${_args} BACKENDS ${_backends})
  set_target_properties(${_lib} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  target_compile_options(${_lib} PRIVATE
    $<$<COMPILE_LANG_AND_ID:C,GNU,Clang>:-Wall -Wextra -Werror -pedantic>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)

  set(_mlir OFF)
  mytriton_find_mlir_opt(_mlir_opt)
  if(CMAKE_CUDA_COMPILER AND _mlir_opt)
    set(_mlir ON)
    mytriton_add_kernels(mytriton_${suite}_mlir ${_margs} BACKENDS mlir)
  endif()

  set(_test mytriton_${suite}_test)
  add_executable(${_test} ${S_TEST})
  target_link_libraries(${_test} PRIVATE ${_lib} GTest::gtest_main)
  target_compile_features(${_test} PRIVATE cxx_std_17)
  if(CMAKE_CUDA_COMPILER)
    target_compile_definitions(${_test} PRIVATE ${S_DEFINE}_CUDA=1)
    if(_mlir)
      target_compile_definitions(${_test} PRIVATE ${S_DEFINE}_MLIR=1)
      target_link_libraries(${_test} PRIVATE mytriton_${suite}_mlir)
    endif()
    target_link_libraries(${_test} PRIVATE CUDA::cudart)
  else()
    target_compile_definitions(${_test} PRIVATE ${S_DEFINE}_CUDA=0)
  endif()
  mytriton_target_warnings(${_test})

  set_property(DIRECTORY PROPERTY LABELS exec)
  gtest_discover_tests(${_test} TEST_PREFIX "${suite}." TEST_FILTER "Host*"
    DISCOVERY_MODE PRE_TEST)
  if(CMAKE_CUDA_COMPILER)
    mytriton_add_gpu_test(${_test} TEST_PREFIX "${suite}." TEST_FILTER "Cuda*")
    if(_mlir)
      mytriton_add_gpu_test(${_test} TEST_PREFIX "${suite}." TEST_FILTER "Mlir*")
    endif()
  endif()

  mytriton_mlir_lowering_tests(PREFIX ${suite} SOURCE ${_source} MLIR_OPT "${_mlir_opt}"
    LABELS ${suite} mlir CASES ${S_CASES})
endfunction()
