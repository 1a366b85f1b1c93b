#!/usr/bin/python3
"""float32 against float64 on streams that break a float32 covariance form.

For every setting (features, block, forgetting, ridge) both precisions
learn the same stream; the table has the lines float32 learned, the
relative RMS distance of its a-priori predictions from float64's, and the
held-out RMSE of both final models on fresh lines.

    bench/float32_soundness.py build/apps/rffstream [--lines=60000] [--quick] [--ridges=1e-12]
"""

import argparse
import itertools
import os
import re
import subprocess
import tempfile

import numpy as np


def streams(lines, directory, app):
    """(name, training file, held-out inputs file, held-out targets)."""
    rng = np.random.default_rng(11)
    made = []
    x = rng.normal(size=(lines + 2000, 8))
    y = x[:, 0] + x[:, 1] + x[:, 2] + 0.1 * rng.normal(size=len(x))
    made.append(("gaussian-8", x, y))
    series = subprocess.run([app, "generate", f"--samples={lines + 2000}"], check=True,
                            capture_output=True, text=True).stdout
    table = np.loadtxt(series.splitlines(), delimiter=",")
    made.append(("generate", table[:, :-1], table[:, -1]))
    result = []
    for name, inputs, targets in made:
        train = os.path.join(directory, f"{name}.csv")
        test = os.path.join(directory, f"{name}-test.csv")
        np.savetxt(train, np.column_stack([inputs[:lines], targets[:lines]]), delimiter=",",
                   fmt="%.9g")
        np.savetxt(test, inputs[lines:], delimiter=",", fmt="%.9g")
        result.append((name, train, test, targets[lines:]))
    return result


def run(app, train, test, flags, precision, directory):
    model = os.path.join(directory, f"model-{precision}.rff")
    priors = os.path.join(directory, f"priors-{precision}.txt")
    learned = subprocess.run([app, "learn", f"--input={train}", f"--save={model}",
                              f"--predictions={priors}", f"--precision={precision}", *flags],
                             capture_output=True, text=True)
    count = re.search(r"(\d+) learned", learned.stderr)
    answers = subprocess.run([app, "predict", f"--load={model}", f"--input={test}"],
                             capture_output=True, text=True).stdout.split()
    return (int(count.group(1)) if count else 0,
            np.array([float(v) if v else np.nan for v in open(priors).read().split("\n")[:-1]]),
            np.array([float(v) for v in answers]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("app")
    parser.add_argument("--lines", type=int, default=60000)
    parser.add_argument("--quick", action="store_true", help="D = 256 and block 1, 64 only")
    parser.add_argument("--ridges", default="0.01,1e-8,1e-12", help="the ridges to run")
    arguments = parser.parse_args()
    features = [256] if arguments.quick else [256, 1024]
    blocks = [1, 64] if arguments.quick else [1, 2, 8, 64]
    ridges = arguments.ridges.split(",")
    settings = [("1", ridge) for ridge in ridges] + [(forget, "0.01") for forget in ("0.999", "0.9")
                                                      if "0.01" in ridges]
    print("| stream | D | block | forget | ridge | lines learned float32 / float64 | priors: rel. RMS "
          "from float64 | held-out RMSE float32 / float64 |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for name, train, test, truth in streams(arguments.lines, directory, arguments.app):
            for d, block, (forget, ridge) in itertools.product(features, blocks, settings):
                if forget != "1" and block != 1:
                    continue  # forgetting learns blocks one at a time in both precisions
                flags = [f"--features={d}", f"--block={block}", f"--forget={forget}",
                         f"--ridge={ridge}"]
                learned32, priors32, test32 = run(arguments.app, train, test, flags, "float32",
                                                  directory)
                learned64, priors64, test64 = run(arguments.app, train, test, flags, "float64", directory)
                known = np.isfinite(priors32) & np.isfinite(priors64)
                distance = (np.sqrt(np.mean((priors32[known] - priors64[known]) ** 2)) /
                            np.sqrt(np.mean(priors64[known] ** 2)))
                rmse32 = np.sqrt(np.mean((test32 - truth) ** 2))
                rmse64 = np.sqrt(np.mean((test64 - truth) ** 2))
                print(f"| {name} | {d} | {block} | {forget} | {ridge} | {learned32} / {learned64} | "
                      f"{distance:.2e} | {rmse32:.5g} / {rmse64:.5g} |", flush=True)


if __name__ == "__main__":
    main()
