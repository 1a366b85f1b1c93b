#!/usr/bin/env bash
# Builds the parser fuzzers with clang (libFuzzer + ASan + UBSan) and runs each
# for a few seconds from its seed corpus. Usage: smoke.sh SOURCE_DIR BUILD_DIR [SECONDS]
set -euo pipefail
source_dir=$1
build_dir=$2
seconds=${3:-5}
cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRFFSTREAM_FUZZ=ON -DRFFSTREAM_BUILD_TESTS=OFF \
  -DRFFSTREAM_BUILD_BENCHMARKS=OFF -DRFFSTREAM_BUILD_APPS=OFF >/dev/null
cmake --build "$build_dir" --target csv_line_parser_fuzz libsvm_line_parser_fuzz >/dev/null
for parser in csv libsvm; do
  corpus=$(mktemp -d)
  cp "$source_dir/tests/fuzz/corpus/$parser/"* "$corpus/"
  "$build_dir/tests/fuzz/${parser}_line_parser_fuzz" -max_total_time="$seconds" "$corpus" 2>&1 | tail -n 1
  rm -rf "$corpus"
done
