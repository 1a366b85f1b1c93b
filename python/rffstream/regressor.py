"""rffstream.Regressor: kernel ridge regression on random Fourier features,
learned online by exact recursive least squares."""

import numpy as np

from . import _arrays
from ._compat import RegressorMixin
from ._estimator import StreamingEstimator
from ._parameters import DEFAULT_BLOCK, PARAMETERS


def _target_names(targets):
    """The targets' column names: y, or y0, y1, ..."""
    return ["y"] if targets == 1 else [f"y{t}" for t in range(targets)]


class Regressor(RegressorMixin, StreamingEstimator):
    __doc__ = """A streaming kernel regressor with the options of `rffstream learn`.

    River habits: ``learn_one(x, y)``, ``predict_one(x)`` with x a dict of
    named inputs or a sequence. scikit-learn habits: ``fit``,
    ``partial_fit``, ``predict``, ``score`` (R²), ``get_params`` /
    ``set_params``. ``learn(X, y)`` returns the prediction made for each
    sample before learning it (progressive validation). Predictions stay
    within the range of the targets learned, widened by half its width on
    each side (``clip_predictions``, the command line's
    ``--clip_predictions``).

    gamma, ridge: a number or "auto" (chosen on the warm-up window, the
    first `standardize` samples, 256 by default, by exact leave-one-out, as
    the command line does; standardize=0: none). Until that window is full no model exists: ``predict_one``
    answers the mean of the targets so far; ``predict``, ``save`` and
    ``end_warm_up()`` build the model from the samples held. y may have
    several columns (targets learned together).
    """ + PARAMETERS + """    clip_predictions : bool, default True
        Predictions within the range of the targets learned, widened by half
        its width on each side (False: the model's raw answers).
"""

    _estimator_type = "regressor"
    clip_predictions = True  # what a pickle made before the keyword existed did

    def __init__(self, features=256, kernel="gaussian", gamma="auto", ridge="auto", forget="auto",
                 map="phase", sampler="iid", precision="float32", seed=1, lengthscale=None,
                 lengthscales=None, intercept=True, standardize=None, loss="squared",
                 max_model_memory_mb=0, block=DEFAULT_BLOCK, clip_predictions=True):
        self._keep_parameters(locals())

    # -- River -------------------------------------------------------------

    def learn_one(self, x, y):
        """Learns one sample: x a dict of named inputs or a sequence, y a
        number (or one per target)."""
        engine = self.__dict__.get("_engine")
        if engine is None:
            targets = 1 if np.ndim(y) == 0 else len(y)
            self._start_from_dict(x, targets, 0, _target_names(targets))
            engine = self._engine
        notes = engine.learn_one(self._one(x), y)
        if notes:
            self._show_notes(notes)

    def predict_one(self, x):
        """The prediction for one sample (a float; an array for several
        targets); 0 before anything was learned."""
        engine = self.__dict__.get("_engine")
        if engine is None:
            return 0.0
        if self._num_targets == 1:
            return engine.predict_one(self._one(x))
        return engine.predict_outputs_one(self._one(x))

    # -- scikit-learn ------------------------------------------------------

    def fit(self, X, y):
        """Learns X, y from scratch (one pass, in order) and builds the model;
        the settings are chosen on all of X (up to 2048 rows)."""
        self._reset()
        frame, named_y = X, y
        X = self._samples(X)
        y = _arrays.targets(y, X.shape[0])
        targets = 1 if y.ndim == 1 else y.shape[1]
        self._start(X.shape[1], targets, 0, *self._frame_names(frame, named_y),
                    y_columns=y.ndim == 2, fit_rows=X.shape[0])
        self.learn(X, y)
        self._model_engine()
        return self

    def partial_fit(self, X, y):
        """Learns X, y in order, after what was learned before."""
        self.learn(X, y)
        return self

    def learn(self, X, y):
        """Learns X, y in order; returns each sample's a-priori prediction
        (in the warm-up window, the provisional model's)."""
        frame, named_y = X, y
        X = self._samples(X)
        y = _arrays.targets(y, X.shape[0])
        targets = 1 if y.ndim == 1 else y.shape[1]
        if "_engine" not in self.__dict__:
            self._start(X.shape[1], targets, 0, *self._frame_names(frame, named_y),
                        y_columns=y.ndim == 2)
        answers = self._learn_rows(X, y.reshape(X.shape[0], targets))
        return answers if self._y_columns else answers[:, 0]

    def predict(self, X):
        engine, X = self._features_for_prediction(X)
        outputs = engine.predict(X)
        return outputs if self._y_columns else outputs[:, 0]

    def predict_with_variance(self, X):
        """(predictions, variances): σ²(1 + zᵀPz), the predictive variance
        of a new observation (one target only)."""
        engine, X = self._features_for_prediction(X)
        return engine.predict_with_variance(X)

    def score(self, X, y, sample_weight=None):
        """R² of the predictions (averaged over targets; weighted by
        sample_weight when given, as scikit-learn's r2_score)."""
        predictions = self.predict(X)
        y = _arrays.targets(y, predictions.shape[0]).reshape(predictions.shape)
        weights = (np.ones(len(y)) if sample_weight is None
                   else np.asarray(sample_weight, dtype=float).ravel())
        if weights.shape != (len(y),):
            raise ValueError(f"sample_weight has {weights.size} values for {len(y)} samples")
        weights = weights.reshape((-1,) + (1,) * (y.ndim - 1))
        residual = (weights * (y - predictions) ** 2).sum(axis=0)
        mean = (weights * y).sum(axis=0) / weights.sum()
        total = (weights * (y - mean) ** 2).sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            r2 = np.where(total > 0, 1 - residual / total, np.where(residual > 0, 0.0, 1.0))
        return float(np.mean(r2))

    def _more_tags(self):
        return {"multioutput": True}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags
