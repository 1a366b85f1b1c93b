"""rffstream.Classifier: one-vs-rest classification on random Fourier
features, by least squares or by the hinge loss (AROW), learned online."""

import warnings

import numpy as np

from . import _arrays, _engine
from ._compat import ClassifierMixin, DataConversionWarning
from ._estimator import StreamingEstimator
from ._labels import label_array, labels_from_texts, probabilities
from ._parameters import DEFAULT_BLOCK, PARAMETERS


class Classifier(ClassifierMixin, StreamingEstimator):
    __doc__ = """A streaming kernel classifier with the options of `rffstream learn
    --classes=K`.

    classes: the number of classes K (labels 0..K-1) or the labels
    themselves; None lets ``fit`` take them from y (``partial_fit`` then
    needs ``classes=`` on its first call, as scikit-learn's do, and
    ``learn_one`` needs them given here). loss: "squared" (one-vs-rest
    least squares, one shared matrix) or "hinge" (AROW, a matrix per class).
    River habits: ``learn_one``, ``predict_one``; scikit-learn habits:
    ``fit``, ``partial_fit``, ``predict``, ``decision_function``, ``score``
    (accuracy).
    """ + PARAMETERS

    _estimator_type = "classifier"

    def __init__(self, classes=None, features=256, kernel="gaussian", gamma="auto", ridge="auto",
                 forget="auto", map="phase", sampler="iid", precision="float32", seed=1,
                 lengthscale=None, lengthscales=None, intercept=True, standardize=None,
                 loss="squared", max_model_memory_mb=0, block=DEFAULT_BLOCK):
        self._keep_parameters(locals())

    # -- classes -----------------------------------------------------------

    def _set_classes(self, labels):
        if isinstance(labels, (int, np.integer)):
            if not 2 <= labels <= _engine.max_classes:
                raise ValueError(f"classes={labels}: a classifier has at least 2 and at most "
                                 f"{_engine.max_classes} classes")
            labels = np.arange(labels)
        labels = labels if isinstance(labels, np.ndarray) else label_array(labels)
        if labels.ndim != 1 or len(set(labels.tolist())) != len(labels):
            raise ValueError(f"classes must be a number K or distinct labels, got {labels!r}")
        if len(labels) < 2:
            raise ValueError(f"only one class is present ({labels.tolist()}): a classifier "
                             "needs at least 2 classes")
        if len(labels) > _engine.max_classes:
            raise ValueError(f"{len(labels)} classes: a classifier has at most "
                             f"{_engine.max_classes}")
        self.classes_ = labels
        self._index = {label: i for i, label in enumerate(labels.tolist())}

    def _class_label_texts(self):
        return [str(label) for label in self.classes_.tolist()]

    def _text_class_labels(self):
        return all(isinstance(label, str) for label in self.classes_.tolist())

    def _class_indices(self, y):
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            warnings.warn("A column-vector y was passed when a 1d array was expected: it is "
                          "read as one label per sample", DataConversionWarning, stacklevel=3)
            y = y[:, 0]
        if y.ndim != 1:
            raise ValueError(f"y must hold one label per sample, got shape {y.shape}")
        indices = np.empty(len(y), dtype=np.float64)
        for row, label in enumerate(y.tolist()):
            index = self._index.get(label)
            if index is None:
                raise ValueError(f"y row {row} is {label!r}, not one of the classes "
                                 f"{self.classes_.tolist()}; nothing was learned")
            indices[row] = index
        return indices

    @staticmethod
    def _labels_of(y):
        """The classes of y for fit: its distinct values, which must be labels."""
        y = np.asarray(y)
        if y.dtype.kind == "f":
            if not np.isfinite(y).all():
                _arrays.targets(y, len(y))  # names the bad value
            if (y != np.round(y)).any():
                raise ValueError("Unknown label type: continuous (y holds fractional values): "
                                 "a classifier learns labels; use rffstream.Regressor for numbers")
        return np.unique(y.ravel() if y.ndim == 2 and y.shape[1] == 1 else y)

    # -- River -------------------------------------------------------------

    def learn_one(self, x, y):
        """Learns one sample: x a dict of named inputs or a sequence, y its
        label. With classes=None (River's habit) the classes are the labels
        seen so far: a new label becomes a class as if it had been declared
        from the start (its output learns that every earlier sample was not
        of it; see BasicLearner::AddClass for the loss and settings where
        that is exact). Until a second label is seen the samples wait, and
        predict_one answers the one label seen. Classes declared (here or in
        partial_fit's classes=) are a contract: another label is an error.
        Adding a class replaces the engine: not while another thread learns
        with the same estimator."""
        if y is None or (isinstance(y, (float, np.floating)) and y != y):
            raise ValueError(f"y is {y!r}: a label, not a missing value; nothing was learned")
        if "_engine" not in self.__dict__:
            if self.classes is None:
                self._wait_for_a_second_label(x, y)
                return
            self._set_classes(self.classes)
            self._start_from_dict(x, 1, len(self.classes_), ["class"])
        elif not self.__dict__.get("_classes_declared", True) and y not in self._index:
            self._add_class(y)
        self._learn_known_one(x, y)

    def _learn_known_one(self, x, y):
        index = self._index.get(y)
        if index is None:
            raise ValueError(f"y is {y!r}, not one of the classes {self.classes_.tolist()}")
        notes = self._engine.learn_one(self._one(x), index)
        if notes:
            self._show_notes(notes)

    def _wait_for_a_second_label(self, x, y):
        waiting = self.__dict__.setdefault("_waiting", [])
        waiting.append((x, y))
        labels = list(dict.fromkeys(label for _, label in waiting))
        if len(labels) < 2:
            return
        self._set_classes(label_array(labels))
        self._classes_declared = False
        # Every waiting sample's text values decide the text columns.
        self._start_from_dict(waiting[0][0], 1, 2, ["class"],
                              others=[sample for sample, _ in waiting[1:]])
        del self._waiting
        # A bad sample is not learned, the others are; its error comes last.
        error = None
        for sample, label in waiting:
            try:
                self._learn_known_one(sample, label)
            except ValueError as raised:
                error = error or raised
        if error is not None:
            raise error

    def _add_class(self, label):
        """A label first seen in the stream becomes the last class."""
        if len(self.classes_) >= _engine.max_classes:
            raise ValueError(f"y is {label!r}, a new class beyond the {_engine.max_classes} "
                             "a classifier may have; nothing was learned")
        labels = label_array(self.classes_.tolist() + [label])
        engine = self._engine
        if engine.has_model:
            self._engine = engine.with_class(str(label), self.block)
        else:  # the warm-up window: its samples are held again by a new engine
            X, y = engine.held()
            self._engine = self._engine_holding(
                engine.description(), X, y, [str(text) for text in labels.tolist()],
                all(isinstance(label, str) for label in labels.tolist()))
        self._restore_keys()
        self._set_classes(labels)

    def predict_one(self, x):
        """The predicted label; None before anything was learned."""
        engine = self.__dict__.get("_engine")
        if engine is None:
            waiting = self.__dict__.get("_waiting")
            return waiting[0][1] if waiting else None
        return self.classes_[engine.predict_class_one(self._one(x))]

    # -- scikit-learn ------------------------------------------------------

    def fit(self, X, y):
        """Learns X, y from scratch (one pass, in order) and builds the model."""
        self._reset()
        frame = X
        X = self._samples(X)
        labels = self.classes if self.classes is not None else self._labels_of(
            _arrays.targets(y, X.shape[0]) if y is None else y)
        self._set_classes(labels)
        self._classes_declared = self.classes is not None  # fit's from y may grow
        self._start(X.shape[1], 1, len(self.classes_), *self._frame_names(frame, y),
                    fit_rows=X.shape[0])
        self._learn(X, y, None)
        self._model_engine()
        return self

    def partial_fit(self, X, y, classes=None):
        """Learns X, y in order, after what was learned before; the first
        call needs the classes (here, or given to the constructor)."""
        self._learn(X, y, classes)
        return self

    def learn(self, X, y):
        """Learns X, y in order; returns the label predicted for each sample
        before learning it (in the warm-up window, the provisional model's)."""
        return self._learn(X, y, None)

    def _learn(self, X, y, classes):
        frame = X
        X = self._samples(X)
        if "_engine" not in self.__dict__:
            labels = classes if classes is not None else self.classes
            if labels is None:
                raise ValueError("the first partial_fit or learn needs the classes: "
                                 "classes=[every label] (or Classifier(classes=...))")
            self._set_classes(labels)
            self._classes_declared = True
            self._start(X.shape[1], 1, len(self.classes_), *self._frame_names(frame, y))
        elif classes is not None:
            given = np.arange(classes) if isinstance(classes, (int, np.integer)) else classes
            if list(label_array(list(given)).tolist()) != self.classes_.tolist():
                raise ValueError(f"classes={classes!r} is not the classes of the first call, "
                                 f"{self.classes_.tolist()}; nothing was learned")
        if y is None:
            _arrays.targets(y, X.shape[0])
        y = np.asarray(y)
        if len(y) != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} samples but y has {len(y)}")
        answers = self._learn_rows(X, self._class_indices(y).reshape(-1, 1))[:, 0]
        known = ~np.isnan(answers)
        labels = np.full(len(answers), None, dtype=object)
        labels[known] = self.classes_[answers[known].astype(int)]
        return labels

    def decision_function(self, X):
        """Each class's output (k × K); for two classes, class 1's output
        less class 0's (positive: class 1)."""
        engine, X = self._features_for_prediction(X)
        outputs = engine.predict(X)
        return outputs[:, 1] - outputs[:, 0] if outputs.shape[1] == 2 else outputs

    def predict(self, X):
        waiting = self.__dict__.get("_waiting")
        if waiting and "_engine" not in self.__dict__:
            # One label seen so far: predict_one's answer, for every row.
            return np.full(len(self._samples(X)), waiting[0][1], dtype=object)
        engine, X = self._features_for_prediction(X)
        return self.classes_[np.argmax(engine.predict(X), axis=1)]

    def predict_proba(self, X):
        """Each class's probability (k × K), from the outputs: with the
        squared loss, class k's output regresses its indicator coded -1/+1,
        so (output + 1) / 2 estimates P(k | x); those estimates, cut at 0,
        are normalized to sum to 1 (no further calibration). A row whose
        estimates are all 0 gets the softmax of its outputs. With the hinge
        loss the outputs are margins, not estimates: the same formula then
        only ranks the classes. The most probable class is predict()'s."""
        engine, X = self._features_for_prediction(X)
        return probabilities(engine.predict(X))

    def predict_proba_one(self, x):
        """{label: probability} for one sample (River); {} before anything
        was learned."""
        engine = self.__dict__.get("_engine")
        if engine is None:
            waiting = self.__dict__.get("_waiting")
            return {waiting[0][1]: 1.0} if waiting else {}
        outputs = np.asarray(engine.predict_outputs_one(self._one(x)), dtype=float).reshape(1, -1)
        return dict(zip(self.classes_.tolist(), probabilities(outputs)[0].tolist()))

    def score(self, X, y, sample_weight=None):
        """Accuracy (weighted by sample_weight when given)."""
        hits = self.predict(X) == np.asarray(y).ravel()
        return float(np.average(hits, weights=sample_weight))

    def _adopt(self, engine):
        super()._adopt(engine)
        description = engine.description()
        texts = description["class_labels"]
        # The labels travel in the checkpoint, text as text; a model of the
        # command line has classes 0..K-1.
        if description["text_class_labels"]:
            self.classes = list(texts)
        else:
            self.classes = (labels_from_texts(texts).tolist() if texts
                            else description["num_classes"])
        self._set_classes(self.classes)
