#!/usr/bin/env python3
"""Linear RLS on Boston answered as `learn` answers: every line at arrival,
with the inputs standardized by the statistics of the lines before it (an
input without spread yet is left unscaled; standardized values clipped at
±clip) and an intercept. Prints the progressive RMSE over all 506 lines for
a grid of ridges and clips (the best of them is the baseline in hindsight).

    bench/linear_rls_boston.py --data=../shared/data
"""

import numpy as np

import shared_data


def progressive_rmse(X, y, ridge, clip):
    n, p = X.shape
    covariance = np.eye(p + 1) / ridge
    weights = np.zeros(p + 1)
    sums, squares = np.zeros(p), np.zeros(p)
    errors = []
    for t in range(n):
        mean, scale = np.zeros(p), np.ones(p)
        if t >= 2:
            mean = sums / t
            variance = squares / t - mean ** 2
            scale = np.where(variance > 1e-12, np.sqrt(np.maximum(variance, 1e-12)), 1.0)
        z = np.r_[np.clip((X[t] - mean) / scale, -clip, clip), 1.0]
        error = y[t] - z @ weights
        errors.append(error)
        gain = covariance @ z / (1 + z @ covariance @ z)
        weights += gain * error
        covariance -= np.outer(gain, z @ covariance)
        sums += X[t]
        squares += X[t] ** 2
    return float(np.sqrt(np.mean(np.square(errors))))


def main():
    X, y = shared_data.boston(shared_data.data_directory())
    print("| ridge | clip 3 | clip 5 | clip 10 | no clip |")
    print("|---|---|---|---|---|")
    for ridge in (0.01, 0.1, 1, 10, 100):
        cells = [f"{progressive_rmse(X, y, ridge, clip):.3f}" for clip in (3, 5, 10, np.inf)]
        print(f"| {ridge} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
