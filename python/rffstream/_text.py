"""Text (category) columns, encoded as the command line's CSV parser encodes
them (rffstream/csv_line_parser.h), so that a model moves between Python and
the command line: a column takes `buckets` inputs, and a value sets the two
that its 64-bit FNV-1a hash picks to 1/sqrt(2); a missing value sets none.
Numbers in the other columns pass through, a missing one as NaN."""

import math

import numpy as np

# The command line's default (--category_buckets).
BUCKETS = 64
MISSING = {"", "na", "n/a", "nan", "null", "none", "?"}
ROOT_HALF = math.sqrt(0.5)


def _is_missing(value):
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return isinstance(value, str) and value.strip().lower() in MISSING


def _is_text(value):
    if not isinstance(value, str) or _is_missing(value):
        return False
    try:
        float(value)
        return False
    except ValueError:
        return True


def fnv1a64(text):
    value = 14695981039346656037
    for byte in text.encode():
        value = ((value ^ byte) * 1099511628211) % (1 << 64)
    return value


def buckets_of(text, buckets):
    h = fnv1a64(text)
    first, second = h % buckets, (h >> 32) % buckets
    if second == first:
        second = (first + 1) % buckets
    return first, second


def as_objects(X):
    """X as a 2-D object array (pandas and lists too), or None when it holds
    numbers only (the fast path)."""
    if hasattr(X, "to_numpy"):
        X = X.to_numpy()
    array = np.asarray(X)
    if array.dtype.kind != "O" and array.dtype.kind != "U":
        return None
    return array.astype(object) if array.ndim == 2 else None


def text_columns(X):
    """The columns of X that hold text (not numbers, not missing values)."""
    array = as_objects(X)
    if array is None:
        return []
    return [column for column in range(array.shape[1])
            if any(_is_text(value) for value in array[:, column])]


def text_positions(values):
    """The positions of one sample's values that hold text."""
    return [position for position, value in enumerate(values) if _is_text(value)]


def encode(X, columns, buckets):
    """X's rows as the engine's inputs: each text column of `columns` as
    `buckets` values, every other column a number (missing: NaN)."""
    array = as_objects(X)
    if array is None:
        array = np.asarray(X, dtype=object)
    rows, width = array.shape
    out_width = width + len(columns) * (buckets - 1)
    out = np.empty((rows, out_width), dtype=np.float64)
    cache = {}
    position = 0
    for column in range(width):
        values = array[:, column]
        if column in columns:
            block = np.zeros((rows, buckets))
            for row, value in enumerate(values):
                if _is_missing(value):
                    continue
                text = str(value).strip()
                chosen = cache.get(text)
                if chosen is None:
                    chosen = cache[text] = buckets_of(text, buckets)
                block[row, list(chosen)] = ROOT_HALF
            out[:, position:position + buckets] = block
            position += buckets
            continue
        for row, value in enumerate(values):
            if _is_missing(value):
                out[row, position] = np.nan
                continue
            try:
                out[row, position] = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"X row {row}, column {column}: {value!r} is not a number, and "
                                 "the column was not text when the model started") from None
        position += 1
    return out
