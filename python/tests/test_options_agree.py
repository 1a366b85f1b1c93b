"""The estimators' keyword arguments are the command line's model options,
with its defaults: a flag whose default changes, or a keyword without a
flag, fails here until the other side follows (or the difference is listed
below with its reason)."""

import inspect
import re

import rffstream

# Where Python's default says the same in its own terms, or differs on purpose.
SAME_IN_PYTHON_TERMS = {
    "lengthscale": (None, "0"),         # unset
    "lengthscales": (None, "empty"),    # unset
    "standardize": (None, "256"),       # the CLI's window, at least 80 lines a class
    "block": (64, "1"),                 # fit and partial_fit take arrays: rows learned together
}


def flag_defaults(app):
    """Every flag of `rffstream --help` with the default it prints."""
    text = app("--help")
    return dict(re.findall(r"^\s+--(\w+) \(default ([^)]*)\)$", text, flags=re.M))


def python_spelling(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def test_every_keyword_is_a_flag_with_the_same_default(app):
    flags = flag_defaults(app)
    assert "features" in flags, "the help text no longer shows the defaults"
    for estimator in (rffstream.Regressor, rffstream.Classifier):
        for name, parameter in inspect.signature(estimator.__init__).parameters.items():
            if name in ("self", "classes"):  # classes: --classes=K, K from the data
                continue
            assert name in flags, f"{estimator.__name__}({name}=) has no flag --{name}"
            if name in SAME_IN_PYTHON_TERMS:
                assert (parameter.default, flags[name]) == SAME_IN_PYTHON_TERMS[name], name
            else:
                assert python_spelling(parameter.default) == flags[name], (
                    f"{estimator.__name__}({name}={parameter.default!r}) but --{name} "
                    f"defaults to {flags[name]}")
