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


def test_text_columns_are_learned_and_the_cli_reads_the_model(app, tmp_path):
    X, y = houses()
    model = rffstream.Regressor(features=64).fit(X, y)
    assert model.n_features_in_ == 3
    assert model.score(X, y) > 0.9
    without_city = rffstream.Regressor(features=64).fit(X[:, [0, 2]].astype(float), y)
    assert model.score(X, y) > without_city.score(X[:, [0, 2]].astype(float), y)
    # The checkpoint holds the text column: the command line reads the same rows.
    path = tmp_path / "houses.rff"
    model.save(path)
    new = tmp_path / "new.csv"
    new.write_text("120,paris,10\n80,marseille,\n")
    answers = [float(v) for v in app("predict", f"--load={path}", stdin=new).split()]
    rows = np.array([[120.0, "paris", 10.0], [80.0, "marseille", None]], dtype=object)
    np.testing.assert_allclose(answers, model.predict(rows), rtol=1e-9)
    loaded = rffstream.load(path)
    np.testing.assert_allclose(loaded.predict(rows), model.predict(rows), rtol=1e-12)


def test_a_text_column_needs_rows_for_one_sample_calls():
    X, y = houses(rows=300)
    model = rffstream.Regressor(features=32).fit(X, y)
    with pytest.raises(ValueError, match="text columns"):
        model.predict_one([100.0, "paris", 5.0])
    with pytest.raises(ValueError, match="X has 2 features, but Regressor is expecting 3"):
        model.predict(X[:, :2])
