"""Float odds grids for agents and evaluation: many small queries, answered from tables kept per combat variant.

Win probabilities are read from grids of every battle up to a size (one
backward sweep each, grown in powers of two), and the win probabilities of
chains from tables of battle endings, memoized; all float.  Not the cache of
:func:`riskmath.battle`'s exact results: that is :mod:`riskmath.odds._battle_cache`.

Re-exported by :mod:`riskmath.evaluate`, where they are documented.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from riskmath._validation import check_cost, check_int, deprecated, is_sequence, shown
from riskmath.errors import InvalidArgumentError
from riskmath.odds._sweeps import kernel, unit_interval
from riskmath.odds.battles import battle_statistics
from riskmath.odds.conquests import attack_with, battles_cost, describe_path
from riskmath.odds.dice import CombatRules, resolve_rules

__all__ = ["chain_odds", "chain_success", "chain_win_probability", "small_battles", "win_probability"]

K = TypeVar("K")
V = TypeVar("V")


#: The grids of win probabilities kept, all combat variants and sizes together (a grid of ``size`` is ``size**2``
#: floats: 32 MiB at 2,048); past this, the oldest other grids go.  (Sixteen grids of any size were kept: sixteen
#: variants of a huge battle held 512 MiB.)
_GRIDS_BYTES = 96 * 2**20
_GRIDS: dict[tuple[CombatRules, int], np.ndarray] = {}  # the oldest first
_GRIDS_LOCK = threading.Lock()


def _win_grid(combat: CombatRules, size: int) -> np.ndarray:
    grid = _GRIDS.get((combat, size))
    if grid is None:
        grid = battle_statistics(size, size, ("win_probability",), rules=combat)["win_probability"]
        with _GRIDS_LOCK:
            _GRIDS[(combat, size)] = grid
            _trim(_GRIDS, _GRIDS_BYTES, (combat, size), lambda kept: kept.nbytes)
    return grid


def _trim(kept: dict[K, V], budget: int, keep: K, nbytes: Callable[[V], int]) -> None:
    """Drop the entries of ``kept`` but ``keep``'s, the oldest first, until their ``nbytes`` fit ``budget``.

    For the byte-bounded caches of this module; the caller holds the cache's lock.
    """
    total = sum(nbytes(value) for value in kept.values())
    for key in list(kept):
        if total <= budget:
            break
        if key != keep:
            total -= nbytes(kept.pop(key))


def _plenty(defenders: int) -> int:
    """A stack size past which failing is (checked to be) negligible: see :func:`win_probability`."""
    return 4 * defenders + 40


_RESOLUTION = 1e-12
#: Battles up to this size on both sides are read from the smallest grid, kept as Python lists.
_SMALL = 32


class _Memo:
    """What the agents' queries remember for one combat variant, found by identity on the hot path.

    ``given`` is the ``rules`` argument as the caller passed it (None, a
    :class:`CombatRules` or rules carrying one), so that the same object
    asked again costs one ``is`` test rather than a hash of the rules.
    Bounded: at most ``_MEMO_RULES`` variants, each with at most
    ``_MEMO_CHAINS`` remembered chains (cleared when full).
    """

    __slots__ = ("_small", "chains", "combat", "given")

    def __init__(self, given: object, combat: CombatRules) -> None:
        self.given = given
        self.combat = combat
        self.chains: dict[tuple[int, tuple[int, ...]], float] = {}
        self._small: list[list[float]] | None = None

    def small(self) -> list[list[float]]:
        if self._small is None:
            self._small = _win_grid(self.combat, _SMALL).tolist()
        return self._small


_MEMO_RULES = 4
_MEMO_CHAINS = 1 << 16
_MEMOS: dict[CombatRules, _Memo] = {}
_LAST: list[_Memo] = [_Memo(object(), CombatRules())]  # a sentinel: no caller passes that object


def _memo(rules: object) -> _Memo:
    """The memo of ``rules`` (resolved), made the one the hot path tries first."""
    combat = rules if type(rules) is CombatRules else resolve_rules(rules)
    memo = _MEMOS.get(combat)
    if memo is None:
        if len(_MEMOS) >= _MEMO_RULES:
            _MEMOS.clear()
        memo = _MEMOS[combat] = _Memo(rules, combat)
    memo.given = rules
    _LAST[0] = memo
    return memo


def win_probability(attackers: int, defenders: int, rules: object = None) -> float:
    """``battle(attackers, defenders).win_probability`` from a cached grid (0 when ``attackers`` < 1).

    The grid grows in powers of two and is kept per combat variant, so that
    agents can ask for many battles' odds cheaply.  Odds grow with the
    attackers, so a stack far larger than the defense (over ``4 d + 40``) is
    looked up at ``4 d + 40`` when the chance of failing there is below
    1e-12: the answer is then within 1e-12 of the exact one (and a defense
    over ``4 a + 40`` at ``4 a + 40`` when winning there has a chance below
    1e-12), so that a huge stack costs no more than a small one.  A battle
    still over 2,048 armies on a side (both stacks huge) is estimated from
    the battle scaled down to 2,048 in the same proportion: an agent's rough
    guide in bounded memory, not exact odds (those are :func:`riskmath.battle`).  ``rules`` is
    what every ``rules=`` argument takes: None (the classic rules), a
    :class:`~riskmath.CombatRules`, rules carrying one (a
    :class:`~riskmath.Rules`) or a preset's name (``"risiko"``).  The answer is 0 when ``attackers < 1`` and
    1 when ``defenders < 1`` (attackers first), and always in [0, 1].

    Parameters
    ----------
    attackers : int
        Armies able to attack (the territory holds one more); any integer.
    defenders : int
        Defending armies; any integer.
    rules : CombatRules or Rules, optional
        The combat variant; the classic rules by default.

    Returns
    -------
    float
        The attacker's chance of taking the territory, in [0, 1].

    Raises
    ------
    InvalidArgumentError
        If ``attackers`` or ``defenders`` is not an integer (a bool, a float,
        None, ...).

    Examples
    --------
    >>> from riskmath.odds.dice import CombatRules
    >>> round(win_probability(3, 2, CombatRules()), 6)  # three attackers against two, to the end
    0.655954
    """
    memo = _LAST[0]
    if rules is not memo.given:
        memo = _memo(rules)
    if type(attackers) is int and type(defenders) is int and 0 < attackers <= _SMALL and 0 < defenders <= _SMALL:
        return memo.small()[attackers - 1][defenders - 1]  # the slow path's grid of 32, read from Python lists
    return _win_probability(attackers, defenders, memo.combat)


def small_battles(rules: object = None) -> list[list[float]]:
    """The grid :func:`win_probability` reads for battles of up to 32 a side: ``grid[a - 1][d - 1]``.

    For loops that ask many small battles' odds: reading the grid directly
    gives exactly what :func:`win_probability` returns, without a call each.
    """
    memo = _LAST[0]
    if rules is not memo.given:
        memo = _memo(rules)
    return memo.small()


def _win_probability(attackers: int, defenders: int, combat: CombatRules) -> float:
    """:func:`win_probability` past the grid of the smallest battles (its arguments checked here)."""
    if type(attackers) is not int or type(defenders) is not int:  # NumPy integers pass; anything else is refused
        attackers = check_int("attackers", attackers, minimum=None)
        defenders = check_int("defenders", defenders, minimum=None)
    if attackers < 1:
        return 0.0
    if defenders < 1:
        return 1.0
    if attackers > _plenty(defenders):
        p = win_probability(_plenty(defenders), defenders, combat)
        if 1.0 - p < _RESOLUTION:
            return p
    elif defenders > _plenty(attackers):  # the other way round: odds fall with the defenders
        p = win_probability(attackers, _plenty(attackers), combat)
        if p < _RESOLUTION:
            return p
    if attackers > _LARGEST or defenders > _LARGEST:  # an estimate: the battle scaled down to the largest grid
        attackers, defenders = _scaled_down((attackers, defenders), max(attackers, defenders))
    size = _SMALL
    while size < attackers or size < defenders:
        size *= 2
    return float(_win_grid(combat, size)[attackers - 1, defenders - 1])


#: The largest stack looked up exactly (a grid of 2,048 x 2,048 floats, 32 MiB); larger battles on both sides
#: are estimated from the battle scaled down to it, in the same proportion (odds nearer one half than the truth).
_LARGEST = 2048


def _scaled_down(sizes: tuple[int, ...], total: int) -> tuple[int, ...]:
    """``sizes`` scaled by ``_LARGEST / total``, rounded; each positive size stays at least 1 and a 0 stays 0.

    Sizes beyond the range of a float (``10**400``) are first shifted down exactly, as integers.
    """
    shift = max(total.bit_length() - 64, 0) if total.bit_length() > 1000 else 0
    scale = _LARGEST / (total >> shift)
    return tuple(size and max(1, round((size >> shift) * scale)) for size in sizes)


def chain_win_probability(attackers: int, defenders: tuple[int, ...], rules: object = None) -> float:
    """``conquest(attackers, defenders).win_probability`` as a float, memoized for agents.

    As in :func:`win_probability`, a stack over ``4 D + 40`` (``D`` the
    defenders in all) is computed at that size when failing there has a
    chance below 1e-12; a chain still over 2,048 armies (on either side) is
    estimated from the chain scaled down to 2,048, once, unless it has more
    territories than the scaled stack has armies (the army each territory
    keeps does not scale): such a chain is computed as it is, within the
    limits of :func:`riskmath.set_limits`.  A territory of 0
    defenders (an empty one, as during the set-up) is taken without a fight
    but still keeps one army; with fewer attackers than territories the
    answer is 0.  The result is in [0, 1] for every input.

    Parameters
    ----------
    attackers : int
        Armies able to attack the first territory (the stack's territory holds one more).
    defenders : sequence of int
        The defending armies of the path's territories, in order (0: empty).
    rules : CombatRules or Rules, optional
        The combat variant; the classic rules by default.

    Returns
    -------
    float
        The chance of taking every territory of the path, in [0, 1].

    Raises
    ------
    InvalidArgumentError
        If ``attackers`` is not an integer, or ``defenders`` is not a
        non-empty sequence of integers ``>= 0``.
    ResourceLimitError
        If a long chain of a huge stack, computed as it is, or the tables of
        battle endings a chain of up to 256 attackers is read from (one of
        ``(size + 1)**2`` floats per number of defenders, ``size`` the
        attackers rounded up to 64, 128 or 256), would not fit in the limits.
    """
    # Checked before the memo is read: a float or a bool equal to a remembered count hashes alike, and was
    # answered after a call with ints and refused before it.
    able = attackers if type(attackers) is int else check_int("attackers", attackers, minimum=None)
    if not is_sequence(defenders):
        raise InvalidArgumentError(f"defenders must be a sequence of army counts, got {shown(defenders)}")
    path = tuple(defenders)
    if not all(type(d) is int for d in path) or (path and min(path) < 0):  # a quick pass for plain ints
        path = tuple(check_int(f"defenders[{i}]", d, minimum=0) for i, d in enumerate(path))
    if not path:
        raise InvalidArgumentError("defenders must name at least one territory, got an empty sequence")
    return chain_odds(able, path, rules)


def chain_odds(attackers: int, defenders: tuple[int, ...], rules: object = None) -> float:
    """:func:`chain_win_probability` of arguments the caller has checked, memoized: the agents' hot path.

    ``attackers`` a plain ``int``, ``defenders`` a non-empty tuple of plain ``int`` s ``>= 0`` (as the
    library's planners build them from a position's armies); nothing is checked here.
    """
    memo = _LAST[0]
    if rules is not memo.given:
        memo = _memo(rules)
    key = (attackers, defenders)
    found = memo.chains.get(key)
    if found is None:
        if len(memo.chains) >= _MEMO_CHAINS:
            memo.chains.clear()
        found = memo.chains[key] = _chain_win_probability(attackers, defenders, memo.combat)
    return found


@deprecated("riskmath.evaluate.chain_success", "riskmath.evaluate.chain_win_probability")
def chain_success(attackers: int, defenders: tuple[int, ...], rules: object = None) -> float:
    """Deprecated: :func:`chain_win_probability` under its old name, with a ``DeprecationWarning``."""
    return chain_win_probability(attackers, defenders, rules)


def _chain_win_probability(
    attackers: int, defenders: tuple[int, ...], combat: CombatRules, scaled: bool = False
) -> float:
    """:func:`chain_win_probability` of checked arguments; recursion a few calls deep at most (``scaled``: no more).

    Not memoized here: :func:`chain_win_probability` remembers its answers (a least-recently-used cache here as
    well hashed the combat rules on every call and was hit by about one call in two thousand).
    """
    if attackers < len(defenders):  # each territory taken keeps one army: the stack runs out before the end
        return 0.0
    if len(defenders) == 1:
        return win_probability(attackers, defenders[0], combat)
    whole = sum(defenders)
    plenty = _plenty(whole)
    if attackers > plenty:
        p = _chain_win_probability(plenty, defenders, combat, scaled)  # cannot come back here: attackers is plenty now
        if 1.0 - p < _RESOLUTION:
            return p
    total = max(attackers, whole)
    if total > _LARGEST and not scaled:  # an estimate, as in win_probability: the chain scaled down, once
        small = _scaled_down((attackers, *defenders), total)
        if small[0] >= len(defenders):  # else the armies kept behind would not scale: computed as it is below
            return _chain_win_probability(small[0], small[1:], combat, True)
        # The chain cannot do better than any of its battles fought with the whole stack (each is fought with
        # fewer, and odds grow with the attackers): a small stack against a huge territory anywhere on the path
        # is answered by that bound, as a small stack against a huge first territory was.
        bound = min(win_probability(attackers, d, combat) for d in set(defenders))
        if bound < _RESOLUTION:
            return bound
    most = max(defenders)
    if attackers > _MATRIX_LIMIT or most > _MATRIX_LIMIT:
        return _chain_sweeps(attackers, defenders, combat)
    battles = _battles(combat, _size(attackers))
    growth = battles.growth(most)
    if growth:
        check_cost(
            lambda: f"chain_win_probability(attackers={shown(attackers)}, {describe_path(defenders)})", memory=growth
        )
    # The force after a prefix of the path is remembered (agents try many paths that share their first
    # territories with the same stack): the products pick up after the longest prefix known, so that every
    # entry is formed as below, in the same order.
    prefixes, n, start = battles.prefixes, len(defenders), 1
    for k in range(n - 1, 1, -1):
        known = prefixes.get((attackers, defenders[:k]))
        if known is not None:
            force, start = known, k
            break
    else:
        force = battles.ending(defenders[0])[attackers]  # the first battle from a known start: a row, no product
    top = attackers - start + 1  # force[k] is 0 for k > top: a stack never grows
    for k in range(start, n):
        # One army stays behind in each capture; losses drop out.  The product is summed row by row in a fixed
        # order rather than by ``@``: BLAS kernels sum in an order of their own, which differs between processors,
        # and a last-bit difference flips the odds agent's ties (two pinned seeded games differed between machines).
        # Only the block of rows and columns that can be nonzero is formed (``top`` by ``top``): the rows left out
        # would add exact zeros after the others (the sum runs down the rows in order), so every entry is the
        # same to the last bit as the whole table's; the vector keeps its full length for the final sum, whose
        # pairwise order depends on the length.
        force = np.add.reduce(force[1 : top + 1, None] * battles.ending(defenders[k])[:top, :top], axis=0)
        top -= 1
        force.flags.writeable = False  # (kept and shared: never changed in place)
        if len(prefixes) >= battles.prefixes_kept:
            prefixes.clear()
        prefixes[(attackers, defenders[: k + 1])] = force
    if len(force) <= battles.size:  # after a product: entries 0..top, padded with the zeros left out
        force = np.concatenate((force, battles.zeros[: battles.size + 1 - len(force)]))
    return float(unit_interval(float(np.add.reduce(force))))  # (``force.sum()``, without the method's wrapper)


def _chain_sweeps(attackers: int, defenders: tuple[int, ...], combat: CombatRules) -> float:
    """The chain by forward sweeps, as :class:`~riskmath.Conquest` fights it (a territory of 0 taken freely)."""
    starts = [(attackers, d) for d in defenders if d]
    memory, seconds = battles_cost(starts, combat, False, 2)
    check_cost(
        lambda: f"chain_win_probability(attackers={shown(attackers)}, {describe_path(defenders)})",
        memory=memory,
        seconds=seconds,
    )
    kern = kernel(combat)
    force = np.zeros(attackers + 1)
    force[attackers] = 1.0
    for d in defenders[:-1]:
        force[0] = 0.0  # nobody left to attack with: the conquest has stopped
        won = force if d == 0 else attack_with(force, d, kern, False)
        force = np.zeros(attackers + 1)
        force[:-1] = won[1:]  # one army stays in the territory taken
    force[0] = 0.0
    won = force if defenders[-1] == 0 else attack_with(force, defenders[-1], kern, False)
    return float(unit_interval(float(sum(won))))


_MATRIX_LIMIT = 256


def _size(attackers: int) -> int:
    size = 64
    while size < attackers:
        size *= 2
    return size


class _Battles:
    """``ending(d)[a, k]``: the chance that ``a`` attackers beat ``d`` defenders with ``k`` left (built lazily).

    Shared by every thread (one per combat variant and size, through :func:`_battles`): a table is built whole,
    under the lock, and only then added to ``by_defenders``, which only ever grows, so a reader that finds its
    table there (without the lock) reads a finished one.  Two threads growing the list at once, unlocked, filed
    each other's tables under the wrong number of defenders (chances off by up to 0.9).
    """

    def __init__(self, combat: CombatRules, size: int) -> None:
        self.size = size
        self.kern = kernel(combat)
        self.by_defenders: list[np.ndarray] = [np.eye(size + 1)]
        self.by_defenders[0][0, 0] = 0.0  # no attackers left is a loss, not a win
        # Chains' forces after a prefix of their path, by (attackers, prefix): see _chain_win_probability.  Each
        # is at most ``size + 1`` floats; at most 4 MiB of them are kept, all dropped when full (and counted with
        # the tables against ``_TABLES_BYTES``).
        self.prefixes: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}
        self.prefixes_kept = max(4 * 2**20 // (8 * (size + 1)), 16)
        self.zeros = np.zeros(size + 1)
        self.zeros.flags.writeable = False
        self._growing = threading.Lock()

    def ending(self, d: int) -> np.ndarray:
        tables = self.by_defenders
        if d < len(tables):
            return tables[d]
        with self._growing:
            self._grow(d)
        _keep_within_budget(self)
        return tables[d]

    def nbytes(self) -> int:
        """The bytes of the tables built so far and of the chains' prefixes remembered."""
        return (len(self.by_defenders) * (self.size + 1) + len(self.prefixes)) * (self.size + 1) * 8

    def growth(self, d: int) -> int:
        """The bytes that :meth:`ending` of ``d`` defenders would add."""
        return max(d + 1 - len(self.by_defenders), 0) * (self.size + 1) ** 2 * 8

    def _grow(self, d: int) -> None:
        """Build the tables up to ``d`` defenders (the caller holds the lock)."""
        kern, size = self.kern, self.size
        while len(self.by_defenders) <= d:
            e_total = len(self.by_defenders)
            e = min(kern.max_d, e_total)
            table = np.zeros((size + 1, size + 1))
            # Row a sums, over the roll's outcomes (in order of attackers lost), the chance of the outcome times
            # the row of the state after it: (a - lost, e_total - killed), in this table if killed == 0.
            full = min(kern.max_a, size + 1)  # from this row on, the attacker rolls every die: one kernel
            for a in range(1, full):
                c = min(kern.max_a, a)
                pairs = min(c, e)
                for lost, p in enumerate(kern.prob[c][e]):
                    killed = pairs - lost
                    if p:
                        table[a] += p * (table if killed == 0 else self.by_defenders[e_total - killed])[a - lost]
            # The rows from ``full`` on, in the same order of operations as above, whole blocks at a time: the
            # outcomes that kill defenders read earlier tables, and the one that kills none (the last) reads
            # this table ``pairs`` rows up, so that ``pairs`` rows can be finished together.
            pairs = min(kern.max_a, e)
            outcomes = kern.prob[kern.max_a][e]
            for lost, p in enumerate(outcomes[:-1]):
                if p:
                    earlier = self.by_defenders[e_total - (pairs - lost)]
                    table[full:] += p * earlier[full - lost : size + 1 - lost]
            q = outcomes[-1]
            if q:
                for a in range(full, size + 1, pairs):
                    end = min(a + pairs, size + 1)
                    table[a:end] += q * table[a - pairs : end - pairs]
            self.by_defenders.append(table)


#: The tables of battle endings kept, all combat variants and sizes together: one of ``(size + 1)**2`` floats per
#: number of defenders (33 KiB at the usual size of 64 attackers, 528 KiB at 256, so up to 136 MiB for the 257
#: tables of the largest size).  Past this, the tables of other variants and sizes are dropped, the least
#: recently grown first; a single call still builds what it needs, within the limits of :func:`riskmath.set_limits`.
_TABLES_BYTES = 256 * 2**20
_TABLES: dict[tuple[CombatRules, int], _Battles] = {}  # the least recently grown first
_TABLES_LOCK = threading.Lock()


def _battles(combat: CombatRules, size: int) -> _Battles:
    """The tables of ``combat`` for stacks of up to ``size`` attackers, shared by every caller and thread."""
    found = _TABLES.get((combat, size))
    if found is None:
        with _TABLES_LOCK:
            found = _TABLES.get((combat, size))
            if found is None:
                found = _TABLES[(combat, size)] = _Battles(combat, size)
        _keep_within_budget(found)
    return found


def _keep_within_budget(grown: _Battles) -> None:
    """Mark ``grown`` the most recently grown and drop the others, oldest first, past ``_TABLES_BYTES``."""
    with _TABLES_LOCK:
        key = (grown.kern.rules, grown.size)
        if _TABLES.get(key) is grown:
            _TABLES[key] = _TABLES.pop(key)
        _trim(_TABLES, _TABLES_BYTES, key, _Battles.nbytes)
