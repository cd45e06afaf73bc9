"""The README's "From Python" examples, run as they are written (each in a
fresh directory)."""

import os

import pytest

from conftest import REPO


def python_blocks():
    text = (REPO / "README.md").read_text()
    start = text.index("\n## From Python")
    end = text.index("\n## ", start + 1)
    section = text[start:end]
    blocks = []
    for part in section.split("```python\n")[1:]:
        blocks.append(part.split("```", 1)[0])
    return blocks


def test_there_are_examples():
    assert len(python_blocks()) >= 3


@pytest.mark.parametrize("i", range(len(python_blocks())))
def test_readme_example(i, tmp_path):
    os.chdir(tmp_path)
    exec(compile(python_blocks()[i], f"README.md From Python block {i + 1}", "exec"), {})


@pytest.mark.parametrize("i", range(len(python_blocks())))
def test_readme_example_runs_twice_in_one_place(i, tmp_path):
    """Examples are idempotent: a reader who runs one twice sees it pass twice."""
    os.chdir(tmp_path)
    for _ in range(2):
        exec(compile(python_blocks()[i], f"README.md From Python block {i + 1}", "exec"), {})
