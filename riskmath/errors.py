"""Exceptions raised by riskmath.

Every error riskmath raises on purpose derives from :class:`RiskmathError`, so
``except riskmath.RiskmathError`` catches them all.  Errors caused by a bad
argument value also derive from :class:`ValueError`, so code that already
catches ``ValueError`` keeps working.  Each message names the offending value.
"""

from __future__ import annotations

__all__ = [
    "BoardError",
    "CardError",
    "IllegalActionError",
    "InvalidArgumentError",
    "RiskmathError",
    "RulesError",
    "StateError",
    "UndefinedStatisticError",
]


class RiskmathError(Exception):
    """Base class of every exception raised by riskmath."""


class InvalidArgumentError(RiskmathError, ValueError):
    """An argument has a bad value: a negative or non-integer army count,
    zero dice, an unknown option name, and so on."""


class BoardError(RiskmathError, ValueError):
    """A board (map) is inconsistent, e.g. a border names an unknown territory
    or the map is not connected, or a territory or continent name is unknown."""


class CardError(RiskmathError, ValueError):
    """A card, a deck, a set or a set-value schedule is invalid, e.g. three
    cards that are not a set, an unknown schedule name or symbol mapping."""


class RulesError(RiskmathError, ValueError):
    """A rules object is inconsistent, e.g. zero dice or one-sided dice."""


class UndefinedStatisticError(RiskmathError, ValueError):
    """A conditional statistic was asked for on an event of probability zero,
    e.g. the expected survivors *given a win* of a battle that cannot be won."""


class IllegalActionError(RiskmathError, ValueError):
    """An action is malformed or not allowed in the current state.

    The message names the action, the phase, the player and the reason; the
    state it was applied to is unchanged."""


class StateError(RiskmathError, ValueError):
    """A saved game state is corrupt or inconsistent (e.g. a territory with
    no owner, or cards that are neither in the deck nor in any hand)."""
