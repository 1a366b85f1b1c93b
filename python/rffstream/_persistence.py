"""Checkpoints and pickles of an estimator: a checkpoint in the command
line's format (`rffstream learn --load` goes on from it), a loaded model's
options becoming the estimator's, and pickles that hold the model's bytes,
or the warm-up window's samples before there is a model."""

import numpy as np

from . import _engine, _text


class Persistence:
    """StreamingEstimator's checkpoints and pickles (a mixin: the engine
    and the options are the estimator's)."""

    def save(self, path):
        """Writes the model as a checkpoint of the command line
        (`rffstream learn --load=path` goes on from it)."""
        self._model_engine().save(str(path))

    def _adopt(self, engine):
        """Takes a loaded model, its options becoming this estimator's (so
        that get_params and clone describe it)."""
        self._engine = engine
        description = engine.description()
        for name in ("features", "kernel", "gamma", "ridge", "forget", "loss", "map", "sampler",
                     "seed", "intercept"):
            setattr(self, name, description[name])
        # 256 is also what the command line records without --standardize.
        self.standardize = None if description["standardize"] == 256 else description["standardize"]
        if description["lengthscales"]:
            self.lengthscales = list(description["lengthscales"])
            self.gamma = "auto"  # the lengthscales decide
        self.precision = "float32" if engine.dtype == np.float32 else "float64"
        self._text_columns = list(description["categorical_columns"])
        self._text_buckets = description["category_buckets"]
        self.n_features_in_ = (description["num_inputs"]
                               - len(self._text_columns) * (self._buckets() - 1))
        classes = description["num_classes"]
        self._num_targets = 1 if classes else description["num_outputs"]
        self._y_columns = self._num_targets > 1
        if description["input_names"]:
            self.feature_names_in_ = np.asarray(description["input_names"], dtype=object)

    def __getstate__(self):
        state = self.__dict__.copy()
        engine = state.pop("_engine", None)
        if engine is not None:
            state["_pickled_engine"] = (engine.serialize() if engine.has_model
                                        else (engine.description(), engine.held()))
        return state

    def __setstate__(self, state):
        pickled = state.pop("_pickled_engine", None)
        self.__dict__.update(state)
        if pickled is None:
            return
        if isinstance(pickled, bytes):
            self._engine = _engine.from_bytes(pickled, self.block)
            self._restore_keys()
            return
        description, (X, y) = pickled
        self._engine = self._engine_holding(description, X, y)
        self._restore_keys()

    def _engine_holding(self, description, X, y, class_labels=None, text_labels=False):
        """A new engine of this estimator's options for the model that
        `description` describes (still in its warm-up window), holding the
        samples X, y again; a classifier's labels may be given anew (as
        text, and whether they were text)."""
        classes = description["num_classes"]
        if class_labels is None:
            class_labels = description.get("class_labels", [])
            text_labels = description.get("text_class_labels", False)
        else:
            classes = len(class_labels)
        text = list(description.get("categorical_columns", []))
        buckets = description.get("category_buckets", _text.BUCKETS)
        engine = _engine.create(self._model_options(), self.block,
                                description["num_inputs"] - len(text) * (buckets - 1),
                                1 if classes else description["num_outputs"], classes,
                                description["column_names"], class_labels, text, buckets,
                                text_labels)
        if len(X):
            engine.learn(X, y)
        return engine

    def _restore_keys(self):
        if "_input_keys" in self.__dict__:
            self._engine.set_input_keys(self._input_keys)
