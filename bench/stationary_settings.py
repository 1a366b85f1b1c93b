#!/usr/bin/env python3
"""Long stationary streams: `learn` with its defaults against the best fixed
(gamma, ridge) of a grid, in hindsight, on the same streams.

    bench/stationary_settings.py --app=build/apps/rffstream [--baseline=OLD]
                                 [--lines=20000] [--flags="--features=1024"]

Streams (made from fixed seeds): scikit-learn's Friedman #1 with 5 relevant
inputs among 8 or 16 (the rest noise), at noise sigma 0.5 and 2. Prints the
progressive MSE after line 1,000 (from the predictions file) of the
defaults, of the baseline's defaults, and of the best grid point, with the
ratio defaults / best.
"""

import argparse
import itertools
import os
import subprocess
import tempfile

import numpy as np
from sklearn.datasets import make_friedman1

GAMMAS = [0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064]
RIDGES = [1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1]


def progressive_mse(app, csv, y, flags, skip=1000):
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as predictions:
        subprocess.run([app, "learn", f"--input={csv}", f"--predictions={predictions.name}",
                        "--quiet", *flags], check=True, capture_output=True)
        answers = np.loadtxt(predictions.name)
    return float(np.mean((answers[skip:] - y[skip:]) ** 2))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--baseline")
    parser.add_argument("--lines", type=int, default=20000)
    parser.add_argument("--flags", default="")
    args = parser.parse_args()
    flags = args.flags.split()
    print("| stream | defaults | baseline's defaults | best fixed (gamma, ridge) | defaults / best |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for inputs, noise in itertools.product((8, 16), (0.5, 2.0)):
            X, y = make_friedman1(args.lines, n_features=inputs, noise=noise,
                                  random_state=inputs + int(10 * noise))
            csv = os.path.join(directory, "stream.csv")
            np.savetxt(csv, np.c_[X, y], delimiter=",", fmt="%.9g")
            ours = progressive_mse(args.app, csv, y, flags)
            baseline = progressive_mse(args.baseline, csv, y, flags) if args.baseline else None
            best, point = min((progressive_mse(args.app, csv, y,
                                               flags + [f"--gamma={g}", f"--ridge={r}"]), (g, r))
                              for g, r in itertools.product(GAMMAS, RIDGES))
            shown = f"{baseline:.4f}" if baseline is not None else "-"
            print(f"| {inputs} inputs, noise {noise} | {ours:.4f} | {shown} | {best:.4f} {point} "
                  f"| {ours / best:.3f} |", flush=True)


if __name__ == "__main__":
    main()
