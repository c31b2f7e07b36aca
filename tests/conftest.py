"""Shared fixtures and hypothesis settings for the riskmath tests."""

from __future__ import annotations

import gc
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
# The quick tier (make test-fast sets HYPOTHESIS_PROFILE=fast): the same, with 10 examples where a test does not
# set its own number.  make test, as CI runs it, keeps the default profile.
settings.register_profile("fast", settings.get_profile("riskmath"), max_examples=10)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "riskmath"))


# The cyclic garbage collector's full passes walk every object alive, and the tests keep many (the engine's
# tables, cached games and their states): hundreds of thousands by the end, a tenth of a second a pass.  What a
# file leaves alive when it is done is collected once and frozen out of the collector (reference counting still
# frees it), so later passes walk only what later files make.  Collection's objects are frozen the same way.


def _collect_and_freeze() -> None:
    gc.collect()  # walks only what is not frozen yet; nothing dead is kept
    gc.freeze()


def pytest_collection_finish(session):
    _collect_and_freeze()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    if nextitem is None or nextitem.path != item.path:
        _collect_and_freeze()


@pytest.fixture(scope="session")
def reference():
    """Load a reference file from tests/reference by name."""

    def load(name: str) -> dict:
        return json.loads((REFERENCE / name).read_text())

    return load


#: Test files that start process pools, send signals or time hangs: ``make test`` runs them on their own, in one
#: process after the rest (which it spreads over pytest-xdist workers), so that their hang checks and worker
#: counts never compete with other tests for the machine's cores.
SERIAL_FILES = frozenset(
    {
        "test_cli_outlook.py",
        "test_examples.py",
        "test_rollouts.py",
        "test_simulate.py",
        "test_tournament.py",
        "test_odds_hostile.py",
        "test_outputs.py",
        "test_simulation_hostile.py",
    }
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in SERIAL_FILES:
            item.add_marker(pytest.mark.serial)
