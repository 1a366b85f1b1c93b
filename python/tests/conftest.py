"""Shared fixtures: the command-line app the suite built, and streams
written as the CLI reads them."""

import os
import subprocess

import numpy as np
import pytest


@pytest.fixture(scope="session")
def app():
    """Runs `rffstream ARGS` (the app of this build, $RFFSTREAM_APP) and
    returns its standard output."""
    path = os.environ.get("RFFSTREAM_APP")
    if not path:
        pytest.fail("RFFSTREAM_APP is not set: run the tests with ctest, or set it to the "
                    "build's apps/rffstream")

    def run(*args, stdin=None):
        with open(stdin, "rb") if stdin else open(os.devnull, "rb") as source:
            done = subprocess.run([path, *map(str, args)], stdin=source, capture_output=True,
                                  check=False)
        assert done.returncode == 0, done.stderr.decode()
        return done.stdout.decode()

    return run


def write_csv(path, X, y):
    """X and y as CSV lines, every digit kept."""
    columns = [X] + ([y[:, None]] if y.ndim == 1 else [y])
    np.savetxt(path, np.hstack(columns), delimiter=",", fmt="%.17g")
    return path


@pytest.fixture
def regression_stream():
    """1500 samples of a smooth function of 3 inputs, with noise."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(1500, 3))
    y = np.sin(2 * X[:, 0]) * X[:, 1] + 0.1 * rng.normal(size=1500)
    return X, y


@pytest.fixture
def class_stream():
    """1200 samples of 3 classes, separated by a non-linear boundary."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(1200, 2))
    radius = np.hypot(X[:, 0], X[:, 1])
    y = np.where(radius < 0.8, 0, np.where(X[:, 0] > 0, 1, 2))
    return X, y
