"""Huge blitzes are sampled in long blocks of rolls, with the battle's distribution and in bounded time."""

from __future__ import annotations

import hashlib
import itertools
import math
from fractions import Fraction

import pytest
from test_simulate import blitz_state

import riskmath as rm
from riskmath.game import chance
from riskmath.game.chance import HUGE_BLOCK, LONG_BLOCK, ROLL_BLOCK, _block, _huge_block, _long_block


def exact_block(combat: rm.CombatRules, rolls: int) -> list[Fraction]:
    """P(the attacker loses k armies in ``rolls`` rolls of the most dice), k = 0 .. rolls * pairs, exactly."""
    most_a, most_d = combat.attacker_max_dice, combat.defender_max_dice
    pairs = min(most_a, most_d)
    odds = combat.roll_odds(most_a, most_d)
    one = [Fraction(odds.get((i, pairs - i), 0)) for i in range(pairs + 1)]
    total = [Fraction(1)]
    for _ in range(rolls):
        total = [
            sum((total[k - i] * one[i] for i in range(pairs + 1) if 0 <= k - i < len(total)), Fraction(0))
            for k in range(len(total) + pairs)
        ]
    return total


@pytest.mark.parametrize(
    "combat",
    [rm.CombatRules(), rm.CombatRules(defender_max_dice=3), rm.CombatRules(attacker_sides=8, defender_sides=6)],
)
def test_long_blocks_are_the_exact_convolution(combat):
    # The float repeated squaring against the exact distribution of 64 rolls (same code path, smaller block).
    cumulative, low, span = _long_block(combat, 64)
    assert low == 0
    exact = exact_block(combat, 64)
    assert span == len(exact) - 1
    running = Fraction(0)
    for got, p in zip(cumulative, exact, strict=True):
        running += p
        assert got == pytest.approx(float(running), abs=1e-14)
    assert cumulative[-1] == pytest.approx(1.0, abs=1e-15)


def test_long_block_has_the_moments_of_its_rolls():
    # Losses over n independent rolls: mean n * mu and variance n * sigma^2 (classic 3 v 2 roll, [R1]).
    combat = rm.CombatRules()
    cumulative, low, span = _long_block(combat)
    assert low == 0
    assert span == 2 * LONG_BLOCK
    pmf = [cumulative[0]] + [b - a for a, b in itertools.pairwise(cumulative)]
    one = exact_block(combat, 1)
    mu = float(sum(k * p for k, p in enumerate(one)))
    var = float(sum(k * k * p for k, p in enumerate(one))) - mu * mu
    mean = sum(k * p for k, p in enumerate(pmf))
    second = sum(k * k * p for k, p in enumerate(pmf))
    assert mean == pytest.approx(LONG_BLOCK * mu, rel=1e-12)
    assert second - mean * mean == pytest.approx(LONG_BLOCK * var, rel=1e-9)
    assert _block(combat)[1] == 2 * ROLL_BLOCK


def one_roll_moments(combat: rm.CombatRules) -> tuple[float, float]:
    """Mean and variance of the attacker's losses in one roll of the most dice, from the exact odds."""
    one = exact_block(combat, 1)
    mu = sum(k * p for k, p in enumerate(one))
    return float(mu), float(sum(k * k * p for k, p in enumerate(one)) - mu * mu)


@pytest.mark.parametrize(
    "combat",
    [rm.CombatRules(), rm.CombatRules(defender_max_dice=3), rm.CombatRules(1, 1, 7, 6, ties="attacker")],
)
def test_huge_blocks_are_the_exact_convolution_without_their_far_tails(combat):
    # The same squaring, trimmed, from a base of 16 rolls to 64 rolls, against the exact distribution.
    cumulative, low, span = _huge_block(combat, 64, 16)
    exact = exact_block(combat, 64)
    assert span == len(exact) - 1
    assert sum(exact[:low]) < 1e-35  # only far tails left out
    assert sum(exact[low + len(cumulative) :]) < 1e-35
    running = sum(exact[:low], Fraction(0))
    for got, p in zip(cumulative, exact[low:], strict=False):
        running += p
        assert got == pytest.approx(float(running), abs=1e-14)
    assert cumulative[-1] == 1.0


