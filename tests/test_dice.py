"""One roll of the dice: exact tables against enumeration and published figures."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import riskmath as rm
from riskmath.odds.dice import count_pair_wins


def enumerate_counts(na: int, nd: int, sa: int, sd: int, attacker_wins_ties: bool) -> tuple[int, ...]:
    """Count throws by pairs won, listing every ordered throw (the slow, obvious way)."""
    counts = [0] * (min(na, nd) + 1)
    for attack in itertools.product(range(1, sa + 1), repeat=na):
        high_a = sorted(attack, reverse=True)
        for defend in itertools.product(range(1, sd + 1), repeat=nd):
            high_d = sorted(defend, reverse=True)
            won = sum(x > y or (attacker_wins_ties and x == y) for x, y in zip(high_a, high_d, strict=False))
            counts[won] += 1
    return tuple(counts)


class TestAgainstEnumeration:
    @pytest.mark.parametrize(("na", "nd"), [(a, d) for a in (1, 2, 3) for d in (1, 2)])
    @pytest.mark.parametrize("ties", ["defender", "attacker"])
    def test_classic_dice_counts(self, na, nd, ties):
        assert count_pair_wins(na, nd, 6, 6, ties == "attacker") == enumerate_counts(na, nd, 6, 6, ties == "attacker")

    @pytest.mark.parametrize(
        ("na", "nd", "sa", "sd"),
        [(3, 3, 6, 6), (4, 2, 4, 5), (2, 4, 3, 2), (1, 3, 8, 8), (5, 3, 3, 3), (3, 2, 2, 9), (4, 4, 3, 4)],
    )
    @pytest.mark.parametrize("attacker_wins_ties", [False, True])
    def test_variants(self, na, nd, sa, sd, attacker_wins_ties):
        assert count_pair_wins(na, nd, sa, sd, attacker_wins_ties) == enumerate_counts(
            na, nd, sa, sd, attacker_wins_ties
        )

    @pytest.mark.slow  # 60 enumerations of up to 5^8 throws; test_variants covers fixed cases
    @given(
        na=st.integers(1, 4),
        nd=st.integers(1, 4),
        sa=st.integers(2, 5),
        sd=st.integers(2, 5),
        attacker_wins_ties=st.booleans(),
    )
    def test_random_small_configurations(self, na, nd, sa, sd, attacker_wins_ties):
        expected = enumerate_counts(na, nd, sa, sd, attacker_wins_ties)
        assert count_pair_wins(na, nd, sa, sd, attacker_wins_ties) == expected


def test_published_and_enumerated_reference(reference):
    data = reference("roll_odds_enumerated.json")
    for key, rows in data["tables"].items():
        na, nd = map(int, key.split(","))
        odds = rm.roll_odds(na, nd)
        assert dict(odds) == {(a, d): Fraction(n, den) for a, d, n, den in rows}


def test_osborne_per_roll_figures():
    """Per-roll probabilities as printed to 3 decimals in Osborne (2003)."""
    printed = {
        (1, 1): {(0, 1): 0.417, (1, 0): 0.583},
        (1, 2): {(0, 1): 0.255, (1, 0): 0.745},
        (2, 1): {(0, 1): 0.579, (1, 0): 0.421},
        (2, 2): {(0, 2): 0.228, (1, 1): 0.324, (2, 0): 0.448},
        (3, 2): {(0, 2): 0.372, (1, 1): 0.336, (2, 0): 0.293},
    }
    for dice, table in printed.items():
        odds = rm.roll_odds(*dice)
        for losses, p in table.items():
            assert float(odds[losses]) == pytest.approx(p, abs=5e-4)


class TestRollOdds:
    def test_mapping_interface_and_order(self):
        odds = rm.roll_odds(3, 2)
        assert list(odds) == [(0, 2), (1, 1), (2, 0)]
        assert len(odds) == 3
        assert sum(odds.values()) == 1
        assert odds.comparisons == 2
        assert odds.expected_attacker_losses + odds.expected_defender_losses == 2

    def test_to_frame(self):
        frame = rm.roll_odds(2, 2).to_frame()
        assert list(frame.index.names) == ["attacker_losses", "defender_losses"]
        assert frame["probability"].sum() == pytest.approx(1.0)
        assert frame.loc[(0, 2), "probability"] == pytest.approx(295 / 1296)
        exact = rm.roll_odds(2, 2).to_frame(exact=True)
        assert exact.loc[(0, 2), "probability"] == Fraction(295, 1296)

    def test_repr_round_trips(self):
        odds = rm.roll_odds(2, 3, attacker_sides=8, ties="attacker")
        assert repr(odds) == "RollOdds(2, 3, attacker_sides=8, ties='attacker')"
        assert dict(eval(repr(odds), {"RollOdds": rm.RollOdds})) == dict(odds)
        assert "(0, 2)" in str(odds)

    def test_ties_to_attacker_mirror_ties_to_defender(self):
        # With equal hands and dice, giving ties to the attacker swaps the roles exactly.
        for n in range(1, 5):
            to_defender = rm.roll_odds(n, n)
            to_attacker = rm.roll_odds(n, n, ties="attacker")
            for (a, d), p in to_defender.items():
                assert to_attacker[(d, a)] == p

    def test_ten_dice_hundred_sides_is_a_distribution(self):
        odds = rm.roll_odds(10, 10, attacker_sides=100, defender_sides=100)
        assert sum(odds.values()) == 1
        assert len(odds) == 11
        assert all(p > 0 for p in odds.values())

    @given(na=st.integers(1, 6), nd=st.integers(1, 6), sa=st.integers(2, 30), sd=st.integers(2, 30))
    def test_probabilities_sum_to_one(self, na, nd, sa, sd):
        odds = rm.roll_odds(na, nd, attacker_sides=sa, defender_sides=sd)
        assert sum(odds.values()) == 1
        assert all(p > 0 for p in odds.values())

    @given(n=st.integers(1, 4), sides=st.integers(2, 12))
    def test_one_die_more_never_hurts_the_attacker(self, n, sides):
        # Adding an attacking die can only raise the sorted top dice, so the
        # expected defender losses (with the same number of compared pairs) rise.
        fewer = rm.roll_odds(n, n, attacker_sides=sides, defender_sides=sides)
        more = rm.roll_odds(n + 1, n, attacker_sides=sides, defender_sides=sides)
        assert more.expected_defender_losses > fewer.expected_defender_losses


class TestBadInput:
    @pytest.mark.parametrize(
        ("args", "kwargs", "fragment"),
        [
            ((0, 2), {}, "attacker_dice must be >= 1, got 0"),
            ((3, 0), {}, "defender_dice must be >= 1, got 0"),
            ((-1, 2), {}, "attacker_dice must be >= 1, got -1"),
            ((2.0, 2), {}, "attacker_dice must be an integer, got 2.0"),
            ((True, 2), {}, "attacker_dice must be an integer, got True"),
            (("3", 2), {}, "attacker_dice must be an integer, got '3'"),
            ((3, 2), {"attacker_sides": 1}, "attacker_sides must be >= 2, got 1"),
            ((3, 2), {"defender_sides": 10_000}, "defender_sides must be <= 1000, got 10000"),
            ((3, 2), {"ties": "nobody"}, "ties must be one of 'defender', 'attacker'; got 'nobody'"),
            ((21, 2), {}, "attacker_dice must be <= 20, got 21"),
        ],
    )
    def test_roll_odds_rejects(self, args, kwargs, fragment):
        with pytest.raises(rm.InvalidArgumentError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
            rm.roll_odds(*args, **kwargs)

    def test_errors_are_value_errors(self):
        with pytest.raises(ValueError, match="attacker_dice"):
            rm.roll_odds(0, 1)

    @pytest.mark.parametrize(
        ("kwargs", "fragment"),
        [
            ({"attacker_max_dice": 0}, "attacker_max_dice must be an integer in 1..20, got 0"),
            ({"defender_max_dice": 2.5}, "defender_max_dice must be an integer in 1..20, got 2.5"),
            ({"attacker_sides": 1}, "attacker_sides must be an integer in 2..1000, got 1"),
            ({"ties": "coin"}, "ties must be 'defender' or 'attacker', got 'coin'"),
        ],
    )
    def test_combat_rules_rejects(self, kwargs, fragment):
        with pytest.raises(rm.RulesError, match=fragment):
            rm.CombatRules(**kwargs)


class TestCombatRules:
    def test_classic_defaults(self):
        rules = rm.CombatRules.classic()
        assert rules == rm.CombatRules()
        assert (rules.attacker_dice(10), rules.attacker_dice(2), rules.defender_dice(1), rules.defender_dice(5)) == (
            3,
            2,
            1,
            2,
        )

    def test_is_immutable_and_hashable(self):
        rules = rm.CombatRules()
        with pytest.raises(AttributeError):
            rules.ties = "attacker"  # type: ignore[misc]
        assert {rules: 1}[rm.CombatRules.classic()] == 1

    def test_roll_odds_uses_the_rules(self):
        rules = rm.CombatRules(attacker_sides=8, ties="attacker")
        assert dict(rules.roll_odds(2, 1)) == dict(rm.roll_odds(2, 1, attacker_sides=8, ties="attacker"))
