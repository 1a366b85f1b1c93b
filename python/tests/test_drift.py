"""forget='auto' (the default): a stream that changes is tracked, and the
changes are exposed as drifts_; a stationary one is learned as with β = 1."""

import numpy as np

import rffstream


def switching_stream(rows=6000, switch_at=3000, seed=4):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(rows, 2))
    y = np.where(np.arange(rows) < switch_at, X[:, 0] ** 2 + 0.5 * X[:, 0],
                 4.0 + 2.0 * np.cos(3 * X[:, 1]))
    return X, y + 0.05 * rng.normal(size=rows)


def test_a_change_is_tracked_and_reported():
    X, y = switching_stream()
    tracked = rffstream.Regressor(features=64, gamma=1.0, ridge=0.01)
    fixed = rffstream.Regressor(features=64, gamma=1.0, ridge=0.01, forget=1.0)
    a, b = tracked.learn(X, y), fixed.learn(X, y)
    assert len(tracked.drifts_) == 1
    sample, size = tracked.drifts_[0]
    assert 3000 < sample < 3100 and size >= 2
    assert fixed.drifts_ == []
    after = slice(3200, None)
    assert np.mean((a[after] - y[after]) ** 2) < 0.2 * np.mean((b[after] - y[after]) ** 2)
    assert tracked.get_params()["forget"] == "auto"


def test_a_stationary_stream_is_learned_as_with_beta_one(regression_stream):
    X, y = regression_stream
    auto = rffstream.Regressor(block=1).learn(X, y)
    one = rffstream.Regressor(block=1, forget=1.0).learn(X, y)
    np.testing.assert_array_equal(auto, one)


def test_the_width_follows_a_growing_stream():
    rng = np.random.default_rng(7)
    X = rng.uniform(0, 1, size=(3000, 8))
    y = (10 * np.sin(np.pi * X[:, 0] * X[:, 1]) + 20 * (X[:, 2] - 0.5) ** 2 + 10 * X[:, 3]
         + 5 * X[:, 4] + rng.normal(scale=0.5, size=3000))
    model = rffstream.Regressor(features=64)
    model.learn(X, y)
    changes = model.settings_changes_
    assert [change[0] for change in changes["gamma"]] == [1024]
    sample, samples, before, after = changes["gamma"][0]
    assert samples == 1024 and after < before
    assert model.model_["gamma"] == after
    assert rffstream.Regressor(features=64, gamma=0.05).fit(X, y).settings_changes_["gamma"] == []


def test_after_a_change_an_input_that_widened_is_standardized_anew():
    rng = np.random.default_rng(3)
    X = rng.uniform(0, 1, size=(6000, 8))
    y = (10 * np.sin(np.pi * X[:, 0] * X[:, 1]) + 20 * (X[:, 2] - 0.5) ** 2 + 10 * X[:, 3]
         + 5 * X[:, 4] + rng.normal(scale=0.5, size=6000))
    # Another concept from line 3000, whose leading input comes 20 times wider.
    y[3000:] = 20 * X[3000:, 5] - 10 * X[3000:, 6] ** 2 + rng.normal(scale=0.5, size=3000)
    X[3000:, 5] *= 20
    model = rffstream.Regressor(features=64)
    model.learn(X, y)
    assert len(model.drifts_) == 1
    restart = model.drifts_[0][0]
    standardizations = model.settings_changes_["standardization"]
    assert len(standardizations) == 1
    sample, samples, one, moved = standardizations[0]
    assert sample > restart and samples == 1024 and one == 1.0
    assert 15 < moved < 25
