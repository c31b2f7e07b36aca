"""Agents: who decides for a seat in a simulated game.

An agent is any object with an ``act(state, rng)`` method that returns one of
``state.legal_actions()`` for the player to move (``state.current_player``),
and a ``name``.  ``rng`` is the agent's own :class:`random.Random`, seeded by
the simulation, so that games are reproducible.  States are fully observable
objects; an agent must only use what its player may see (its own cards and
mission, the board), which the built-in agents do.

Built in: :class:`RandomAgent` (uniform over the legal actions) and
:class:`AggressiveAgent` (a simple heuristic: mass on the front, attack the
weakest neighbour while clearly stronger).  Agents must be picklable to run in
worker processes; these are.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from riskmath.actions import Blitz, ChooseCapital, ChoosePile, Defend, EndPhase, Occupy, PlaceArmies, TradeCards
from riskmath.errors import InvalidArgumentError
from riskmath.state import GameState, Phase

__all__ = ["AGENTS", "Agent", "AggressiveAgent", "RandomAgent", "make_agent"]


@runtime_checkable
class Agent(Protocol):
    """What :func:`riskmath.simulate` needs from an agent."""

    name: str

    def act(self, state: GameState, rng: random.Random) -> Any:
        """A legal action for ``state.current_player``."""
        ...  # pragma: no cover - protocol


class RandomAgent:
    """Uniformly random among the legal actions (blitzes listed with ``stop_at=0``)."""

    name = "random"

    def act(self, state: GameState, rng: random.Random) -> Any:
        return rng.choice(state.legal_actions())

    def __repr__(self) -> str:
        return "RandomAgent()"


class AggressiveAgent:
    """Stack the front and attack whatever is clearly weaker.

    Reinforcements (and set-up armies) go on the own territory with the most
    armies among those bordering an enemy; sets are traded as soon as they
    can be.  It blitzes from its strongest front territory into the weakest
    enemy neighbour while it has ``ratio`` times the defenders' armies (and
    at least 2 more), moves every army it can into a captured territory, and
    does not fortify.

    Parameters
    ----------
    ratio : float, default 1.0
        How much stronger the attacking stack must be.
    """

    name = "aggressive"

    def __init__(self, ratio: float = 1.0) -> None:
        self.ratio = ratio

    def __repr__(self) -> str:
        return f"AggressiveAgent(ratio={self.ratio!r})"

    def act(self, state: GameState, rng: random.Random) -> Any:
        phase = state.phase
        legal = state.legal_actions()
        player = state.current_player
        if phase in (Phase.REINFORCE, Phase.TRADE_DOWN):
            for action in legal:
                if isinstance(action, TradeCards):
                    return action
            places = [a for a in legal if isinstance(a, PlaceArmies)]
            if not places:
                return legal[0]
            target = _front(state, player, {a.territory for a in places})
            return max((a for a in places if a.territory == target), key=lambda a: a.armies)
        if phase is Phase.SETUP_PLACE:
            places = [a for a in legal if isinstance(a, PlaceArmies)]
            owner = state.owner(places[0].territory)
            if owner != player:  # a neutral army (two-player set-up): anywhere will do
                return rng.choice(places)
            target = _front(state, player, {a.territory for a in places})
            return max((a for a in places if a.territory == target), key=lambda a: a.armies)
        if phase is Phase.ATTACK:
            best: tuple[float, Any] | None = None
            for action in legal:
                if isinstance(action, Blitz):
                    mine, theirs = state.armies(action.source) - 1, state.armies(action.target)
                    if mine >= self.ratio * theirs and mine >= theirs + 2:
                        score = mine - theirs
                        if best is None or score > best[0]:
                            best = (score, action)
            return best[1] if best is not None else EndPhase()
        if phase is Phase.OCCUPY:
            return max((a for a in legal if isinstance(a, Occupy)), key=lambda a: a.armies)
        if phase is Phase.DEFEND:
            return max((a for a in legal if isinstance(a, Defend)), key=lambda a: a.dice)
        if phase is Phase.FORTIFY:
            return EndPhase()
        if phase in (Phase.SETUP_PILE, Phase.SETUP_CAPITAL):
            return legal[0] if isinstance(legal[0], (ChoosePile, ChooseCapital)) else rng.choice(legal)
        return rng.choice(legal)  # claims and anything else


def _front(state: GameState, player: int, candidates: set[Any]) -> Any:
    """Of ``candidates``, the territory with the most armies bordering an enemy (any, if none does)."""
    board = state.game.board
    front = [t for t in candidates if any(state.owner(n) != player for n in board.neighbors(t))]
    pool = front or sorted(candidates)
    return max(sorted(pool), key=lambda t: state.armies(t))


#: Agents by the names the command line uses.
AGENTS: dict[str, type] = {"random": RandomAgent, "aggressive": AggressiveAgent}


def make_agent(name: str) -> Any:
    """The built-in agent called ``name`` (``"random"`` or ``"aggressive"``).

    Raises
    ------
    InvalidArgumentError
        For an unknown name.
    """
    if name not in AGENTS:
        raise InvalidArgumentError(f"unknown agent {name!r}; agents are {', '.join(AGENTS)}")
    return AGENTS[name]()
