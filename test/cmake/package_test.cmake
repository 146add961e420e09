# cmake.package.<case>: packaging by CMake's conventions.
#   components     `cmake --install --component runtime` alone: find_package
#                  with COMPONENTS runtime finds it and links it; COMPONENTS
#                  compiler, or no COMPONENTS (both required), fails with a
#                  message naming the component; mytriton_add_kernels() says
#                  the compiler component is missing; an unknown component is
#                  named too
#   subdirectory   add_subdirectory(mytriton) in a consumer: mytritonc is
#                  built in mytriton's own binary dir, and the consumer's
#                  install has no mytriton rules unless MYTRITON_INSTALL is on
#   cpack          cpack's .tar.gz and .deb (the .deb part is skipped without
#                  dpkg-deb): each unpacked, example_project configured against
#                  it with find_package(mytriton), built and run
#   features       generated code of every feature family (projects/features)
#                  built against the installed package alone, its host
#                  launchers run; CUDA compiled by nvcc when there is one (not
#                  run); and every mytriton/ header that the compiler's
#                  generators name is in the package
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(_work "${MYTRITON_WORK}/package-${MYTRITON_CASE}")
file(REMOVE_RECURSE "${_work}")
file(MAKE_DIRECTORY "${_work}")

# The example against the mytriton package whose config is in <cmakedir>
# (host backend: the point is the package, not nvcc).
function(_example_against cmakedir label)
  set(_bin "${_work}/example-${label}")
  mytriton_configure("configure example_project against the ${label} package" "${MYTRITON_EXAMPLE_SOURCE}" "${_bin}"
    ARGS "-Dmytriton_DIR=${cmakedir}" -DMYTRITON_EXAMPLE_BACKENDS=host)
  mytriton_step("build it" COMMAND "${CMAKE_COMMAND}" --build "${_bin}")
  mytriton_step("run it" OUTPUT _out COMMAND "${_bin}/matmul_example")
  message(STATUS "    ${_out}")
  file(READ "${_bin}/CMakeCache.txt" _cache)
  string(REGEX MATCH "mytriton_DIR:[A-Z]+=[^\n]*" _dir "${_cache}")
  mytriton_expect("${_dir}" MATCHES "^mytriton_DIR:[A-Z]+=${cmakedir}$" "the ${label} package was the one used")
endfunction()

if(MYTRITON_CASE STREQUAL "components")
  set(_prefix "${_work}/prefix-runtime")
  mytriton_step("install the runtime component alone"
    COMMAND "${CMAKE_COMMAND}" --install "${MYTRITON_BUILD_DIR}" --prefix "${_prefix}" --component runtime)
  if(EXISTS "${_prefix}/bin/mytritonc")
    message(FATAL_ERROR "--component runtime installed the compiler")
  endif()
  file(GLOB_RECURSE _configs "${_prefix}/*/mytritonConfig.cmake")
  get_filename_component(_cmakedir "${_configs}" DIRECTORY)
  set(_src "${MYTRITON_TEST_SOURCE}/projects/components")
  mytriton_configure("COMPONENTS runtime" "${_src}" "${_work}/runtime" OUTPUT _out
    ARGS "-Dmytriton_DIR=${_cmakedir}" -DWANT=runtime)
  mytriton_expect("${_out}" MATCHES "mytriton_runtime_FOUND=TRUE mytriton_compiler_FOUND=FALSE" "the runtime found, the compiler not")
  mytriton_step("build against the runtime component" COMMAND "${CMAKE_COMMAND}" --build "${_work}/runtime")
  mytriton_step("run it" COMMAND "${_work}/runtime/status")
  mytriton_configure("COMPONENTS compiler must fail" "${_src}" "${_work}/compiler" EXPECT_FAIL OUTPUT _out
    ARGS "-Dmytriton_DIR=${_cmakedir}" -DWANT=compiler)
  string(REGEX REPLACE "[ \t\r\n]+" " " _out "${_out}")
  mytriton_expect("${_out}" MATCHES "lacks the component\\(s\\) asked for: compiler \\(not installed in [^)]*--component compiler\\)"
    "a message naming the missing component")
  # no COMPONENTS: both are required, and the message says which is missing
  mytriton_configure("find_package(mytriton REQUIRED) must fail" "${_src}" "${_work}/default" EXPECT_FAIL
    OUTPUT _out ARGS "-Dmytriton_DIR=${_cmakedir}" -DWANT=)
  string(REGEX REPLACE "[ \t\r\n]+" " " _out "${_out}")
  mytriton_expect("${_out}" MATCHES "lacks the component\\(s\\) asked for: compiler \\(not installed in [^)]*: cmake --install <build> --component compiler\\)"
    "a message naming the missing compiler, without a stray '; '")
  string(REGEX MATCH "lacks the component.*--component compiler\\)" _msg "${_out}")
  mytriton_expect("${_msg}" NOT_MATCHES "; " "no list separator in the message")
  # COMPONENTS runtime, then mytriton_add_kernels(): the compiler component is named
  mytriton_configure("mytriton_add_kernels() without the compiler component must fail" "${_src}"
    "${_work}/kernels" EXPECT_FAIL OUTPUT _out ARGS "-Dmytriton_DIR=${_cmakedir}" -DWANT=runtime -DKERNELS=ON)
  string(REGEX REPLACE "[ \t\r\n]+" " " _out "${_out}")
  mytriton_expect("${_out}" MATCHES "found without its compiler component" "a message naming the compiler component")
  mytriton_configure("COMPONENTS gpu must fail" "${_src}" "${_work}/gpu" EXPECT_FAIL OUTPUT _out
    ARGS "-Dmytriton_DIR=${_cmakedir}" -DWANT=gpu)
  string(REGEX REPLACE "[ \t\r\n]+" " " _out "${_out}")
  mytriton_expect("${_out}" MATCHES "gpu \\(no such component: mytriton has compiler and runtime\\)" "a message naming the unknown component")
  # the full package has both
  file(GLOB_RECURSE _configs "${MYTRITON_PREFIX}/*/mytritonConfig.cmake")
  get_filename_component(_cmakedir "${_configs}" DIRECTORY)
  mytriton_configure("COMPONENTS compiler runtime against the full install" "${_src}" "${_work}/both" OUTPUT _out
    ARGS "-Dmytriton_DIR=${_cmakedir}" "-DWANT=compiler runtime")
  mytriton_expect("${_out}" MATCHES "mytriton_runtime_FOUND=TRUE mytriton_compiler_FOUND=TRUE" "both found")

