"""Shared set-up: the test size, hypothesis's examples per property, and the
repository's paths.

LEXIKEY_TEST_SIZE (scripts/lib.sh) picks the sizes: ``ci`` (the default, what
scripts/test.sh and CI run) gives 300 examples per property and a 50,000-row
Spark job; ``full`` (scripts/test.sh --full) 2,000 examples and 1,000,000
rows. LEXIKEY_PY_EXAMPLES overrides the examples while iterating."""

import os
import pathlib

from hypothesis import HealthCheck, settings

FULL = os.environ.get("LEXIKEY_TEST_SIZE", "ci") == "full"


def size(ci: int, full: int) -> int:
    """The CI or the full size of a test, as LEXIKEY_TEST_SIZE says."""
    return full if FULL else ci


settings.register_profile(
    "lexikey",
    max_examples=int(os.environ.get("LEXIKEY_PY_EXAMPLES", str(size(300, 2000)))),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=os.environ.get("LEXIKEY_PY_RANDOM") is None,
)
settings.load_profile("lexikey")

REPO = pathlib.Path(__file__).resolve().parents[2]
