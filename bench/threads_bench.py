#!/usr/bin/python3
"""`rffstream learn --threads=2` against `--threads=1` in the same run, at
D = 256, 1024, 4096, one sample at a time and in blocks of 64, float32 and
float64: median wall-clock seconds of alternating runs, and their ratio.

    /usr/bin/python3 bench/threads_bench.py [--app=build/apps/rffstream] [--repeats=3]

The stream: a Mackey-Glass series embedded in 16 inputs (`rffstream
generate`), fixed settings (no warm-up tuning), lines per D chosen so each
run takes about a second. A run that rejected lines is flagged: those lines
cost less than learned ones, and the ratio then means little.
"""

import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

LINES = {256: 200000, 1024: 30000, 4096: 2500}


def run(app, stream, D, precision, block, threads):
    start = time.perf_counter()
    done = subprocess.run([app, "learn", f"--input={stream}", f"--features={D}",
                           f"--precision={precision}", f"--block={block}", "--gamma=0.5",
                           "--ridge=0.01", f"--threads={threads}"],
                          capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    rejected = int(re.search(r"(\d+) rejected", done.stderr).group(1))
    return seconds, rejected


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--app", default="build/apps/rffstream")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dimensions", default="256,1024,4096")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        print(f"{'D':>5} {'precision':>9} {'block':>5} {'1 thread s':>10} {'2 threads s':>11} "
              f"{'ratio':>6}")
        for D in map(int, args.dimensions.split(",")):
            stream = os.path.join(directory, f"stream{D}.csv")
            with open(stream, "w") as out:
                subprocess.run([args.app, "generate", "--series=mackey-glass", "--embedding=16",
                                f"--samples={LINES[D]}"], stdout=out, check=True)
            for precision in ("float32", "float64"):
                for block in (1, 64):
                    times = {1: [], 2: []}
                    rejected = 0
                    for _ in range(args.repeats):
                        for threads in (1, 2):
                            seconds, refused = run(args.app, stream, D, precision, block, threads)
                            times[threads].append(seconds)
                            rejected = max(rejected, refused)
                    one, two = statistics.median(times[1]), statistics.median(times[2])
                    flag = f"  ({rejected} lines rejected)" if rejected else ""
                    print(f"{D:>5} {precision:>9} {block:>5} {one:>10.3f} {two:>11.3f} "
                          f"{one / two:>6.2f}{flag}", flush=True)


if __name__ == "__main__":
    main()
