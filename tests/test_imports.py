"""What ``import riskmath`` and ``riskmath odds`` load: NumPy for the odds, nothing heavier.

pandas, SciPy, matplotlib, tqdm and Dask cost from a tenth of a second to
several each; they are imported by the functions that use them.  Each check
runs in a fresh interpreter (this one has imported everything by now), and
asserts on the modules loaded, never on time (bench/imports.py times them).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

HEAVY = ("pandas", "scipy", "matplotlib", "tqdm", "dask")

# Runs the command line as ``python -m riskmath ...`` does, then prints which heavy modules were loaded.
_CLI = """
import runpy, sys
sys.argv = ["riskmath", *sys.argv[1:]]
try:
    runpy.run_module("riskmath", run_name="__main__", alter_sys=True)
finally:
    print(sorted(m for m in {heavy!r} if m in sys.modules))
"""


def _run(code: str, *args: str) -> list[str]:
    """The lines ``python -c code args`` prints (it must exit with status 0)."""
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_import_riskmath_loads_no_heavy_module():
    code = f"import riskmath, sys; print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    assert _run(code) == ["[]"]


def test_cli_odds_loads_no_heavy_module():
    lines = _run(_CLI.format(heavy=HEAVY), "odds", "10", "10")
    assert lines[0] == "10 attackers (armies able to attack) v 10 defenders"
    assert lines[1].split() == ["win_probability", "0.567593"]
    assert lines[-1] == "[]"


def test_import_riskmath_leaves_the_game_and_plots_for_later():
    later = ("riskmath.game", "riskmath.sim", "riskmath.plots")
    code = f"import riskmath, sys; print(sorted(m for m in {later!r} if m in sys.modules))"
    assert _run(code) == ["[]"]


def test_lazy_names_and_subpackages_resolve_in_a_fresh_process():
    code = """
import riskmath
assert set(riskmath.__all__) <= set(dir(riskmath))
for name in riskmath.__all__:
    exec(f"from riskmath import {name}")
from riskmath import agents, evaluate, plots, sim, tournament
from riskmath.game.game import Game
assert riskmath.Game is Game and riskmath.simulate is sim.simulate
assert riskmath.plots is plots and riskmath.tournament.tournament is tournament.tournament
try:
    riskmath.no_such_name
except AttributeError:
    print("ok")
"""
    assert _run(code) == ["ok"]


# Three threads make their first game, agent and evaluation at once, each through a lazily imported name,
# threads switched every microsecond; prints the errors (none expected).
_FIRST_USE_IN_THREADS = """
import sys, threading
sys.setswitchinterval(1e-6)
import riskmath as rm
errors = []
start = threading.Barrier(3)
def task(k):
    start.wait()
    try:
        if k == 0:
            rm.Game(2, max_turns=5)
        elif k == 1:
            rm.evaluate.win_probability(5, 3)
        else:
            rm.agents.OddsAgent()
    except BaseException as error:
        errors.append(type(error).__name__)
