"""The type stubs pass `mypy --strict` on the examples and the
documentation's Python blocks (python/README.md and the others that
test_readme runs, written out by test_readme)."""

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
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_on_typed_keys(tmp_path):
    """encode's return type follows the format literal; the aliases exist."""
    pytest.importorskip("mypy", reason="mypy is not installed (scripts/test.sh installs it)")
    f = tmp_path / "typed.py"
    f.write_text(
        "import lexikey\n"
        "k: str = lexikey.encode(['population', 3831868])\n"
        "b: bytes = lexikey.encode(['users', 42], 'fdb-tuple')\n"
        "h: str = lexikey.encode(['x'], format='base64')\n"
        "any_key: lexikey.Key = lexikey.encode(['x'], format='hex')\n"
        "c: lexikey.ComponentArg = ('i64', 5)\n"
    )
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(f)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_star_import_keeps_the_builtin_range_and_the_aliases_exist():
    import builtins

    import lexikey

    ns: dict[str, object] = {}
    exec("from lexikey import *", ns)
    assert "range" not in ns and ns.get("encode") is lexikey.encode
    for name in ["Key", "Value", "ComponentArg", "KeyArg"]:
        assert hasattr(lexikey, name), name
    assert builtins.range is range


def test_stubtest_is_clean():
    """The stubs say what the module has (mypy's stubtest)."""
    pytest.importorskip("mypy", reason="mypy is not installed (scripts/test.sh installs it)")
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "lexikey", "--allowlist", str(HERE / "stubtest-allowlist.txt")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr
