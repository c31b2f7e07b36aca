"""A Monte Carlo search agent: :class:`SearchAgent`.

At each decision of the attack phase it lists a few candidate moves (ending
the attacks, what :class:`~riskmath.agents.OddsAgent` would do, and the
blitzes with the best odds), and scores each by rollouts: from a copy of the
state, reseeded from the agent's own generator so that it cannot see the real
game's dice, it applies the candidate, lets a rollout agent play every seat
(chance nodes sampled) until ``horizon`` more player-turns have begun or the
game ends, and scores the result with
:func:`riskmath.evaluate.position_value` for the searching player.  The
candidate with the best mean score is played; a tie goes to the earlier
candidate.  Every other decision is the odds agent's.

This is flat Monte Carlo over chance nodes (each rollout samples dice, cards
and blitz outcomes from their exact distributions), with a budget counted in
rollouts per decision.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from riskmath.agents.odds import OddsAgent
from riskmath.errors import InvalidArgumentError
from riskmath.evaluate.outlook import _lists, _values, win_probability
from riskmath.game.actions import Blitz, EndPhase
from riskmath.game.phase import Phase
from riskmath.game.state import GameState

__all__ = ["SearchAgent"]


class SearchAgent:
    """Flat Monte Carlo search over the attack decisions; see the module docstring.

    Parameters
    ----------
    budget : int, default 32
        Rollouts per attack decision, shared equally by the candidates (at
        least one each).
    candidates : int, default 3
        Blitzes considered besides ending the attacks and the odds agent's move.
    horizon : int, optional
        Player-turns to roll out beyond the current one; by default one
        round (the number of players), so that every rival replies.
    rollout_agent : Agent, optional
        Plays every seat in the rollouts; an :class:`~riskmath.agents.OddsAgent` by default.

    Examples
    --------
    A short two-player game with a small budget:

    >>> import riskmath as rm
    >>> from riskmath.agents.odds import OddsAgent
    >>> record = rm.play(rm.Game(2, max_turns=30), [SearchAgent(budget=4), OddsAgent()], seed=1)
    >>> record.winner, record.final.turn
    (1, 21)
    """

    name = "search"
    #: Legal by construction (candidates pass ``is_legal``; other moves are the odds agent's), as the tests check.
    trusted = True

    def __init__(
        self,
        budget: int = 32,
        candidates: int = 3,
        horizon: int | None = None,
        rollout_agent: Any = None,
    ) -> None:
        for label, value, least in (("budget", budget, 1), ("candidates", candidates, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise InvalidArgumentError(f"{label} must be an integer >= {least}, got {value!r}")
        if horizon is not None and (isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0):
            raise InvalidArgumentError(f"horizon must be a non-negative integer or None, got {horizon!r}")
        self.budget = budget
        self.candidates = candidates
        self.horizon = horizon
        self.rollout_agent = OddsAgent() if rollout_agent is None else rollout_agent
        self._guide = OddsAgent()

    def __repr__(self) -> str:
        return (
            f"SearchAgent(budget={self.budget!r}, candidates={self.candidates!r}, horizon={self.horizon!r}, "
            f"rollout_agent={self.rollout_agent!r})"
        )

    def act(self, state: GameState, rng: random.Random) -> Any:
        guided = self._guide.act(state, rng)
        if state.phase is not Phase.ATTACK:
            return guided
        options = self._candidates(state, guided)
        if len(options) == 1:
            return options[0]
        me = state.current_player
        horizon = state.game.players if self.horizon is None else self.horizon
        per = max(1, self.budget // len(options))
        best: tuple[float, Any] | None = None
        for action in options:
            total = 0.0
            for _ in range(per):
                total += self._rollout(state, action, me, horizon, rng)
            mean = total / per
            if best is None or mean > best[0]:
                best = (mean, action)
        assert best is not None
        return best[1]

    def _candidates(self, state: GameState, guided: Any) -> list[Any]:
        """Ending the attacks, the guide's move, and the blitzes with the best odds (legal, distinct)."""
        me = state.current_player
        owners, armies = _lists(state)
        names = state.game.board.territories
        combat = state.game.rules.combat
        scored = []
        for t, owner in enumerate(owners):
            if owner != me or armies[t] < 2:
                continue
            for u in state.game.neighbors[t]:
                if owners[u] != me:
                    scored.append((-win_probability(armies[t] - 1, armies[u], combat), t, u))
        scored.sort()
        options: list[Any] = [EndPhase(), guided]
        options += [Blitz(names[t], names[u], 0) for _, t, u in scored[: self.candidates]]
        unique: list[Any] = []
        for action in options:
            if action not in unique and state.is_legal(action):
                unique.append(action)
        return unique

    def _rollout(self, state: GameState, action: Any, me: int, horizon: int, rng: random.Random) -> float:
        sim = state.reseeded(rng.getrandbits(64)).apply(action, check=False)
        stop = state.turn + horizon + 1
        agent = copy.deepcopy(self.rollout_agent)  # no memory from earlier rollouts
        while not sim.is_terminal() and sim.turn < stop:
            if sim.is_chance_node():
                sim = sim.apply(sim.sample_chance(), check=False)
            else:
                sim = sim.apply(agent.act(sim, rng), check=False)
        return _values(sim)[me]
