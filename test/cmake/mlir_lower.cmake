# One kernel through the MLIR backend (used by test/lang_cf, test/lang_red
# and test/lang_shape): mytritonc writes NAME.mlir, mlir-opt lowers it to
# PTX (the PTX must hold `.entry`); with ASSEMBLE=ON and a pipeline that
# names the CUDA toolkit, the module is lowered again with
# --gpu-module-to-binary=format=bin, which assembles the PTX with the
# toolkit's ptxas (a failure to assemble fails the test).
#   -DCOMPILER -DMLIR_OPT -DPIPELINE (arguments joined by |) -DSOURCE -DKERNEL
#   -DSIGNATURE -DDEFINES (space-separated NAME=VALUE) -DLEVEL -DWORK_DIR
#   [-DASSEMBLE=ON] [-DFLAGS=more mytritonc options, space-separated (--debug)]
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(_defs "")
string(REPLACE " " ";" _list "${DEFINES}")
foreach(_d IN LISTS _list)
  list(APPEND _defs -D "${_d}")
endforeach()
string(REPLACE " " ";" _flags "${FLAGS}")
execute_process(
  COMMAND "${COMPILER}" "${SOURCE}" --kernel "${KERNEL}" --signature "${SIGNATURE}" ${_defs} ${_flags}
          -O${LEVEL} --name k --backends mlir -o "${WORK_DIR}"
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "mytritonc failed (${_rc}): ${_err}")
endif()
string(REPLACE "|" ";" _pipeline "${PIPELINE}")
execute_process(
  COMMAND "${MLIR_OPT}" "${WORK_DIR}/k.mlir" ${_pipeline}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "mlir-opt failed (${_rc}): ${_err}")
endif()
if(NOT _out MATCHES "\\.entry")
  message(FATAL_ERROR "mlir-opt's output has no .entry:\n${_out}")
endif()
if(ASSEMBLE AND PIPELINE MATCHES "format=isa toolkit=")
  string(REPLACE "format=isa" "format=bin" _bin_pipeline "${_pipeline}")
  execute_process(
    COMMAND "${MLIR_OPT}" "${WORK_DIR}/k.mlir" ${_bin_pipeline} -o "${WORK_DIR}/k.bin.mlir"
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "mlir-opt (format=bin: ptxas) failed (${_rc}): ${_err}")
  endif()
  message(STATUS "assembled by ptxas: ${WORK_DIR}/k.bin.mlir")
endif()
