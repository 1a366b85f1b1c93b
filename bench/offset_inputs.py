#!/usr/bin/env python3
"""float32 against float64 on inputs that sit on a large offset (a Unix
time, a price): the progressive RMSE of `learn` at the defaults, the same
stream shifted by each offset.

    bench/offset_inputs.py --app=build/apps/rffstream [--rows=6000] [--seed=3]
"""

import argparse
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from real_data import run  # noqa: E402

OFFSETS = [("0", 0.0), ("10⁴", 1e4), ("10⁶", 1e6), ("1.7·10⁹", 1.7e9)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", required=True)
    parser.add_argument("--rows", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    # Three inputs uniform in [-1, 1], y = sin 2x₁ + x₂x₃ + 0.05 noise.
    x = rng.uniform(-1, 1, size=(args.rows, 3))
    y = np.sin(2 * x[:, 0]) + x[:, 1] * x[:, 2] + 0.05 * rng.normal(size=args.rows)
    print("| offset | float64 rmse | float32 rmse |")
    print("|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for name, offset in OFFSETS:
            path = os.path.join(directory, "offset.csv")
            # Written with 12 significant digits past the offset's.
            np.savetxt(path, np.column_stack([x + offset, y]), delimiter=",", fmt="%.17g")
            scores = [run(args.app, path, [f"--precision={precision}"])["score"]
                      for precision in ("float64", "float32")]
            print(f"| {name} | {scores[0]} | {scores[1]} |")


if __name__ == "__main__":
    main()
