"""Text columns in Python: the same encoding as the command line's, so a
model moves between the two; missing values in them set no direction."""

import numpy as np
import pytest

import rffstream
from conftest import write_csv  # noqa: F401  (the fixtures' module)


def houses(rows=600, seed=3):
    rng = np.random.default_rng(seed)
    cities = np.array(["paris", "lyon", "nice", "lille"])
    factor = {"paris": 1.6, "lyon": 1.0, "nice": 1.3, "lille": 0.8}
    sqft = rng.uniform(30, 200, rows)
    city = cities[rng.integers(0, 4, rows)]
    age = rng.uniform(0, 80, rows)
    price = np.array([factor[c] for c in city]) * 3 * sqft - age
    X = np.empty((rows, 3), dtype=object)
    X[:, 0], X[:, 1], X[:, 2] = sqft, city, age
    X[::13, 2] = None  # missing ages
    return X, price


def check_cli_predicts_as_python(app, model, path, csv_text, rows):
    """The model saved at `path` predicts the CSV lines `csv_text` in the
    command line as Python predicts `rows`."""
    model.save(path)
    new = path.parent / "new.csv"
    new.write_text(csv_text)
    answers = [float(v) for v in app("predict", f"--load={path}", stdin=new).split()]
    np.testing.assert_allclose(answers, model.predict(rows), rtol=1e-9)


def test_text_columns_are_learned_and_the_cli_reads_the_model(app, tmp_path):
    X, y = houses()
    model = rffstream.Regressor(features=64).fit(X, y)
    assert model.n_features_in_ == 3
    assert model.score(X, y) > 0.9
    without_city = rffstream.Regressor(features=64).fit(X[:, [0, 2]].astype(float), y)
    assert model.score(X, y) > without_city.score(X[:, [0, 2]].astype(float), y)
    # The checkpoint holds the text column: the command line reads the same rows.
    path = tmp_path / "houses.rff"
    rows = np.array([[120.0, "paris", 10.0], [80.0, "marseille", None]], dtype=object)
    check_cli_predicts_as_python(app, model, path, "120,paris,10\n80,marseille,\n", rows)
    loaded = rffstream.load(path)
    np.testing.assert_allclose(loaded.predict(rows), model.predict(rows), rtol=1e-12)


def test_one_sample_calls_take_text_values():
    X, y = houses(rows=400)
    names = ["sqft", "city", "age"]
    streamed = rffstream.Regressor(features=32, block=1)
    answers = []
    for i, (row, target) in enumerate(zip(X, y)):
        # The first dict names the inputs (its age is None: missing); later
        # ones leave a missing age out.
        sample = {name: value for name, value in zip(names, row) if value is not None or i == 0}
        answers.append(streamed.predict_one(sample))
        streamed.learn_one(sample, target)
    assert streamed.n_features_in_ == 3 and list(streamed.feature_names_in_) == names
    # The same stream as rows: the same model, and after the window the same
    # a-priori answers (within it predict_one answers the targets' mean).
    rows = rffstream.Regressor(features=32, block=1)
    priors = rows.learn(X, y)
    np.testing.assert_allclose(answers[256:], priors[256:], rtol=1e-12)
    new = np.array([[120.0, "paris", 10.0], [80.0, "marseille", None]], dtype=object)
    np.testing.assert_allclose(streamed.predict(new), rows.predict(new), rtol=1e-12)
    assert streamed.predict_one({"sqft": 120.0, "city": "paris", "age": 10.0}) == \
        pytest.approx(rows.predict(new[:1])[0], rel=1e-12)
    assert streamed.predict_one([80.0, "marseille", None]) == \
        pytest.approx(rows.predict(new[1:])[0], rel=1e-12)
    with pytest.raises(ValueError, match="x has an input the model does not know: town"):
        streamed.predict_one({"sqft": 1.0, "town": "paris"})
    with pytest.raises(ValueError, match="x has 2 inputs, but the model is expecting 3"):
        streamed.predict_one([100.0, "paris"])
    with pytest.raises(ValueError, match="X has 2 features, but Regressor is expecting 3"):
        rows.predict(X[:, :2])


def test_a_classifier_learns_text_values_one_at_a_time():
    X, _ = houses(rows=300)
    labels = np.where(X[:, 1] == "paris", "dear", "cheap")
    model = rffstream.Classifier(features=32)
    for row, label in zip(X, labels):
        model.learn_one(list(row), label)
    assert model.predict_one([100.0, "paris", 20.0]) == "dear"
    assert set(model.predict_proba_one([100.0, "lyon", 20.0])) == {"dear", "cheap"}


def test_a_dataframe_with_text_and_missing_values(app, tmp_path):
    pd = pytest.importorskip("pandas")  # not a dependency: checked where it is installed
    X, y = houses(rows=400)
    frame = pd.DataFrame({"sqft": X[:, 0].astype(float), "city": X[:, 1],
                          "age": [np.nan if v is None else v for v in X[:, 2]]})
    model = rffstream.Regressor(features=64).fit(frame, y)
    assert list(model.feature_names_in_) == ["sqft", "city", "age"]
    np.testing.assert_allclose(model.predict(frame.head(20)), model.predict(X[:20]), rtol=1e-12)
    # The model's columns are the frame's: the command line reads a CSV with that header.
    rows = np.array([[120.0, "paris", 10.0], [80.0, "lyon", None]], dtype=object)
    check_cli_predicts_as_python(app, model, tmp_path / "frame.rff",
                                 "sqft,city,age\n120,paris,10\n80,lyon,\n", rows)


def test_a_dataframe_names_the_model_only_with_a_named_target(app, tmp_path):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"sqft": rng.uniform(30, 200, 300), "age": rng.uniform(0, 80, 300)})
    price = pd.Series(2 * frame.sqft - frame.age, name="price")
    named = rffstream.Regressor(features=32).fit(frame, price)
    assert named.model_["column_names"] == ["sqft", "age", "price"]
    path = tmp_path / "named.rff"
    named.save(path)
    csv = tmp_path / "more.csv"
    csv.write_text("sqft,age,price\n100,10,190\n")
    assert len(app("predict", f"--load={path}", stdin=csv).split()) == 1
    # An unnamed y: the inputs have names in Python, the model no header.
    unnamed = rffstream.Regressor(features=32).fit(frame, price.to_numpy())
    assert list(unnamed.feature_names_in_) == ["sqft", "age"]
    assert unnamed.model_["column_names"] == []
    with pytest.raises(ValueError, match="feature names should match"):
        named.predict(frame[["age", "sqft"]])
