"""River habits: learn_one/predict_one on dicts or sequences, with
progressive validation during the warm-up window."""

import numpy as np
import pytest

import rffstream


def test_predict_one_then_learn_one_is_progressive_validation(regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(block=1)
    assert model.predict_one([0.0, 0.0, 0.0]) == 0.0
    errors = []
    for x, target in zip(X, y):
        sample = {"a": x[0], "b": x[1], "c": x[2]}
        errors.append(model.predict_one(sample) - target)
        model.learn_one(sample, target)
    window = 256
    # Within the window: the mean of the targets so far.
    assert errors[1] == pytest.approx(y[0] - y[1])
    assert errors[2] == pytest.approx((y[0] + y[1]) / 2 - y[2])
    # After it: the model's a-priori predictions, as learn() gives them.
    priors = rffstream.Regressor(block=1).learn(X, y)
    np.testing.assert_allclose(np.array(errors[window:]), (priors - y)[window:], atol=1e-12)
    assert list(model.feature_names_in_) == ["a", "b", "c"]


def test_classifier_one_at_a_time(class_stream):
    X, y = class_stream
    labels = np.array(["inner", "east", "west"])
    model = rffstream.Classifier(classes=list(labels))
    assert model.predict_one([0.0, 0.0]) is None
    hits = 0
    for x, label in zip(X, labels[y]):
        hits += model.predict_one(x) == label
        model.learn_one(x, label)
    assert hits / len(y) > 0.8  # the window predicts the most frequent class so far
    assert model.metrics_["accuracy"] > 0.85


def test_several_targets_one_at_a_time(regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(standardize=0, gamma=0.5, ridge=0.01)
    for x, target in zip(X[:300], y[:300]):
        model.learn_one(x, [target, -target])
    prediction = model.predict_one(X[0])
    assert prediction.shape == (2,)
    assert prediction[0] == pytest.approx(-prediction[1], abs=1e-12)
