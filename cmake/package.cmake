# package.cmake - `cpack -G DEB` in the build folder (or `bash scripts/bootstrap.sh package`)
# builds one Debian package, fabrik_<version>_<arch>.deb, holding everything install.cmake
# installs under /usr. Its Depends are computed by dpkg-shlibdeps (dpkg-dev) from the
# programs and the Python module (GLFW, OpenGL, stb, oneTBB, Highway, libstdc++ ...), plus
# python3 and python3-numpy for the module. The C++ headers need the -dev packages of GLM,
# Highway and oneTBB to be used: Recommends.
set(CPACK_PACKAGE_NAME fabrik)
set(CPACK_PACKAGE_VENDOR "fabrik")
set(CPACK_PACKAGE_CONTACT "fabrik maintainers <fabrik@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "FABRIK inverse kinematics: interactive demo, headless solver, C++ library, Python module")
set(CPACK_PACKAGE_INSTALL_DIRECTORY fabrik)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The demo's GLFW loads libGL at run time, so dpkg-shlibdeps cannot see it. The Python
# module is built for this interpreter's minor version.
set(_deps)
if(TARGET fabrik-demo)
  list(APPEND _deps libgl1)
endif()
if(TARGET fabrik_python)
  math(EXPR _next_minor "${Python3_VERSION_MINOR} + 1")
  list(APPEND _deps "python3 (>= 3.${Python3_VERSION_MINOR})" "python3 (<< 3.${_next_minor})"
       python3-numpy)
endif()
list(JOIN _deps ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri, libglm-dev, libhwy-dev, libtbb-dev, pkg-config")
set(CPACK_STRIP_FILES ON)
include(CPack)