threads = [threading.Thread(target=task, args=(k,)) for k in range(3)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(errors)
"""


def test_first_use_of_the_lazy_subpackages_from_several_threads_at_once():
    # The game package's modules import one another: entered from two ends at once (a notebook's thread pool,
    # a threaded Dask worker), one thread got a half-made module (ImportError) or _DeadlockError.
    for _ in range(3):
        assert _run(_FIRST_USE_IN_THREADS) == ["[]"]


def test_riskmath_tournament_is_a_module_and_a_call():
    """``rm.tournament(...)`` reads as ``rm.simulate(...)``: the module is callable, its call the function."""
    import pandas.testing

    import riskmath as rm
    from riskmath.sim import tournaments

    game = rm.Game(2, board="south_america_africa", max_turns=30)
    called = rm.tournament(game, [["random", "aggressive"]], 4, seed=2)
    pandas.testing.assert_frame_equal(
        called.drop(columns="seconds_per_game"),
        tournaments.tournament(game, [["random", "aggressive"]], 4, seed=2).drop(columns="seconds_per_game"),
    )
    assert rm.tournament.tournament is tournaments.tournament
    assert rm.tournament.wilson_interval(2, 4) == tournaments.wilson_interval(2, 4)
    with pytest.raises(TypeError):
        rm.tournament(game)  # the function's own error for missing arguments


def test_rich_display_loads_the_renderers_on_first_use():
    code = """
import sys
import riskmath
assert "riskmath.plots.notebook" not in sys.modules
html = riskmath.battle(10, 10)._repr_html_()
print("0.5676" in html, "riskmath.plots.notebook" in sys.modules)
"""
    assert _run(code) == ["True True"]


SHAPES = [(0,), (1,), (2,), (7,), (31,), (32,), (33,), (200,), (0, 3), (5, 3), (10, 3), (11, 3)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("pairs", [1, 2, 3])
def test_the_scipy_free_recurrence_is_lfilter_bit_for_bit(shape, pairs):
    # Short recurrences are solved without scipy.signal (that import is over a second); the numbers must not move.
    from scipy.signal import lfilter as scipy_lfilter

    from riskmath.odds._sweeps import feedback, lfilter

    rng = np.random.default_rng(sum(shape) + pairs)
    for _ in range(20):
        x = rng.random(shape) * 10.0 ** rng.integers(-300, 300)
        q = float(rng.random())
        axis = 0 if len(shape) == 2 else -1
        for data in (x, x[::-1]):
            ours = lfilter([1.0], feedback(pairs, q), data, axis=axis)
            theirs = scipy_lfilter([1.0], feedback(pairs, q), data, axis=axis)
            assert ours.shape == theirs.shape
            assert ours.dtype == theirs.dtype
            assert ours.tobytes() == theirs.tobytes()


def test_deprecated_names_warn_and_still_work():
    # riskmath.Fraction left __all__ (it is the standard library's class); it still resolves, with a warning
    # naming what to use instead.
    import fractions

    import riskmath as rm

    assert "Fraction" not in rm.__all__
    with pytest.warns(DeprecationWarning, match=r"riskmath\.Fraction is deprecated: use fractions\.Fraction"):
        assert rm.Fraction is fractions.Fraction
    with pytest.raises(AttributeError, match="no attribute 'Fractions'"):
        _ = rm.Fractions


def test_battles_of_thousands_and_their_tables_load_no_scipy():
    # The first battle over 32 a side used to import scipy.signal (about 0.75 s) for its edge recurrences; up to
    # 65,536 numbers they are solved in Python, bit for bit (the test below), while scipy.signal is not loaded.
    code = """
import sys
import riskmath
riskmath.battle(1000, 1000).win_probability
riskmath.battle(300, 4).win_probability
riskmath.battle_statistics(300, 300, ("win_probability", "expected_rolls"))
print(sorted(m for m in sys.modules if m.startswith("scipy")))
"""
    assert _run(code) == ["[]"]


@pytest.mark.parametrize("shape", [(33,), (1000,), (40, 1), (257, 3), (0, 2)])
@pytest.mark.parametrize("pairs", [1, 2, 3])
def test_the_recurrence_without_scipy_loaded_is_lfilter_bit_for_bit(monkeypatch, shape, pairs):
    # This process has scipy.signal loaded: pretend it has not, so that the Python loop answers above 32 numbers.
    from scipy.signal import lfilter as scipy_lfilter

    from riskmath.odds import _sweeps

    monkeypatch.setattr(_sweeps, "signal_loaded", lambda: False)
    rng = np.random.default_rng(len(shape) * 1000 + shape[0] + pairs)
    for _ in range(5):
        x = rng.random(shape) * 10.0 ** rng.integers(-300, 300)
        q = float(rng.random())
        axis = 0 if len(shape) == 2 else -1
        for data in (x, x[::-1]):
            ours = _sweeps.lfilter([1.0], _sweeps.feedback(pairs, q), data, axis=axis)
            theirs = scipy_lfilter([1.0], _sweeps.feedback(pairs, q), data, axis=axis)
            assert ours.shape == theirs.shape
            assert ours.tobytes() == theirs.tobytes()


def test_the_oldest_python_is_named_alike_everywhere():
    # pyproject's floor, the linter's target and the install page agree, and this interpreter meets them
    # (riskmath 0.1 imported nothing on 3.10 while declaring it: typing.Self is new in 3.11).
    import re
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    floor = project["project"]["requires-python"]
    major, minor = map(int, re.fullmatch(r">=(\d+)\.(\d+)", floor).groups())  # type: ignore[union-attr]
    assert project["tool"]["ruff"]["target-version"] == f"py{major}{minor}"
    assert f"Python :: {major}.{minor}" in " ".join(project["project"]["classifiers"])
    page = (root / "docs" / "getting_started.rst").read_text(encoding="utf-8")
    assert f"riskmath needs Python {major}.{minor} or later" in page
    assert sys.version_info >= (major, minor)


# Each optional framework hidden (an entry of None in sys.modules makes its import fail as a missing one does).
_MISSING = """
import sys
for name in sys.argv[2:]:
    sys.modules[name] = None
try:
    __import__(sys.argv[1])
except ModuleNotFoundError as error:
    print(error.name)
    print(error)
"""


@pytest.mark.parametrize(
    ("module", "hidden", "install"),
    [
        ("riskmath.envs.gymnasium", ["gymnasium"], "pip install gymnasium, or install riskmath with its [gymnasium"),
        ("riskmath.envs.pettingzoo", ["pettingzoo"], "pip install pettingzoo, or install riskmath with its [pettingz"),
        ("riskmath.envs.openspiel", ["pyspiel"], "pip install open_spiel, or install riskmath with its [openspiel"),
    ],
)
def test_a_missing_framework_is_named_with_how_to_install_it(module, hidden, install):
    name, message = _run(_MISSING, module, *hidden)
    assert name == hidden[0]  # as Python's own error: code catching ModuleNotFoundError by name still can
    assert message.startswith(f"{module} needs ")
    assert install in message
