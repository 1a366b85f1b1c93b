#!/usr/bin/env python3
"""Drifting streams made from a seed, and what `learn` scores on them.

    bench/drift_streams.py --app=build/apps/rffstream [--seeds=1,2,3]
                           [--flags="--forget=auto" --flags="--forget=1" ...]
                           [--ranks=N]  (under mpirun -np N)

Friedman #1 (10 uniform inputs, y = 10 sin(pi a b) + 20 (c - 1/2)^2 + 10 d
+ 5 e + noise of sigma 1) where the relevant inputs a..e are x0..x4 (concept
A) or x5..x9 (concept B):

- none:      A throughout;
- abrupt:    A, then B from 1/3 of the stream, A again from 2/3;
- gradual:   A blending linearly into B over the sixth of the stream around
             1/3, and back into A around 2/3.

For each stream and seed, and each set of flags, prints the progressive MSE
after line 1,000 (the issue's measure), from the predictions file. With
--ranks, each rank writes its own predictions, put back in stream order: the
window's 256 lines (the default --standardize) on rank 0, then the lines
dealt round robin.
"""

import argparse
import os
import subprocess
import tempfile

import numpy as np


def friedman(x):
    return (10 * np.sin(np.pi * x[:, 0] * x[:, 1]) + 20 * (x[:, 2] - 0.5) ** 2 + 10 * x[:, 3]
            + 5 * x[:, 4])


def make_stream(kind, seed, lines=60000, inputs=10, noise=1.0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(size=(lines, inputs))
    concept_a, concept_b = friedman(x[:, 0:5]), friedman(x[:, 5:10])
    t = np.arange(lines)
    if kind == "none":
        weight_b = np.zeros(lines)
    elif kind == "abrupt":
        weight_b = ((t >= lines // 3) & (t < 2 * lines // 3)).astype(float)
    elif kind == "gradual":
        width = lines / 6
        up = np.clip((t - (lines / 3 - width / 2)) / width, 0, 1)
        down = np.clip((t - (2 * lines / 3 - width / 2)) / width, 0, 1)
        weight_b = up - down
    else:
        raise ValueError(kind)
    y = (1 - weight_b) * concept_a + weight_b * concept_b + noise * rng.normal(size=lines)
    return x, y


MPIRUN = ["mpirun", "--oversubscribe"]
WINDOW = 256


def in_stream_order(directory, ranks):
    parts = [np.loadtxt(os.path.join(directory, f"pred-{rank}.txt"), ndmin=1)
             for rank in range(ranks)]
    window, parts[0] = parts[0][:WINDOW], parts[0][WINDOW:]
    dealt = np.empty(sum(len(part) for part in parts))
    for rank, part in enumerate(parts):
        dealt[rank::ranks] = part
    return np.concatenate([window, dealt])


def progressive_mse(app, csv, flags, skip=1000, ranks=0):
    with tempfile.TemporaryDirectory() as directory:
        pattern = os.path.join(directory, "pred-%r.txt" if ranks else "pred.txt")
        command = [app, "learn", f"--input={csv}", f"--predictions={pattern}", "--quiet", *flags]
        if ranks:
            command = MPIRUN + ["-np", str(ranks)] + command
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            return float("nan"), done.stderr.strip().splitlines()[-1:]
        answers = (in_stream_order(directory, ranks) if ranks
                   else np.loadtxt(os.path.join(directory, "pred.txt")))
    y = np.loadtxt(csv, delimiter=",", usecols=-1)
    errors = answers[skip:] - y[skip:]
    return float(np.mean(errors ** 2)), [line for line in done.stderr.splitlines()
                                         if "drift" in line][:3]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", required=True)
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--kinds", default="none,abrupt,gradual")
    parser.add_argument("--lines", type=int, default=60000)
    parser.add_argument("--noise", type=float, default=1.0)
    parser.add_argument("--ranks", type=int, default=0, help="run under mpirun -np RANKS")
    parser.add_argument("--flags", action="append",
                        help="a set of learn flags, space-separated (repeat for several)")
    args = parser.parse_args()
    flag_sets = args.flags or ["--forget=1", "--forget=0.9999", "--forget=0.9995",
                               "--forget=0.999", "--forget=0.998", "--forget=0.995"]
    with tempfile.TemporaryDirectory() as directory:
        print("| stream | seed | " + " | ".join(flag_sets) + " |")
        print("|---|---|" + "---|" * len(flag_sets))
        for kind in args.kinds.split(","):
            for seed in map(int, args.seeds.split(",")):
                x, y = make_stream(kind, seed, args.lines, noise=args.noise)
                csv = os.path.join(directory, f"{kind}_{seed}.csv")
                np.savetxt(csv, np.column_stack([x, y]), delimiter=",", fmt="%.9g")
                cells = []
                for flags in flag_sets:
                    mse, notes = progressive_mse(args.app, csv, flags.split(), ranks=args.ranks)
                    cells.append(f"{mse:.3f}")
                print(f"| {kind} | {seed} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
