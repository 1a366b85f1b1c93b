"""A classifier's labels: arrays that keep each label's type, the texts a
checkpoint keeps them as, and predict_proba's rule for one-vs-rest outputs."""

import numpy as np


def probabilities(outputs):
    """predict_proba's rule for rows of one-vs-rest outputs."""
    estimates = np.maximum((outputs + 1.0) / 2.0, 0.0)
    totals = estimates.sum(axis=1, keepdims=True)
    shifted = np.exp(outputs - outputs.max(axis=1, keepdims=True))
    softmax = shifted / shifted.sum(axis=1, keepdims=True)
    safe_totals = np.where(totals > 0, totals, 1.0)
    return np.where(totals > 0, estimates / safe_totals, softmax)


def label_array(labels):
    """Labels as an array that keeps each one's type (numpy would turn 1
    and "cat" together into text)."""
    array = np.asarray(labels)
    if array.dtype.kind in "US" and not all(isinstance(label, str) for label in labels):
        array = np.empty(len(labels), dtype=object)
        array[:] = labels
    return array


def labels_from_texts(texts):
    """The labels a checkpoint keeps as text, as numbers again when they
    all read as integers (or as numbers) that print as the text did:
    labels 10 and 20 come back as 10 and 20, "cat" and "dog" and "007"
    as text."""
    for kind in (int, float):
        try:
            numbers = [kind(text) for text in texts]
        except ValueError:
            continue
        if [str(number) for number in numbers] == list(texts):
            return np.asarray(numbers)
    if set(texts) <= {"True", "False"}:
        return np.asarray([text == "True" for text in texts])
    return np.asarray(texts, dtype=object)
