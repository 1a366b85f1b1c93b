"""learn --metrics_out writes the learning curve as JSON lines; python3 -m
rffstream.plot draws it; a terminal reading a file sees a progress line."""

import json
import os
import pty
import subprocess

import numpy as np
import pytest

import rffstream
from conftest import write_csv
from rffstream import plot


def read_json_lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_metrics_out_rows_are_the_progressive_errors(app, tmp_path, regression_stream):
    X, y = regression_stream
    csv = write_csv(tmp_path / "s.csv", X, y)
    app("learn", "--quiet", "--block=1", "--predictions", tmp_path / "p.txt",
        "--metrics_out", tmp_path / "m.jsonl", stdin=csv)
    rows = read_json_lines(tmp_path / "m.jsonl")
    errors = np.loadtxt(tmp_path / "p.txt") - y
    samples = [row["samples"] for row in rows]
    assert samples[:4] == [1, 2, 3, 4] and samples[-1] == 1500
    assert all(b > a for a, b in zip(samples, samples[1:]))
    assert 25 <= len(rows) <= 40  # about 10 a decade
    previous = 0
    for row in rows:
        n = row["samples"]
        assert row["rmse"] == pytest.approx(np.sqrt(np.mean(errors[:n] ** 2)), rel=1e-6)
        assert row["mae"] == pytest.approx(np.mean(np.abs(errors[:n])), rel=1e-6)
        since = errors[previous:n]
        assert row["rmse_since"] == pytest.approx(np.sqrt(np.mean(since ** 2)), rel=1e-6)
        assert row["elapsed_seconds"] >= 0 and row["samples_per_second"] > 0
        previous = n
    assert rows[0]["r2"] is None  # unknown after one sample
    # The provisional model's rows are marked, the last one at the window's end.
    window = [row["samples"] for row in rows if row.get("warm_up")]
    assert window == samples[:len(window)] and window[-1] == 256


def test_metrics_show_the_warm_up_window_apart(regression_stream):
    X, y = regression_stream
    model = rffstream.Regressor(block=1)
    priors = model.learn(X[:600], y[:600])
    assert np.isfinite(priors).all()  # the window's lines are answered too
    metrics = model.metrics_
    assert metrics["warm_up"]["samples"] == 256
    assert metrics["warm_up"]["rmse"] == pytest.approx(np.sqrt(np.mean((priors[:256] - y[:256]) ** 2)))
    assert metrics["rmse"] == pytest.approx(np.sqrt(np.mean((priors - y[:600]) ** 2)))


def test_metrics_out_of_a_classifier_and_every_n(app, tmp_path, class_stream):
    X, y = class_stream
    csv = write_csv(tmp_path / "c.csv", X, y)
    app("learn", "--quiet", "--classes=3", "--progress_every=300", "--metrics_out",
        tmp_path / "m.jsonl", stdin=csv)
    rows = read_json_lines(tmp_path / "m.jsonl")
    assert [row["samples"] for row in rows] == [300, 600, 900, 1200]
    for row in rows:
        assert row["error_rate"] == pytest.approx(1 - row["accuracy"])
    # A resumed run goes on counting.
    app("learn", "--quiet", "--classes=3", "--save", tmp_path / "c.rff", stdin=csv)
    app("learn", "--quiet", "--load", tmp_path / "c.rff", "--progress_every=500",
        "--metrics_out", tmp_path / "more.jsonl", stdin=csv)
    assert [row["samples"] for row in read_json_lines(tmp_path / "more.jsonl")] == [
        1500, 2000, 2400]


