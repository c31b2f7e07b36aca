"""The process-wide cache of battle results behind :func:`riskmath.battle` (private module).

Agents and notebooks ask for the same small battles again and again, and a
sweep costs far more than reading a result back (battle(10, 10): about
100 us against 2 us).  Every :class:`~riskmath.odds.battles.Battle` computed
is remembered here by its arguments (the resolved combat rules included): the
final distribution, the expected rolls and the statistics and final states
computed so far, all immutable and shared by the Battles of the same
arguments, so a hit gives the very same numbers (Fractions too).  The oldest
entries go first once the entries' estimated size passes the budget the
caller gives (first in, first out: a hit costs no bookkeeping).

:mod:`riskmath.odds.battles` owns the public side: the budget
``BATTLE_CACHE_BYTES``, ``clear_battle_cache`` and ``battle_cache_info``.
The functions here are layer-internal.
"""

from __future__ import annotations

import itertools
import threading
from fractions import Fraction
from typing import Any

from riskmath._validation import LIMITS
from riskmath.errors import InvalidArgumentError
from riskmath.odds._sweeps import CLASSIC, scale_bits  # the classic rules: no hash of them for rules=None
from riskmath.odds.dice import CombatRules, resolve_rules

__all__ = ["CLASSIC", "Result", "forget", "held", "lookup", "remember"]

Number = float | Fraction

#: A single result estimated over this share of the budget is not kept (it would push out everything else).
_LARGEST_SHARE = 8
#: Combat variants given a token (a small int, quick to hash in a key); past this many, everything is forgotten.
_MAX_VARIANTS = 256

_TOKENS: dict[CombatRules, int] = {CLASSIC: 0}
_NEXT_TOKEN = itertools.count(1)  # tokens are never reused (see forget)

Key = tuple[int, int, int, bool, int]  # attackers, defenders, stop_at, exact, token of the combat rules


class Result:
    """One remembered battle: the limits it needs, its size, and ``values``: the attributes of its Battles.

    ``values`` holds what :class:`~riskmath.odds.battles.Battle` computes on
    construction (the final distribution and expected rolls, its arguments)
    and what a Battle of these arguments derived since (statistics, final
    states): a hit is a new Battle whose ``__dict__`` is a copy of it.
    """

    __slots__ = ("memory", "nbytes", "seconds", "values")

    def __init__(self, memory: float, seconds: float, nbytes: float) -> None:
        self.memory, self.seconds, self.nbytes = memory, seconds, nbytes
        self.values: dict[str, Any] = {}


_LOCK = threading.RLock()
_RESULTS: dict[Key, Result] = {}  # in the order remembered: the oldest goes first
_HELD = [0.0]  # estimated bytes held by _RESULTS


def _result_bytes(attackers: int, defenders: int, exact: bool, combat: CombatRules, numbers: int) -> float:
    """Estimated bytes of a result holding ``numbers`` probabilities, with its final states (x 3)."""
    if not exact:
        return 3.0 * 32 * numbers + 1024
    digits = (attackers + defenders + 1) * scale_bits(combat) / 8  # numerator and denominator, at most
    return 3.0 * (2 * digits + 160) * numbers + 1024


def remember(
    attackers: int,
    defenders: int,
    stop_at: int,
    exact: bool,
    combat: CombatRules,
    values: dict[str, Any],
    memory: float,
    seconds: float,
    budget: float,
) -> Result:
    """Keep a new result (unless it is too big for ``budget`` bytes), dropping the oldest past the budget.

    ``values`` are the Battle's attributes (``_win``, ``_stop``, ``_rolls`` among them); the result holds
    them, and itself as ``_shared``, before another thread can find it.  ``memory`` and ``seconds`` are
    what computing it was estimated to take: :func:`lookup` serves it only while the limits in force allow
    them.

    Returns
    -------
    Result
        The new entry, whose ``values`` Battles of these arguments add to; a
        result not kept is returned all the same (its Battle shares its values
        with itself).
    """
    stop = values["_stop"]
    nbytes = _result_bytes(attackers, defenders, exact, combat, len(values["_win"]) + sum(map(len, stop)))
    result = Result(memory, seconds, nbytes)
    result.values.update(values, _shared=result)  # (complete before it is published below)
    if nbytes * _LARGEST_SHARE > budget:
        return result
    with _LOCK:  # (threads: lookups are single dict reads, but this is several steps)
        token = 0 if combat is CLASSIC else _TOKENS.get(combat)
        if token is None:
            if len(_TOKENS) >= _MAX_VARIANTS:
                forget()
            token = _TOKENS[combat] = next(_NEXT_TOKEN)
        key = (attackers, defenders, stop_at, exact, token)
        old = _RESULTS.pop(key, None)
        if old is not None:
            _HELD[0] -= old.nbytes
        _RESULTS[key] = result
        _HELD[0] += nbytes
        while _HELD[0] > budget:
            oldest = next(iter(_RESULTS))
            _HELD[0] -= _RESULTS.pop(oldest).nbytes
    return result


def lookup(
    attackers: object, defenders: object, stop_at: object, exact: object, rules: object
) -> dict[str, Any] | None:
    """The attributes of a remembered Battle of these arguments, or None (not remembered, or over the limits).

    Only plain ints and bools are looked up (an equal float or bool must be
    refused by the validation, not served).  A result over the limits now in
    force is not served: the computation refuses it, saying why.
    """
    if type(attackers) is int and type(defenders) is int and type(stop_at) is int and type(exact) is bool:
        if rules is None:
            token: int | None = 0
        else:
            combat = rules if type(rules) is CombatRules else _combat_of(rules)
            token = None if combat is None else _TOKENS.get(combat)
        found = None if token is None else _RESULTS.get((attackers, defenders, stop_at, exact, token))
        if found is not None:
            seconds, memory = LIMITS.max_seconds, LIMITS.max_memory
            if found.seconds <= seconds and memory is not None and found.memory <= memory:
                return found.values
    return None


def _combat_of(rules: object) -> CombatRules | None:
    """The combat rules ``rules`` means (a preset's name, a :class:`~riskmath.Rules`), as the computation resolves
    them; None when it means none (not looked up: the computation says what is wrong)."""
    try:
        return resolve_rules(rules)
    except InvalidArgumentError:
        return None


def forget() -> None:
    """Forget every remembered result and combat variant.

    A variant seen again later gets a new token, never one given before: a thread that read a token just
    before this (:func:`lookup` takes no lock) then finds nothing rather than another variant's result.
    """
    with _LOCK:
        _RESULTS.clear()
        _HELD[0] = 0.0
        _TOKENS.clear()
        _TOKENS[CLASSIC] = 0


def held() -> tuple[int, float]:
    """``(entries, estimated bytes)`` the cache holds."""
    return len(_RESULTS), _HELD[0]
