# One lang_dot MLIR lowering test (CMakeLists.txt): mytritonc --emit=mlir
# of a tl.dot kernel, then mlir-opt with the build's pipeline to PTX, which
# must have the kernel's .entry.
file(MAKE_DIRECTORY "${OUT}")
set(_defs "")
foreach(_d IN LISTS DEFINES)
  list(APPEND _defs -D ${_d})
endforeach()
execute_process(
  COMMAND ${MYTRITONC} ${KERNEL_FILE} --kernel matmul_kernel --signature "${SIGNATURE}" ${_defs}
          --grid "${GRID}" --python ${PYTHON} --emit=mlir
  OUTPUT_FILE "${OUT}/kernel.mlir" ERROR_VARIABLE _err RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "mytritonc failed (${_rc}): ${_err}")
endif()
execute_process(
  COMMAND ${MLIR_OPT} "${OUT}/kernel.mlir" ${PIPELINE}
  OUTPUT_FILE "${OUT}/kernel.ptx.mlir" ERROR_VARIABLE _err RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "mlir-opt failed (${_rc}): ${_err}")
endif()
file(READ "${OUT}/kernel.ptx.mlir" _ptx)
if(NOT _ptx MATCHES "\\.entry matmul_kernel")
  message(FATAL_ERROR "the lowered module has no .entry matmul_kernel")
endif()
