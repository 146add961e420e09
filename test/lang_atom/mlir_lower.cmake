# One kernel of kernels/atom.py through the MLIR backend and mlir-opt's
# pipeline to PTX; the PTX must hold the atom instructions of EXPECT (a
# regex, "" for none). -D COMPILER SOURCE KERNEL SIGNATURE DEFINES
# (,-list) PYTHON MLIR_OPT PIPELINE (|-list) WORK EXPECT.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(_defs "")
string(REPLACE "," ";" DEFINES "${DEFINES}")
foreach(_d IN LISTS DEFINES)
  list(APPEND _defs -D ${_d})
endforeach()
execute_process(
  COMMAND "${COMPILER}" "${SOURCE}" --kernel ${KERNEL} --signature "${SIGNATURE}" ${_defs}
          --backends mlir --name k --python "${PYTHON}" -o "${WORK}"
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "mytritonc failed: ${_err}")
endif()
string(REPLACE "|" ";" _pipeline "${PIPELINE}")
execute_process(COMMAND "${MLIR_OPT}" "${WORK}/k.mlir" ${_pipeline} -o "${WORK}/k.out"
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "mlir-opt failed: ${_err}")
endif()
file(READ "${WORK}/k.out" _ptx)
if(NOT EXPECT STREQUAL "" AND NOT _ptx MATCHES "${EXPECT}")
  message(FATAL_ERROR "the PTX has no ${EXPECT}")
endif()
