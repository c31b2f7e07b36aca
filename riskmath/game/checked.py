"""Actions in the engine's checked form: public actions to plain tuples of ids and back (one table for every path).

The engine (:mod:`~riskmath.game.transitions`) works on *checked* actions:
plain tuples whose first item names the kind and whose territories are ids.

===================  ==================================
public action        checked form
===================  ==================================
``PlaceArmies``      ``("place", territory, armies)``
``TradeCards``       ``("trade", (card, card, card))``
``Attack``           ``("attack", source, target, dice)``
``Blitz``            ``("blitz", source, target, stop_at)``
``Defend``           ``("defend", dice)``
``Occupy``           ``("occupy", armies)``
``Fortify``          ``("fortify", source, target, armies)``
``ChooseCapital``    ``("capital", territory)``
``ChoosePile``       ``("pile", pile)``
``EndPhase``         ``("end",)``
===================  ==================================

:data:`KIND` names the kind of each action class; :func:`to_engine` converts
without any check (the fast path: trusted agents, ``apply(check=False)``);
:func:`riskmath.game.legality.check_action` dispatches on the same kinds,
validates, and returns the same form; :func:`to_action` turns a checked
action back into the public one (game records, ``AggressiveAgent.act``).

Each form has a type (``PlaceChecked``, ``BlitzChecked``, ...) and
:data:`Checked` is their union, tagged by the kind: plain tuples at run time,
so building and reading one costs what a tuple costs, while the type checker
knows each kind's fields once it has tested ``checked[0]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeAlias

from riskmath.game.actions import (
    Attack,
    Blitz,
    ChooseCapital,
    ChoosePile,
    Defend,
    EndPhase,
    Fortify,
    Occupy,
    PlaceArmies,
    TradeCards,
)
from riskmath.game.context import GameContext

__all__ = [
    "KIND",
    "AttackChecked",
    "BlitzChecked",
    "CapitalChecked",
    "Checked",
    "DefendChecked",
    "EndChecked",
    "FortifyChecked",
    "OccupyChecked",
    "PileChecked",
    "PlaceChecked",
    "TradeChecked",
    "kind_of",
    "to_action",
    "to_engine",
]

# The checked form of each kind, for the type checker: plain tuples at run time (no cost to build or read), a
# tagged union for mypy, which narrows it on ``checked[0] == "blitz"`` and the like.
PlaceChecked: TypeAlias = tuple[Literal["place"], int, int]
TradeChecked: TypeAlias = tuple[Literal["trade"], tuple[str, ...]]
AttackChecked: TypeAlias = tuple[Literal["attack"], int, int, int]
BlitzChecked: TypeAlias = tuple[Literal["blitz"], int, int, int]
DefendChecked: TypeAlias = tuple[Literal["defend"], int]
OccupyChecked: TypeAlias = tuple[Literal["occupy"], int]
FortifyChecked: TypeAlias = tuple[Literal["fortify"], int, int, int]
CapitalChecked: TypeAlias = tuple[Literal["capital"], int]
PileChecked: TypeAlias = tuple[Literal["pile"], int]
EndChecked: TypeAlias = tuple[Literal["end"]]

#: An action in the engine's form (see the module docstring): one of the tuples above.
Checked: TypeAlias = (
    PlaceChecked
    | TradeChecked
    | AttackChecked
    | BlitzChecked
    | DefendChecked
    | OccupyChecked
    | FortifyChecked
    | CapitalChecked
    | PileChecked
    | EndChecked
)

#: The kind of each public action class, the first item of its checked form.
KIND: Mapping[type, str] = {
    PlaceArmies: "place",
    TradeCards: "trade",
    Attack: "attack",
    Blitz: "blitz",
    Defend: "defend",
    Occupy: "occupy",
    Fortify: "fortify",
    ChooseCapital: "capital",
    ChoosePile: "pile",
    EndPhase: "end",
}

_Encode = Callable[[dict[str, int], Any], Checked]
_Decode = Callable[[tuple[str, ...], Any], Any]  # each decodes one kind: the table is indexed by kind

# Territories may be given by canonical name or id; ``index.get(t, t)`` keeps an id as it is.
_ENCODE: dict[str, _Encode] = {
    "place": lambda index, a: ("place", index.get(a.territory, a.territory), a.armies),
    "trade": lambda index, a: ("trade", tuple(a.cards)),
    "attack": lambda index, a: ("attack", index.get(a.source, a.source), index.get(a.target, a.target), a.dice),
    "blitz": lambda index, a: ("blitz", index.get(a.source, a.source), index.get(a.target, a.target), a.stop_at),
    "defend": lambda index, a: ("defend", a.dice),
    "occupy": lambda index, a: ("occupy", a.armies),
    "fortify": lambda index, a: ("fortify", index.get(a.source, a.source), index.get(a.target, a.target), a.armies),
    "capital": lambda index, a: ("capital", index.get(a.territory, a.territory)),
    "pile": lambda index, a: ("pile", a.pile),
    "end": lambda index, a: ("end",),
}

_DECODE: dict[str, _Decode] = {
    "place": lambda names, c: PlaceArmies(names[c[1]], c[2]),
    "trade": lambda names, c: TradeCards(tuple(c[1])),
    "attack": lambda names, c: Attack(names[c[1]], names[c[2]], c[3]),
    "blitz": lambda names, c: Blitz(names[c[1]], names[c[2]], c[3]),
    "defend": lambda names, c: Defend(c[1]),
    "occupy": lambda names, c: Occupy(c[1]),
    "fortify": lambda names, c: Fortify(names[c[1]], names[c[2]], c[3]),
    "capital": lambda names, c: ChooseCapital(names[c[1]]),
    "pile": lambda names, c: ChoosePile(c[1]),
    "end": lambda names, c: EndPhase(),
}


def kind_of(action: object) -> str | None:
    """The kind of a public action (``"attack"``, ...), or None for anything else."""
    kind = KIND.get(type(action))
    if kind is None:
        for klass, name in KIND.items():  # a subclass of an action class is that action
            if isinstance(action, klass):
                return name
    return kind


def to_engine(game: GameContext, action: Any) -> Checked:
    """The checked form of ``action``, without checking it (territory names to ids).

    Raises
    ------
    TypeError
        If ``action`` is not one of the public action classes.
    """
    kind = kind_of(action)
    if kind is None:
        raise TypeError(f"{action!r} is not an action")
    return _ENCODE[kind](game.index, action)


def to_action(game: GameContext, checked: Checked) -> Any:
    """The public action of a checked one (territory ids back to names).

    Raises
    ------
    ValueError
        If ``checked`` is not in the checked form.
    """
    decode = _DECODE.get(checked[0]) if checked else None
    if decode is None:
        raise ValueError(f"not a checked action: {checked!r}")
    return decode(game.board.territories, checked)
