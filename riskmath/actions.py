"""Actions and chance outcomes of the rules model: small frozen values.

A player's decision is one of the action classes below; a chance node's
outcome (a roll, a whole blitz battle, a card draw, a deal) is one of the
outcome classes.  All are frozen dataclasses whose ``repr`` can be pasted
back.  Territories are given by name (aliases and ids are accepted by the
state, which reports canonical names); cards in a trade are named by their
territory, or ``"wild"``.

The state decides what an action means in its phase: ``PlaceArmies`` claims
an empty territory during a claim set-up, reinforces during a turn, and so on
(see :class:`riskmath.GameState`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Action",
    "Attack",
    "BattleOutcome",
    "Blitz",
    "ChooseCapital",
    "ChoosePile",
    "Defend",
    "DrawCard",
    "EndPhase",
    "FirstPlayer",
    "Fortify",
    "Occupy",
    "Outcome",
    "PlaceArmies",
    "RollOutcome",
    "TradeCards",
]

Territory = str | int


@dataclass(frozen=True, slots=True)
class PlaceArmies:
    """Put ``armies`` of the player's own armies (or, in a set-up step that
    asks for it, neutral armies) on ``territory``."""

    territory: Territory
    armies: int = 1


@dataclass(frozen=True, slots=True)
class TradeCards:
    """Trade a set of three cards, each named by its territory or ``"wild"``."""

    cards: tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Attack:
    """Roll once: ``dice`` attacking dice from ``source`` against ``target``."""

    source: Territory
    target: Territory
    dice: int = 3


@dataclass(frozen=True, slots=True)
class Blitz:
    """Fight ``source`` against ``target`` until the capture, or until the
    armies able to attack fall to ``stop_at`` or fewer; both sides throw their
    maximum dice.  Resolved by one chance node drawn from the exact battle
    distribution (:func:`riskmath.battle`)."""

    source: Territory
    target: Territory
    stop_at: int = 0


@dataclass(frozen=True, slots=True)
class Defend:
    """The defender's choice of dice for the pending roll."""

    dice: int


@dataclass(frozen=True, slots=True)
class Occupy:
    """Move ``armies`` into the territory just captured."""

    armies: int


@dataclass(frozen=True, slots=True)
class Fortify:
    """Move ``armies`` from ``source`` to ``target`` (both the player's)."""

    source: Territory
    target: Territory
    armies: int


@dataclass(frozen=True, slots=True)
class ChooseCapital:
    """Capital RISK: choose the territory that is the player's headquarters."""

    territory: Territory


@dataclass(frozen=True, slots=True)
class ChoosePile:
    """1993 two-player game: take one of the three dealt piles of territories (0, 1 or 2)."""

    pile: int


@dataclass(frozen=True, slots=True)
class EndPhase:
    """Finish the current optional phase (attacks, fortification)."""


Action = PlaceArmies | TradeCards | Attack | Blitz | Defend | Occupy | Fortify | ChooseCapital | ChoosePile | EndPhase


# -- chance outcomes ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollOutcome:
    """One roll: the armies each side loses."""

    attacker_losses: int
    defender_losses: int


@dataclass(frozen=True, slots=True)
class BattleOutcome:
    """A whole blitz battle: the armies able to attack and the defenders left."""

    attackers_left: int
    defenders_left: int


@dataclass(frozen=True, slots=True)
class DrawCard:
    """The card drawn from the deck (dealt, or drawn after a capture), by
    territory name or ``"wild"``; ``mission`` is set when a mission card is dealt."""

    card: str


@dataclass(frozen=True, slots=True)
class FirstPlayer:
    """Who starts (the high roll of the set-up)."""

    player: int


Outcome = RollOutcome | BattleOutcome | DrawCard | FirstPlayer