elseif(MYTRITON_CASE STREQUAL "subdirectory")
  set(_src "${MYTRITON_TEST_SOURCE}/projects/subdirectory")
  set(_bin "${_work}/build")
  mytriton_configure("configure a consumer adding mytriton with add_subdirectory()" "${_src}" "${_bin}"
    ARGS "-DMYTRITON_SOURCE_DIR=${MYTRITON_SOURCE_DIR}")
  file(READ "${_bin}/compiler_location.txt" _where)
  mytriton_expect("${_where}" MATCHES "^${_bin}/mytriton/bin/mytritonc$" "mytritonc built in mytriton's own binary dir")
  file(GLOB_RECURSE _scripts "${_bin}/mytriton/*cmake_install.cmake")
  set(_rules "")
  foreach(_script IN LISTS _scripts)
    file(READ "${_script}" _text)
    if(_text MATCHES "mytritonc|mytriton_parse\\.py|mytritonConfig")
      list(APPEND _rules "${_script}")
    endif()
  endforeach()
  if(_rules)
    message(FATAL_ERROR "the consumer's install would install mytriton: ${_rules}")
  endif()
  message(STATUS "    ok: no install rule of mytriton in the consumer's build (MYTRITON_INSTALL is off)")
  mytriton_configure("reconfigure with MYTRITON_INSTALL=ON" "${_src}" "${_bin}" ARGS -DMYTRITON_INSTALL=ON)
  set(_rules "")
  file(GLOB_RECURSE _scripts "${_bin}/mytriton/*cmake_install.cmake")
  foreach(_script IN LISTS _scripts)
    file(READ "${_script}" _text)
    if(_text MATCHES "mytriton_parse\\.py")
      list(APPEND _rules "${_script}")
    endif()
  endforeach()
  if(NOT _rules)
    message(FATAL_ERROR "MYTRITON_INSTALL=ON added no install rule for mytriton")
  endif()
  message(STATUS "    ok: MYTRITON_INSTALL=ON installs it")

