#!/usr/bin/python3
"""Fits the float polynomial of the cos-only path in sincos_kernel.h.

sin r = r + r^3 * P(r^2) on |r| <= pi/2 (plus a margin for the reduction's
off-by-one near the ends), P of degree 4, minimizing the largest relative
error over a dense grid as a linear program. Prints the coefficients rounded
to float, lowest degree first, and the relative error of the fit.

Needs Debian's python3-numpy and python3-scipy:  /usr/bin/python3 wide_sin_fit.py
"""
import numpy as np
from scipy.optimize import linprog

TERMS = 5
UPPER = np.pi / 2 + 0.002
GRID = 6000

r = np.linspace(1e-3, UPPER, GRID)
basis = np.stack([r**3 * (r * r) ** k / np.sin(r) for k in range(TERMS)], axis=1)
target = (np.sin(r) - r) / np.sin(r)
# Variables: the coefficients and the bound t; minimize t subject to
# |basis . c - target| <= t at every grid point.
objective = np.zeros(TERMS + 1)
objective[-1] = 1
column = -np.ones((GRID, 1))
constraints = np.vstack([np.hstack([basis, column]), np.hstack([-basis, column])])
limits = np.concatenate([target, -target])
fit = linprog(objective, A_ub=constraints, b_ub=limits, bounds=[(None, None)] * (TERMS + 1),
              method="highs")
coefficients = [np.float32(c) for c in fit.x[:TERMS]]

dense = np.linspace(1e-4, UPPER, 200001)
approximation = dense + dense**3 * np.polyval(np.array(coefficients[::-1], dtype=np.float64), dense**2)
error = np.max(np.abs(approximation / np.sin(dense) - 1))
for k, c in enumerate(coefficients):
    print(f"r^{2 * k + 3}: {c:.10e}")
print(f"largest relative error {error:.3g} ({error / 2.0**-24:.3f} ulp of 2^-24)")
