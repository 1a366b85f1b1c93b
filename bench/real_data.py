#!/usr/bin/env python3
"""What `learn` scores on real streams, whole and split at the end of the
warm-up window, for one binary or two (a baseline run in the same session).

    bench/real_data.py --app=build/apps/rffstream [--baseline=OLD/apps/rffstream]
                       [--data=../shared/data] [--flags="--precision=float32"]

Streams: Boston and Letters (../shared/data), the Lorenz series embedded as
6 lags -> the next value, and a synthetic house-price file with a text
column (city) and 5 % missing ages (made from a fixed seed). Prints a
markdown table: the summary's progressive score, and, when the binary
reports it, the warm-up window's part and the rest.
"""

import argparse
import os
import re
import subprocess
import tempfile

import numpy as np


def lorenz_csv(data, directory):
    series = np.loadtxt(os.path.join(data, "lorenz.dat"))
    lags = 6
    rows = [np.r_[series[t - lags + 1:t + 1][::-1], series[t + 1]]
            for t in range(lags - 1, len(series) - 1)]
    path = os.path.join(directory, "lorenz.csv")
    np.savetxt(path, np.array(rows), delimiter=",", fmt="%.17g")
    return path


def house_csv(directory, rows=2000, seed=7):
    rng = np.random.default_rng(seed)
    cities = {"paris": 1.3, "lyon": 0.9, "nice": 1.1, "lille": 0.8, "nantes": 0.95,
              "bordeaux": 1.05, "rennes": 0.85, "toulouse": 1.0}
    names = list(cities)
    path = os.path.join(directory, "house.csv")
    with open(path, "w") as out:
        out.write("id,sqft,rooms,city,age,price\n")
        for i in range(rows):
            sqft = rng.uniform(30, 200)
            rooms = max(1, int(sqft / 25 + rng.normal()))
            city = names[rng.integers(len(names))]
            age = rng.uniform(0, 80)
            price = cities[city] * (3000 * sqft + 5000 * rooms) * (1 - 0.003 * age) / 1000
            price += rng.normal(0, 10)
            age_field = "" if rng.random() < 0.05 else f"{age:.0f}"
            out.write(f"{1000 + i},{sqft:.1f},{rooms},{city},{age_field},{price:.1f}\n")
    return path


def run(app, path, flags):
    done = subprocess.run([app, "learn", f"--input={path}", *flags],
                          capture_output=True, text=True, check=False)
    log = done.stderr
    score = re.search(r"(?:progressive validation): (?:rmse|accuracy) ([0-9.e+-]+)", log)
    finished = re.search(r"finished: .*", log)
    window = re.search(r"warm-up window[^:]*: (\d+) lines, (?:rmse|accuracy) ([0-9.e+-]+); "
                       r"after it: (\d+) lines, (?:rmse|accuracy) ([0-9.e+-]+)", log)
    return {
        "exit": done.returncode,
        "score": score.group(1) if score else "-",
        "finished": finished.group(0) if finished else log.strip().splitlines()[-1:],
        "window": f"{window.group(2)} ({window.group(1)} lines)" if window else "-",
        "after": f"{window.group(4)} ({window.group(3)} lines)" if window else "-",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", required=True)
    parser.add_argument("--baseline")
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                      "shared", "data"))
    parser.add_argument("--flags", default="", help="more flags for every run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        house = house_csv(directory)
        streams = [
            ("Boston, rmse", os.path.join(args.data, "boston_housing.csv"), ["--header"]),
            ("Letters D=1024, accuracy", os.path.join(args.data, "letter_recognition.csv"),
             ["--header", "--classes=26", "--features=1024"]),
            ("Lorenz (6 lags), rmse", lorenz_csv(args.data, directory), []),
            ("house (text city, 5 % missing age), rmse", house,
             ["--header", "--target=price", "--ignore=id"]),
            ("house without the city column, rmse", house,
             ["--header", "--target=price", "--ignore=id,city"]),
        ]
        print("| stream | binary | whole stream | warm-up window | after it | lines |")
        print("|---|---|---|---|---|---|")
        for name, path, flags in streams:
            for label, app in (("baseline", args.baseline), ("this", args.app)):
                if app is None:
                    continue
                result = run(app, path, flags + args.flags.split())
                print(f"| {name} | {label} | {result['score']} | {result['window']} | "
                      f"{result['after']} | {result['finished']} (exit {result['exit']}) |")


if __name__ == "__main__":
    main()
