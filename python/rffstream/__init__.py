"""rffstream: streaming kernel regression and classification on random
Fourier features, learned by exact recursive least squares, in C++.

    import rffstream
    model = rffstream.Regressor(features=256)
    for x, y in stream:               # River habits
        y_hat = model.predict_one(x)
        model.learn_one(x, y)
    model.fit(X, y).predict(X_test)   # scikit-learn habits
    model.save("model.rff")           # the command line's checkpoint format
    model = rffstream.load("model.rff")
"""

from . import _engine
from .classifier import Classifier
from .regressor import Regressor

__version__ = _engine.version
__all__ = ["Classifier", "Regressor", "load"]


def load(path, block=None):
    """A model from a checkpoint of `rffstream learn --save` or of save():
    a Classifier for a classifier's checkpoint, else a Regressor."""
    from ._parameters import DEFAULT_BLOCK
    block = DEFAULT_BLOCK if block is None else block
    engine = _engine.load(str(path), block)
    estimator = Classifier(block=block) if engine.description()["num_classes"] else Regressor(block=block)
    estimator._adopt(engine)
    return estimator
