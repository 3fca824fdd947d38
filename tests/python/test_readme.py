"""The README's Python examples run as printed (in a temporary
directory) and print what they say; they need nothing beyond what the
README's first command installs (numpy), which make fresh-box checks."""
import contextlib
import io
import re


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
    said = re.findall(r"^print\(.*?\) *# (.*)$", blocks[0], re.M)
    assert len(said) == 2
    assert outs[0].strip().split("\n") == said
    for policy in ("jsq-maxweight", "priority", "gb-pandas", "fcfs"):
        assert outs[1].count(policy) == 3
