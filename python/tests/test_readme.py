"""The Python examples of the documentation, run as they are written (each
in a fresh directory): every ``python`` block of python/README.md, of the
README and of the pages under docs/ but docs/bigtable.md, whose examples
need the Bigtable emulator (test_bigtable.py runs them)."""

import os

import pytest

from conftest import REPO


def pages():
    """The pages whose Python blocks run here, README first."""
    docs = sorted(p for p in (REPO / "docs").glob("*.md") if p.name != "bigtable.md")
    return [REPO / "README.md", REPO / "python" / "README.md", *docs]


def named_blocks():
    """(name, code) of every Python block of pages(), in page order."""
    blocks = []
    for page in pages():
        text = page.read_text()
        for n, part in enumerate(text.split("```python\n")[1:], start=1):
            blocks.append((f"{page.relative_to(REPO)} block {n}", part.split("```", 1)[0]))
    return blocks


def python_blocks():
    return [code for _, code in named_blocks()]


def test_there_are_examples():
    assert len(python_blocks()) >= 4


@pytest.mark.parametrize("i", range(len(python_blocks())))
def test_readme_example(i, tmp_path):
    os.chdir(tmp_path)
    name, code = named_blocks()[i]
    exec(compile(code, name, "exec"), {})


@pytest.mark.parametrize("i", range(len(python_blocks())))
def test_readme_example_runs_twice_in_one_place(i, tmp_path):
    """Examples are idempotent: a reader who runs one twice sees it pass twice."""
    os.chdir(tmp_path)
    name, code = named_blocks()[i]
    for _ in range(2):
        exec(compile(code, name, "exec"), {})
