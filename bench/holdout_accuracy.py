#!/usr/bin/python3
"""Held-out accuracy of an rffstream classifier: the protocol of issue #19.

Shuffles a CSV's data lines with a fixed seed, learns the first 80 % in one
pass with `rffstream learn`, then scores the other 20 % with `rffstream
predict` (inputs standardized on the training part: the warm-up window is the
first lines of the training part). Each set of flags after `--` is one run:

  bench/holdout_accuracy.py ../shared/data/letter_recognition.csv -- \
      "--classes=26 --features=1024" "--classes=26 --features=1024 --loss=hinge"
"""
import argparse
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", help="CSV with a header line, the class in the last column")
    parser.add_argument("runs", nargs="+", help="flags of one run each (quote them)")
    parser.add_argument("--rffstream", default=os.path.join(os.path.dirname(__file__), "..",
                                                            "build", "apps", "rffstream"))
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--train_fraction", type=float, default=0.8)
    args = parser.parse_args()

    with open(args.csv) as f:
        header, *lines = f.read().splitlines()
    random.Random(args.seed).shuffle(lines)
    cut = int(len(lines) * args.train_fraction)
    with tempfile.TemporaryDirectory() as directory:
        train, test, model = (os.path.join(directory, name) for name in ("train.csv", "test.csv",
                                                                         "model.rff"))
        for path, part in ((train, lines[:cut]), (test, lines[cut:])):
            with open(path, "w") as f:
                f.write("\n".join([header] + part) + "\n")
        print(f"{os.path.basename(args.csv)}: {cut} training lines, {len(lines) - cut} test lines, "
              f"shuffled with seed {args.seed}")
        for flags in args.runs:
            start = time.monotonic()
            learned = subprocess.run([args.rffstream, "learn", "--header", f"--input={train}",
                                      f"--save={model}", *shlex.split(flags)],
                                     capture_output=True, text=True)
            seconds = time.monotonic() - start
            if learned.returncode != 0:
                sys.exit(f"learn {flags} failed:\n{learned.stderr}")
            predicted = subprocess.run([args.rffstream, "predict", "--header", f"--input={test}",
                                        f"--load={model}"], capture_output=True, text=True)
            if predicted.returncode != 0:
                sys.exit(f"predict failed:\n{predicted.stderr}")
            progressive = re.search(r"accuracy ([0-9.]+)", learned.stderr)
            held_out = re.search(r"accuracy ([0-9.]+)", predicted.stderr)
            print(f"{flags}: held-out accuracy {held_out.group(1)}, progressive accuracy on the "
                  f"training part {progressive.group(1)}, learn {seconds:.1f} s "
                  f"({cut / seconds:.0f} lines/s)")


if __name__ == "__main__":
    main()
