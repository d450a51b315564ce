#!/usr/bin/env bash
# One entry point for a new machine (Debian 12):
#   bash scripts/bootstrap.sh demo [demo options...]   install, build, run the demo
#   bash scripts/bootstrap.sh test                      install, build, run every test
#   bash scripts/bootstrap.sh bench                     install, build, run the benchmarks
# Missing Debian packages are installed with apt-get (through sudo when not root).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
jobs="$(nproc 2>/dev/null || echo 2)"

packages=(
  build-essential cmake pkg-config python3 clang libclang-rt-14-dev
  libglfw3-dev libglm-dev libimgui-dev libstb-dev python3-glad
  libgtest-dev libgmock-dev libpng-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
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
    echo "== sanitizer build (ASan + UBSan): unit and CLI tests"
    configure_build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFABRIK_SANITIZE=ON \
      -DFABRIK_BUILD_APP=OFF -DFABRIK_BUILD_BENCH=OFF
    (cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j "$jobs")
    echo "== fuzzers (libFuzzer, clang), bounded time each"
    CC=clang CXX=clang++ configure_build build-fuzz -DFABRIK_FUZZ=ON
    (cd build-fuzz && ctest --output-on-failure -j "$jobs")
    echo "== all test stages passed"
    ;;
  bench)
    install_packages
    configure_build build -DFABRIK_BUILD_TESTS=OFF -DFABRIK_BUILD_BENCH=ON
    for b in build/bin/bench_*; do "$b" "$@"; done
    ;;
  *)
    echo "usage: bash scripts/bootstrap.sh demo|test|bench [args]" >&2
    exit 2
    ;;
esac
