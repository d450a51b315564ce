# Build time: the test command builds the whole tree twice from a clean clone (release, then
# the sanitizer build), so what one translation unit costs is paid about 300 times.
#
# Two measures, both off the library code's optimisation:
# - Precompiled headers for the targets whose sources all include the same heavy third-party
#   headers (nlohmann-json and GLM in the app core and the headless solver, GoogleTest in every
#   test suite, Dear ImGui in the app). A test file spent about a third of its time parsing
#   gtest.h and the standard library; a core file a quarter parsing json.hpp.
# - Test code at -O1 in optimised builds: the code under test is the libraries', built as
#   configured (-O3 in Release); the test files themselves only call it and compare, and
#   optimising GoogleTest's expanded macros at -O3 took half of their compile time.
# - Unity builds: the project's own targets compile their files in batches, one translation unit
#   a batch, so the headers every file of a target includes (the core's state, GoogleTest's
#   macros, the standard library) are parsed and their inline functions generated once a batch
#   rather than once a file. Files with options of their own (-ffp-contract=off in src/ik) are
#   compiled alone, as CMake does for any file with its own compile options.
# FABRIK_PCH=OFF builds without precompiled headers, e.g. to check that every file includes what
# it uses; FABRIK_UNITY=OFF compiles every file alone (shorter rebuilds after a one-file edit).
option(FABRIK_PCH "Precompile heavy third-party headers (shorter builds)" ON)
option(FABRIK_UNITY "Compile each target's files in batches (shorter full builds)" ON)
set(FABRIK_UNITY_BATCH 8 CACHE STRING "Files a unity batch holds (FABRIK_UNITY)")

# fabrik_unity(TARGET): the target's files compiled in batches when FABRIK_UNITY is on. Every
# file of such a target keeps its file-local names (anonymous namespaces, statics) distinct from
# those of the other files of its target.
function(fabrik_unity target)
  if(FABRIK_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                                               UNITY_BUILD_BATCH_SIZE ${FABRIK_UNITY_BATCH})
    # GCC takes a file included into a batch for a header, and warns when a class it defines
    # (a pimpl's Impl) holds a type from that file's anonymous namespace; it is still local.
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
  endif()
endfunction()

# The standard headers nearly every file of the project includes.
set(_fabrik_pch_std <algorithm> <array> <cmath> <cstdint> <functional> <memory> <optional>
                    <span> <string> <string_view> <utility> <variant> <vector>)

# fabrik_precompile(TARGET KIND): KIND is core (json, GLM) or app (ImGui, json, GLM). Nothing
# happens with FABRIK_PCH off.
function(fabrik_precompile target kind)
  if(NOT FABRIK_PCH)
    return()
  endif()
  set(_headers ${_fabrik_pch_std} <glm/glm.hpp> <nlohmann/json.hpp>)
  if(kind STREQUAL "app")
    list(APPEND _headers <imgui.h>)
  elseif(NOT kind STREQUAL "core")
    message(FATAL_ERROR "fabrik_precompile: unknown kind '${kind}'")
  endif()
  target_precompile_headers(${target} PRIVATE ${_headers})
endfunction()

# fabrik_test_precompile(TARGET): the test suites share one precompiled GoogleTest + GLM header,
# made once by the object library fabrik_test_pch (a suite of one or two files would not repay
# a header of its own). Every suite is compiled with the same flags, so GCC accepts it
# (-Winvalid-pch, which CMake adds, would say if not).
function(fabrik_test_precompile target)
  if(NOT FABRIK_PCH)
    return()
  endif()
  if(NOT TARGET fabrik_test_pch)
    set(_anchor ${CMAKE_BINARY_DIR}/generated/fabrik_test_pch.cpp)
    file(WRITE ${_anchor} "// Anchor of the shared test precompiled header (cmake/build_speed.cmake).\n")
    add_library(fabrik_test_pch OBJECT ${_anchor})
    target_link_libraries(fabrik_test_pch PRIVATE GTest::gtest glm::glm)
    fabrik_light_optimisation(fabrik_test_pch)
    target_precompile_headers(fabrik_test_pch PRIVATE ${_fabrik_pch_std} <random> <glm/glm.hpp>
                                                      <gtest/gtest.h>)
  endif()
  target_precompile_headers(${target} REUSE_FROM fabrik_test_pch)
endfunction()

# fabrik_light_optimisation(TARGET): test code at -O1 when the build optimises (the last -O on
# the command line wins, and target options come after the build type's flags).
# GCC 12 at -O1 warns -Warray-bounds and -Wstringop-overflow inside libstdc++'s std::string
# (operator+ on a moved string), false positives it does not give at -O3; those two warnings are
# off for test code.
function(fabrik_light_optimisation target)
  target_compile_options(
      ${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O1>
      "$<$<CXX_COMPILER_ID:GNU>:-Wno-array-bounds;-Wno-stringop-overflow>")
endfunction()
