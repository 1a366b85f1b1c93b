"""A model learned in Python is the model `rffstream learn` learns: same
a-priori predictions on the same stream, checkpoints that go both ways."""

import numpy as np
import pytest

import rffstream
from conftest import write_csv


def cli_predictions(app, csv, *flags):
    out = app("learn", "--quiet", "--predictions=-", *flags, stdin=csv)
    return np.array([[float(v) for v in line.split(",")] for line in out.splitlines()])


@pytest.mark.parametrize("block", [1, 64])
@pytest.mark.parametrize("options,flags", [
    ({}, []),  # every automatic choice: standardization, gamma, ridge
    ({"kernel": "laplacian", "features": 128, "gamma": 0.3, "ridge": 1e-3, "standardize": 0},
     ["--kernel=laplacian", "--features=128", "--gamma=0.3", "--ridge=0.001", "--standardize=0"]),
    ({"forget": 0.995, "map": "pair", "seed": 7},
     ["--forget=0.995", "--map=pair", "--seed=7"]),
])
def test_regression_priors_equal_the_cli(app, tmp_path, regression_stream, block, options, flags):
    X, y = regression_stream
    csv = write_csv(tmp_path / "stream.csv", X, y)
    priors = rffstream.Regressor(block=block, **options).learn(X, y)
    expected = cli_predictions(app, csv, f"--block={block}", *flags)[:, 0]
    assert priors.shape == expected.shape
    np.testing.assert_allclose(priors, expected, rtol=0, atol=1e-12)


def test_several_targets_equal_the_cli(app, tmp_path, regression_stream):
    X, y = regression_stream
    Y = np.column_stack([y, X[:, 0] * X[:, 2]])
    csv = write_csv(tmp_path / "stream.csv", X, Y)
    priors = rffstream.Regressor(block=1).learn(X, Y)
    expected = cli_predictions(app, csv, "--targets=3,4")
    np.testing.assert_allclose(priors, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("loss", ["squared", "hinge"])
def test_classifier_priors_equal_the_cli(app, tmp_path, class_stream, loss):
    X, y = class_stream
    csv = write_csv(tmp_path / "stream.csv", X, y)
    priors = rffstream.Classifier(classes=3, loss=loss, block=1).learn(X, y)
    expected = cli_predictions(app, csv, "--classes=3", f"--loss={loss}")[:, 0]
    np.testing.assert_array_equal(priors.astype(float), expected)


def test_one_sample_at_a_time_equals_the_cli(app, tmp_path, regression_stream):
    X, y = regression_stream
    csv = write_csv(tmp_path / "stream.csv", X, y)
    model = rffstream.Regressor()
    for x, target in zip(X, y):
        model.learn_one(list(x), target)
    expected = rffstream.Regressor(block=1).learn(X, y)
    assert model.metrics_["samples"] == len(y)
    cli = app("learn", "--quiet", "--save", tmp_path / "cli.rff", stdin=csv)
    assert cli == ""
    loaded = rffstream.load(tmp_path / "cli.rff")
    np.testing.assert_allclose(model.predict(X), loaded.predict(X), rtol=0, atol=1e-12)
    rmse = np.sqrt(np.mean((expected - y) ** 2))
    assert model.metrics_["rmse"] == pytest.approx(rmse, rel=1e-12)


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_cli_checkpoint_loads_in_python(app, tmp_path, regression_stream, precision):
    X, y = regression_stream
    csv = write_csv(tmp_path / "stream.csv", X[:1000], y[:1000])
    test = write_csv(tmp_path / "test.csv", X[1000:], y[1000:])
    app("learn", "--quiet", f"--precision={precision}", "--save", tmp_path / "m.rff", stdin=csv)
    model = rffstream.load(tmp_path / "m.rff", block=1)
    assert model.precision == precision
    assert model.metrics_["samples"] == 1000
    expected = cli_predictions(app, test, "--load", tmp_path / "m.rff", "--block=1")[:, 0]
    # The CLI learns the test lines after predicting each: the first one is
    # a prediction of the loaded model alone.
    first = model.predict(X[1000:1001])[0]
    tolerance = 1e-12 if precision == "float64" else 1e-6  # the same arithmetic: 0 measured
    assert first == pytest.approx(expected[0], abs=tolerance)
    priors = model.learn(X[1000:], y[1000:])
    np.testing.assert_allclose(priors, expected, rtol=0, atol=tolerance)


def test_python_checkpoint_goes_on_in_the_cli(app, tmp_path, class_stream):
    X, y = class_stream
    model = rffstream.Classifier(classes=3, block=1)
    model.learn(X[:700], y[:700])
    model.save(tmp_path / "py.rff")
    rest = write_csv(tmp_path / "rest.csv", X[700:], y[700:])
    cli = cli_predictions(app, rest, "--load", tmp_path / "py.rff", "--classes=3")[:, 0]
    python = model.learn(X[700:], y[700:])
    np.testing.assert_array_equal(python.astype(float), cli)


def test_named_inputs_make_a_header_the_cli_reads(app, tmp_path):
    rng = np.random.default_rng(1)
    model = rffstream.Regressor(gamma=0.5, ridge=0.01, standardize=0, block=1)
    rows = rng.normal(size=(300, 2))
    for a, b in rows:
        model.learn_one({"speed": a, "load": b}, a * b)
    model.save(tmp_path / "named.rff")
    csv = tmp_path / "named.csv"
    csv.write_text("speed,load,y\n0.5,0.25,0.125\n")
    out = app("learn", "--quiet", "--header", "--predictions=-", "--load", tmp_path / "named.rff",
              stdin=csv)
    assert float(out) == pytest.approx(model.predict_one({"load": 0.25, "speed": 0.5}), abs=1e-12)


def test_a_classifier_window_given_or_left_to_the_classes(app, tmp_path):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(900, 2))
    y = (np.floor((X[:, 0] + 3) * 10 / 6).clip(0, 9)).astype(int)
    csv = write_csv(tmp_path / "k10.csv", X, y)
    assert rffstream.Classifier(classes=10).partial_fit(X[:10], y[:10]).model_["window"] == 800
    given = rffstream.Classifier(classes=10, standardize=256, block=1)
    priors = given.learn(X, y)
    assert given.model_["window"] == 256
    expected = cli_predictions(app, csv, "--classes=10", "--standardize=256")[:, 0]
    np.testing.assert_array_equal(priors.astype(float), expected)


def test_a_loaded_model_describes_itself(app, tmp_path, regression_stream):
    X, y = regression_stream
    csv = write_csv(tmp_path / "s.csv", X, y)
    app("learn", "--quiet", "--seed=7", "--map=pair", "--sampler=orthogonal", "--nointercept",
        "--gamma=0.3", "--ridge=0.001", "--save", tmp_path / "m.rff", stdin=csv)
    model = rffstream.load(tmp_path / "m.rff")
    params = model.get_params()
    assert (params["seed"], params["map"], params["sampler"], params["intercept"]) == (
        7, "pair", "orthogonal", False)
    assert (params["gamma"], params["ridge"]) == (0.3, 0.001)
    from sklearn.base import clone
    # fit chooses on all of X unless the window is given: the CLI's is 256.
    refit = clone(model).set_params(block=1, standardize=256).fit(X, y)
    np.testing.assert_allclose(refit.predict(X), model.predict(X), rtol=0, atol=1e-9)
