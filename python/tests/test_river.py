"""River habits: learn_one/predict_one on dicts or sequences, with
progressive validation during the warm-up window."""

import os
import subprocess
import sys
import textwrap

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
    # Within the window, before the provisional model's first fit (4
    # samples): the mean of the targets so far.
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
    assert hits / len(y) > 0.8  # the window: the provisional model's classes
    assert model.metrics_["accuracy"] > 0.85


@pytest.mark.parametrize("precision,tolerance", [("float64", 1e-9), ("float32", 1e-3)])
def test_new_labels_as_they_come_equal_classes_declared_up_front(class_stream, precision,
                                                                  tolerance):
    X, y = class_stream
    labels = np.array(["inner", "east", "west"])[y]
    # "west" first comes after the warm-up window has ended with two classes
    # (256 lines); a fourth label, 7, after that (a number among texts).
    keep = (labels != "west") | (np.arange(len(y)) >= 400)
    X, labels = X[keep], labels[keep].astype(object)
    labels[700::50] = 7
    settings = dict(features=64, gamma=0.5, ridge=0.1, precision=precision, block=1)
    grown = rffstream.Classifier(**settings)
    declared = rffstream.Classifier(classes=["inner", "east", "west", 7], **settings)
    first = labels[0]
    assert grown.predict_one(X[0]) is None
    for x, label in zip(X, labels):
        answer = grown.predict_one(x)
        if "_engine" not in grown.__dict__:  # one label so far: it is the answer
            assert answer in (None, first) and grown.predict_proba_one(x) in ({}, {first: 1.0})
        grown.learn_one(x, label)
        declared.learn_one(x, label)
    assert grown.classes is None
    assert set(grown.classes_.tolist()) == {"inner", "east", "west", 7}
    order = [grown.classes_.tolist().index(c) for c in declared.classes_.tolist()]
    np.testing.assert_allclose(grown.decision_function(X[:100])[:, order],
                               declared.decision_function(X[:100]), atol=tolerance)
    assert (grown.predict(X[:100]) == declared.predict(X[:100])).mean() > 0.98
    # It keeps its labels, of both types, through a pickle (a checkpoint
    # keeps labels as text: numbers come back as numbers only when all are).
    import pickle
    again = pickle.loads(pickle.dumps(grown))
    np.testing.assert_array_equal(again.predict(X[:50]), grown.predict(X[:50]))
    assert again.classes_.tolist() == grown.classes_.tolist()


def test_a_new_label_inside_the_warm_up_window_is_held_again(class_stream):
    X, y = class_stream
    labels = np.array(["inner", "east", "west"])[y]
    grown = rffstream.Classifier(features=64, block=1)
    declared = rffstream.Classifier(classes=list(dict.fromkeys(labels[:200])), features=64,
                                    block=1)
    for x, label in zip(X[:200], labels[:200]):
        grown.learn_one(x, label)
        declared.learn_one(x, label)
    assert len(grown.classes_) == 3 and not grown.model_["has_model"]
    assert grown.model_["held"] == 200 and grown.metrics_["samples"] == 200
    grown.end_warm_up()
    declared.end_warm_up()
    order = [grown.classes_.tolist().index(c) for c in declared.classes_.tolist()]
    np.testing.assert_allclose(grown.decision_function(X[:50])[:, order],
                               declared.decision_function(X[:50]), atol=1e-9)


def test_new_labels_keep_every_sample_and_declared_classes_stay_a_contract():
    grown = rffstream.Classifier(features=16)
    # The first sample's city is missing: a later waiting one makes it text.
    grown.learn_one([1.0, None], "a")
    grown.learn_one([1.0, "paris", 3.0], "a")  # waits: found bad when the engine starts
    grown.learn_one([2.0, "paris"], "a")
    with pytest.raises(ValueError, match="x has 3 inputs"):
        grown.learn_one([3.0, "lyon"], "b")  # the others, this one too, are learned
    assert grown.classes_.tolist() == ["a", "b"] and grown._text_columns == [1]
    assert grown.metrics_["samples"] == 3
    with pytest.raises(ValueError, match="y is nan: a label"):
        grown.learn_one([1.0, "nice"], float("nan"))
    declared = rffstream.Classifier(features=16)
    declared.partial_fit(np.zeros((4, 2)), [0, 1, 0, 1], classes=[0, 1])
    with pytest.raises(ValueError, match="y is 5, not one of the classes"):
        declared.learn_one([0.0, 0.0], 5)


def test_several_targets_one_at_a_time(regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(standardize=0, gamma=0.5, ridge=0.01)
    for x, target in zip(X[:300], y[:300]):
        model.learn_one(x, [target, -target])
    prediction = model.predict_one(X[0])
    assert prediction.shape == (2,)
    assert prediction[0] == pytest.approx(-prediction[1], abs=1e-12)


def test_river_habits_need_no_scikit_learn():
    """With scikit-learn unimportable, the estimators still learn, predict
    and score (the stand-ins in rffstream/_compat.py)."""
    script = textwrap.dedent("""
        import sys

        class NoScikitLearn:
            def find_spec(self, name, path, target=None):
                if name == "sklearn" or name.startswith("sklearn."):
                    raise ImportError("scikit-learn is not installed")

        sys.meta_path.insert(0, NoScikitLearn())
        import numpy as np
        import rffstream

        rng = np.random.default_rng(0)
        X = rng.normal(size=(400, 3))
        model = rffstream.Regressor(features=32)
        for x, target in zip(X, X[:, 0]):
            model.predict_one(x)
            model.learn_one(x, target)
        assert model.score(X, X[:, 0]) > 0.9
        assert rffstream.Classifier()._estimator_type == "classifier"
        assert "sklearn" not in sys.modules
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=dict(os.environ), check=False)
    assert done.returncode == 0, done.stderr

