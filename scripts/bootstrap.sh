#!/usr/bin/env bash
# One entry point for a new machine (Debian 12):
#   bash scripts/bootstrap.sh demo [demo options...]   install, build, run the demo
#   bash scripts/bootstrap.sh test                      install, build, run every test
#   bash scripts/bootstrap.sh bench                     install, build, run the benchmarks
#   bash scripts/bootstrap.sh package                   install, build, make the .deb (build/)
#   bash scripts/bootstrap.sh fuzz [SECONDS] [RUNS] [NAME...]  fuzz campaign (docs/fuzzing.md)
#                                                       every fuzzer SECONDS (default 60) or RUNS executions
# Missing Debian packages are installed with apt-get (through sudo when not root).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
jobs="$(nproc 2>/dev/null || echo 2)"

packages=(
  build-essential cmake pkg-config python3 clang libclang-rt-14-dev
  libglfw3-dev libglm-dev libimgui-dev libstb-dev python3-glad
  libgtest-dev libgmock-dev libpng-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
  libhwy-dev libtbb-dev liborocos-kdl-dev libeigen3-dev libassimp-dev assimp-testmodels
  python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib dpkg-dev
  xvfb xauth xdotool x11-utils libgl1-mesa-dri python3-pil fonts-dejavu-core
)

install_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure_build() {  # dir, extra cmake args...
  local dir="$1"; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

cmd="${1:-demo}"
[ $# -gt 0 ] && shift
case "$cmd" in
  demo)
    install_packages
    configure_build build -DFABRIK_BUILD_TESTS=OFF -DFABRIK_BUILD_BENCH=OFF
    if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      echo "no display found (DISPLAY is unset): the demo needs a desktop session" >&2
      exit 1
    fi
    exec build/bin/fabrik-demo "$@"
    ;;
  test)
    install_packages
    echo "== release build: unit tests, CLI tests, app tests under Xvfb"
    configure_build build -DFABRIK_BUILD_TESTS=ON -DFABRIK_BUILD_BENCH=ON
    (cd build && ctest --output-on-failure -j "$jobs")
    # One clang build for the sanitizers and the fuzzers: the unit and CLI tests run under
    # ASan + UBSan, then every fuzzer for a bounded time (fuzz.* tests). -O1 with line tables
    # keeps the build short and the reports readable.
    echo "== sanitizer build (clang, ASan + UBSan): unit and CLI tests, fuzzers for a bounded time"
    CC=clang CXX=clang++ configure_build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
      -DFABRIK_SANITIZE=ON -DFABRIK_FUZZ=ON -DFABRIK_BUILD_APP=OFF -DFABRIK_BUILD_BENCH=OFF
    (cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j "$jobs")
    # The thread check: only the tests whose code runs on several threads (the batched solver
    # on all cores, the crowd) and a deliberate race that must be reported, under clang's
    # ThreadSanitizer (docs/testing.md, "The thread check"). Only their targets are built.
    echo "== thread check (clang, ThreadSanitizer): the tests that run threads"
    CC=clang CXX=clang++ cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
      -DFABRIK_SANITIZE_THREAD=ON -DFABRIK_BUILD_APP=OFF -DFABRIK_BUILD_BENCH=OFF \
      -DFABRIK_BUILD_PYTHON=OFF >/dev/null
    cmake --build build-tsan -j "$jobs" --target fabrik_tsan_tests fabrik_tsan_race_check
    (cd build-tsan && ctest --output-on-failure -j "$jobs" -L tsan)
    echo "== all test stages passed"
    ;;
  package)
    # One Debian package with the programs, the library and the Python module
    # (docs/library.md, "Install"); install it with: sudo apt install ./build/fabrik_*.deb
    install_packages
    configure_build build -DFABRIK_BUILD_TESTS=OFF -DFABRIK_BUILD_BENCH=OFF
    (cd build && cpack -G DEB)
    ls build/*.deb
    ;;
  bench)
    install_packages
    configure_build build -DFABRIK_BUILD_TESTS=OFF -DFABRIK_BUILD_BENCH=ON
    for b in build/bin/bench_*; do "$b" "$@"; done
    ;;
  fuzz)
    # Not part of CI (docs/fuzzing.md). Each fuzzer starts from the campaign's corpus,
    # build-fuzz/fuzz-corpus/<fuzzer>/, and the seeds in the repository,
    # tests/fuzz/corpus/<fuzzer>/ (read only); new inputs go to build-fuzz/fuzz-corpus/.
    # Crashes: build-fuzz/fuzz-artifacts/ (a fixed one goes into tests/fuzz/corpus/).
    # fuzz [SECONDS] [RUNS] [NAME ...]: each fuzzer stops after SECONDS or RUNS executions
    # (0: no cap), whichever comes first; NAMEs pick fuzzers (default: all).
    seconds="${1:-60}"
    runs="${2:-0}"
    [ "$runs" = 0 ] && runs=-1
    shift $(( $# > 2 ? 2 : $# ))
    only=("$@")
    install_packages
    CC=clang CXX=clang++ configure_build build-fuzz -DFABRIK_FUZZ=ON -DFABRIK_BUILD_TESTS=OFF \
      -DFABRIK_BUILD_APP=OFF -DFABRIK_BUILD_BENCH=OFF
    mkdir -p build-fuzz/fuzz-artifacts
    failed=()
    for fuzzer in "$here"/build-fuzz/bin/fuzz_*; do
      name="$(basename "$fuzzer")"
      if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
      # Absolute paths: the options fuzzer works in a scratch folder of its own.
      work="$here/build-fuzz/fuzz-corpus/$name"
      seeds="$here/tests/fuzz/corpus/$name"
      mkdir -p "$work" "$seeds"
      mask=1  # the options fuzzer's target prints usage lines: close its stderr too
      [ "$name" = fuzz_options ] && mask=3
      echo "== $name: ${seconds}s or $runs executions"
      # -entropic=0: libFuzzer's entropic scheduling took 3/4 of the request fuzzer's time
      # (measured: about 250 against 950 executions a second).
      if nice "$fuzzer" -max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=2048 \
          -entropic=0 -close_fd_mask="$mask" -print_final_stats=1 \
          -artifact_prefix="$here/build-fuzz/fuzz-artifacts/$name-" "$work" "$seeds" \
          >"build-fuzz/fuzz-$name.log" 2>&1; then
        grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb" \
          "build-fuzz/fuzz-$name.log" || true
      else
        failed+=("$name")
        grep -E "ERROR|SUMMARY|broken promise|Test unit written" "build-fuzz/fuzz-$name.log" || true
      fi
      echo "   corpus: $(find "$work" -type f | wc -l) files in $work"
    done
    if [ ${#failed[@]} -gt 0 ]; then
      echo "== fuzzers that failed: ${failed[*]} (inputs in build-fuzz/fuzz-artifacts/)" >&2
      exit 1
    fi
    echo "== fuzz campaign done"
    ;;
  *)
    echo "usage: bash scripts/bootstrap.sh demo|test|bench|package|fuzz [args]" >&2
    exit 2
    ;;
esac
