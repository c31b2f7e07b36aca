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

Examples
--------
Player 1's first turn in a three-player game, after a set-up played by odds agents:

>>> import random, riskmath as rm
>>> from riskmath.agents.odds import OddsAgent
>>> state, agent, rng = rm.Game(3).new_initial_state(seed=4), OddsAgent(), random.Random(0)
>>> while state.phase is not rm.Phase.REINFORCE:
...     state = state.apply(state.sample_chance() if state.is_chance_node() else agent.act(state, rng))
>>> state, state.pool
(<GameState turn 1, REINFORCE, player 1 to move>, 11)
>>> state = state.apply(PlaceArmies("Brazil", 11)).apply(Attack("Brazil", "North Africa", 3))
>>> state, state.chance_outcomes()
(<GameState turn 1, ROLL, chance to move>, [(RollOutcome(attacker_losses=0, defender_losses=1), Fraction(95, 144)),
 (RollOutcome(attacker_losses=1, defender_losses=0), Fraction(49, 144))])
>>> state = state.apply(RollOutcome(0, 1))
>>> state, state.legal_actions()[0]
(<GameState turn 1, OCCUPY, player 1 to move>, Occupy(armies=3))
>>> state = state.apply(Occupy(8)).apply(Blitz("North Africa", "Egypt"))
>>> state, len(state.chance_outcomes())
(<GameState turn 1, BLITZ, chance to move>, 10)
>>> state = state.apply(BattleOutcome(5, 0)).apply(Occupy(5)).apply(EndPhase())
>>> state = state.apply(Fortify("Brazil", "Venezuela", 3))
>>> state, state.chance_outcomes()[0]
(<GameState turn 1, DRAW, chance to move>, (DrawCard(card='Alaska'), Fraction(1, 44)))
>>> state = state.apply(DrawCard("Egypt"))
>>> state, state.cards(1)
(<GameState turn 2, REINFORCE, player 2 to move>, ('Egypt',))
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
    asks for it, neutral armies) on ``territory``.

    Examples
    --------
    >>> PlaceArmies("Alaska", 3)
    PlaceArmies(territory='Alaska', armies=3)
    """

    territory: Territory
    armies: int = 1


@dataclass(frozen=True, slots=True)
class TradeCards:
    """Trade a set of three cards, each named by its territory or ``"wild"``.

    Examples
    --------
    >>> TradeCards(("Egypt", "Peru", "wild"))
    TradeCards(cards=('Egypt', 'Peru', 'wild'))
    """

    cards: tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Attack:
    """Roll once: ``dice`` attacking dice from ``source`` against ``target``.

    Examples
    --------
    >>> Attack("Brazil", "North Africa")
    Attack(source='Brazil', target='North Africa', dice=3)
    """

    source: Territory
    target: Territory
    dice: int = 3


@dataclass(frozen=True, slots=True)
class Blitz:
    """Fight ``source`` against ``target`` until the capture, or until the
    armies able to attack fall to ``stop_at`` or fewer; both sides throw their
    maximum dice.  Resolved by one chance node drawn from the exact battle
    distribution (:func:`riskmath.battle`).

    Examples
    --------
    >>> Blitz("North Africa", "Egypt", stop_at=2)
    Blitz(source='North Africa', target='Egypt', stop_at=2)
    """

    source: Territory
    target: Territory
    stop_at: int = 0


@dataclass(frozen=True, slots=True)
class Defend:
    """The defender's choice of dice for the pending roll.

    Examples
    --------
    Asked for only in a game with ``defender_decides=True``:

    >>> Defend(1)
    Defend(dice=1)
    """

    dice: int


@dataclass(frozen=True, slots=True)
class Occupy:
    """Move ``armies`` into the territory just captured.

    Examples
    --------
    >>> Occupy(3)
    Occupy(armies=3)
    """

    armies: int


@dataclass(frozen=True, slots=True)
class Fortify:
    """Move ``armies`` from ``source`` to ``target`` (both the player's).

    Examples
    --------
    >>> Fortify("Brazil", "Venezuela", 3)
    Fortify(source='Brazil', target='Venezuela', armies=3)
    """

    source: Territory
    target: Territory
    armies: int


@dataclass(frozen=True, slots=True)
class ChooseCapital:
    """Capital RISK: choose the territory that is the player's headquarters.

    Examples
    --------
    >>> ChooseCapital("Egypt")
    ChooseCapital(territory='Egypt')
    """

    territory: Territory


@dataclass(frozen=True, slots=True)
class ChoosePile:
    """1993 two-player game: take one of the three dealt piles of territories (0, 1 or 2).

    Examples
    --------
    >>> import riskmath as rm
    >>> state = rm.Game(2).new_initial_state(seed=0, auto_chance=True)
    >>> state.phase, ChoosePile(1) in state.legal_actions()
    (<Phase.SETUP_PILE: 'setup_pile'>, True)
    """

    pile: int


@dataclass(frozen=True, slots=True)
class EndPhase:
    """Finish the current optional phase (attacks, fortification).

    Examples
    --------
    >>> EndPhase()
    EndPhase()
    """


Action = PlaceArmies | TradeCards | Attack | Blitz | Defend | Occupy | Fortify | ChooseCapital | ChoosePile | EndPhase


# -- chance outcomes ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollOutcome:
    """One roll: the armies each side loses.

    Examples
    --------
    >>> RollOutcome(0, 2)
    RollOutcome(attacker_losses=0, defender_losses=2)
    """

    attacker_losses: int
    defender_losses: int


@dataclass(frozen=True, slots=True)
class BattleOutcome:
    """A whole blitz battle: the armies able to attack and the defenders left.

    Examples
    --------
    >>> BattleOutcome(5, 0)    # captured, with 5 armies able to attack left
    BattleOutcome(attackers_left=5, defenders_left=0)
    """

    attackers_left: int
    defenders_left: int


@dataclass(frozen=True, slots=True)
class DrawCard:
    """The card drawn from the deck (dealt, or drawn after a capture), by
    territory name or ``"wild"``; ``mission`` is set when a mission card is dealt.

    Examples
    --------
    >>> DrawCard("wild")
    DrawCard(card='wild')
    """

    card: str


@dataclass(frozen=True, slots=True)
class FirstPlayer:
    """Who starts (the high roll of the set-up).

    Examples
    --------
    >>> import riskmath as rm
    >>> rm.Game(3).new_initial_state(seed=0).apply(FirstPlayer(2))
    <GameState turn 0, SETUP_CLAIM, player 2 to move>
    """

    player: int


Outcome = RollOutcome | BattleOutcome | DrawCard | FirstPlayer
