#!/usr/bin/env python3
"""A missing input as its mean, against the same with an indicator input per
column that has missing values (1 where missing), on Boston with values
removed completely at random (MCAR) or where large (MNAR: crim and lstat
above their 80th percentile, 90 % of those). Progressive RMSE of `learn`
with the defaults, the mean over 5 shuffles.

    PYTHONPATH=build/python bench/missing_indicator.py --data=../shared/data
"""

import numpy as np

import rffstream
import shared_data


def progressive_rmse(X, y, shuffles=5):
    scores = []
    for seed in range(shuffles):
        order = np.random.default_rng(100 + seed).permutation(len(y))
        priors = rffstream.Regressor(block=1).learn(X[order], y[order])
        scores.append(np.sqrt(np.mean((priors - y[order]) ** 2)))
    return float(np.mean(scores))


def main():
    complete, y = shared_data.boston(shared_data.data_directory())
    print("| missing values | as the mean | with indicators | no value missing |")
    print("|---|---|---|---|")
    for name in ("MCAR 10 %", "MCAR 30 %", "MNAR 20 % (crim, lstat)"):
        rng = np.random.default_rng(7)
        if name.startswith("MCAR"):
            mask = rng.random(complete.shape) < float(name.split()[1]) / 100
        else:
            mask = np.zeros(complete.shape, bool)
            for column in (0, 12):
                large = complete[:, column] > np.quantile(complete[:, column], 0.8)
                mask[:, column] = large & (rng.random(len(y)) < 0.9)
        X = complete.copy()
        X[mask] = np.nan
        with_indicators = np.hstack([X, mask[:, mask.any(axis=0)].astype(float)])
        print(f"| {name} | {progressive_rmse(X, y):.3f} | {progressive_rmse(with_indicators, y):.3f} "
              f"| {progressive_rmse(complete, y):.3f} |")


if __name__ == "__main__":
    main()
