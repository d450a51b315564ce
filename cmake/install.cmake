# install.cmake - what `cmake --install` puts in the prefix (docs/library.md, "Install"):
#   include/fabrik/ik/*.h          the solver library's public headers (and ik/version.h)
#   lib/libfabrik-ik.a             the solver library (static: see below)
#   lib/cmake/fabrik/              CMake package fabrik, imported target fabrik::ik
#   lib/pkgconfig/fabrik-ik.pc     the same for pkg-config
#   bin/fabrik-solve, bin/fabrik-demo
#   share/fabrik/{shaders,assets}  the demo's data, found through ../share/fabrik from bin/
#   <FABRIK_PYTHON_INSTALL_DIR>/   the Python module fabrik (python/CMakeLists.txt)
#
# Static, not shared: the C++ API passes std::vector and std::span across its boundary and
# its classes hold their storage inline, so a shared library would promise an ABI the project
# does not keep; a static library is rebuilt into each consumer with the headers it was compiled
# against. Its dependencies stay shared Debian libraries (libhwy, libtbb).
include(CMakePackageConfigHelpers)

set(FABRIK_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/fabrik)

# Headers internal to src/ik (used by its .cpp files only) are not installed: the named ones,
# every *-inl.h (SIMD kernels included into one .cpp) and the batched solver's folder
# src/ik/batch/ (its public header is src/ik/batch_fabrik.h).
set(_fabrik_internal_headers bend_step.h chain_measure.h vec_util.h
                              reach_arithmetic.h constrained_passes.h fork_join_tsan.h line_pose.h)
file(GLOB _fabrik_ik_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/ik/*.h)
list(FILTER _fabrik_ik_headers EXCLUDE REGEX "-inl\\.h$")
foreach(_h ${_fabrik_internal_headers})
  list(REMOVE_ITEM _fabrik_ik_headers ${PROJECT_SOURCE_DIR}/src/ik/${_h})
endforeach()
install(FILES ${_fabrik_ik_headers} ${FABRIK_GENERATED_DIR}/ik/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/fabrik/ik COMPONENT devel)

install(TARGETS fabrik_ik EXPORT fabrikTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel)
install(EXPORT fabrikTargets NAMESPACE fabrik:: DESTINATION ${FABRIK_CMAKE_INSTALL_DIR}
        COMPONENT devel)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/fabrikConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/fabrikConfig.cmake
                              INSTALL_DESTINATION ${FABRIK_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/fabrikConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/fabrikConfig.cmake
              ${PROJECT_BINARY_DIR}/fabrikConfigVersion.cmake
        DESTINATION ${FABRIK_CMAKE_INSTALL_DIR} COMPONENT devel)

# pkg-config: relocatable (prefix relative to the .pc file's own folder).
set(_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
string(REGEX REPLACE "[^/]+" ".." FABRIK_PC_TO_PREFIX ${_pc_dir})
configure_file(${PROJECT_SOURCE_DIR}/cmake/fabrik-ik.pc.in ${PROJECT_BINARY_DIR}/fabrik-ik.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/fabrik-ik.pc DESTINATION ${_pc_dir} COMPONENT devel)

install(TARGETS fabrik-solve RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT programs)
# fabrik-markers and its default marker set, found through ../share/fabrik from bin/.
install(TARGETS fabrik-markers RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT programs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/markers
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fabrik/assets COMPONENT programs)
if(TARGET fabrik-demo)
  install(TARGETS fabrik-demo RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT programs)
  # The demo's data; its screenshots are documentation, not data.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/shaders DESTINATION ${CMAKE_INSTALL_DATADIR}/fabrik
          COMPONENT programs)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets DESTINATION ${CMAKE_INSTALL_DATADIR}/fabrik
          COMPONENT programs PATTERN screenshots EXCLUDE)
endif()
