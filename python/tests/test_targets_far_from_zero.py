"""Targets far from zero compared with their spread: the estimators learn
them less their mean on the warm-up window, so they score as the same
targets near zero, with fit, partial_fit and learn_one, and keep it in
pickles."""

import pickle

import numpy as np
import pytest

import rffstream


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, 5))
    y = np.sin(X[:, 0]) + X[:, 1] * X[:, 2] + 0.3 * rng.normal(size=2000)
    return X[:1500], y[:1500], X[1500:], y[1500:]


@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_fit_scores_as_near_zero(precision):
    X, y, X_test, y_test = _data()
    near = rffstream.Regressor(features=64, precision=precision).fit(X, y).score(X_test, y_test)
    for offset in (1e4, 1e6):
        far = rffstream.Regressor(features=64, precision=precision).fit(X, y + offset)
        assert far.score(X_test, y_test + offset) == pytest.approx(near, abs=0.01)
        again = pickle.loads(pickle.dumps(far))
        np.testing.assert_array_equal(again.predict(X_test), far.predict(X_test))


def test_a_stream_scores_as_near_zero():
    X, y, _, _ = _data()
    scores = []
    for offset in (0.0, 1e6):
        model = rffstream.Regressor(features=64)
        errors = []
        for x, target in zip(X, y + offset):
            errors.append(model.predict_one(x) - target)
            model.learn_one(x, target)
        scores.append(np.sqrt(np.mean(np.square(errors[400:]))))
    assert scores[1] == pytest.approx(scores[0], rel=0.02)
