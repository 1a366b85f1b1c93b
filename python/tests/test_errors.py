"""Bad input raises ValueError (or the error Python users expect) naming
the row and column, and is never learned from."""

import pickle

import numpy as np
import pytest

import rffstream


@pytest.fixture
def model(regression_stream):
    X, y = regression_stream
    return rffstream.Regressor(block=1).fit(X[:400], y[:400])


def test_inf_and_nan_targets_are_named_and_never_learned(model):
    before = model.metrics_["samples"]
    X = np.zeros((3, 3))
    X[1, 2] = np.inf
    with pytest.raises(ValueError, match=r"X row 1, column 2\).*nothing was learned|infinity.*\(X row 1, column 2"):
        model.partial_fit(X, np.zeros(3))
    y = np.zeros(3)
    y[2] = np.nan
    with pytest.raises(ValueError, match=r"y contains NaN.*row 2"):
        model.partial_fit(np.zeros((3, 3)), y)
    with pytest.raises(ValueError, match=r"x\[1\] is inf"):
        model.learn_one([0.0, np.inf, 0.0], 1.0)
    with pytest.raises(ValueError, match=r"X row 0, column 0.*infinity|infinity.*X row 0, column 0"):
        model.predict(np.full((1, 3), np.inf))
    assert model.metrics_["samples"] == before


def test_shapes_and_types_are_named(model):
    with pytest.raises(ValueError, match="X has 2 features, but Regressor is expecting 3"):
        model.predict(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="X has 2 features"):
        model.partial_fit(np.zeros((4, 2)), np.zeros(4))
    with pytest.raises(ValueError, match="Reshape your data"):
        model.predict(np.zeros(3))
    with pytest.raises(ValueError, match="X has 4 samples but y has 3"):
        model.partial_fit(np.zeros((4, 3)), np.zeros(3))
    with pytest.raises(ValueError, match=r"X row 1, column 2: 'abc' is not a number"):
        model.predict(np.array([["1", "2", "3"], ["4", "5", "abc"]], dtype=object))
    with pytest.raises(TypeError, match="not a number"):
        model.predict([[1.0, 2.0, {"a": 1}]])
    with pytest.raises(ValueError, match="Complex data not supported"):
        model.predict(np.zeros((1, 3), dtype=complex))
    with pytest.raises(ValueError, match="x has 2 inputs, but the model is expecting 3"):
        model.predict_one([1.0, 2.0])
    with pytest.raises(ValueError, match=r"x\[1\] is not a number"):
        model.learn_one([1.0, "two", 3.0], 1.0)
    with pytest.raises(ValueError, match="y is not a number"):
        model.learn_one([1.0, 2.0, 3.0], "one")
    with pytest.raises(ValueError, match="x is a dict, but this model's inputs have no names"):
        model.predict_one({"a": 1.0, "b": 2.0, "c": 3.0})


def test_dict_inputs_are_checked_by_name():
    model = rffstream.Regressor(standardize=0, gamma=1.0, ridge=0.1)
    model.learn_one({"a": 1.0, "b": 2.0}, 3.0)
    with pytest.raises(ValueError, match="x has an input the model does not know: c"):
        model.learn_one({"a": 1.0, "c": 2.0}, 3.0)
    with pytest.raises(ValueError, match="x has an input the model does not know: c"):
        model.predict_one({"a": 1.0, "b": 2.0, "c": 2.0})
    # Order does not matter, names do.
    assert model.predict_one({"b": 2.0, "a": 1.0}) == model.predict_one([1.0, 2.0])


def test_classifier_labels_are_checked(class_stream):
    X, y = class_stream
    model = rffstream.Classifier(classes=3)
    with pytest.raises(ValueError, match="y row 2 is 7, not one of the classes"):
        model.partial_fit(X[:3], [0, 1, 7])
    with pytest.raises(ValueError, match="y is 7, not one of the classes"):
        rffstream.Classifier(classes=3).learn_one([0.0, 0.0], 7)  # declared: a contract
    with pytest.raises(ValueError, match="the first partial_fit or learn needs the classes"):
        rffstream.Classifier().partial_fit(X[:3], y[:3])
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        rffstream.Classifier().fit(X[:3], [0.5, 1.0, 2.0])
    with pytest.raises(ValueError, match="only one class is present"):
        rffstream.Classifier().fit(X[:3], [1, 1, 1])


