"""The command line under hostile arguments (issue 11, class 1 and 7 for the odds verbs).

Each verb runs as ``python -m riskmath ...`` in a child process limited to
1.5 GiB of address space and 60 seconds: whatever the arguments (huge,
negative, non-numeric, 5000-digit numbers, exotic floats), it exits with
status 2 and exactly one line on stderr, never a traceback.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

GiB = 2**30
LIMIT = 3 * GiB // 2
TIMEOUT = 60

try:
    import resource
except ImportError:  # not a POSIX system
    resource = None  # type: ignore[assignment]


def _limit_memory() -> None:
    assert resource is not None
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "riskmath", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=_limit_memory if resource is not None else None,
        check=False,
    )


def assert_refused(*args: str) -> str:
    result = run(*args)
    shown = " ".join(args)[:200]
    assert "Traceback" not in result.stderr, f"{shown}: {result.stderr[-2000:]}"
    assert result.returncode == 2, f"{shown}: exit {result.returncode}, stderr {result.stderr[-500:]}"
    lines = result.stderr.splitlines()
    assert len(lines) == 1, f"{shown}: {result.stderr[-2000:]}"
    assert lines[0].startswith("riskmath: error: ")
    assert len(lines[0]) < 600
    return lines[0]


HUGE = "1" + "0" * 5000  # 10**5000, 5001 characters
BAD_NUMBERS = [HUGE, "-" + HUGE, "-1", "1e9", "nan", "inf", "-inf", "1.5", "0x10", "", "ten", "1_000_000" * 50]

#: Hostile argument lists: each must be refused with one line and status 2.
FAMILY = [
    ["odds", "100000", "100000"],
    ["odds", "1000000000", "3"],
    ["odds", "3", "1000000000"],
    ["odds", "3000", "3000", "--exact"],
    ["odds", "5", "5", "--attacker-max-dice", "20", "--defender-max-dice", "20", "--attacker-sides", "1000"],
    ["odds", "5", "5", "--attacker-sides", "1001"],
    ["roll", "20", "20", "--attacker-sides", "1000", "--defender-sides", "1000"],
    ["roll", "21", "2"],
    ["table", "--attackers", "20000", "--defenders", "20000"],
    ["table", "--attackers", "1000", "--defenders", "1000", "--exact"],
    ["table", "--attackers", "5", "--defenders", "5", "--stat", "x" * 5000],
    ["conquest", "1000000", "1000000", "1000000"],
    ["conquest", "100000", *["3"] * 2000],
    ["conquest", "3000", "3000", "--exact"],
    ["need", "1000000000", "--p", "0.9"],
    ["need", "3", "--p", "1e-99999999"],
    ["need", "3", "--p", "0." + "9" * 5000],
    ["need", "3", "--p", "1/0"],
    ["policy", "100000", "100000"],
    ["policy", "2000", "2000"],
    ["policy", "500", "500", "--exact"],
]
FAMILY += [["odds", bad, "3"] for bad in BAD_NUMBERS]
FAMILY += [["roll", "3", bad] for bad in BAD_NUMBERS]
FAMILY += [["table", "--attackers", bad] for bad in BAD_NUMBERS]
FAMILY += [["conquest", "10", "3", bad] for bad in BAD_NUMBERS]
FAMILY += [["need", "3", "2", "--p", bad] for bad in BAD_NUMBERS]
FAMILY += [["policy", bad, bad] for bad in BAD_NUMBERS]


@pytest.mark.slow
@pytest.mark.parametrize("args", FAMILY, ids=lambda args: " ".join(args)[:60])
def test_hostile_arguments_give_one_line_and_status_2(args):
    assert_refused(*args)


def test_issue_example_is_one_line():
    line = assert_refused("odds", "100000", "100000")
    assert "74.5 GiB" in line
    assert "memory limit" in line


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(
    verb=st.sampled_from(["odds", "policy"]),
    a=st.integers(10**5, 10**40),
    d=st.integers(10**5, 10**40),
    exact=st.booleans(),
)
def test_generated_huge_battles_are_refused(verb, a, d, exact):
    assert_refused(verb, str(a), str(d), *(["--exact"] if exact else []))


def test_small_calls_still_work_under_the_limit():
    result = run("odds", "10", "10")
    assert result.returncode == 0, result.stderr
    assert "win_probability" in result.stdout
