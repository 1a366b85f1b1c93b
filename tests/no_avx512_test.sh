#!/usr/bin/env bash
# The app on a CPU without AVX-512: valgrind's virtual CPU has none, so the
# run-time dispatch must pick another kernel without executing a single
# AVX-512 instruction (a SIGILL otherwise). Its predictions must equal those of
# --simd=avx2 on the real CPU and agree with --simd=sse2 and --simd=scalar.
# Usage: no_avx512_test.sh RFFSTREAM_APP WORK_DIR
set -euo pipefail
app=$1
work=$2
mkdir -p "$work"
cd "$work"
"$app" generate --series=lorenz --samples=200 > stream.csv

kernels=$(valgrind -q --error-exitcode=99 "$app" learn --simd=list)
echo "kernels under valgrind: ${kernels//$'\n'/ }"
if grep -q avx512 <<<"$kernels"; then
  echo "FAIL: avx512 listed on a CPU without AVX-512" >&2
  exit 1
fi
for precision in float64 float32; do
  for map in phase pair; do
    flags=(--input=stream.csv --features=64 --map=$map --precision=$precision --quiet)
    valgrind -q --error-exitcode=99 "$app" learn "${flags[@]}" --block=4 --predictions=valgrind_block.txt
    valgrind -q --error-exitcode=99 "$app" learn "${flags[@]}" --predictions=valgrind.txt
    for kernel in avx2 sse2 scalar; do
      if "$app" learn --simd=list | grep -q "^$kernel"; then
        "$app" learn "${flags[@]}" --simd=$kernel --predictions=$kernel.txt
      fi
    done
    [ -f avx2.txt ] && cmp valgrind.txt avx2.txt
    tolerance=$([ $precision = float32 ] && echo 1e-3 || echo 1e-9)
    for other in valgrind_block.txt sse2.txt scalar.txt; do
      paste valgrind.txt "$other" | awk -v tol="$tolerance" -v name="$other" '
        { d = $1 - $2; if (d < 0) d = -d; s = ($1 < 0 ? -$1 : $1) + 1;
          if (d > tol * s) { print "FAIL: " name " line " NR ": " $1 " vs " $2; bad = 1 } }
        END { if (NR != 200) { print "FAIL: " name " has " NR " lines"; bad = 1 } exit bad }'
    done
    rm -f avx2.txt sse2.txt scalar.txt
    echo "$precision $map: valgrind run agrees with avx2, sse2, scalar and blocks"
  done
done
