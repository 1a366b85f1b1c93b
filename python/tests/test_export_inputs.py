"""`rffstream export` documents how x is made from a line, well enough to
reproduce the CLI's predictions without rffstream: the text columns' hashed
buckets and the missing values, computed here from the JSON's own rules."""

import json
import math

import numpy as np
import pytest


def fnv1a64(text):
    value = 14695981039346656037
    for byte in text.encode():
        value ^= byte
        value = (value * 1099511628211) % (1 << 64)
    return value


def input_vector(model, fields):
    """x for a line's fields, by the rules "input" states."""
    rules = model["input"]
    buckets = rules["category_buckets"]
    x = []
    missing = {"", "na", "n/a", "nan", "null", "none", "?"}
    for column, field in enumerate(fields):
        if column in rules["target_columns"] or column in rules["ignored_columns"]:
            continue
        text = field.strip()
        if column in rules["categorical_columns"]:
            values = [0.0] * buckets
            if text.lower() not in missing:
                h = fnv1a64(text)
                first, second = h % buckets, (h >> 32) % buckets
                if second == first:
                    second = (first + 1) % buckets
                values[first] = values[second] = math.sqrt(0.5)
            x.extend(values)
        elif text.lower() in missing:
            x.append(model["input_offset"][len(x)] if model["input_offset"] else 0.0)
        else:
            x.append(float(text))
    return np.array(x)


def prediction(model, x):
    frequencies = np.array(model["frequencies"])
    phases = np.array(model["phases"])
    features = model["scale"] * np.cos(frequencies @ x + phases)
    return model["intercept_weight"] + np.dot(model["weights"], features)


# float32 maps and sums in float32 what the JSON states in double: its
# predictions agree to its own digits (about 10⁻⁷ relative, measured).
@pytest.mark.parametrize("precision,tolerance", [("float64", 1e-9), ("float32", 1e-5)])
def test_export_reproduces_predictions_with_text_and_missing_values(app, tmp_path, precision,
                                                                     tolerance):
    rng = np.random.default_rng(11)
    cities = ["paris", "lyon", "nice", "lille"]
    lines = ["id,sqft,city,age,price"]
    for i in range(400):
        sqft, city, age = rng.uniform(30, 200), cities[i % 4], rng.uniform(0, 80)
        price = (1 + 0.3 * (i % 4)) * 3 * sqft - age
        age_text = "NA" if i % 17 == 0 else f"{age:.1f}"
        lines.append(f"{i},{sqft:.2f},{city},{age_text},{price:.3f}")
    data = tmp_path / "houses.csv"
    data.write_text("\n".join(lines) + "\n")
    model_path = tmp_path / "houses.rff"
    app("learn", "--quiet", "--header", "--target=price", "--ignore=id", "--features=64",
        f"--precision={precision}", f"--save={model_path}", stdin=data)
    model = json.loads(app("export", f"--load={model_path}"))
    assert model["input"]["categorical_columns"] == [2]
    new = tmp_path / "new.csv"
    rows = [["1", "120", "paris", "10"], ["2", "80", "marseille", ""], ["3", "", "lille", "?"]]
    new.write_text("id,sqft,city,age\n" + "\n".join(",".join(row) for row in rows) + "\n")
    answers = [float(line) for line in app("predict", f"--load={model_path}", stdin=new).split()]
    expected = [prediction(model, input_vector(model, row + [""])) for row in rows]
    np.testing.assert_allclose(answers, expected, rtol=tolerance, atol=tolerance)