@pytest.mark.parametrize("combat", [rm.CombatRules(), rm.CombatRules(defender_max_dice=3)])
def test_huge_block_has_the_moments_of_its_rolls(combat):
    # A million rolls: mean n * mu and variance n * sigma^2, as the sum of independent rolls must have.
    cumulative, low, span = _huge_block(combat)
    assert span == HUGE_BLOCK * min(combat.attacker_max_dice, combat.defender_max_dice)
    assert len(cumulative) < span / 50  # the far tails are dropped: some thirty standard deviations are kept
    pmf = [cumulative[0]] + [b - a for a, b in itertools.pairwise(cumulative)]
    mean = sum((low + k) * p for k, p in enumerate(pmf))
    second = sum((low + k - mean) ** 2 * p for k, p in enumerate(pmf))
    mu, var = one_roll_moments(combat)
    assert mean == pytest.approx(HUGE_BLOCK * mu, rel=1e-12)
    assert second == pytest.approx(HUGE_BLOCK * var, rel=1e-9)


def test_a_blitz_of_a_billion_a_side_takes_hundreds_of_draws(monkeypatch):
    # Huge blocks first, then long ones, then blocks of 16 rolls, then single rolls: each level stops within its
    # own span of the edge, so a billion a side is some 500 + 256 + 256 + 64 draws (it was 250,000 long blocks).
    draws = 0
    real_step = chance.step

    def counted(state: int) -> tuple[int, int]:
        nonlocal draws
        draws += 1
        return real_step(state)

    monkeypatch.setattr(chance, "step", counted)
    outcome = blitz_state(10**9 - 1, 10**9).sample_chance()
    assert outcome.defenders_left == 0 or outcome.attackers_left == 0
    assert 100 < draws < 2000


@pytest.mark.slow  # 1,500 draws of a 12,000-army blitz: about 5 s
def test_a_long_blitz_has_the_battle_win_probability():
    # 12,000 v 12,000 goes through long blocks first; its win rate over reseeded states matches the exact odds
    # within 4 standard errors (fixed seeds, so the test is deterministic).
    state = blitz_state(11_000, 12_900)
    n = 1500
    exact = rm.battle(11_000, 12_900)
    wins = left = 0
    for k in range(n):
        outcome = state.reseeded(k * 104_729 + 3).sample_chance()
        assert outcome.defenders_left == 0 or outcome.attackers_left == 0
        wins += outcome.defenders_left == 0
        left += outcome.attackers_left
    p = exact.win_probability
    assert abs(wins / n - p) < 4 * math.sqrt(p * (1 - p) / n)
    # The attacker's losses: mean and standard deviation from the exact chain.
    assert abs((11_000 - left / n) - exact.expected_attacker_losses) < 4 * exact.std_attacker_losses / math.sqrt(n)


@pytest.mark.parametrize(("attackers", "defenders", "stop_at"), [(10**9 - 1, 10**9, 0), (10**8, 3 * 10**8, 5 * 10**7)])
def test_a_blitz_of_a_billion_is_sampled(attackers, defenders, stop_at):
    outcome = blitz_state(attackers, defenders, stop_at).sample_chance()
    assert outcome.defenders_left == 0 or outcome.attackers_left <= stop_at
    assert 0 <= outcome.attackers_left <= attackers
    assert 0 <= outcome.defenders_left <= defenders


def test_battles_below_the_huge_blocks_draw_as_before_them():
    # Outcomes drawn by the code before huge blocks existed (same game, same stream): a million a side goes through
    # long blocks only, and a billion against a hundred thousand never clears a huge block's edge.
    game = rm.Game(3)
    assert chance.roll_out(game, 10**6, 10**6, 0, 12345) == rm.BattleOutcome(148_778, 0)
    assert chance.roll_out(game, 10**9, 10**5, 0, 12345) == rm.BattleOutcome(999_914_877, 0)


@pytest.mark.parametrize(
    ("combat", "digest"),
    [
        (rm.CombatRules(), "88391c209bb4869591d1"),
        (rm.CombatRules(defender_max_dice=3), "6dfd2bd0ae9452676e7a"),
        (rm.CombatRules(attacker_sides=8, defender_sides=6), "16310c9f466b0928d386"),
    ],
)
def test_long_block_tables_are_pinned(combat, digest):
    # Every float of the long blocks' cumulative table (a last-bit change can move a draw, and so a seeded game of
    # millions of armies).  Summed in a fixed order since 2026-12-03 (riskmath.odds._ordered), so the same on every
    # machine: numpy.convolve's BLAS dot product gave other floats under OpenBLAS's SkylakeX kernel than under its
    # Haswell kernel (tests/test_ordered.py runs both).
    assert hashlib.sha256(repr(_long_block(combat)[0]).encode()).hexdigest()[:20] == digest
