"""A Monte Carlo search agent: :class:`SearchAgent`.

At the decisions that shape a turn it lists a few candidate moves and scores
each by rollouts:

* **attacks**: ending the attacks, what :class:`~riskmath.agents.OddsAgent`
  would do, and the blitzes with the best odds;
* **reinforcements** (the first placement of the turn, once any trade is
  made): the odds agent's placement, and the whole pool on each of the own
  territories with the likeliest attack or the likeliest loss;
* **fortification**: ending the turn, the odds agent's move, and moving all
  but one army from the biggest stacks with no rival neighbor to the own
  territories most likely to fall.

From a copy of the state, reseeded from the agent's own generator so that it
cannot see the real game's dice, a rollout applies the candidate, lets a
rollout agent play every seat (chance nodes sampled) until ``horizon`` more
player-turns have begun or the game ends, and scores the result for the
searching player with ``score`` (by default its chance of victory by the
calibrated estimate, :func:`riskmath.evaluate.estimate_victory_probabilities`).
Rollout ``j`` of every candidate starts from the same generator state
(common random numbers), so candidates are compared on the same dice as
long as their games stay alike.  A candidate replaces the odds agent's move
only when it beats it by more than ``margin`` standard errors of the paired
differences; of those, the one that beats it by most is played.  Every
other decision is the odds agent's.

This is flat Monte Carlo over chance nodes (each rollout samples dice, cards
and blitz outcomes from their exact distributions), with a budget counted in
rollouts per decision.
"""

from __future__ import annotations

import copy
import math
import random
import statistics
from collections.abc import Callable, Iterable
from typing import Any

from riskmath._validation import check_int, shown
from riskmath.agents.basic import MOST_BUDGET, BuiltIn, Signature, placement_signature, position_signature
from riskmath.agents.odds import OddsAgent
from riskmath.errors import InvalidArgumentError
from riskmath.evaluate.estimate import victory_list
from riskmath.evaluate.outlook import fall_probabilities, owners_and_armies, win_probability
from riskmath.game.actions import Blitz, EndPhase, Fortify, PlaceArmies, TradeCards
from riskmath.game.phase import Phase
from riskmath.game.state import GameState

__all__ = ["SearchAgent"]

#: The decisions the agent can search (``phases=``).
SEARCHABLE = ("reinforce", "attack", "fortify")


def _estimated_chance(state: GameState, player: int) -> float:
    """The default rollout score: ``player``'s chance of victory (``estimate_victory_probabilities``)."""
    return victory_list(state)[player]


