"""Pickles carry the checkpoint's bytes (or, during the warm-up window, the
samples it holds) and continue exactly."""

import pickle

import numpy as np

import rffstream


def test_pickled_model_continues_exactly(regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(block=1).fit(X[:800], y[:800])
    copy = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(copy.predict(X), model.predict(X))
    np.testing.assert_array_equal(copy.learn(X[800:], y[800:]), model.learn(X[800:], y[800:]))
    assert copy.metrics_ == model.metrics_


def test_pickled_during_the_warm_up_window(class_stream):
    X, y = class_stream
    model = rffstream.Classifier(classes=["a", "b", "c"], block=1)
    labels = np.array(["a", "b", "c"])[y]
    model.partial_fit(X[:100], labels[:100])
    copy = pickle.loads(pickle.dumps(model))
    assert copy.model_["held"] == 100
    np.testing.assert_array_equal(copy.learn(X[100:], labels[100:]),
                                  model.learn(X[100:], labels[100:]))
    np.testing.assert_array_equal(copy.decision_function(X), model.decision_function(X))


def test_saved_and_loaded_float32(tmp_path, regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(precision="float32").fit(X, y)
    model.save(tmp_path / "f32.rff")
    loaded = rffstream.load(tmp_path / "f32.rff")
    assert loaded.precision == "float32"
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))
    assert loaded.predict(X.astype(np.float32)).dtype == np.float64


def test_saved_classifier_keeps_its_labels(tmp_path, class_stream):
    X, y = class_stream
    for labels in (np.array([10, 20, 30]), np.array(["cat", "dog", "emu"]),
                   np.array([-1.0, 1.0, 2.0])):
        model = rffstream.Classifier().fit(X, labels[y])
        model.save(tmp_path / "labels.rff")
        loaded = rffstream.load(tmp_path / "labels.rff")
        np.testing.assert_array_equal(loaded.classes_, model.classes_)
        np.testing.assert_array_equal(loaded.predict(X), model.predict(X))
        assert loaded.score(X, labels[y]) == model.score(X, labels[y]) > 0.8
    # A model of the command line (classes 0..K-1) loads with those labels.
    model = rffstream.Classifier(classes=3).fit(X, y)
    model.save(tmp_path / "indices.rff")
    assert rffstream.load(tmp_path / "indices.rff").classes_.tolist() == [0, 1, 2]
