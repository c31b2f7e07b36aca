"""The shared caches behind small battles and the agents' odds: a hit gives exactly what a computation gives."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import combat_rules
from threads import in_threads

import riskmath as rm
from riskmath.evaluate import _routes
from riskmath.odds import _battle_cache, _odds_grids, battles
from riskmath.odds.battles import STATISTICS, battle_cache_info, clear_battle_cache
from riskmath.odds.dice import CombatRules


def everything(b: rm.Battle) -> dict[str, object]:
    """Every statistic (None where undefined) and the whole final distribution, as plain values."""
    values: dict[str, object] = {}
    for name in (*STATISTICS, "variance_attacker_losses", "variance_defender_losses"):
        try:
            values[name] = getattr(b, name)
        except rm.UndefinedStatisticError:
            values[name] = None
    values["outcomes"] = list(b.outcomes.items())
    values["repr"] = repr(b)
    values["inputs"] = (b.attackers, b.defenders, b.stop_at, b.exact, b.rules)
    return values


@settings(max_examples=60, deadline=None)
@given(
    attackers=st.integers(0, 30),
    defenders=st.integers(1, 30),
    stop_at=st.integers(0, 5),
    exact=st.booleans(),
    rules=st.one_of(st.none(), combat_rules),
)
def test_a_cached_battle_equals_a_computed_one(attackers, defenders, stop_at, exact, rules):
    if exact and rules is not None and rules.attacker_sides * rules.defender_sides > 25:
        exact = False  # (exact sweeps with big dice are slow; the float path covers those rules)
    clear_battle_cache()
    computed = rm.battle(attackers, defenders, stop_at=stop_at, exact=exact, rules=rules)
    first = everything(computed)
    assert battle_cache_info()["entries"] == 1
    cached = rm.battle(attackers, defenders, stop_at=stop_at, exact=exact, rules=rules)
    assert cached is not computed
    assert cached._shared is computed._shared  # it was a hit
    assert everything(cached) == first  # == on floats: bit for bit; on Fractions: exactly
    # and a hit after the statistics were computed once serves them without recomputing
    again = rm.battle(attackers, defenders, stop_at=stop_at, exact=exact, rules=rules)
    assert "win_probability" in vars(again)
    assert everything(again) == first
    if exact:
        assert all(isinstance(p, Fraction) for _, p in first["outcomes"])


def test_equal_rules_share_entries_and_other_rules_do_not():
    clear_battle_cache()
    classic = rm.battle(5, 5)
    assert rm.battle(5, 5, rules=rm.CombatRules())._shared is classic._shared
    three = rm.battle(5, 5, rules=rm.CombatRules.three_defender_dice())
    assert three._shared is not classic._shared
    assert three.win_probability < classic.win_probability
    assert rm.battle(5, 5, exact=True)._shared is not classic._shared
    assert rm.battle(5, 5, stop_at=1)._shared is not classic._shared
    # the same dice asked by a preset's name or by rules carrying them share the entry too (they were computed
    # again on every call)
    assert rm.battle(5, 5, rules="risiko")._shared is three._shared
    assert rm.battle(5, 5, rules=rm.Rules.preset("french_1957"))._shared is three._shared
    assert rm.battle(5, 5, rules="us_1993")._shared is classic._shared
    assert rm.battle(5, 5, rules=rm.Rules())._shared is classic._shared


@pytest.mark.parametrize("bad", [5.0, True, Fraction(5), "5", None, -1])
def test_a_bad_argument_is_refused_even_when_an_equal_key_is_cached(bad):
    rm.battle(5, 5)
    rm.battle(1, 5)
    with pytest.raises(rm.InvalidArgumentError):
        rm.battle(bad, 5)
    with pytest.raises(rm.InvalidArgumentError):
        rm.battle(5, 5, exact=1)


def test_a_cached_battle_is_still_refused_under_lower_limits():
    rm.battle(200, 200, exact=True)  # cached under the default limits
    with pytest.raises(rm.ResourceLimitError, match="would take about"), rm.set_limits(max_seconds=1e-9):
        rm.battle(200, 200, exact=True)
    with pytest.raises(rm.ResourceLimitError, match="needs about"), rm.set_limits(max_memory=1024):
        rm.battle(200, 200)


def test_the_cache_stays_within_its_budget(monkeypatch):
    clear_battle_cache()
    monkeypatch.setattr(battles, "BATTLE_CACHE_BYTES", 200_000)
    rng = random.Random(3)
    for _ in range(300):
        rm.battle(rng.randint(1, 60), rng.randint(1, 60), exact=rng.random() < 0.1)
        info = battle_cache_info()
        assert info["bytes"] <= info["limit"] == 200_000
    assert 0 < info["entries"] < 300
    held = sum(r.nbytes for r in _battle_cache._RESULTS.values())
    assert held == pytest.approx(info["bytes"])  # the running total is the sum of the entries
    rm.battle(1000, 1000)  # too big a share of this budget: computed, not kept
    assert battle_cache_info()["bytes"] <= 200_000
    clear_battle_cache()
    assert battle_cache_info() == {"entries": 0, "bytes": 0.0, "limit": 200_000.0}


def test_the_oldest_entries_go_first(monkeypatch):
    clear_battle_cache()
    sizes = [_battle_cache._RESULTS[(a, 1, 0, False, 0)].nbytes for a in range(1, 12) if rm.battle(a, 1)]
    clear_battle_cache()
    monkeypatch.setattr(battles, "BATTLE_CACHE_BYTES", int(sum(sizes[1:])))  # room for all but the first
    for a in range(1, 12):
        rm.battle(a, 1)
    assert [key[:2] for key in _battle_cache._RESULTS] == [(a, 1) for a in range(2, 12)]


@settings(max_examples=40, deadline=None)
@given(attackers=st.integers(-2, 80), defenders=st.integers(-2, 80), rules=st.one_of(st.none(), combat_rules))
def test_agent_odds_from_the_memo_equal_the_grids(attackers, defenders, rules):
    """win_probability reads small battles from a Python copy of the same grid the slow path reads."""
    combat = rules if rules is not None else rm.CombatRules()
    fast = _odds_grids.win_probability(attackers, defenders, rules)
    slow = _odds_grids._win_probability(attackers, defenders, combat)
    assert fast == slow
    if attackers >= 1 and defenders >= 1:
        assert fast == pytest.approx(rm.battle(attackers, defenders, rules=rules).win_probability, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(
    attackers=st.integers(1, 60),
    defenders=st.lists(st.integers(1, 8), min_size=1, max_size=4),
    rules=st.one_of(st.none(), combat_rules),
)
def test_agent_chain_odds_from_the_memo_equal_a_computation(attackers, defenders, rules):
    combat = rules if rules is not None else rm.CombatRules()
    first = _odds_grids.chain_win_probability(attackers, tuple(defenders), rules)
    assert _odds_grids.chain_win_probability(attackers, tuple(defenders), rules) == first
    assert first == _odds_grids._chain_win_probability(attackers, tuple(defenders), combat)


@settings(max_examples=60, deadline=None)
@given(
    attackers=st.integers(2, 70),
    path=st.lists(st.integers(0, 9), min_size=2, max_size=7),
    rules=st.one_of(st.none(), combat_rules),
    order=st.randoms(use_true_random=False),
)
def test_chains_resumed_from_a_remembered_prefix_equal_chains_computed_whole(attackers, path, rules, order):
    # The agents ask many paths that start alike: a chain picks up from the force after the longest prefix of
    # its path already computed with the same stack.  Every prefix, asked in a random order (so that some
    # resume and some do not), must equal the same chain computed with nothing remembered, to the last bit.
    combat = rules if rules is not None else rm.CombatRules()
    compute = _odds_grids._chain_win_probability
    tables = _odds_grids._battles(combat, _odds_grids._size(attackers))
    prefixes = [tuple(path[:k]) for k in range(2, len(path) + 1)]
    order.shuffle(prefixes)
    resumed = {p: compute(attackers, p, combat) for p in prefixes}
    whole = {}
    for p in prefixes:
        tables.prefixes.clear()
        whole[p] = compute(attackers, p, combat)
    assert resumed == whole


def test_the_remembered_prefixes_are_bounded_and_counted(monkeypatch):
    tables = _odds_grids._battles(CombatRules(), 64)
    compute = _odds_grids._chain_win_probability
    expected = compute(30, (2, 3, 1, 2, 4), CombatRules())
    monkeypatch.setattr(tables, "prefixes_kept", 2)  # dropped when full, and the answers stay the same
    for _ in range(3):
        assert compute(30, (2, 3, 1, 2, 4), CombatRules()) == expected
        assert len(tables.prefixes) <= 2
    before = tables.nbytes()
    tables.prefixes[(999, (1, 2))] = np.zeros(65)
    assert tables.nbytes() - before == 65 * 8  # counted with the tables against their budget
    del tables.prefixes[(999, (1, 2))]


def _reference_search(nbrs, targets, starts):
    """The route search as ``longest_paths`` states it, in plain Python with sets (no masks, no shortcuts)."""
    best, best_len, budget, total = [], 0, _routes.SEARCH_LIMIT, len(targets)

    def extend(path, free):
        nonlocal best_len, budget
        budget -= 1
        if len(path) > best_len:
            best_len, best[:] = len(path), [tuple(path)]
        elif len(path) == best_len and len(best) < _routes.ROUTES_TRIED:
            best.append(tuple(path))
        if best_len == total and len(best) >= _routes.ROUTES_TRIED:
            return True
        ranked = sorted((sum(v in free for v in nbrs[u]), u) for u in nbrs[path[-1]] if u in free)
        for _, u in ranked:
            if budget <= 0:
                return True
            free.remove(u)
            path.append(u)
            done = extend(path, free)
            path.pop()
            free.add(u)
            if done:
                return True
        return False

    for start in starts:
        if extend([start], set(targets) - {start}) or budget <= 0:
            break
    return best


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_remembered_route_searches_equal_fresh_ones(data):
    nbrs = rm.Game(3).neighbors
    targets = set(data.draw(st.lists(st.integers(0, len(nbrs) - 1), min_size=1, max_size=14, unique=True)))
    starts = data.draw(st.lists(st.sampled_from(sorted(targets)), min_size=1, max_size=len(targets), unique=True))
    fresh = _routes._search(nbrs, targets, starts)
    assert _routes.longest_paths(nbrs, targets, starts) == fresh
    assert _routes.longest_paths(nbrs, targets, starts) == fresh  # the remembered answer
    assert _routes.longest_paths([list(n) for n in nbrs], targets, starts) == fresh  # lists: not cached
    for path in fresh:
        assert set(path) <= targets | {path[0]}
        assert len(set(path)) == len(path)
        assert all(b in nbrs[a] for a, b in pairwise(path))


def _ending_row_by_row(battles, d):
    """The chain tables of riskmath.odds._odds_grids built one row and one outcome at a time (the plain recursion)."""
    kern, size, tables = battles.kern, battles.size, [np.eye(battles.size + 1)]
    tables[0][0, 0] = 0.0
    for e_total in range(1, d + 1):
        table = np.zeros((size + 1, size + 1))
        for a in range(1, size + 1):
            c, e = min(kern.max_a, a), min(kern.max_d, e_total)
            pairs = min(c, e)
            for lost, p in enumerate(kern.prob[c][e]):
                killed = pairs - lost
                if p:
                    table[a] += p * (table if killed == 0 else tables[e_total - killed])[a - lost]
        tables.append(table)
    return tables[d]


@pytest.mark.parametrize(
    "rules",
    [
        CombatRules(),
        CombatRules(attacker_max_dice=2),
        CombatRules(defender_max_dice=3),
        CombatRules(attacker_sides=8),
        CombatRules(attacker_max_dice=5, defender_max_dice=4),
        CombatRules(attacker_max_dice=1, defender_max_dice=1),
    ],
    ids=repr,
)
def test_chain_tables_built_in_blocks_equal_the_plain_recursion_bit_for_bit(rules):
    # The block-wise build does the same floating-point operations in the same order, so the agents' plans
    # (and the pinned seeded games) cannot change with it.
    for size in (1, 2, 3, 64):
        tables = _odds_grids._Battles(rules, size)
        for d in (0, 1, 2, 5, 23):
            assert np.array_equal(tables.ending(d), _ending_row_by_row(tables, d))


def test_chain_tables_grown_by_several_threads_at_once_are_the_tables_of_one():
    # One table of battle endings is shared by every thread (a ThreadPoolExecutor of agents, a threaded Dask
    # scheduler): grown by several threads at once, each table must still be filed under its own number of
    # defenders.  (Unlocked, threads switched every microsecond filed each other's tables: odds off by up to 0.9.)
    serial = _odds_grids._Battles(CombatRules(), 64)
    expected = [serial.ending(d).copy() for d in range(41)]
    for trial in range(5):
        shared = _odds_grids._Battles(CombatRules(), 64)
        seen: list[tuple[int, np.ndarray]] = []

        def ask(k: int, shared=shared, seen=seen) -> None:
            order = list(range(1, 41))
            random.Random(k).shuffle(order)
            seen.extend((d, shared.ending(d).copy()) for d in order)

        in_threads(ask, [(10 * trial + k,) for k in range(4)])
        assert len(seen) == 4 * 40
        assert all(np.array_equal(table, expected[d]) for d, table in seen)
        assert all(np.array_equal(shared.ending(d), expected[d]) for d in range(41))


def test_chain_tables_are_refused_past_the_memory_limit_and_kept_within_their_budget(monkeypatch):
    # A chain of 250 attackers through 240 defenders needs 241 tables of 257 x 257 floats (121 MiB): refused
    # under a limit of 50 MB, as every other call is, before anything is built; a small chain still works.
    rules = CombatRules(attacker_sides=5, defender_sides=5)  # (a variant of its own: no table built before)
    with (
        rm.set_limits(max_memory=50e6),
        pytest.raises(rm.ResourceLimitError, match=r"attackers=250, defenders=\[240, 2\]"),
    ):
        _odds_grids.chain_win_probability(250, (240, 2), rules)
    assert (rules, 256) not in _odds_grids._TABLES or _odds_grids._TABLES[(rules, 256)].nbytes() < 50e6
    # The tables of all variants together stay within their budget (the one just grown excepted).
    monkeypatch.setattr(_odds_grids, "_TABLES_BYTES", 4 * 2**20)
    for sides in range(3, 9):
        variant = CombatRules(attacker_sides=sides, defender_sides=sides)
        p = _odds_grids._chain_win_probability(60, (30, 20), variant)
        assert p == pytest.approx(float(rm.conquest(60, [30, 20], rules=variant).win_probability), abs=1e-12)
        kept = list(_odds_grids._TABLES.values())
        assert kept[-1].kern.rules == variant  # the table just grown is kept, the most recent
        assert sum(t.nbytes() for t in kept) <= 4 * 2**20 or len(kept) == 1


def test_a_variant_never_gets_a_token_another_variant_had():
    # lookup() reads a variant's token without the lock; if forget() gave the token to another variant, a
    # thread that read it just before could be served that other variant's battle (0.524 for 0.964).
    x, y = CombatRules(attacker_sides=7, defender_sides=7), CombatRules(attacker_sides=9, defender_sides=9)
    clear_battle_cache()
    rm.battle(5, 3, rules=x)
    old = _battle_cache._TOKENS[x]
    clear_battle_cache()
    rm.battle(5, 3, rules=y)
    assert _battle_cache._TOKENS[y] != old
    assert _battle_cache.lookup(5, 3, 0, False, x) is None  # x's old key finds nothing


def test_battles_computed_by_several_threads_at_once_are_whole_and_right():
    # A remembered battle was published before its values were filled in: a thread finding it in between
    # built a Battle without its distribution (AttributeError: '_win'), or with half of it.
    keys = [(a, d, exact) for a in range(1, 7) for d in range(1, 7) for exact in (False, True)]
    clear_battle_cache()
    serial = {key: rm.battle(key[0], key[1], exact=key[2]).win_probability for key in keys}
    failures: list[object] = []
    for trial in range(8):
        order = list(keys)
        random.Random(trial).shuffle(order)
        clear_battle_cache()

        def ask(order=order) -> None:
            for a, d, exact in order:
                try:
                    if rm.battle(a, d, exact=exact).win_probability != serial[a, d, exact]:
                        failures.append((a, d, exact))
                except Exception as error:  # any failure is the defect
                    failures.append(error)

        in_threads(ask, [()] * 6)
    assert failures == []


@st.composite
def graphs(draw: st.DrawFn) -> tuple[tuple[int, ...], ...]:
    """Random symmetric graphs of 2-40 nodes, each node's neighbors in a drawn order."""
    n = draw(st.integers(2, 40))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    rows: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        if a != b and b not in rows[a]:
            rows[a].append(b)
            rows[b].append(a)
    return tuple(tuple(draw(st.permutations(row))) for row in rows)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.just(rm.Game(3).neighbors), graphs()), st.data())