class SearchAgent(BuiltIn):
    """Flat Monte Carlo search over the reinforcement, attack and fortify decisions; see the module docstring.

    Parameters
    ----------
    budget : int, default 32
        Rollouts per searched decision, shared equally by the candidates (at
        least one each).
    candidates : int, default 3
        Moves considered per decision besides ending the phase and the odds
        agent's move (blitzes, placements, fortifications).
    horizon : int, optional
        Player-turns to roll out beyond the current one; by default one
        round (the number of players), so that every rival replies.
    rollout_agent : Agent, optional
        Plays every seat in the rollouts; an :class:`~riskmath.agents.OddsAgent` by default.
    phases : iterable of str, default ("reinforce", "attack", "fortify")
        The decisions to search; the others are the odds agent's.
    score : callable, optional
        ``score(state, player) -> float``, higher is better for ``player``, to
        score the end of a rollout; by default ``player``'s chance of victory by
        :func:`riskmath.evaluate.estimate_victory_probabilities`.  Pass e.g.
        ``lambda s, p: position_value(s).loc[p, "value"]`` to score by the
        hand-weighted position value.
    margin : float, default 1.0
        A candidate replaces the odds agent's move only when its mean score
        beats the odds agent's, rollout by rollout on the same dice, by more
        than ``margin`` standard errors of the difference (and by the most of
        all candidates): with a few rollouts each, chance alone would
        otherwise pick a worse move as often as a better one.
    guide : Agent, optional
        Whose move is the default at every decision and the one candidates
        must beat (and who makes every decision not searched): an
        :class:`~riskmath.agents.OddsAgent` (the default) or a subclass of it,
        such as :class:`~riskmath.agents.PlannerAgent`, whose moves are legal
        by construction.

    Examples
    --------
    A short two-player game with a small budget:

    >>> import riskmath as rm
    >>> from riskmath.agents.odds import OddsAgent
    >>> record = rm.play(rm.Game(2, max_turns=30), [SearchAgent(budget=4), OddsAgent()], seed=1)
    >>> record.winner, record.final.turn
    (1, 15)
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
        *,
        phases: Iterable[str] = SEARCHABLE,
        score: Callable[[GameState, int], float] | None = None,
        margin: float = 1.0,
        guide: Any = None,
    ) -> None:
        # (NumPy integers are taken, as plain ints, as by every other integer argument of riskmath)
        budget = check_int("budget", budget, minimum=1, maximum=MOST_BUDGET)
        candidates = check_int("candidates", candidates, minimum=0)
        if horizon is not None:
            horizon = check_int("horizon (an integer >= 0, or None)", horizon, minimum=0)
        if isinstance(phases, str):
            raise InvalidArgumentError(f"phases must be a collection of phase names, got the string {phases!r}")
        chosen = tuple(phases)
        unknown = [p for p in chosen if p not in SEARCHABLE]
        if unknown:
            raise InvalidArgumentError(f"phases: unknown {unknown[0]!r}; choose from {', '.join(SEARCHABLE)}")
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin < math.inf:
            raise InvalidArgumentError(f"margin must be a finite number >= 0 (standard errors), got {margin!r}")
        if score is not None and not callable(score):
            raise InvalidArgumentError(f"score must be a callable score(state, player) or None, got {score!r}")
        if guide is not None and not isinstance(guide, OddsAgent):
            raise InvalidArgumentError(f"guide must be an OddsAgent or a subclass of it, got {guide!r}")
        if rollout_agent is not None and (
            isinstance(rollout_agent, type) or not callable(getattr(rollout_agent, "act", None))
        ):
            raise InvalidArgumentError(
                f"rollout_agent must be an agent (an instance with act(state, rng)) or None, got {shown(rollout_agent)}"
                + ("; for an agent by its name, pass make_agent(name)" if isinstance(rollout_agent, str) else "")
            )
        self.budget = budget
        self.candidates = candidates
        self.horizon = horizon
        self.rollout_agent = OddsAgent() if rollout_agent is None else rollout_agent
        self.phases = chosen
        self.score = _estimated_chance if score is None else score
        self.margin = float(margin)
        self._guide = OddsAgent() if guide is None else guide
        # The position the last placement chosen leads to (riskmath.agents.basic.placement_signature).
        self._placed: Signature | None = None

    def __repr__(self) -> str:
        extra = "" if self.phases == SEARCHABLE else f", phases={self.phases!r}"
        if self.score is not _estimated_chance:
            extra += f", score={self.score!r}"
        if self.margin != 1.0:
            extra += f", margin={self.margin!r}"
        if type(self._guide) is not OddsAgent or repr(self._guide) != repr(OddsAgent()):  # (its thresholds too)
            extra += f", guide={self._guide!r}"
        return (
            f"SearchAgent(budget={self.budget!r}, candidates={self.candidates!r}, horizon={self.horizon!r}, "
            f"rollout_agent={self.rollout_agent!r}{extra})"
        )

    def act(self, state: GameState, rng: random.Random) -> Any:
        action = self._searched(state, rng)
        if isinstance(action, PlaceArmies) and state.phase is Phase.REINFORCE:
            # The position this placement leads to: the turn's later placements from exactly there are not searched.
            territory = state.game.board.index(action.territory)
            self._placed = placement_signature(state, territory, int(action.armies))
        return action

    def _searched(self, state: GameState, rng: random.Random) -> Any:
        """The action chosen (see :meth:`act`)."""
        guided = self._guide.act(state, rng)  # (the odds agent's act checks state and rng first: check_asked)
        options = self._options(state, guided)
        if len(options) <= 1:
            return guided
        me = state.current_player
        horizon = state.game.players if self.horizon is None else self.horizon
        per = max(1, self.budget // len(options))
        # Common random numbers: rollout j of every candidate starts from the same generator state, so that the
        # candidates are compared on the same dice as far as their games stay alike.
        seeds = [rng.getrandbits(64) for _ in range(per)]
        base = [self._rollout(state, guided, me, horizon, seed) for seed in seeds]
        best: tuple[float, Any] = (0.0, guided)
        for action in options:
            if action == guided:
                continue
            diffs = [self._rollout(state, action, me, horizon, seed) - b for seed, b in zip(seeds, base, strict=True)]
            mean = sum(diffs) / per
            spread = statistics.stdev(diffs) / math.sqrt(per) if per > 1 else 0.0
            if mean > self.margin * spread and mean > best[0]:
                best = (mean, action)
        return best[1]

    def _options(self, state: GameState, guided: Any) -> list[Any]:
        """The candidates at this decision (legal, distinct, the guide's move among them), or none to search."""
        phase = state.phase
        if phase is Phase.ATTACK and "attack" in self.phases:
            options = [EndPhase(), guided, *self._blitzes(state)]
        elif phase is Phase.FORTIFY and "fortify" in self.phases:
            options = [EndPhase(), guided, *self._fortifications(state)]
        elif phase is Phase.REINFORCE and "reinforce" in self.phases and self._first_placement(state, guided):
            options = [guided, *self._placements(state)]
        else:
            return []
        unique: list[Any] = []
        for action in options:
            if action not in unique and state.is_legal(action):
                unique.append(action)
        return unique

    def _first_placement(self, state: GameState, guided: Any) -> bool:
        """Whether this is the turn's first placement of the pool (searched once per turn and seat).

        A later placement of the same turn is the position the agent's last
        placement leads to, exactly (same game, turn, seat, owners, armies and
        pool).  Any other state is searched, the same state asked again too
        and a position where the armies went elsewhere, so that the answer
        depends only on the state and ``rng``.
        """
        if isinstance(guided, TradeCards) or not isinstance(guided, PlaceArmies) or state.pool == 0:
            return False
        return self._placed != position_signature(state)

    def _blitzes(self, state: GameState) -> list[Any]:
        """The blitzes with the best odds."""
        me = state.current_player
        owners, armies = owners_and_armies(state)
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
        return [Blitz(names[t], names[u], 0) for _, t, u in scored[: self.candidates]]

    def _placements(self, state: GameState) -> list[Any]:
        """The whole pool on the territories with the likeliest attack after it, and on the likeliest to fall."""
        me, pool = state.current_player, state.pool
        owners, armies = owners_and_armies(state)
        names = state.game.board.territories
        combat = state.game.rules.combat
        attack: dict[int, float] = {}
        for t, owner in enumerate(owners):
            if owner == me:
                for u in state.game.neighbors[t]:
                    if owners[u] != me:
                        p = win_probability(armies[t] - 1 + pool, armies[u], combat)
                        attack[t] = max(attack.get(t, 0.0), p)
        falls = fall_probabilities(state, False)
        ranked = sorted(attack, key=lambda t: (-attack[t], t))[: max(1, self.candidates - 1)]
        exposed = sorted((t for t in attack if falls[t] > 0.0), key=lambda t: (-falls[t], t))[:1]
        return [PlaceArmies(names[t], pool) for t in ranked + exposed]

    def _fortifications(self, state: GameState) -> list[Any]:
        """All but one army from the biggest stacks with no rival neighbor to the territories likeliest to fall."""
        me = state.current_player
        owners, armies = owners_and_armies(state)
        names = state.game.board.territories
        mine = [t for t, o in enumerate(owners) if o == me]
        interior = [t for t in mine if armies[t] > 1 and all(owners[u] == me for u in state.game.neighbors[t])]
        falls = fall_probabilities(state, False)
        exposed = sorted((t for t in mine if falls[t] > 0.0), key=lambda t: (-falls[t], t))
        options = []
        for source in sorted(interior, key=lambda t: (-armies[t], t))[:2]:
            for target in exposed[:3]:
                options.append(Fortify(names[source], names[target], armies[source] - 1))
        return options[: self.candidates]

    def _rollout(self, state: GameState, action: Any, me: int, horizon: int, seed: int) -> float:
        sim = state.reseeded(seed).apply(action, check=False)
        stop = state.turn + horizon + 1
        agent = copy.deepcopy(self.rollout_agent)  # no memory from earlier rollouts
        check = getattr(agent, "trusted", False) is not True  # (as play() does: an agent of one's own is checked)
        rng = random.Random(seed)
        while not sim.is_terminal() and sim.turn < stop:
            if sim.is_chance_node():
                sim = sim.apply(sim.sample_chance(), check=False)
            else:
                sim = sim.apply(agent.act(sim, rng), check=check)
        return float(self.score(sim, me))
