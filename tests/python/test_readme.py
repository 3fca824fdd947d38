"""The README's Python examples run as printed (matplotlib with the Agg
backend, in a temporary directory) and print what they say."""
import contextlib
import io
import os
import re

import matplotlib

matplotlib.use("Agg")


def test_readme_examples(root, tmp_path, monkeypatch):
    text = (root / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    monkeypatch.chdir(tmp_path)
    outs = []
    for code in blocks:
        code = code.replace("cluster, slots=5000", "cluster, slots=1200")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
        outs.append(out.getvalue())
    # what the first example says it prints, it prints
    said = re.search(r"print\(rep\[\"best\"\]\) *# (.*)", blocks[0]).group(1)
    assert outs[0].strip() == said
    assert os.path.getsize(tmp_path / "loads.png") > 1000
    assert "jsq-maxweight" in outs[1] and "gb-pandas" in outs[1]
