#!/usr/bin/env python3
"""float32 against float64 with every other setting at its default: the
progressive score and the wall time of `learn` on the shared streams and a
long synthetic one, the two precisions run alternately in one session (the
median of --repeats runs each, and their ratio).

    bench/default_precision.py --app=build/apps/rffstream [--data=../shared/data] [--repeats=3]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from real_data import house_csv, lorenz_csv, run  # noqa: E402


def friedman_csv(directory, rows=20000, inputs=16, seed=5):
    """Friedman #1 on 16 inputs (10 relevant), noise 1: a long stationary stream."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(size=(rows, inputs))
    y = (10 * np.sin(np.pi * x[:, 0] * x[:, 1]) + 20 * (x[:, 2] - 0.5) ** 2 + 10 * x[:, 3] +
         5 * x[:, 4] + rng.normal(size=rows))
    path = os.path.join(directory, "friedman.csv")
    np.savetxt(path, np.column_stack([x, y]), delimiter=",", fmt="%.9g")
    return path


def timed(app, path, flags):
    start = time.perf_counter()
    result = run(app, path, flags)
    return result, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", required=True)
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                      "shared", "data"))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        streams = [
            ("Boston, rmse", os.path.join(args.data, "boston_housing.csv"), ["--header"]),
            ("Letters, accuracy", os.path.join(args.data, "letter_recognition.csv"),
             ["--header", "--classes=26"]),
            ("Letters D=1024, accuracy", os.path.join(args.data, "letter_recognition.csv"),
             ["--header", "--classes=26", "--features=1024"]),
            ("Lorenz (6 lags), rmse", lorenz_csv(args.data, directory), []),
            ("house (text, missing), rmse", house_csv(directory),
             ["--header", "--target=price", "--ignore=id"]),
            ("Friedman 16 inputs 20k, rmse", friedman_csv(directory), []),
            ("Friedman 16 inputs 20k D=1024, rmse", friedman_csv(directory), ["--features=1024"]),
        ]
        print("| stream | float64 score | float32 score | float64 s | float32 s | speed float32 / float64 |")
        print("|---|---|---|---|---|---|")
        for name, path, flags in streams:
            times = {"float64": [], "float32": []}
            scores = {}
            for _ in range(args.repeats):
                for precision in times:
                    result, seconds = timed(args.app, path, [*flags, f"--precision={precision}"])
                    times[precision].append(seconds)
                    scores[precision] = f"{result['score']} (exit {result['exit']})"
            t64, t32 = statistics.median(times["float64"]), statistics.median(times["float32"])
            print(f"| {name} | {scores['float64']} | {scores['float32']} | {t64:.2f} | {t32:.2f} | "
                  f"{t64 / t32:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