def test_a_number_too_large_for_the_model_is_refused_alone(regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(block=1).fit(X[:400], y[:400])
    clean = rffstream.Regressor(block=1).fit(X[:400], y[:400])
    batch = X[400:405].copy()
    batch[2, 1] = np.finfo(np.float64).max  # its features overflow
    with pytest.raises(ValueError, match=r"sample 403: a number is too large.*every other sample"):
        model.partial_fit(batch, y[400:405])
    keep = [0, 1, 3, 4]
    clean.partial_fit(X[400:405][keep], y[400:405][keep])
    np.testing.assert_array_equal(model.predict(X), clean.predict(X))


def test_bad_options_name_themselves():
    with pytest.raises(ValueError, match="kernel"):
        rffstream.Regressor(kernel="gaussain").fit(np.zeros((3, 2)), np.zeros(3))
    with pytest.raises(ValueError, match="precision"):
        rffstream.Regressor(precision="float16").fit(np.zeros((3, 2)), np.zeros(3))
    with pytest.raises(MemoryError, match="MiB"):
        rffstream.Regressor(features=100000, max_model_memory_mb=10).fit(np.zeros((3, 2)),
                                                                         np.zeros(3))
    with pytest.raises(ValueError, match="block=0"):
        rffstream.Regressor(block=0).fit(np.zeros((3, 2)), np.zeros(3))


def test_unfitted_models(tmp_path):
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        rffstream.Regressor().predict(np.zeros((1, 2)))
    with pytest.raises(NotFittedError):
        rffstream.Regressor().save(tmp_path / "none.rff")


def test_bad_checkpoints_are_named(tmp_path, model):
    with pytest.raises(FileNotFoundError, match="missing.rff"):
        rffstream.load(tmp_path / "missing.rff")
    model.save(tmp_path / "m.rff")
    data = (tmp_path / "m.rff").read_bytes()
    (tmp_path / "cut.rff").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="cut.rff"):
        rffstream.load(tmp_path / "cut.rff")
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    (tmp_path / "flipped.rff").write_bytes(bytes(flipped))
    with pytest.raises(ValueError, match="flipped.rff.*(checksum|CRC)"):
        rffstream.load(tmp_path / "flipped.rff")
    state = model.__getstate__()
    state["_pickled_engine"] = state["_pickled_engine"][:100]
    with pytest.raises(ValueError, match="pickled model"):
        pickle.loads(pickle.dumps(model)).__setstate__(state)


def test_one_model_used_from_two_threads_stays_whole(regression_stream):
    import threading
    X, y = regression_stream
    model = rffstream.Regressor(block=16).fit(X[:300], y[:300])
    errors = []

    def learn_blocks():
        try:
            for _ in range(20):
                model.partial_fit(X[300:1300], y[300:1300])
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    thread = threading.Thread(target=learn_blocks)
    thread.start()
    for x, target in zip(X[1300:], y[1300:]):
        model.learn_one(x, target)
        model.predict_one(x)
        model.predict_with_variance(X[:5])
    thread.join()
    assert errors == []
    assert model.metrics_["samples"] == 300 + 20 * 1000 + 200
    assert np.isfinite(model.predict(X)).all()


def test_dict_keys_of_any_type(tmp_path):
    model = rffstream.Regressor(standardize=0, gamma=1.0, ridge=0.1)
    model.learn_one({0: 1.0, 1: 2.0}, 3.0)
    assert list(model.feature_names_in_) == ["0", "1"]
    prediction = model.predict_one({1: 2.0, 0: 1.0})
    assert prediction == model.predict_one([1.0, 2.0])
    with pytest.raises(ValueError, match="x has an input the model does not know: 1"):
        model.predict_one({0: 1.0, "1": 2.0})
    assert pickle.loads(pickle.dumps(model)).predict_one({0: 1.0, 1: 2.0}) == prediction
    with pytest.raises(ValueError, match="keys that name the same input"):
        rffstream.Regressor().learn_one({1: 1.0, "1": 2.0}, 3.0)


def test_option_types_and_files_raise_what_python_users_expect(tmp_path, model):
    for options in ({"features": 128.0}, {"features": "many"}, {"seed": -1},
                    {"intercept": "no"}, {"standardize": 10.5}):
        name = next(iter(options))
        with pytest.raises(ValueError, match=f"{name}=.*expected"):
            rffstream.Regressor(**options).fit(np.zeros((3, 2)), np.zeros(3))
    with pytest.raises(OSError, match="nonexistent"):
        model.save(tmp_path / "nonexistent" / "m.rff")
    with pytest.raises(ValueError, match="classes=100000: a classifier has at least 2 and at most 4096"):
        rffstream.Classifier(classes=100000).learn_one([0.0], 1)


def test_a_refused_sample_in_the_window_is_named_when_fit_ends_it(regression_stream):
    X, y = regression_stream
    X = X[:100].copy()
    X[5, 0] = np.finfo(np.float64).max
    with pytest.raises(ValueError, match="sample 6: an input is too large to standardize"):
        rffstream.Regressor().fit(X, y[:100])


def test_float32_and_scalar_edge_cases(regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(precision="float32").fit(X[:300], y[:300])
    with pytest.raises(ValueError, match="too large for the model"):
        model.predict_one([1e39, 0.0, 0.0])
    model.learn_one([0.1, 0.2, 0.3], np.array(0.5))  # a 0-d array is a number
    two = rffstream.Regressor(standardize=0, gamma=0.5, ridge=0.01).fit(X, np.column_stack([y, -y]))
    metrics = two.metrics_
    assert len(metrics["targets"]) == 2
    assert metrics["targets"][0]["rmse"] == metrics["rmse"]


def test_fit_forgets_the_names_of_earlier_samples(regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(standardize=0, gamma=0.5, ridge=0.01)
    model.learn_one({"a": 1.0, "b": 2.0}, 1.0)
    model.fit(X, y)
    assert model.n_features_in_ == 3
    assert not hasattr(model, "feature_names_in_")
