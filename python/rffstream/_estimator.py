"""What Regressor and Classifier share: the engine made at the first sample
from the model options of `rffstream learn` (_parameters.py), the warm-up
window, the fitted attributes; checkpoints and pickles in _persistence.py."""

import warnings

import numpy as np

from . import _arrays, _engine, _text
from ._compat import BaseEstimator, NotFittedError
from ._parameters import MODEL_DEFAULTS, option_text
from ._persistence import Persistence

# fit(X, y) is not a stream: all of X (up to this many rows, which bounds
# the leave-one-out tuning's time) chooses the settings, as scikit-learn
# users expect; partial_fit and learn keep the stream's window.
FIT_WINDOW_ROWS = 2048


def _clips(value):
    """clip_predictions as a bool; anything else is refused by name."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"clip_predictions={value!r}: must be True or False")
    return bool(value)


class StreamingEstimator(Persistence, BaseEstimator):
    """The engine's lifecycle. Subclasses set the task (targets, classes)."""

    def __setattr__(self, name, value):
        # Every engine, however made (created, loaded, unpickled, given a
        # new class), clips as clip_predictions says, and set_params(
        # clip_predictions=...) reaches the engine already there.
        if name == "_engine" and value is not None:
            value.set_clip_predictions(_clips(self.__dict__.get("clip_predictions", True)))
        elif name == "clip_predictions" and self.__dict__.get("_engine") is not None:
            self.__dict__["_engine"].set_clip_predictions(_clips(value))
        super().__setattr__(name, value)

    def _more_tags(self):
        # NaN in X is a missing value, read as the input's mean.
        return {"allow_nan": True}

    def __sklearn_tags__(self):
        # The same for scikit-learn 1.6 and later, which read tags here.
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def _keep_parameters(self, arguments):
        """A constructor's arguments (its locals()) as attributes, unchanged,
        as scikit-learn's get_params and clone expect."""
        for name, value in arguments.items():
            if name not in ("self", "__class__"):
                setattr(self, name, value)

    # -- the engine --------------------------------------------------------

    def _model_options(self):
        options = {}
        for name, default in MODEL_DEFAULTS.items():
            value = getattr(self, name)
            if value is None or (isinstance(value, type(default)) and value == default):
                continue
            options[name] = option_text(name, value)
        return options

    def _start(self, num_inputs, num_targets, num_classes, names=(), feature_names=None,
               y_columns=False, keys=None, fit_rows=None):
        """The engine, for samples of `num_inputs` inputs (named by `names`,
        then the targets, when they came as dicts with `keys`). `fit_rows`:
        fit's whole X, whose rows (up to FIT_WINDOW_ROWS) all choose the
        standardization and settings unless `standardize` says otherwise."""
        if keys is not None and len({str(key) for key in keys}) != len(keys):
            raise ValueError(f"x has keys that name the same input: {list(keys)!r}")
        options = self._model_options()
        # Text columns (found in the first rows, _samples) take their buckets.
        text = self.__dict__.get("_text_columns") or []
        num_inputs -= len(text) * (self._buckets() - 1)
        if fit_rows is not None:
            # fit's X is a data set, not a stream: a regressor's ridge is the
            # most regularized within one standard error (lib/src/stream/warm_up.cpp).
            options["window_is_data_set"] = True
            if self.standardize is None:
                stream_window = max(256, 80 * num_classes)  # the command line's default
                options["standardize"] = max(stream_window, min(fit_rows, FIT_WINDOW_ROWS))
        self._engine = _engine.create(options, self.block, num_inputs,
                                      num_targets, num_classes, list(names),
                                      self._class_label_texts(), text, self._buckets(),
                                      self._text_class_labels())
        self.n_features_in_ = num_inputs
        self._num_targets = num_targets
        self._y_columns = y_columns or num_targets > 1
        if names or feature_names:
            self.feature_names_in_ = np.asarray(feature_names or names[:num_inputs], dtype=object)
        if keys is not None and any(not isinstance(key, str) for key in keys):
            self._input_keys = list(keys)
            self._engine.set_input_keys(self._input_keys)

    def _class_label_texts(self):
        """The labels as the checkpoint keeps them (text); none for a regressor."""
        return []

    def _text_class_labels(self):
        """Whether the labels are text, to load back as text."""
        return False

    @staticmethod
    def _frame_names(X, y):
        """(names, feature_names): a DataFrame's column names (when all are
        text) become feature_names_in_; with the names of y too (a named
        Series, a DataFrame's columns) they are the model's columns, the
        header the command line then reads. Otherwise ((), None)."""
        columns = getattr(X, "columns", None)
        if columns is None or not all(isinstance(column, str) for column in columns):
            return (), None
        if getattr(y, "name", None) is not None and isinstance(y.name, str):
            return [*columns, y.name], list(columns)
        y_columns = getattr(y, "columns", None)
        if y_columns is not None and all(isinstance(column, str) for column in y_columns):
            return [*columns, *y_columns], list(columns)
        return (), list(columns)

    def _start_from_dict(self, x, num_targets, num_classes, target_names, others=()):
        """The engine for a first sample that may be a dict of named inputs;
        its values that hold text (or those of the `others` that came with
        it, in the same layout) make text columns."""
        values = list(x.values()) if isinstance(x, dict) else list(x)
        text = set(_text.text_positions(values))
        for other in others:
            if isinstance(other, dict):
                other = [other.get(key) for key in x] if isinstance(x, dict) else []
            text.update(position for position in _text.text_positions(list(other))
                        if position < len(values))
        self._text_columns = sorted(text)
        width = len(values) + len(self._text_columns) * (self._buckets() - 1)
        if isinstance(x, dict):
            keys = list(x)
            self._start(width, num_targets, num_classes,
                        [str(key) for key in keys] + target_names, keys=keys)
        else:
            self._start(width, num_targets, num_classes)

    def _one(self, x):
        """One sample as the engine takes it: with text columns, a row of
        their buckets (rffstream/_text.py); else x as given."""
        text = self.__dict__.get("_text_columns")
        if not text:
            return x
        if isinstance(x, dict):
            keys = self.__dict__.get("_input_keys") or list(self.__dict__.get("feature_names_in_", []))
            if not keys:
                raise ValueError("x is a dict, but this model's inputs have no names (it learned "
                                 "from arrays): pass a sequence")
            for key in x:
                if key not in keys:
                    raise ValueError(f"x has an input the model does not know: {key}")
            values = [x.get(key) for key in keys]  # a key left out is missing
        else:
            values = list(x)
        if len(values) != self.n_features_in_:
            raise ValueError(f"x has {len(values)} inputs, but the model is expecting "
                             f"{self.n_features_in_}")
        return _text.encode([values], text, self._buckets())[0]

    def _reset(self):
        """Forgets everything learned (fit starts over)."""
        for name in ("_engine", "_input_keys", "n_features_in_", "feature_names_in_",
                     "_text_columns", "_text_buckets", "_waiting", "_classes_declared"):
            self.__dict__.pop(name, None)

    def _fitted_engine(self):
        engine = self.__dict__.get("_engine")
        if engine is None:
            raise NotFittedError(f"This {type(self).__name__} has learned nothing yet: call fit, "
                                 "partial_fit or learn_one first")
        return engine

    def _model_engine(self):
        """The engine with a model: a warm-up window still filling is ended
        with the samples it holds, as the end of a stream ends it."""
        engine = self._fitted_engine()
        if not engine.has_model:
            engine.end_warm_up()
            self._show_notes()
        return engine

    def _show_notes(self, notes=None):
        """The warm-up window's notes (why an automatic setting fell back)."""
        notes = notes or self._engine.take_messages()
        if notes:
            warnings.warn(notes.strip(), RuntimeWarning, stacklevel=3)

    def _encoded(self, X):
        """X with its text columns as their buckets (rffstream/_text.py);
        those are the columns that hold text in the rows a model starts from."""
        if self.__dict__.get("_engine") is None:
            self._text_columns = _text.text_columns(X)
        text = self.__dict__.get("_text_columns")
        if not text:
            return X
        objects = _text.as_objects(X)
        width = np.shape(X)[1] if objects is None else objects.shape[1]
        if objects is None and "n_features_in_" in self.__dict__ and width == self._engine_width():
            return X  # encoded already (fit passes its rows on to learn)
        if "n_features_in_" in self.__dict__ and width != self.n_features_in_:
            raise ValueError(f"X has {width} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input")
        return _text.encode(X, text, self._buckets())

    def _buckets(self):
        """The inputs a text column takes: a loaded model's, else Python's default."""
        return self.__dict__.get("_text_buckets", _text.BUCKETS)

    def _engine_width(self):
        text = self.__dict__.get("_text_columns") or []
        return self.n_features_in_ + len(text) * (self._buckets() - 1)

    def _check_frame(self, X):
        """A DataFrame's columns must be the ones the model learned, by name
        and order (as scikit-learn checks them)."""
        columns = getattr(X, "columns", None)
        known = self.__dict__.get("feature_names_in_")
        if columns is None or known is None or "_engine" not in self.__dict__:
            return
        if list(columns) != list(known):
            raise ValueError("The feature names should match those that were passed during fit: "
                             f"{list(known)}, got {list(columns)}")

    def _samples(self, X):
        self._check_frame(X)
        engine = self.__dict__.get("_engine")
        X = self._encoded(X)
        return _arrays.samples(X, owner=type(self).__name__, learning=True,
                               expected=None if engine is None else self._engine_width())

    def _learn_rows(self, X, y):
        answers = self._engine.learn(X, y)
        self._show_notes()
        return answers

    def _features_for_prediction(self, X):
        self._check_frame(X)
        engine = self._model_engine()
        return engine, _arrays.samples(self._encoded(X), owner=type(self).__name__,
                                       expected=self._engine_width(), learning=False)

    # -- what a model is ---------------------------------------------------

    @property
    def model_(self):
        """The model's settings, as built (the automatic ones as chosen on
        the warm-up window), and its counters."""
        return self._fitted_engine().description()

    @property
    def metrics_(self):
        """The progressive metrics: every labelled sample's answer, given
        before the sample was learned. "samples": the answers counted;
        "learned": the samples the model has learned (0 while the warm-up
        window holds them); "warm_up": the window's part of the answers
        (the provisional model's)."""
        return self._fitted_engine().metrics()

    @property
    def drifts_(self):
        """With forget='auto' (the default), the changes of the stream detected:
        (sample number, error level over the level before); at each the model
        forgot to its prior and learned the last 64 samples again."""
        return self._fitted_engine().drifts()

    @property
    def settings_changes_(self):
        """With gamma='auto' and ridge='auto' (the defaults), the choices made
        again as the model grew, by generalized cross-validation: under
        "gamma" and "ridge", (sample number, samples chosen on, from, to);
        under "standardization", the inputs standardized anew after a drift
        restart: (sample number, samples chosen on, 1, the largest factor by
        which an input's scale moved)."""
        return self._fitted_engine().settings_changes()

    def end_warm_up(self):
        """Builds the model now from the samples the warm-up window holds."""
        self._model_engine()
        return self
