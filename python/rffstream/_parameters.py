"""The estimators' keyword arguments: the command line's model options
(`rffstream learn --help`), with its defaults, as the engine reads them and
as help() shows them."""

# The command line's model options and defaults. An option left at its
# default is not passed on, so the engine makes the command line's choice
# (the warm-up window of a classifier, say, grows with its classes).
MODEL_DEFAULTS = {
    "features": 256,
    "kernel": "gaussian",
    "gamma": "auto",
    "ridge": "auto",
    "forget": "auto",
    "map": "phase",
    "sampler": "iid",
    "precision": "float32",
    "seed": 1,
    "lengthscale": None,
    "lengthscales": None,
    "intercept": True,
    "standardize": None,  # the command line's: 256 samples, at least 80 a class for a classifier
    "loss": "squared",
    "max_model_memory_mb": 0,
}

# Labelled rows learned together (float64: one rank-k update): the command
# line's --block for files.
DEFAULT_BLOCK = 64


def option_text(name, value):
    """A model option as the engine (the command line) reads it; numpy's
    numbers (np.arange's in a grid search, say) as Python's."""
    if hasattr(value, "dtype") and getattr(value, "ndim", None) == 0:
        value = value.item()
    if name in ("gamma", "ridge", "forget"):
        return value if isinstance(value, str) else repr(float(value))
    if name == "lengthscales":
        if isinstance(value, str):
            return value
        return ",".join(repr(float(v)) for v in value)
    return value


PARAMETERS = """
    Parameters
    ----------
    features : int, default 256
        Random Fourier features D (the model is D + 1 weights and a
        (D + 1)² covariance).
    kernel : str, default "gaussian"
        gaussian, laplacian, cauchy, matern12, matern32, matern52, or
        "auto" (chosen on the warm-up window).
    gamma : float or "auto", default "auto"
        The kernel's bandwidth on standardized inputs; "auto": chosen on the
        warm-up window by exact leave-one-out.
    ridge : float or "auto", default "auto"
        The ridge λ; "auto": chosen on the warm-up window, and again (forget
        1 or "auto") by generalized cross-validation at 4, 16, 64, ...
        times the window (docs/ridge_follows_the_stream.md). ``fit`` takes,
        for a regressor, the largest ridge within one standard error.
    forget : float or "auto", default "auto"
        The forgetting factor β in (0, 1]; "auto": β = 1, and the model
        starts over from its last 64 samples when the stream drifts
        (``drifts_``).
    map : str, default "phase"
        "phase" (cos(wx + b)) or "pair" (cos and sin of wx).
    sampler : str, default "iid"
        How the frequencies are drawn: "iid", "orthogonal" or "qmc"
        (randomized quasi-Monte Carlo; both for the gaussian kernel, lower
        variance), or "leverage" (selected on the warm-up window).
    precision : str, default "float32"
        "float32" (a square-root engine: half the memory traffic, faster per
        sample, scores as float64 does at the defaults) or "float64" (for a
        ridge given far below what the data supports, or sums exact to 1e-9).
    seed : int, default 1
        The frequencies' seed: the same seed and settings give the same model.
    lengthscale, lengthscales : float or list of floats, default None
        Instead of gamma: one lengthscale, or one per input (ARD).
    intercept : bool, default True
        A constant feature, the model's bias.
    standardize : int or None, default None
        The warm-up window's samples (None: 256, at least 80 a class; ``fit``:
        all of X up to 2048 rows); 0: no standardization and no window.
    loss : str, default "squared"
        "squared" (recursive least squares) or, for a classifier, "hinge"
        (AROW, a model per class).
    max_model_memory_mb : int, default 0
        Refuse a model larger than this (0: half the physical memory).
    block : int, default 64
        Rows handed to the engine together by ``fit``, ``partial_fit`` and
        ``learn``: one rank-k update in float64 (the same to its rounding),
        one row after another in float32, the same bits whether or not it
        sweeps the factor once for the block (from about 724 features:
        faster at a few thousand, for a second copy of the factor in
        memory); from 1024 rows, in bulk: one QR of the information factor
        at matrix-product speed, the model the same to rounding, each row
        predicted with the model before its block. One-sample calls learn
        one at a time.
"""
