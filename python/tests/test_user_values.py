"""Values users pass that the estimators once took wrongly: numpy's numbers
as options (a grid over np.arange), a missing label, classes that change
between partial_fit calls, labels whose text is not their number's,
pandas' missing value, and one label seen so far."""

import pickle

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV

import rffstream


def test_numpy_numbers_are_options(regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(features=np.int64(64), seed=np.int32(3),
                                intercept=np.bool_(True), standardize=np.int64(100))
    plain = rffstream.Regressor(features=64, seed=3, standardize=100)
    np.testing.assert_array_equal(model.fit(X, y).predict(X[:20]), plain.fit(X, y).predict(X[:20]))
    search = GridSearchCV(rffstream.Regressor(), {"features": np.arange(32, 97, 32)}, cv=2)
    assert search.fit(X[:400], y[:400]).best_params_["features"] in (32, 64, 96)


@pytest.mark.parametrize("missing", [None, np.float32("nan"), np.nan])
def test_a_missing_label_is_refused_and_adds_no_class(class_stream, missing):
    X, y = class_stream
    model = rffstream.Classifier().fit(X[:300], y[:300])
    classes = model.classes_.tolist()
    with pytest.raises(ValueError, match="a label, not a missing value"):
        model.learn_one(X[300], missing)
    assert model.classes_.tolist() == classes


def test_partial_fit_refuses_other_classes(class_stream):
    X, y = class_stream
    model = rffstream.Classifier().partial_fit(X[:300], y[:300], classes=[0, 1, 2])
    model.partial_fit(X[300:400], y[300:400], classes=[0, 1, 2])  # the same: fine
    with pytest.raises(ValueError, match="not the classes of the first call"):
        model.partial_fit(X[400:500], y[400:500], classes=np.arange(4))


def test_labels_keep_their_text_through_a_checkpoint(class_stream, tmp_path):
    X, y = class_stream
    labels = np.array(["007", "7", "x"])[y]
    model = rffstream.Classifier().fit(X[:400], labels[:400])
    model.save(tmp_path / "m.rff")
    loaded = rffstream.load(tmp_path / "m.rff")
    assert loaded.classes_.tolist() == ["007", "7", "x"]
    np.testing.assert_array_equal(loaded.predict(X[400:500]), model.predict(X[400:500]))
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(model)).predict(X[400:500]),
                                  model.predict(X[400:500]))


def test_text_labels_that_read_as_numbers_stay_text(class_stream, tmp_path):
    X, y = class_stream
    labels = np.array(["1", "2", "3"])[y]
    model = rffstream.Classifier().fit(X[:400], labels[:400])
    model.save(tmp_path / "m.rff")
    loaded = rffstream.load(tmp_path / "m.rff")
    assert loaded.classes_.tolist() == ["1", "2", "3"]
    assert loaded.score(X[400:600], labels[400:600]) == model.score(X[400:600], labels[400:600])
    numbers = rffstream.Classifier().fit(X[:400], y[:400] + 10)
    numbers.save(tmp_path / "n.rff")
    assert rffstream.load(tmp_path / "n.rff").classes_.tolist() == [10, 11, 12]


def test_pandas_missing_value_is_a_missing_input(regression_stream):
    pd = pytest.importorskip("pandas")
    X, y = regression_stream
    frame = pd.DataFrame(X[:300], columns=["a", "b", "c"]).astype("Float64")
    frame.iloc[5, 1] = pd.NA
    with_na = rffstream.Regressor(features=32).fit(frame, y[:300])
    plain = X[:300].copy()
    plain[5, 1] = np.nan
    np.testing.assert_allclose(with_na.predict(X[:10]),
                               rffstream.Regressor(features=32).fit(plain, y[:300]).predict(X[:10]))


def test_one_label_so_far_predicts_it_everywhere(class_stream):
    X, _ = class_stream
    model = rffstream.Classifier()
    for x in X[:10]:
        model.learn_one(x, "a")
    assert model.predict_one(X[10]) == "a"
    assert model.predict(X[10:15]).tolist() == ["a"] * 5


def test_predict_one_in_the_window_answers_as_the_window_is_scored(regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(features=64)
    loop = []
    for x, target in zip(X[:200], y[:200]):  # inside the 256 samples' window
        loop.append(model.predict_one(x))
        model.learn_one(x, target)
    assert "_engine" in model.__dict__ and not model._engine.has_model
    batch = rffstream.Regressor(features=64).learn(X[:200], y[:200])
    np.testing.assert_allclose(loop, batch, rtol=1e-6, atol=1e-9)
