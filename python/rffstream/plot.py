"""Learning curves from `rffstream learn --metrics_out=FILE`: progressive
error against samples seen, on a log axis, several runs overlaid.

    python3 -m rffstream.plot run1.jsonl run2.jsonl --output=curve.png
    python3 -m rffstream.plot a.jsonl --metric=rmse_since --labels="D=256" --output=a.svg

The picture's format follows the output's extension (png, svg, pdf).
"""

import argparse
import json
import math
import os
import sys

# The error each kind of run is judged by, unless --metric says otherwise.
DEFAULT_METRICS = ("rmse", "error_rate")


def read_rows(path):
    """The rows of a metrics file; ValueError naming the file and line of a bad one."""
    rows = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}: line {number}: not JSON ({error.msg})") from None
            if not isinstance(row, dict) or "samples" not in row:
                raise ValueError(f"{path}: line {number}: a row needs a \"samples\" field")
            rows.append(row)
    if not rows:
        raise ValueError(f"{path}: no rows (was it written by learn --metrics_out?)")
    return rows


def curve(rows, metric, path):
    """(samples, values) of `metric`, rows where it is not known yet left out."""
    if metric not in rows[-1]:
        fields = ", ".join(name for name in rows[-1] if name != "samples")
        raise ValueError(f"{path}: no metric {metric!r} (it has {fields})")
    points = [(row["samples"], row[metric]) for row in rows
              if row.get(metric) is not None and math.isfinite(row[metric])]
    return [p[0] for p in points], [p[1] for p in points]


def plot(paths, output, metric=None, labels=None, title=None, log_y=False):
    """Draws the runs in `paths` into the picture `output`; returns the metric drawn."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [read_rows(path) for path in paths]
    if metric is None:
        metric = next((name for name in DEFAULT_METRICS if name in runs[0][-1]), None)
        if metric is None:
            raise ValueError(f"{paths[0]}: neither {' nor '.join(DEFAULT_METRICS)} in its rows: "
                             "give --metric")
    if labels is None:
        labels = [os.path.splitext(os.path.basename(path))[0] for path in paths]
    if len(labels) != len(paths):
        raise ValueError(f"{len(labels)} labels for {len(paths)} files")
    figure, axes = plt.subplots(figsize=(7, 4.2))
    for rows, label, path in zip(runs, labels, paths):
        samples, values = curve(rows, metric, path)
        line, = axes.plot(samples, values, marker="o", markersize=2.5, linewidth=1.4, label=label)
        # Up to here the warm-up window's provisional model answered.
        window = [row["samples"] for row in rows if row.get("warm_up")]
        if window:
            axes.axvline(max(window), color=line.get_color(), linestyle=":", linewidth=1)
        # Where the stream drifted and the model started over (--forget=auto).
        for row in rows:
            if row.get("drift"):
                axes.axvline(row["samples"], color=line.get_color(), linestyle="--", linewidth=1)
    axes.set_xscale("log")
    if log_y:
        axes.set_yscale("log")
    axes.set_xlabel("samples learned")
    axes.set_ylabel(f"progressive {metric.replace('_', ' ')}")
    axes.set_title(title or "rffstream learning curve (each sample predicted before it is learned;"
                            " dotted: end of the warm-up window; dashed: drift)", fontsize=10)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(output)
    plt.close(figure)
    return metric


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m rffstream.plot",
        description="Draw learning curves written by `rffstream learn --metrics_out=FILE`.")
    parser.add_argument("files", nargs="+", help="metrics files (JSON lines)")
    parser.add_argument("--output", required=True, help="the picture: .png, .svg or .pdf")
    parser.add_argument("--metric", help="the field to draw (default: rmse, or error_rate for "
                        "a classifier); e.g. rmse_since, mae, r2, accuracy")
    parser.add_argument("--labels", help="comma-separated legend labels (default: file names)")
    parser.add_argument("--title")
    parser.add_argument("--log_y", action="store_true", help="a log scale for the error too")
    args = parser.parse_args(argv)
    try:
        metric = plot(args.files, args.output, args.metric,
                      args.labels.split(",") if args.labels else None, args.title, args.log_y)
    except (OSError, ValueError) as error:
        print(f"rffstream.plot: {error}", file=sys.stderr)
        return 1
    print(f"rffstream.plot: {metric} of {len(args.files)} run(s) drawn to {args.output}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
