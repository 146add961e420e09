# One kernel of kernels/cf.py through the MLIR backend: mytritonc writes
# NAME.mlir, mlir-opt lowers it to PTX (the PTX must hold `.entry`).
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(_defs "")
string(REPLACE " " ";" _list "${DEFINES}")
foreach(_d IN LISTS _list)
  list(APPEND _defs -D "${_d}")
endforeach()
execute_process(
  COMMAND "${COMPILER}" "${SOURCE}" --kernel "${KERNEL}" --signature "${SIGNATURE}" ${_defs}
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