def test_plot_draws_png_and_svg(app, tmp_path, regression_stream):
    X, y = regression_stream
    csv = write_csv(tmp_path / "s.csv", X, y)
    for features in (32, 256):
        app("learn", "--quiet", f"--features={features}", "--metrics_out",
            tmp_path / f"d{features}.jsonl", stdin=csv)
    runs = [tmp_path / "d32.jsonl", tmp_path / "d256.jsonl"]
    done = subprocess.run(["/usr/bin/python3", "-m", "rffstream.plot", *map(str, runs),
                           f"--output={tmp_path / 'curve.png'}", "--labels=D=32,D=256"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert plot.plot(runs, tmp_path / "curve.svg", metric="mae_since") == "mae_since"
    svg = (tmp_path / "curve.svg").read_text()
    assert svg.count("<svg") == 1 and "D=32" not in svg  # default labels: the file names
    assert "d256" in svg


def test_plot_names_bad_files(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"samples": 1, "rmse": 1.0}\nnot json\n')
    with pytest.raises(ValueError, match="bad.jsonl: line 2: not JSON"):
        plot.plot([bad], tmp_path / "x.png")
    good = tmp_path / "good.jsonl"
    good.write_text('{"samples": 1, "rmse": 1.0}\n')
    with pytest.raises(ValueError, match="no metric 'accuracy' \\(it has rmse\\)"):
        plot.plot([good], tmp_path / "x.png", metric="accuracy")
    assert plot.main([str(tmp_path / "missing.jsonl"), "--output", str(tmp_path / "x.png")]) == 1


def run_with_terminal_stderr(command, stdin_path, through_pipe=False):
    """Runs `command` with standard error on a pseudo-terminal, standard
    input the file or a pipe it is written to; returns what it showed."""
    controller, terminal = pty.openpty()
    with open(stdin_path, "rb") as source:
        process = subprocess.Popen(command, stdin=subprocess.PIPE if through_pipe else source,
                                   stdout=subprocess.DEVNULL, stderr=terminal)
    os.close(terminal)
    if through_pipe:
        process.stdin.write(stdin_path.read_bytes())
        process.stdin.close()
    return read_terminal(controller, process).decode()


def read_terminal(controller, process):
    """Everything `process` showed on the pseudo-terminal `controller` until it ended."""
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    assert process.wait() == 0
    os.close(controller)
    return shown


def test_progress_line_on_a_terminal_only_for_files(app, tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20000, 4))
    csv = write_csv(tmp_path / "long.csv", X, X.sum(axis=1))
    binary = os.environ["RFFSTREAM_APP"]
    shown = run_with_terminal_stderr([binary, "learn", "--features=64", f"--input={csv}"], csv)
    assert "% of the file" in shown and "samples/s" in shown and "s left" in shown
    assert "\r\x1b[K" in shown  # drawn in place, and cleared
    assert "finished: 20000 lines read" in shown
    assert "% of the file" in run_with_terminal_stderr([binary, "learn", "--features=64"], csv)
    # A pipe has no size: no progress line. Nor with --quiet, nor when
    # standard error is not a terminal.
    assert "% of the file" not in run_with_terminal_stderr(
        [binary, "learn", "--features=64"], csv, through_pipe=True)
    assert "% of the file" not in run_with_terminal_stderr(
        [binary, "learn", "--features=64", "--quiet", f"--input={csv}"], csv)
    not_terminal = subprocess.run([binary, "learn", "--features=64", f"--input={csv}"],
                                  capture_output=True, check=True)
    assert b"\r" not in not_terminal.stderr


def test_a_failed_metrics_file_still_saves_the_model(tmp_path, regression_stream):
    X, y = regression_stream
    csv = write_csv(tmp_path / "s.csv", X[:300], y[:300])
    done = subprocess.run([os.environ["RFFSTREAM_APP"], "learn", "--quiet", f"--input={csv}",
                           "--metrics_out=/dev/full", f"--save={tmp_path / 'm.rff'}"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert "--metrics_out: writing /dev/full failed" in done.stderr
    assert (tmp_path / "m.rff").exists()


def test_no_progress_line_when_predictions_go_to_the_terminal(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5000, 4))
    csv = write_csv(tmp_path / "long.csv", X, X.sum(axis=1))
    controller, terminal = pty.openpty()
    process = subprocess.Popen([os.environ["RFFSTREAM_APP"], "learn", "--features=64",
                                "--predictions=-", f"--input={csv}"],
                               stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal)
    os.close(terminal)
    assert b"% of the file" not in read_terminal(controller, process)
