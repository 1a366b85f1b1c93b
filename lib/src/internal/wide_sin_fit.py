#!/usr/bin/python3
"""Fits the polynomials of the cos-only path in sincos_kernel.h.

sin r = r + r^3 * P(r^2) on |r| <= pi/2 (plus a margin for the reduction's
off-by-one near the ends), minimizing the largest relative error of sin r.

float:  P of degree 4, as a linear program over a dense grid (numpy, scipy).
double: P of degree 7, by the first step of Remez's algorithm in 60-digit
        arithmetic (mpmath): the error levelled at Chebyshev nodes, which is
        already far below half an ulp.

Prints the coefficients (lowest degree first) and the largest relative error
of the fit in ulps. Needs Debian's python3-numpy, python3-scipy and
python3-mpmath:  /usr/bin/python3 wide_sin_fit.py
"""
import mpmath as mp
import numpy as np
from scipy.optimize import linprog

UPPER = np.pi / 2 + 0.002


def fit_float(terms=5, grid=6000):
    r = np.linspace(1e-3, UPPER, grid)
    basis = np.stack([r**3 * (r * r) ** k / np.sin(r) for k in range(terms)], axis=1)
    target = (np.sin(r) - r) / np.sin(r)
    # Variables: the coefficients and the bound t; minimize t subject to
    # |basis . c - target| <= t at every grid point.
    objective = np.zeros(terms + 1)
    objective[-1] = 1
    column = -np.ones((grid, 1))
    constraints = np.vstack([np.hstack([basis, column]), np.hstack([-basis, column])])
    limits = np.concatenate([target, -target])
    fit = linprog(objective, A_ub=constraints, b_ub=limits,
                  bounds=[(None, None)] * (terms + 1), method="highs")
    coefficients = [float(np.float32(c)) for c in fit.x[:terms]]
    dense = np.linspace(1e-4, UPPER, 200001)
    approximation = dense + dense**3 * np.polyval(coefficients[::-1], dense**2)
    return coefficients, np.max(np.abs(approximation / np.sin(dense) - 1)) / 2.0**-24


def fit_double(terms=8):
    mp.mp.dps = 60
    upper = mp.mpf(UPPER) ** 2  # in u = r^2

    def target(u):  # P(u) that makes r + r^3 P exact
        r = mp.sqrt(u)
        return (mp.sin(r) - r) / (u * r)

    def weight(u):  # turns an error of P into a relative error of sin r
        r = mp.sqrt(u)
        return u * r / mp.sin(r)

    lower = mp.mpf("1e-30")
    nodes = [(lower + upper) / 2 - (upper - lower) / 2 * mp.cos(mp.pi * k / terms)
             for k in range(terms + 1)]
    system = mp.matrix(terms + 1, terms + 1)
    values = mp.matrix(terms + 1, 1)
    for i, u in enumerate(nodes):
        for j in range(terms):
            system[i, j] = u**j
        system[i, terms] = (-1) ** i / weight(u)
        values[i] = target(u)
    solution = mp.lu_solve(system, values)
    coefficients = [float(solution[j]) for j in range(terms)]  # rounded to double
    worst = max(abs((mp.polyval([mp.mpf(c) for c in coefficients[::-1]], u) - target(u)) * weight(u))
                for u in (lower + (upper - lower) * k / 4000 for k in range(4001)))
    return coefficients, worst / mp.mpf(2) ** -53


for name, (coefficients, ulps) in (("float", fit_float()), ("double", fit_double())):
    print(f"{name}: largest relative error {float(ulps):.3g} ulp")
    for k, c in enumerate(coefficients):
        print(f"  r^{2 * k + 3}: {c:.17e}")
