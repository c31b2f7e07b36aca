"""Shared fixtures and hypothesis settings for the riskmath tests."""

from __future__ import annotations

import json
import os
from pathlib import Path

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")

REFERENCE = Path(__file__).parent / "reference"

# Deterministic property tests: CI must not flake, and every run checks the same cases.
settings.register_profile(
    "riskmath",
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "riskmath"))


@pytest.fixture(scope="session")
def reference():
    """Load a reference file from tests/reference by name."""

    def load(name: str) -> dict:
        return json.loads((REFERENCE / name).read_text())

    return load
