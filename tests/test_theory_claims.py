"""The numbers quoted in the documentation (docs/*.rst), recomputed.

Each test pins a claim of docs/theory.rst, docs/editions.rst or docs/cli.rst,
so that a change in the library or the pages that breaks one fails here.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from fractions import Fraction

import pytest
from docs_pages import DOCS, cli_page_shows, run_page_examples

import riskmath as rm
from riskmath.cli import main as cli_main


def _load_fewer_dice():
    spec = importlib.util.spec_from_file_location("riskmath_docs_fewer_dice", DOCS / "fewer_dice.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


fewer_dice = _load_fewer_dice()


# -- One roll: the classic table ----------------------------------------------


@pytest.mark.parametrize(
    ("attacker_dice", "defender_dice", "counts"),
    [
        (1, 1, {(0, 1): 15, (1, 0): 21}),
        (2, 1, {(0, 1): 125, (1, 0): 91}),
        (3, 1, {(0, 1): 855, (1, 0): 441}),
        (1, 2, {(0, 1): 55, (1, 0): 161}),
        (2, 2, {(0, 2): 295, (1, 1): 420, (2, 0): 581}),
        (3, 2, {(0, 2): 2890, (1, 1): 2611, (2, 0): 2275}),
    ],
)
def test_classic_roll_table(attacker_dice, defender_dice, counts):
    total = 6 ** (attacker_dice + defender_dice)
    assert dict(rm.roll_odds(attacker_dice, defender_dice)) == {k: Fraction(n, total) for k, n in counts.items()}


def test_three_v_two_expected_losses():
    odds = rm.roll_odds(3, 2)
    assert odds.expected_defender_losses == Fraction(2797, 2592)
    assert round(float(odds.expected_defender_losses), 3) == 1.079
    assert round(float(odds.expected_attacker_losses), 3) == 0.921


# -- Tan (1997): the independence assumption -----------------------------------


def _enumerate_pairs(attacker_dice: int, defender_dice: int) -> dict[str, int]:
    """Brute force over every ordered throw: who wins the top and the second pair."""
    result = {"throws": 0, "top": 0, "second": 0, "both": 0, "neither": 0}
    for throw in itertools.product(range(1, 7), repeat=attacker_dice + defender_dice):
        attack = sorted(throw[:attacker_dice], reverse=True)
        defend = sorted(throw[attacker_dice:], reverse=True)
        top, second = attack[0] > defend[0], attack[1] > defend[1]
        result["throws"] += 1
        result["top"] += top
        result["second"] += second
        result["both"] += top and second
        result["neither"] += not top and not second
    return result


@pytest.mark.parametrize(
    ("attacker_dice", "top", "second", "both", "neither"),
    [(3, 3667, 4724, 2890, 2275), (2, 505, 505, 295, 581)],
)
def test_pair_counts_by_enumeration(attacker_dice, top, second, both, neither):
    counts = _enumerate_pairs(attacker_dice, 2)
    assert counts == {
        "throws": 6 ** (attacker_dice + 2),
        "top": top,
        "second": second,
        "both": both,
        "neither": neither,
    }
    # The exact joint distribution is what roll_odds gives.
    odds = rm.roll_odds(attacker_dice, 2)
    total = counts["throws"]
    assert odds[(0, 2)] == Fraction(both, total)
    assert odds[(2, 0)] == Fraction(neither, total)
    assert odds[(1, 1)] == Fraction(total - both - neither, total)


@pytest.mark.parametrize(
    ("attacker_dice", "independent", "exact", "covariance"),
    [
        # (defender loses 2, one each, attacker loses 2), rounded as on the theory page
        (3, (0.2865, 0.5061, 0.2074), (0.3717, 0.3358, 0.2926), 0.0852),
        (2, (0.1518, 0.4757, 0.3725), (0.2276, 0.3241, 0.4483), 0.0758),
    ],
)
def test_independence_model_vs_exact(attacker_dice, independent, exact, covariance):
    counts = _enumerate_pairs(attacker_dice, 2)
    n = counts["throws"]
    p1, p2 = Fraction(counts["top"], n), Fraction(counts["second"], n)
    model = (p1 * p2, p1 * (1 - p2) + (1 - p1) * p2, (1 - p1) * (1 - p2))
    truth = (
        Fraction(counts["both"], n),
        1 - Fraction(counts["both"] + counts["neither"], n),
        Fraction(counts["neither"], n),
    )
    assert tuple(round(float(x), 4) for x in model) == independent
    assert tuple(round(float(x), 4) for x in truth) == exact
    # Marginals agree, so both double losses are off by the covariance and the split by twice it.
    cov = truth[0] - model[0]
    assert round(float(cov), 4) == covariance
    assert truth[2] - model[2] == cov
    assert model[1] - truth[1] == 2 * cov


def test_independence_model_numbers_quoted_for_three_v_two():
    p1, p2 = Fraction(3667, 7776), Fraction(4724, 7776)
    exact_both = Fraction(2890, 7776)
    assert (1 - p1, 1 - p2) == (Fraction(4109, 7776), Fraction(3052, 7776))
    assert round(float(exact_both - p1 * p2), 4) == 0.0852
    assert round(float((exact_both - p1 * p2) / exact_both), 2) == 0.23  # "about 23 %"
    assert round(float(2 * (exact_both - p1 * p2)), 4) == 0.1703
    assert p2 == Fraction(1181, 1944)


# -- Stopping early -------------------------------------------------------------


@pytest.mark.parametrize(
    ("stop_at", "win", "attackers_left", "defender_losses", "rolls"),
    [
        (0, 0.5676, 2.692, 8.237, 8.213),
        (1, 0.5378, 2.945, 8.135, 7.859),
        (2, 0.4785, 3.454, 7.795, 7.410),
        (3, 0.3861, 3.919, 7.215, 6.818),
        (4, 0.2902, 4.531, 6.486, 6.125),
        (5, 0.2030, 5.178, 5.693, 5.339),
    ],
)
def test_stop_at_table(stop_at, win, attackers_left, defender_losses, rolls):
    b = rm.battle(10, 10, stop_at=stop_at)
    assert round(b.win_probability, 4) == win
    assert round(1 - b.win_probability, 4) == round(1 - win, 4)
    assert round(b.expected_attackers_left, 3) == attackers_left
    assert round(b.expected_defender_losses, 3) == defender_losses
    assert round(b.expected_rolls, 3) == rolls


def test_stop_at_can_end_below_the_threshold():
    final_attackers = set(rm.battle(10, 10, stop_at=3).outcomes.index.get_level_values("attackers"))
    assert 2 in final_attackers


# -- When would fewer dice pay? -------------------------------------------------

N_STATES = 30
N_DEVIATIONS = N_STATES * (1 + 2 * (N_STATES - 2))  # a = 1: none; a = 2: c = 1; a >= 3: c = 1, 2


@pytest.fixture(scope="module")
def exact_deviations():
    return {name: fewer_dice.all_deviations(N_STATES, name, exact=True) for name in fewer_dice.OBJECTIVES}


@pytest.mark.parametrize("objective", list(fewer_dice.OBJECTIVES))
def test_no_one_step_deviation_pays_in_float(objective):
    assert fewer_dice.one_step_deviations(N_STATES, objective) == []


@pytest.mark.parametrize("objective", list(fewer_dice.OBJECTIVES))
def test_max_dice_strictly_better_everywhere_exact(objective, exact_deviations):
    deviations = exact_deviations[objective]
    assert len(deviations) == N_DEVIATIONS == 1710
    assert fewer_dice.one_step_deviations(N_STATES, objective, exact=True) == []
    assert all(x.gain < 0 for x in deviations)


@pytest.mark.parametrize(
    ("objective", "closest", "margin", "costliest", "values", "digits"),
    [
        ("win_probability", (30, 1, 2), "4.6e-15", (3, 2, 1), (0.6560, 0.5036), 4),
        ("expected_attackers_left", (2, 30, 1), "2.5e-10", (29, 3, 2), (26.693, 26.127), 3),
        ("expected_defenders_left", (30, 1, 2), "4.6e-15", (3, 30, 1), (27.508, 28.252), 3),
    ],
)
def test_fewer_dice_table(objective, closest, margin, costliest, values, digits, exact_deviations):
    deviations = exact_deviations[objective]
    best = max(deviations, key=lambda x: x.gain)
    worst = min(deviations, key=lambda x: x.gain)
    assert (best.attackers, best.defenders, best.dice) == closest
    assert f"{float(-best.gain):.1e}" == margin
    assert (worst.attackers, worst.defenders, worst.dice) == costliest
    assert (round(float(worst.max_dice_value), digits), round(float(worst.deviation_value), digits)) == values


@pytest.mark.parametrize("objective", list(fewer_dice.OBJECTIVES))
def test_one_roll_with_max_dice_reproduces_the_table(objective):
    values = fewer_dice.max_dice_values(12, objective, exact=True)
    for a in range(1, 13):
        for d in range(1, 13):
            assert fewer_dice.one_roll_then_max(values, a, d, min(3, a), exact=True) == values[a, d]


def test_the_check_can_find_a_paying_deviation(monkeypatch):
    # An attacker that wanted to *lose* would throw fewer dice: the check must see that.
    monkeypatch.setitem(fewer_dice.OBJECTIVES, "win_probability", -1)
    paying = fewer_dice.one_step_deviations(5, "win_probability")
    assert (3, 2, 1) in {(x.attackers, x.defenders, x.dice) for x in paying}


def test_unknown_objective_is_rejected():
    with pytest.raises(ValueError, match="unknown objective"):
        fewer_dice.all_deviations(3, "expected_rolls")


# -- Editions ---------------------------------------------------------------------


def test_three_defender_dice_ten_v_ten():
    three = rm.CombatRules.three_defender_dice()
    assert round(rm.battle(10, 10, rules=three).win_probability, 4) == 0.1902
    assert rm.battle(10, 10, rules=three, exact=True).win_probability == Fraction(
        3086422200078227845747523836475935, 16223187446253017701294196480016384
    )
    odds = rm.roll_odds(3, 3)
    assert round(float(odds.expected_attacker_losses), 3) == 1.893
    assert round(float(odds.expected_defender_losses), 3) == 1.107


# -- The examples on the pages ------------------------------------------------------


@pytest.mark.parametrize("page", ["index.rst", "editions.rst", "theory.rst"])
def test_page_examples(page):
    result = run_page_examples(page)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["roll", "3", "2"],
        ["odds", "10", "10"],
        ["table", "--attackers", "5", "--defenders", "5", "--format", "markdown"],
    ],
)
def test_cli_page_shows_real_output(argv, capsys):
    assert cli_page_shows(argv, capsys)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "10", "0"], "riskmath: error: defenders must be >= 1, got 0"),
        (["roll", "3", "x"], "riskmath: error: argument defender_dice: expected a non-negative integer, got 'x'"),
    ],
)
def test_cli_page_errors(argv, message, capsys):
    assert cli_main(argv) == 2
    assert capsys.readouterr().err.strip() == message
    assert message in (DOCS / "cli.rst").read_text(encoding="utf-8")