elseif(MYTRITON_CASE STREQUAL "cpack")
  find_program(_cpack NAMES cpack HINTS "${CMAKE_COMMAND}/..")
  get_filename_component(_cmake_dir "${CMAKE_COMMAND}" DIRECTORY)
  if(EXISTS "${_cmake_dir}/cpack")
    set(_cpack "${_cmake_dir}/cpack")
  endif()
  find_program(_dpkg_deb dpkg-deb)
  set(_generators TGZ)
  if(_dpkg_deb)
    list(APPEND _generators DEB)
  else()
    message(STATUS "    dpkg-deb not found: the .deb part is skipped")
  endif()
  set(_config "")
  if(MYTRITON_CONFIG)
    set(_config -C "${MYTRITON_CONFIG}")
  endif()
  foreach(_generator IN LISTS _generators)
    mytriton_step("cpack -G ${_generator}" OUTPUT _out
      COMMAND "${_cpack}" --config "${MYTRITON_BUILD_DIR}/CPackConfig.cmake" -G ${_generator} -B "${_work}/packages" ${_config})
  endforeach()
  file(GLOB _tgz "${_work}/packages/*.tar.gz")
  list(LENGTH _tgz _n)
  if(NOT _n EQUAL 1)
    message(FATAL_ERROR "expected one .tar.gz in ${_work}/packages, found: ${_tgz}\n${_out}")
  endif()
  message(STATUS "    made ${_tgz}")
  file(MAKE_DIRECTORY "${_work}/tgz")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xf "${_tgz}" WORKING_DIRECTORY "${_work}/tgz" RESULT_VARIABLE _rc)
  file(GLOB_RECURSE _configs "${_work}/tgz/*/mytritonConfig.cmake")
  if(NOT _rc EQUAL 0 OR NOT _configs)
    message(FATAL_ERROR "the .tar.gz does not unpack to a package with mytritonConfig.cmake")
  endif()
  get_filename_component(_cmakedir "${_configs}" DIRECTORY)
  _example_against("${_cmakedir}" tgz)
  if(_dpkg_deb)
    file(GLOB _deb "${_work}/packages/*.deb")
    list(LENGTH _deb _n)
    if(NOT _n EQUAL 1)
      message(FATAL_ERROR "expected one .deb in ${_work}/packages, found: ${_deb}")
    endif()
    message(STATUS "    made ${_deb}")
    mytriton_step("dpkg-deb --info" OUTPUT _info COMMAND "${_dpkg_deb}" --info "${_deb}")
    mytriton_expect("${_info}" MATCHES "Package: mytriton" "the package's name")
    mytriton_expect("${_info}" MATCHES "Depends: python3" "its dependency on python3 (the parser shim)")
    # install it into a staging root (dpkg -i would need root and change the system)
    mytriton_step("unpack the .deb" COMMAND "${_dpkg_deb}" -x "${_deb}" "${_work}/deb")
    file(GLOB_RECURSE _configs "${_work}/deb/usr/*/mytritonConfig.cmake")
    if(NOT _configs OR NOT EXISTS "${_work}/deb/usr/bin/mytritonc"
       OR NOT EXISTS "${_work}/deb/usr/libexec/mytriton/mytriton_parse.py")
      message(FATAL_ERROR "the .deb does not hold the package under /usr")
    endif()
    get_filename_component(_cmakedir "${_configs}" DIRECTORY)
    _example_against("${_cmakedir}" deb)
  endif()
elseif(MYTRITON_CASE STREQUAL "features")
  # The headers the generators write #include lines for, from their source:
  # "#include \"mytriton/atomic.h\"" in a C string literal.
  file(GLOB_RECURSE _generators "${MYTRITON_SOURCE_DIR}/compiler/src/*.c")
  set(_headers "")
  foreach(_file IN LISTS _generators)
    file(STRINGS "${_file}" _lines REGEX "#include [<\\\\\"]+mytriton/")
    foreach(_line IN LISTS _lines)
      string(REGEX MATCHALL "#include (<|\\\\\")mytriton/[A-Za-z0-9_]+\\.h" _found "${_line}")
      foreach(_inc IN LISTS _found)
        string(REGEX REPLACE "^.*(mytriton/[A-Za-z0-9_]+\\.h)$" "\\1" _inc "${_inc}")
        list(APPEND _headers "${_inc}")
      endforeach()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES _headers)
  list(LENGTH _headers _n)
  if(_n LESS 4)
    message(FATAL_ERROR "found only ${_n} generated #include lines (${_headers}): the pattern is stale")
  endif()
  foreach(_inc IN LISTS _headers)
    if(NOT EXISTS "${MYTRITON_PREFIX}/include/${_inc}")
      message(FATAL_ERROR "generated code includes ${_inc}, which is not installed in ${MYTRITON_PREFIX}/include")
    endif()
    message(STATUS "    installed: ${_inc} (included by generated code)")
  endforeach()
  set(_bin "${_work}/build")
  mytriton_configure("configure projects/features against the installed package"
    "${MYTRITON_TEST_SOURCE}/projects/features" "${_bin}")
  mytriton_step("build it" COMMAND "${CMAKE_COMMAND}" --build "${_bin}")
  # the runtime's headers came from the package, not from the source tree
  file(GLOB_RECURSE _ninja_files "${_bin}/*.ninja")
  foreach(_file IN LISTS _ninja_files)
    file(READ "${_file}" _text)
    string(FIND "${_text}" "${MYTRITON_SOURCE_DIR}/runtime" _at)
    if(NOT _at EQUAL -1)
      message(FATAL_ERROR "${_file} refers to ${MYTRITON_SOURCE_DIR}/runtime: the project did not build against the package alone")
    endif()
  endforeach()
  mytriton_step("run its host launchers" OUTPUT _out COMMAND "${_bin}/features_main")
  message(STATUS "    ${_out}")
else()
  message(FATAL_ERROR "unknown case ${MYTRITON_CASE}")
endif()
