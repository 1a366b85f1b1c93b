#!/usr/bin/env bash
# rffstream developer entry point: installs what is missing (Debian bookworm),
# configures, builds, then runs the demo or the test suite.
#
#   ./dev.sh demo      build the program alone, generate a Mackey-Glass series
#                      and learn it from a pipe
#   ./dev.sh test      build and run the whole test suite: C++, Python, MPI,
#                      the package consumers, valgrind's CPU without AVX-512
#   ./dev.sh sanitize  build with clang under AddressSanitizer and UBSan, and
#                      run the tests and the fuzzers (CI runs both)
#   ./dev.sh build     install and build only
set -euo pipefail
cd "$(dirname "$0")"

# The program needs a compiler, CMake and five libraries. The tests add
# Catch2 and Google Benchmark; clang and its runtime build the parser fuzzers
# (a short run is part of the tests); valgrind's virtual CPU, which has no
# AVX-512, runs the app in the tests; SLEEF is a benchmark-only comparison;
# Open MPI runs data-parallel learn (mpirun, started by the tests); pybind11
# and Debian's numpy, scikit-learn, pytest and matplotlib build and test the
# Python module.
readonly PROGRAM_PACKAGES=(cmake ninja-build g++ pkgconf libxsimd-dev libeigen3-dev libabsl-dev
                           zlib1g-dev)
readonly PACKAGES=("${PROGRAM_PACKAGES[@]}" libbenchmark-dev catch2 libsleef-dev clang
                   libclang-rt-14-dev valgrind openmpi-bin libopenmpi-dev pybind11-dev python3-dev
                   python3-numpy python3-pytest python3-sklearn python3-matplotlib)
readonly BUILD_DIR=build
readonly SANITIZER_BUILD_DIR=build-asan

install_missing_packages() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "dev.sh: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Everything: the program, the library, the tests, the benchmarks and the
# Python module.
build() {
  install_missing_packages "${PACKAGES[@]}"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRFFSTREAM_BUILD_TESTS=ON \
    -DRFFSTREAM_BUILD_BENCHMARKS=ON -DRFFSTREAM_BUILD_PYTHON=ON >/dev/null
  cmake --build "$BUILD_DIR" -j "$(nproc)"
}

# The program alone (a build tree that has the rest keeps it).
build_program() {
  install_missing_packages "${PROGRAM_PACKAGES[@]}"
  if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRFFSTREAM_BUILD_TESTS=OFF \
      -DRFFSTREAM_BUILD_BENCHMARKS=OFF -DRFFSTREAM_BUILD_PYTHON=OFF >/dev/null
  fi
  cmake --build "$BUILD_DIR" -j "$(nproc)" --target rffstream_app
}

case "${1:-}" in
  demo)
    build_program
    echo "== rffstream generate --series=mackey-glass --samples=20000 | rffstream learn" >&2
    "$BUILD_DIR/apps/rffstream" generate --series=mackey-glass --samples=20000 |
      "$BUILD_DIR/apps/rffstream" learn --features=256
    ;;
  test)
    build
    # Every suite must really be there: a missing one would pass by absence.
    registered=$(cd "$BUILD_DIR" && ctest -N)
    for suite in python_module mpirun: no_avx512_cpu package_consumer_installed; do
      grep -q "$suite" <<<"$registered" ||
        { echo "dev.sh: the test suite '$suite' is not registered with ctest" >&2; exit 1; }
    done
    (cd "$BUILD_DIR" && ctest --output-on-failure -j "$(nproc)")
    # A host that builds the library and its tests without the app must be
    # able to configure (generating is where a missing target shows).
    cmake -S . -B build-no-apps -G Ninja -DRFFSTREAM_BUILD_APPS=OFF \
      -DRFFSTREAM_BUILD_BENCHMARKS=OFF >/dev/null
    ;;
  sanitize)
    install_missing_packages "${PACKAGES[@]}"
    # The library, the app, the tests and the fuzzers, built by clang under
    # AddressSanitizer and UBSan, with libFuzzer's coverage: the fuzzers run
    # as one of the tests (fuzz_smoke). Left out: the package consumers
    # (nothing to sanitize), the Python module (python3 is not built with
    # ASan), valgrind (which cannot run ASan) and mpirun (Open MPI's own
    # allocations at exit read as leaks). -O1 with line tables: half the
    # compile time of -O2 -g, and the library's debug assertions (REQUIRES
    # preconditions) are on.
    cmake -S . -B "$SANITIZER_BUILD_DIR" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
      -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DRFFSTREAM_FUZZ=ON \
      -DRFFSTREAM_BUILD_BENCHMARKS=OFF -DRFFSTREAM_BUILD_PYTHON=OFF >/dev/null
    cmake --build "$SANITIZER_BUILD_DIR" -j "$(nproc)"
    registered=$(cd "$SANITIZER_BUILD_DIR" && ctest -N)
    grep -q "fuzz_smoke$" <<<"$registered" ||
      { echo "dev.sh: the sanitizer build has no fuzz_smoke test" >&2; exit 1; }
    (cd "$SANITIZER_BUILD_DIR" &&
      ctest --output-on-failure -j "$(nproc)" --label-exclude "package|python" --exclude-regex "no_avx512_cpu|mpirun")
    ;;
  build)
    build
    ;;
  *)
    echo "usage: $0 demo|test|sanitize|build" >&2
    exit 2
    ;;
esac
