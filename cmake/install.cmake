# SPDX-License-Identifier: Apache-2.0
# Install rules, in GNUInstallDirs' directories: ${CMAKE_INSTALL_BINDIR}/simdgen,
# ${CMAKE_INSTALL_DATADIR}/simdgen/templates/ (for simdgen_add_kernels; the binary has its own
# built in) and the CMake package ${CMAKE_INSTALL_LIBDIR}/cmake/simdgen (imported simdgen::simdgen
# + simdgen_add_kernels).
# Include after add_subdirectory(generator). Off by default when simdgen is a subproject.
option(SIMDGEN_INSTALL "Generate install rules for simdgen" ${PROJECT_IS_TOP_LEVEL})
if(NOT SIMDGEN_INSTALL)
  return()
endif()

include(CMakePackageConfigHelpers)
include(GNUInstallDirs)
set(SIMDGEN_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/simdgen" CACHE STRING "Where the simdgen CMake package goes")
# Recorded in the package (simdgenConfig.cmake) for simdgen_add_kernels, which passes it with
# --templates so that editing an installed template regenerates the kernels. The binary itself
# needs no file beside it: a simdgen run by hand uses its built-in templates.
set(SIMDGEN_INSTALL_TEMPLATESDIR "${CMAKE_INSTALL_DATADIR}/simdgen/templates")

# The clang build links LLVM/clang shared libraries from outside the default search path.
set_target_properties(simdgen PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS simdgen EXPORT simdgenTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# A directory install copies dotfiles too (.clang-format).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/templates/ DESTINATION ${SIMDGEN_INSTALL_TEMPLATESDIR})
install(FILES ${PROJECT_SOURCE_DIR}/docs/spec.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/simdgen)  # for editors and CI
# The thread pool for the _parallel() entry points, as source (docs/parallel.md): compiled with the kernels.
install(FILES ${PROJECT_SOURCE_DIR}/runtime/simdgen_threads.h ${PROJECT_SOURCE_DIR}/runtime/simdgen_threads.cpp
  DESTINATION ${CMAKE_INSTALL_DATADIR}/simdgen/runtime)
install(EXPORT simdgenTargets NAMESPACE simdgen:: DESTINATION ${SIMDGEN_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/simdgenConfig.cmake.in
  ${PROJECT_BINARY_DIR}/simdgenConfig.cmake
  INSTALL_DESTINATION ${SIMDGEN_INSTALL_CMAKEDIR}
  PATH_VARS SIMDGEN_INSTALL_TEMPLATESDIR)
# Before 1.0 a minor release may change the generated code, so only patch releases are compatible.
# Not ARCH_INDEPENDENT: the package holds a native executable.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/simdgenConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/simdgenConfig.cmake
  ${PROJECT_BINARY_DIR}/simdgenConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/SimdgenGenerate.cmake
  DESTINATION ${SIMDGEN_INSTALL_CMAKEDIR})
