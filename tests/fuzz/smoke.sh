#!/usr/bin/env bash
# Runs each fuzzer (libFuzzer + ASan + UBSan, built by a tree configured with
# -DRFFSTREAM_FUZZ=ON: ./dev.sh sanitize) for a few seconds from its seed
# corpus. The checkpoint corpus is made afresh by the app (so it always holds
# the current format): real checkpoints of every kind, float32 and float64,
# phase and pair maps, regression, several targets, classes, forgetting,
# standardization, libsvm and ignored columns.
# Usage: smoke.sh SOURCE_DIR FUZZER_DIR SECONDS RFFSTREAM_APP
set -euo pipefail
source_dir=$1
fuzzer_dir=$2
seconds=${3:-5}
app=$4

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
checkpoints=$corpus/checkpoint
mkdir -p "$checkpoints"
"$app" generate --samples=60 --embedding=3 > "$corpus/series.csv"
awk -F, '{ print $1 "," $2 "," $3 "," $4 "," ($1 > 1 ? 1 : 0) }' "$corpus/series.csv" > "$corpus/labelled.csv"
awk -F, '{ print $4 " 1:" $1 " 3:" $3 }' "$corpus/series.csv" > "$corpus/series.libsvm"
kind=0
while read -r input flags; do
  kind=$((kind + 1))
  # shellcheck disable=SC2086
  "$app" learn --quiet --features=8 --input="$corpus/$input" --save="$checkpoints/model.rff" $flags
  # The first byte says whether the harness rewrites the checksum: seed both.
  printf '\x01' | cat - "$checkpoints/model.rff" > "$checkpoints/kind$kind-crc"
  printf '\x00' | cat - "$checkpoints/model.rff" > "$checkpoints/kind$kind"
  rm "$checkpoints/model.rff"
done <<'KINDS'
series.csv --precision=float64 --map=phase
series.csv --precision=float32 --map=pair --forget=0.99
series.csv --standardize=20 --gamma=auto --kernel=laplacian
series.csv --targets=0,3 --precision=float32
labelled.csv --classes=2 --ignore=0
series.libsvm --format=libsvm --precision=float32
KINDS

# Inputs that once found a bug, kept as seeds.
cp "$source_dir/tests/fuzz/corpus/checkpoint/"* "$checkpoints/"
for harness in csv_line_parser libsvm_line_parser; do
  parser=${harness%_line_parser}
  mkdir -p "$corpus/$parser"
  cp "$source_dir/tests/fuzz/corpus/$parser/"* "$corpus/$parser/"
done
for harness in csv_line_parser:csv libsvm_line_parser:libsvm checkpoint:checkpoint; do
  "$fuzzer_dir/${harness%%:*}_fuzz" -max_total_time="$seconds" -rss_limit_mb=2048 \
    "$corpus/${harness##*:}" 2>&1 | tail -n 1
done
