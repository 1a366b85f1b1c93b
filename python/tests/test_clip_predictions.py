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


def test_clip_predictions_false_gives_the_raw_answers():
    X, y = shifted_sensor()
    clipped, raw = rffstream.Regressor(), rffstream.Regressor(clip_predictions=False)
    a, b = clipped.learn(X, y), raw.learn(X, y)
    low, high = y.min(), y.max()
    assert np.max(b) > high + (high - low) / 2  # the raw model goes far out
    assert np.mean((a[3000:] - y[3000:]) ** 2) < 0.5 * np.mean((b[3000:] - y[3000:]) ** 2)
    far = np.array([[100.0, -50.0, 0.5]])
    # set_params reaches the model already built, and a pickle keeps the choice.
    clipped.set_params(clip_predictions=False)
    assert clipped.predict(far)[0] == raw.predict(far)[0]
    assert pickle.loads(pickle.dumps(raw)).predict(far)[0] == raw.predict(far)[0]
    assert rffstream.Regressor().get_params()["clip_predictions"] is True


def test_clip_predictions_is_a_bool_and_old_pickles_have_it():
    X, y = shifted_sensor(rows=400, shift_at=400)
    model = rffstream.Regressor().fit(X, y)
    try:
        model.set_params(clip_predictions="false")
        assert False, "a string was taken for clip_predictions"
    except ValueError as error:
        assert "clip_predictions='false': must be True or False" in str(error)
    state = rffstream.Regressor().fit(X, y).__getstate__()
    del state["clip_predictions"]  # as pickled before the keyword
    old = rffstream.Regressor.__new__(rffstream.Regressor)
    old.__setstate__(state)
    assert old.get_params()["clip_predictions"] is True
