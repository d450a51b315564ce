// The main of every GoogleTest suite: each test process gets a temporary folder of its own.
//
// ctest runs one test per process and several side by side (and other checkouts may run the
// same suites at the same time), so fixed names under /tmp could collide, and folders left
// there pile up run after run. Before any test runs, this makes a fresh folder (under
// $TMPDIR, else /tmp) and points TEST_TMPDIR at it, which ::testing::TempDir() returns; when
// the tests end, the folder and everything in it are removed. Set FABRIK_KEEP_TEST_TMP=1 to
// keep it for a look after a failure (its path is printed then).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

int main(int argc, char** argv) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = (base != nullptr && base[0] == '/') ? base : "/tmp";
  pattern += "/fabrik-test-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const bool made = ::mkdtemp(name.data()) != nullptr;
  if (made) {
    ::setenv("TEST_TMPDIR", name.data(), 1);
  } else {
    std::perror("test main: cannot make a temporary folder; tests use the default one");
  }

  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();

  if (made) {
    const char* keep = std::getenv("FABRIK_KEEP_TEST_TMP");
    if (keep != nullptr && keep[0] == '1') {
      std::fprintf(stderr, "test main: kept the temporary folder %s\n", name.data());
    } else {
      std::error_code ignored;
      std::filesystem::remove_all(name.data(), ignored);
    }
  }
  return result;
}
