"""Agents: who decides for a seat in a simulated game.

An agent is any object with an ``act(state, rng)`` method that returns one of
``state.legal_actions()`` for the player to move (``state.current_player``),
and a ``name``.  ``rng`` is the agent's own :class:`random.Random`, seeded by
the simulation, so that games are reproducible.  States are fully observable
objects; an agent must only use what its player may see (its own cards and
mission, the board), which the built-in agents do.

An agent may set ``trusted = True``: :func:`riskmath.play` then applies its
actions without checking them and shows it the game's own state, which is
changed in place after it returns, so a trusted agent must not keep the
states it is shown.  The built-in agents are trusted; the test suite checks
over thousands of seeded games in every rule variant that they only ever
return legal actions.  Any other agent is shown a copy of the state and every
action it returns is checked (an illegal one raises
:class:`riskmath.IllegalActionError` naming the agent).  A subclass of a
built-in agent that overrides ``act`` is not trusted unless it says so.

Built in: :class:`RandomAgent` (uniform over the legal actions),
:class:`AggressiveAgent` (a simple heuristic: mass on the front, attack where
the margin of armies is largest, while clearly stronger), :class:`~riskmath.agents.OddsAgent`
(decides by the exact battle and conquest odds, :mod:`riskmath.evaluate`),
the :class:`~riskmath.agents.SearchAgent` (Monte Carlo rollouts over the
attack decisions) and :class:`~riskmath.agents.PlannerAgent` (weighs each
move by the victory estimate of the position it leaves, over the exact
battle outcomes; the strongest at the odds agent's speed).  Agents must be picklable to run in worker processes;
these are.  Every game of :func:`riskmath.play` and :func:`riskmath.simulate`
is played by fresh deep copies of the agents, so that no game depends on the
games played before it in the same process.
"""

from __future__ import annotations

import inspect
from typing import Any

from riskmath._validation import shown
from riskmath.agents.basic import Agent, AggressiveAgent, RandomAgent
from riskmath.agents.odds import OddsAgent
from riskmath.agents.planner import PlannerAgent
from riskmath.agents.search import SearchAgent
from riskmath.errors import InvalidArgumentError

__all__ = [
    "AGENTS",
    "Agent",
    "AggressiveAgent",
    "OddsAgent",
    "PlannerAgent",
    "RandomAgent",
    "SearchAgent",
    "make_agent",
]


#: Agents by the names the command line uses.
AGENTS: dict[str, type] = {
    "random": RandomAgent,
    "aggressive": AggressiveAgent,
    "odds": OddsAgent,
    "search": SearchAgent,
    "planner": PlannerAgent,
}


def make_agent(name: str, **options: Any) -> Any:
    """The built-in agent called ``name`` (a key of ``AGENTS``: ``"planner"``, ``"odds"``, ...).

    Parameters
    ----------
    name : str
        A key of :data:`AGENTS`.
    **options
        The agent's own keyword arguments (its class's; none: its defaults),
        e.g. ``make_agent("aggressive", ratio=2)``.

    Raises
    ------
    InvalidArgumentError
        For an unknown name, or an option the agent does not take.

    Examples
    --------
    >>> make_agent("aggressive"), make_agent("random"), make_agent("aggressive", ratio=2)
    (AggressiveAgent(ratio=1.0), RandomAgent(), AggressiveAgent(ratio=2.0))
    >>> make_agent("greedy")
    Traceback (most recent call last):
        ...
    riskmath.errors.InvalidArgumentError: unknown agent 'greedy'; agents are random, aggressive, odds, search, planner
    """
    if not isinstance(name, str) or name not in AGENTS:
        raise InvalidArgumentError(f"unknown agent {shown(name)}; agents are {', '.join(AGENTS)}")
    try:
        inspect.signature(AGENTS[name]).bind(**options)
    except TypeError as error:
        raise InvalidArgumentError(f"make_agent({name!r}, ...): {error}") from None
    return AGENTS[name](**options)
