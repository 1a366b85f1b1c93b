"""Turning what users pass (numpy arrays, lists, DataFrames) into the arrays
the engine reads, with errors that name the row and column of a bad value.
Arrays that already have the right dtype and layout are passed on, not
copied."""

import numpy as np


class NotANumberError(ValueError, TypeError):
    """A value that is not a number: a ValueError, and a TypeError as
    float() raises for such a value."""


def _first_bad_cell(values, name):
    """The message for the first cell of `values` that float() refuses."""
    array = np.asarray(values, dtype=object)
    if array.ndim == 1:
        array = array[:, None]
    for (row, column), value in np.ndenumerate(array):
        try:
            float(value)
        except (TypeError, ValueError):
            return (f"{name} row {row}, column {column}: {value!r} is not a number "
                    "(float() argument must be a string or a real number)")
    return f"{name} could not be read as numbers"


def _pandas_missing_as_nan(array):
    """An object array with pandas' missing value (pd.NA, of nullable
    columns) as NaN, which is what NaN and None already read as."""
    array = np.array(array, dtype=object)
    missing = np.vectorize(lambda value: type(value).__name__ == "NAType", otypes=[bool])(array)
    array[missing] = np.nan
    return array


def _numbers(values, name, dtype):
    if hasattr(values, "toarray") or hasattr(values, "tocsr"):
        raise TypeError(f"{name} is a sparse matrix: rffstream reads dense arrays "
                        f"(pass {name}.toarray())")
    if hasattr(values, "to_numpy"):  # pandas
        values = values.to_numpy()
    array = np.asarray(values)
    if np.iscomplexobj(array):
        raise ValueError(f"Complex data not supported: {name} holds complex numbers")
    if array.dtype.kind not in "biuf":
        if array.dtype.kind == "O":
            array = _pandas_missing_as_nan(array)
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            raise NotANumberError(_first_bad_cell(array, name)) from None
    return np.ascontiguousarray(array, dtype=dtype)


def _check_finite(array, name, learning=True, missing_allowed=False):
    """Raises for a value that is not finite; NaN in X is a missing value."""
    bad = np.isinf(array) if missing_allowed else ~np.isfinite(array)
    if not bad.any():
        return
    position = np.argwhere(bad)[0]
    value = array[tuple(position)]
    where = f"row {position[0]}" + (f", column {position[1]}" if array.ndim == 2 else "")
    kind = "NaN" if np.isnan(value) else f"infinity or a value too large for dtype('{array.dtype}')"
    outcome = "; nothing was learned" if learning else ""
    raise ValueError(f"Input {name} contains {kind} ({name} {where}){outcome}")


def samples(X, dtype=np.float64, *, owner="the model", expected=None, learning=True):
    """X as a C-contiguous 2-D array of `dtype`, every value finite or NaN
    (a missing value, read as the input's mean), with `expected` columns when
    given (`learning`: for learning, as errors say)."""
    if X is None:
        raise ValueError("X is None: expected a 2-D array of samples")
    array = _numbers(X, "X", dtype)
    if array.ndim != 2:
        raise ValueError(f"Expected a 2-D array of samples, got a {array.ndim}-D one. Reshape "
                         "your data: X.reshape(-1, 1) for a single feature, X.reshape(1, -1) "
                         "for a single sample")
    for axis, what in enumerate(("sample", "feature")):
        if array.shape[axis] == 0:
            raise ValueError(f"X has 0 {what}(s) (shape={array.shape}) while a minimum of 1 is "
                             "required.")
    if expected is not None and array.shape[1] != expected:
        raise ValueError(f"X has {array.shape[1]} features, but {owner} is expecting "
                         f"{expected} features as input")
    _check_finite(array, "X", learning, missing_allowed=True)
    return array


def targets(y, rows):
    """y as a C-contiguous float64 array of `rows` rows: 1-D for one
    target, 2-D (rows × targets) for several."""
    if y is None:
        raise ValueError("requires y to be passed, but the target y is None")
    array = _numbers(y, "y", np.float64)
    if array.ndim not in (1, 2):
        raise ValueError(f"y must be 1-D (one target) or 2-D (one column per target), got "
                         f"{array.ndim}-D")
    if array.shape[0] != rows:
        raise ValueError(f"X has {rows} samples but y has {array.shape[0]}")
    _check_finite(array, "y")
    return array
