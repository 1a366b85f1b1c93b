"""The README's Python example runs as written."""

import os
import re


def test_readme_python_example_runs(tmp_path, monkeypatch):
    readme = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "README.md")
    text = open(readme, encoding="utf-8").read()
    section = text.index("\n## Python\n")
    example = re.search(r"```python\n(.*?)```\n", text[section:], re.S).group(1)
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(compile(example, "README.md (Python)", "exec"), namespace)
    assert namespace["model"].metrics_["samples"] > 0
    assert namespace["mean"].shape == (5,)
    assert (tmp_path / "model.rff").exists()
