"""A regressor's predictions stay within the targets it learned, widened by
half their width on each side, as the command line's do; a pickled model
keeps the range."""

import pickle

import numpy as np

import rffstream


def shifted_sensor(rows=4000, shift_at=3000, seed=5):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(rows, 3))
    y = np.sin(3 * X[:, 0]) + X[:, 1] * X[:, 2]
    X[shift_at:, 0] *= 30  # the sensor's gain changes; y is the true values' function
    return X, y


def test_predictions_stay_near_the_learned_targets():
    X, y = shifted_sensor()
    model = rffstream.Regressor()
    answers = model.learn(X, y)
    low, high = y.min(), y.max()
    width = high - low
    assert np.all(answers >= low - width / 2 - 1e-9) and np.all(answers <= high + width / 2 + 1e-9)
    far = np.array([[100.0, -50.0, 0.5], [-80.0, 30.0, 0.2]])
    for predictions in (model.predict(far), pickle.loads(pickle.dumps(model)).predict(far)):
        assert np.all(predictions >= low - width / 2 - 1e-9)
        assert np.all(predictions <= high + width / 2 + 1e-9)
    # predict_one, River's: the same clipping.
    one = model.predict_one([100.0, -50.0, 0.5])
    assert low - width / 2 - 1e-9 <= one <= high + width / 2 + 1e-9
