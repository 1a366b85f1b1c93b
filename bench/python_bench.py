#!/usr/bin/python3
"""The Python module's costs, each against its baseline in the same run.

1. Per-call overhead of predict_one + learn_one (River habits) over the same
   work done by one C++ call for the whole stream (learn(X, y) with
   block=1 and predict(X), the engine's loop without Python in it), for
   samples given as dicts, lists and numpy rows.
2. partial_fit in batches against scikit-learn's streaming kernel pipeline
   (StandardScaler + RBFSampler + SGDRegressor.partial_fit) at the same D:
   throughput, and the progressive error of each (each batch predicted
   before it is learned).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py [--samples=20000]
"""

import argparse
import time

import numpy as np

import rffstream


def stream(samples, inputs, seed=0):
    """Friedman's first function, widened to `inputs` inputs (the rest are noise inputs)."""
    from sklearn.datasets import make_friedman1
    return make_friedman1(n_samples=samples, n_features=inputs, noise=1.0, random_state=seed)


def best_of(repeats, run):
    return min(run() for _ in range(repeats))


def per_call_overhead(X, y, features, repeats):
    model_options = dict(features=features, gamma=0.05, ridge=1e-2, standardize=0, block=1)

    def engine_loop():
        model = rffstream.Regressor(**model_options)
        start = time.perf_counter()
        model.learn(X, y)
        model.predict(X)
        return (time.perf_counter() - start) / len(y)

    def python_loop(samples):
        def run():
            model = rffstream.Regressor(**model_options)
            predict_one, learn_one = model.predict_one, model.learn_one
            start = time.perf_counter()
            for x, target in zip(samples, y):
                predict_one(x)
                learn_one(x, target)
            return (time.perf_counter() - start) / len(y)
        return run

    names = [f"x{i}" for i in range(X.shape[1])]
    dicts = [dict(zip(names, row)) for row in X.tolist()]
    lists = X.tolist()
    rows = list(X)
    base = best_of(repeats, engine_loop)
    print(f"\n1. predict_one + learn_one at D = {features}, {X.shape[1]} inputs, "
          f"{len(y)} samples (best of {repeats})")
    print(f"   one C++ call for the stream:  {base * 1e6:8.2f} us a sample")
    for label, samples in (("dicts", dicts), ("lists", lists), ("numpy rows", rows)):
        seconds = best_of(repeats, python_loop(samples))
        print(f"   Python loop, {label:10s}:   {seconds * 1e6:8.2f} us a sample, overhead "
              f"{(seconds - base) * 1e6:6.2f} us ({seconds / base:.2f}x)")


def progressive(model_learn, model_predict, X, y, batch):
    """Seconds, and the rmse of each batch predicted before it is learned."""
    squared = 0.0
    start = time.perf_counter()
    for begin in range(0, len(y), batch):
        xb, yb = X[begin:begin + batch], y[begin:begin + batch]
        if begin > 0:
            squared += float(np.sum((model_predict(xb) - yb) ** 2))
        model_learn(xb, yb)
    return time.perf_counter() - start, np.sqrt(squared / (len(y) - batch))


def partial_fit_against_sklearn(X, y, features, batch):
    from sklearn.kernel_approximation import RBFSampler
    from sklearn.linear_model import SGDRegressor
    from sklearn.preprocessing import StandardScaler

    scaler, sampler, sgd = StandardScaler(), RBFSampler(n_components=features, gamma=1.0 / X.shape[1],
                                                        random_state=0), SGDRegressor(random_state=0)
    sampler.fit(X[:1])

    def sk_learn(xb, yb):
        scaler.partial_fit(xb)
        sgd.partial_fit(sampler.transform(scaler.transform(xb)), yb)

    def sk_predict(xb):
        return sgd.predict(sampler.transform(scaler.transform(xb)))

    print(f"\n2. partial_fit in batches of {batch}, {len(y)} x {X.shape[1]}, D = {features} "
          "(rmse: each batch predicted before it is learned)")
    sk_seconds, sk_rmse = progressive(sk_learn, sk_predict, X, y, batch)
    print(f"   scikit-learn StandardScaler+RBFSampler+SGDRegressor: {len(y) / sk_seconds:9.0f} "
          f"samples/s, rmse {sk_rmse:.4f}")
    for precision in ("float64", "float32"):
        model = rffstream.Regressor(features=features, precision=precision)
        seconds, rmse = progressive(model.partial_fit, model.predict, X, y, batch)
        print(f"   rffstream.Regressor {precision} (defaults):             {len(y) / seconds:9.0f} "
              f"samples/s, rmse {rmse:.4f}  ({sk_seconds / seconds:.2f}x the throughput)")
    print(f"   (target std {np.std(y):.4f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=20000)
    parser.add_argument("--inputs", type=int, default=16)
    parser.add_argument("--features", type=int, default=256)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    X, y = stream(args.samples, args.inputs)
    per_call_overhead(X[:5000], y[:5000], args.features, args.repeats)
    partial_fit_against_sklearn(X, y, args.features, args.batch)


if __name__ == "__main__":
    main()