def test_the_bit_mask_search_finds_what_the_counting_search_finds(nbrs, data):
    # Two implementations of one search (Warnsdorff's order, the ids breaking ties, the same budget): the
    # counting one, kept for neighbors listed twice, is the reference for the bit masks the agents use.
    # The targets are grown as a connected region (as a continent's enemy territories are), where the order
    # of the search decides which longest paths are found.
    targets = {data.draw(st.integers(0, len(nbrs) - 1))}
    for _ in range(data.draw(st.integers(0, 15))):
        rim = sorted({v for u in targets for v in nbrs[u]} - targets)
        if not rim:
            break
        targets.add(data.draw(st.sampled_from(rim)))
    starts = data.draw(st.lists(st.sampled_from(sorted(targets)), min_size=1, max_size=len(targets), unique=True))
    assert _routes._search(nbrs, targets, starts) == _routes._search(nbrs, targets, starts, counting=True)
    assert _routes._search(nbrs, targets, starts) == _reference_search(nbrs, targets, starts)


def test_a_neighbor_listed_twice_counts_twice_in_the_search():
    # 0 - 1 - 2, with 2 listing 1 twice: from 1, neighbor 0 has one free neighbor (1 is on the path) and
    # 2 has none either way, so both searches agree; the counting search is the one taken.
    nbrs = ((1,), (0, 2), (1, 1))
    assert _routes._search(nbrs, {0, 1, 2}, [0]) == _routes._search(nbrs, {0, 1, 2}, [0], counting=True) == [(0, 1, 2)]
    # 1 listed twice by 0: the one way on from 0 is tried twice (as the plain search does), not once
    nbrs = ((1, 1, 2), (0, 0, 2), (0, 1))
    for starts in ([0], [1], [2, 0]):
        assert _routes._search(nbrs, {0, 1, 2}, starts) == _reference_search(nbrs, {0, 1, 2}, starts)


