# mytriton_mlir_lowering_tests(PREFIX <p> SOURCE <kernels.py> MLIR_OPT <mlir-opt>
#                              LABELS <label>... CASES <case>...)
#
# Each case "name|kernel|signature|constexprs" (constexprs space-separated)
# compiled for the MLIR backend at -O1 and -O2, its module lowered to PTX
# by mlir-opt 19 for sm_90 and assembled by ptxas where the pipeline names
# the CUDA toolkit (test/cmake/mlir_lower.cmake): the tests
# <p>.mlir.<name>_o1 and _o2. Nothing without MLIR_OPT.
function(mytriton_mlir_lowering_tests)
  cmake_parse_arguments(M "" "PREFIX;SOURCE;MLIR_OPT" "LABELS;CASES" ${ARGN})
  if(NOT M_MLIR_OPT)
    return()
  endif()
  set(MYTRITON_MLIR_CHIP sm_90)
  mytriton_mlir_pipeline(_pipeline)
  string(REPLACE ";" "|" _pipeline "${_pipeline}")
  foreach(_entry IN LISTS M_CASES)
    string(REPLACE "|" ";" _f "${_entry}")
    list(GET _f 0 _case)
    list(GET _f 1 _kernel)
    list(GET _f 2 _sig)
    list(GET _f 3 _defs)
    foreach(_level 1 2)
      set(_test ${M_PREFIX}.mlir.${_case}_o${_level})
      add_test(NAME ${_test}
        COMMAND ${CMAKE_COMMAND} -DCOMPILER=$<TARGET_FILE:mytritonc> -DMLIR_OPT=${M_MLIR_OPT}
          "-DPIPELINE=${_pipeline}" -DSOURCE=${M_SOURCE} -DKERNEL=${_kernel} "-DSIGNATURE=${_sig}"
          "-DDEFINES=${_defs}" -DLEVEL=${_level} -DASSEMBLE=ON
          -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/mlir_${_case}_o${_level}
          -P ${PROJECT_SOURCE_DIR}/test/cmake/mlir_lower.cmake)
      set_tests_properties(${_test} PROPERTIES LABELS "${M_LABELS}")
    endforeach()
  endforeach()
endfunction()
