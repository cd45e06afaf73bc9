"""The type stubs pass `mypy --strict` on the examples and the README's
Python blocks (written out by test_readme)."""

import pathlib
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def test_mypy_strict_on_examples(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed (scripts/test.sh installs it)")
    from test_readme import python_blocks

    files = sorted((HERE.parent / "examples").glob("*.py")) + [HERE.parent / "bench.py"]
    for i, block in enumerate(python_blocks()):
        f = tmp_path / f"readme_{i}.py"
        f.write_text(block)
        files.append(f)
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports", "--no-incremental", *map(str, files)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