def test_battles_of_the_same_arguments_are_equal():
    # A battle's numbers are determined by its arguments, so it compares (and hashes) by them: rules=None is the
    # classic rules; exact and float battles differ (Fractions v floats), as do stop thresholds.
    first = rm.battle(5, 5)
    assert first == rm.battle(5, 5) == rm.battle(5, 5, rules=rm.CombatRules())
    assert len({first, rm.battle(5, 5)}) == 1
    assert first != rm.battle(5, 5, exact=True)
    assert first != rm.battle(5, 5, stop_at=2)
    assert first != rm.battle(5, 4)
    assert first != rm.battle(5, 5, rules=rm.CombatRules(defender_max_dice=3))
    assert first != (5, 5)
    clear_battle_cache()
    assert rm.battle(5, 5) == first  # computed again: equal all the same


def test_chains_resumed_in_threads_equal_chains_computed_alone(monkeypatch):
    # Threads share the remembered prefixes (and clear them when full: a bound of 8 here, so that they do
    # often): every answer must still be the chain computed alone, to the last bit.
    combat = CombatRules(attacker_sides=7, defender_sides=7)  # (a variant of its own: nothing remembered before)
    compute = _odds_grids._chain_win_probability
    rng = random.Random(5)
    bases = [tuple(rng.randint(0, 6) for _ in range(6)) for _ in range(5)]
    paths = [(attackers, base[:k]) for attackers in (30, 45) for base in bases for k in range(2, 7)]
    rng.shuffle(paths)  # (every prefix of five paths with two stacks: most chains can resume from another)
    tables = _odds_grids._battles(combat, 64)
    expected = {}
    for attackers, path in paths:
        tables.prefixes.clear()
        expected[(attackers, path)] = compute(attackers, path, combat)
    monkeypatch.setattr(tables, "prefixes_kept", 8)
    seen, failures = [], []

    def ask(offset):
        try:
            for attackers, path in paths[offset:] + paths[:offset]:
                seen.append(((attackers, path), compute(attackers, path, combat)))
        except Exception as error:  # (a thread's exception would not fail the test by itself)
            failures.append(error)

    in_threads(ask, [(k * 7,) for k in range(4)])
    assert failures == []
    assert len(seen) == 4 * len(paths)
    assert all(value == expected[key] for key, value in seen)
