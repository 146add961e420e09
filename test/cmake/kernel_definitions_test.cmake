# cmake.kernel_definitions: kernels defined inside module-level try and if
# statements are found, and for a kernel defined twice CMake's SIGNATURE
# check and the compiler both take the last definition (issue 50: CMake
# checked the first, the compiler compiled the last, and a kernel in a
# try or an if was "not found"). Configures, builds and runs the project.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

mytriton_fresh_copy(kernel_definitions _dir)
mytriton_configure("configure the project" "${_dir}/src" "${_dir}/build")
mytriton_step("build" COMMAND "${CMAKE_COMMAND}" --build "${_dir}/build")
mytriton_step("run the kernels" ECHO COMMAND "${_dir}/build/check")
