"""scikit-learn's base class, mixins and NotFittedError when scikit-learn
is installed (so clone, GridSearchCV, Pipeline, the estimator checks and
is_classifier work, whether the version reads _estimator_type or tags),
else stand-ins with the same get_params/set_params: the River habits
(learn_one, predict_one) need no scikit-learn."""

try:
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
    from sklearn.exceptions import DataConversionWarning, NotFittedError
except ImportError:
    import inspect

    class ClassifierMixin:
        """Marks a classifier."""

        _estimator_type = "classifier"

    class RegressorMixin:
        """Marks a regressor."""

        _estimator_type = "regressor"

    class NotFittedError(ValueError, AttributeError):
        """A model used before it learned anything."""

    class DataConversionWarning(UserWarning):
        """Data in a form other than the one expected, converted."""

    class BaseEstimator:
        """get_params/set_params over the __init__ keyword arguments."""

        @classmethod
        def _get_param_names(cls):
            signature = inspect.signature(cls.__init__)
            return sorted(name for name in signature.parameters if name != "self")

        def get_params(self, deep=True):
            return {name: getattr(self, name) for name in self._get_param_names()}

        def set_params(self, **params):
            valid = self._get_param_names()
            for name, value in params.items():
                if name not in valid:
                    raise ValueError(f"Invalid parameter {name!r} for {type(self).__name__}")
                setattr(self, name, value)
            return self

        def __repr__(self):
            params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
            return f"{type(self).__name__}({params})"
