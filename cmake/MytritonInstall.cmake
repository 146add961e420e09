# Install and export (when MYTRITON_INSTALL is on): `cmake --install <build>
# --prefix <dir>` gives a package that `find_package(mytriton)` finds, in two
# components:
#
#   compiler   bin/mytritonc, libexec/mytriton/mytriton_parse.py (the parser
#              shim, run by mytritonc, not by users), mytriton::compiler
#   runtime    lib/libmytriton_runtime.a, include/mytriton/runtime.h,
#              mytriton::runtime
#
# and, in both, the package files (mytritonConfig.cmake, its version file,
# MytritonKernels.cmake with mytriton_add_kernels()). `cmake --install
# <build> --component runtime` installs the runtime alone;
# find_package(mytriton COMPONENTS runtime) then finds it, and a missing
# component is named in find_package's message. CPack (top-level
# CMakeLists.txt) packs the whole as a .tar.gz and a .deb.

include(CMakePackageConfigHelpers)

set(MYTRITON_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/mytriton"
  CACHE STRING "Where mytritonConfig.cmake is installed, relative to the prefix")
mark_as_advanced(MYTRITON_INSTALL_CMAKEDIR)
set(MYTRITON_INSTALL_SHIMDIR "${CMAKE_INSTALL_LIBEXECDIR}/mytriton")

# Exported names: mytriton::compiler and mytriton::runtime, the spellings of
# the build tree's ALIAS targets.
set_target_properties(mytritonc PROPERTIES EXPORT_NAME compiler)
set_target_properties(mytriton_runtime PROPERTIES EXPORT_NAME runtime)

install(TARGETS mytritonc
  EXPORT mytritonCompilerTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT compiler)
install(PROGRAMS "${MYTRITON_SHIM}" DESTINATION "${MYTRITON_INSTALL_SHIMDIR}" COMPONENT compiler)
install(TARGETS mytriton_runtime
  EXPORT mytritonRuntimeTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT runtime
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT runtime
  FILE_SET HEADERS DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT runtime)

install(EXPORT mytritonCompilerTargets
  FILE mytriton-compiler-targets.cmake
  NAMESPACE mytriton::
  DESTINATION "${MYTRITON_INSTALL_CMAKEDIR}"
  COMPONENT compiler)
install(EXPORT mytritonRuntimeTargets
  FILE mytriton-runtime-targets.cmake
  NAMESPACE mytriton::
  DESTINATION "${MYTRITON_INSTALL_CMAKEDIR}"
  COMPONENT runtime)

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/mytritonConfig.cmake.in"
  "${CMAKE_CURRENT_BINARY_DIR}/mytritonConfig.cmake"
  INSTALL_DESTINATION "${MYTRITON_INSTALL_CMAKEDIR}"
  PATH_VARS MYTRITON_INSTALL_SHIMDIR
  NO_SET_AND_CHECK_MACRO)
# 0.x: every minor version may break the interface, so 0.2 does not satisfy
# a request for 0.1 (SameMajorVersion would say it does).
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_mytriton_compatibility SameMinorVersion)
else()
  set(_mytriton_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(
  "${CMAKE_CURRENT_BINARY_DIR}/mytritonConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY ${_mytriton_compatibility})
foreach(_mytriton_component compiler runtime)
  install(FILES
    "${CMAKE_CURRENT_BINARY_DIR}/mytritonConfig.cmake"
    "${CMAKE_CURRENT_BINARY_DIR}/mytritonConfigVersion.cmake"
    "${CMAKE_CURRENT_LIST_DIR}/MytritonKernels.cmake"
    DESTINATION "${MYTRITON_INSTALL_CMAKEDIR}"
    COMPONENT ${_mytriton_component})
endforeach()
