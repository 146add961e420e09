# Install and export: `cmake --install <build> --prefix <dir>` gives a package
# that `find_package(mytriton)` finds (mytritonConfig.cmake, version file,
# exported targets mytriton::compiler and mytriton::runtime, and
# mytriton_add_kernels() from MytritonKernels.cmake).

include(CMakePackageConfigHelpers)

set(MYTRITON_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/mytriton"
  CACHE STRING "Where mytritonConfig.cmake is installed, relative to the prefix")
mark_as_advanced(MYTRITON_INSTALL_CMAKEDIR)

# Exported names: mytriton::compiler and mytriton::runtime, the spellings of
# the build tree's ALIAS targets.
set_target_properties(mytritonc PROPERTIES EXPORT_NAME compiler)
set_target_properties(mytriton_runtime PROPERTIES EXPORT_NAME runtime)

install(TARGETS mytritonc mytriton_runtime
  EXPORT mytritonTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT mytriton
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT mytriton
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT mytriton
  FILE_SET HEADERS DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT mytriton)

# The parser shim lives beside the compiler: mytritonConfig.cmake finds it
# next to the imported executable.
install(PROGRAMS "${MYTRITON_SHIM}" DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT mytriton)

install(EXPORT mytritonTargets
  NAMESPACE mytriton::
  DESTINATION "${MYTRITON_INSTALL_CMAKEDIR}"
  COMPONENT mytriton)

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/mytritonConfig.cmake.in"
  "${CMAKE_CURRENT_BINARY_DIR}/mytritonConfig.cmake"
  INSTALL_DESTINATION "${MYTRITON_INSTALL_CMAKEDIR}"
  NO_SET_AND_CHECK_MACRO)
write_basic_package_version_file(
  "${CMAKE_CURRENT_BINARY_DIR}/mytritonConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion)
install(FILES
  "${CMAKE_CURRENT_BINARY_DIR}/mytritonConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/mytritonConfigVersion.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/MytritonKernels.cmake"
  DESTINATION "${MYTRITON_INSTALL_CMAKEDIR}"
  COMPONENT mytriton)
