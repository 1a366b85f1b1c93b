"""The shared data sets the bench scripts read (../shared/data, see its README)."""

import argparse
import os

import numpy as np


def data_directory():
    """--data: the shared data's directory."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="../shared/data")
    return parser.parse_args().data


def boston(directory):
    """Boston's 13 inputs and its target (medv), as rows."""
    data = np.genfromtxt(os.path.join(directory, "boston_housing.csv"), delimiter=",",
                         skip_header=1)
    return data[:, :-1], data[:, -1]
