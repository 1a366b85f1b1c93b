#!/usr/bin/env python3
"""A sensor whose gain and offset change: the inputs leave the range the
model learned, and what `learn` scores with and without its answers
clipped to the learned targets' range (--clip_predictions).

    bench/sensor_shift.py --app=build/apps/rffstream [--seeds=1,2,3]

Friedman #1 (10 uniform inputs, noise sigma 1), 60,000 lines; from line
20,000 inputs 0 and 1 read 10 times their value and input 2 reads its value
plus 5 (the target is still the function of the true values). Prints the
progressive MSE after line 1,000, the same after the shift's first 2,000
lines, and the largest answer, per seed and flags.
"""

import argparse
import os
import subprocess
import tempfile

import numpy as np


def make_stream(seed, lines=60000, shift_at=20000):
    rng = np.random.default_rng(seed)
    x = rng.uniform(size=(lines, 10))
    y = (10 * np.sin(np.pi * x[:, 0] * x[:, 1]) + 20 * (x[:, 2] - 0.5) ** 2 + 10 * x[:, 3]
         + 5 * x[:, 4] + rng.normal(size=lines))
    read = x.copy()
    read[shift_at:, 0:2] *= 10
    read[shift_at:, 2] += 5
    return np.column_stack([read, y]), shift_at


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--seeds", default="1,2,3")
    args = parser.parse_args()
    print("| seed | flags | MSE after line 1,000 | MSE, 2,000 lines after the shift | largest answer |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for seed in (int(s) for s in args.seeds.split(",")):
            stream, shift_at = make_stream(seed)
            path = os.path.join(directory, "stream.csv")
            np.savetxt(path, stream, delimiter=",", fmt="%.9g")
            for flags in ("", "--clip_predictions=false"):
                predictions = os.path.join(directory, "predictions.txt")
                subprocess.run([args.app, "learn", "--quiet", f"--input={path}",
                                f"--predictions={predictions}", *flags.split()], check=True)
                answers = np.loadtxt(predictions)
                errors = (answers - stream[:, -1]) ** 2
                after = slice(shift_at, shift_at + 2000)
                print(f"| {seed} | {flags or 'defaults'} | {errors[1000:].mean():.4g} | "
                      f"{errors[after].mean():.4g} | {np.abs(answers).max():.4g} |")


if __name__ == "__main__":
    main()
