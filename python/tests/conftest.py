"""Shared set-up: hypothesis runs 2,000 examples per property (override with
LEXIKEY_PY_EXAMPLES while iterating), and the repository's paths."""

import os
import pathlib

from hypothesis import HealthCheck, settings

settings.register_profile(
    "lexikey",
    max_examples=int(os.environ.get("LEXIKEY_PY_EXAMPLES", "2000")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=os.environ.get("LEXIKEY_PY_RANDOM") is None,
)
settings.load_profile("lexikey")

REPO = pathlib.Path(__file__).resolve().parents[2]
