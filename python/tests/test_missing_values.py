"""Missing inputs (NaN, None, a dict key left out) are values, read as the
input's mean: never an error, never a lost sample."""

import numpy as np
import pytest

import rffstream

FIXED = dict(standardize=0, gamma=0.5, ridge=0.01, features=64)


def test_nan_in_x_is_the_mean_which_is_zero_without_standardization(regression_stream):
    X, y = regression_stream
    X = X[:600].copy()
    rng = np.random.default_rng(5)
    holes = rng.random(X.shape) < 0.1
    with_nan, with_zero = X.copy(), X.copy()
    with_nan[holes] = np.nan
    with_zero[holes] = 0.0
    a = rffstream.Regressor(**FIXED).fit(with_nan, y[:600])
    b = rffstream.Regressor(**FIXED).fit(with_zero, y[:600])
    assert a.metrics_["samples"] == 600
    np.testing.assert_array_equal(a.predict(with_nan[:50]), b.predict(with_zero[:50]))


def test_standardized_nan_is_the_window_mean(regression_stream):
    X, y = regression_stream
    X = X[:400].copy()
    X[::7, 1] = np.nan
    model = rffstream.Regressor().fit(X, y[:400])
    predictions = model.predict(X)
    assert np.isfinite(predictions).all()
    assert model.score(X, y[:400]) > 0.5


def test_dict_keys_left_out_and_none_are_missing():
    model = rffstream.Regressor(**FIXED)
    model.learn_one({"a": 1.0, "b": 2.0}, 3.0)
    model.learn_one({"a": 0.5}, 1.0)
    assert model.predict_one({"b": None}) == model.predict_one({})
    assert model.predict_one([np.nan, np.nan]) == model.predict_one({})
    assert model.predict_one({"a": 0.0, "b": 0.0}) == model.predict_one({})
    with pytest.raises(ValueError, match=r"x\['a'\] is inf"):
        model.predict_one({"a": float("inf")})
