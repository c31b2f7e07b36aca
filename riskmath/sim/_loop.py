"""The in-place play loop (private): one game between agents on one private state, no copy per action.

:func:`run_game` is what :func:`riskmath.play` and :func:`riskmath.simulate`
use.  It holds one private :class:`~riskmath.game.game.GameState` and changes
its :class:`~riskmath.game.position.Position` in place through the engine's
functions (:func:`~riskmath.game.transitions.apply_action`,
:func:`~riskmath.game.transitions.resolve_chance`), the same transitions
``GameState.apply`` runs on a copy.  Agents marked ``trusted`` (the built-in
ones, whose legality the test suite checks over thousands of games in every
rule variant) see that live state and their actions are applied unchecked;
any other agent is shown a copy and every action it returns is checked.
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

from riskmath.errors import AgentError, IllegalActionError
from riskmath.game.chance import MASK
from riskmath.game.checked import Checked, to_action, to_engine
from riskmath.game.game import Game, GameState
from riskmath.game.legality import check_action
from riskmath.game.phase import Phase
from riskmath.game.position import Position, most_to_move
from riskmath.game.transitions import apply_action, draw_blitz, occupy, resolve_chance
from riskmath.sim._move_time import MoveClock, TimedAgent

Decide = Callable[[GameState, random.Random], Checked]

# The phases where an agent decides; after any other the loop resolves chance.
_DECISIONS = (Phase.ATTACK, Phase.OCCUPY, Phase.REINFORCE, Phase.FORTIFY, Phase.TRADE_DOWN, Phase.DEFEND)


#: Decisions between two looks at the position for an agent going round in circles (a multiple of 1..10, so
#: that cycles of up to 10 decisions are caught as well as actions that change nothing).
_CHECK_EVERY = 2520


class _IllegalAgentActionError(AgentError, IllegalActionError):
    """An agent's illegal action: an IllegalActionError (as always) and an AgentError (naming agent, seat, seed)."""


def _failed(agents: Sequence[Any], seat: int, seed: int, reason: str) -> AgentError:
    name = str(getattr(agents[seat], "name", type(agents[seat]).__name__))
    message = f"agent {name!r} in seat {seat} (game seed {seed}) {reason}"
    return AgentError(message, agent=name, seat=seat, seed=seed)


def fast_decider(agent: Any) -> Decide | None:
    """The agent's ``_decide`` (checked actions straight from the live state), if it may be used.

    Only for a trusted agent whose ``act`` comes from the same class as its
    ``_decide`` (a subclass that overrides ``act`` is asked through ``act``).
    """
    if getattr(agent, "trusted", False) is not True:
        return None
    for klass in type(agent).__mro__:
        if "act" in vars(klass):
            decide: Decide | None = getattr(agent, "_decide", None) if "_decide" in vars(klass) else None
            return decide
    return None


def run_game(
    game: Game,
    agents: Sequence[Any],
    seed: int,
    rngs: Sequence[random.Random],
    *,
    keep_actions: bool,
    snapshot: Callable[[GameState], dict[str, Any]] | None = None,
    start: Position | None = None,
    move_time: float | None = None,
) -> tuple[GameState, list[Any], list[dict[str, Any]]]:
    """Play one game in place: the final state, the decisions (if kept) and the per-turn snapshots.

    From a new game, or from a copy of the position ``start`` (a position of
    ``game``, already checked) whose generator is reseeded with ``seed``, so
    that its own future dice are never used.  With ``move_time`` (seconds,
    already checked), every decision is timed by a :class:`MoveClock`: the
    agents are wrapped before the loop, which is the same either way.
    """
    agents = copy.deepcopy(list(agents))  # fresh agents: no game depends on the games played before it here
    if start is None:
        state = GameState.initial(game, seed=seed, auto_chance=True)
    else:
        begin = start.copy()
        begin.rng = seed & MASK
        resolve_chance(game, begin)  # a start at a chance node (a battle declared, a card to draw) goes on at once
        state = GameState(game, begin, auto_chance=True)
    pos = state.position  # the live record: changed in place below, shown to trusted agents through ``state``
    deciders = [fast_decider(agent) for agent in agents]
    trusted = [getattr(agent, "trusted", False) is True for agent in agents]
    # A fast agent that always moves every army it can into a capture says so; the loop then occupies for it.
    moves_all = [
        decide is not None and getattr(agent, "_occupies_all", False)
        for decide, agent in zip(deciders, agents, strict=True)
    ]
    clock: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
    if move_time is not None:
        clock = MoveClock(move_time, seed)
        names = [str(getattr(agent, "name", type(agent).__name__)) for agent in agents]
        deciders = [None if d is None else clock.timed(d, seat, names[seat]) for seat, d in enumerate(deciders)]
        agents = [
            agent if deciders[seat] is not None else TimedAgent(agent, clock.timed(agent.act, seat, names[seat]))
            for seat, agent in enumerate(agents)
        ]
    actions: list[Any] = []
    snapshots: list[dict[str, Any]] = []
    turn = 0
    game_over, occupying, decisions = Phase.GAME_OVER, Phase.OCCUPY, _DECISIONS
    # Every legal action changes the position, so a position seen again _CHECK_EVERY decisions later means an
    # agent is going round in circles (a trusted agent's unchecked action that changes nothing): a countdown,
    # the only cost in the loop, and a copy of the position every _CHECK_EVERY decisions.
    countdown, seen = _CHECK_EVERY, None
    with clock:
        while pos.phase is not game_over:
            if snapshot is not None and pos.turn != turn:
                turn = pos.turn
                snapshots.append(snapshot(state))
            countdown -= 1
            if not countdown:
                countdown = _CHECK_EVERY
                if seen is not None and pos == seen:
                    raise _failed(
                        agents,
                        pos.player,
                        seed,
                        f"makes no progress: {_CHECK_EVERY} decisions left the position as it was",
                    )
                seen = pos.copy()
            player = pos.player
            decide = deciders[player]
            try:
                if decide is not None:
                    checked = decide(state, rngs[player])
                    if keep_actions:
                        actions.append(checked)
                else:
                    agent = agents[player]
                    if trusted[player]:
                        action = agent.act(state, rngs[player])
                        try:
                            checked = to_engine(game, action)
                        except TypeError:
                            message = (
                                f"agent {agent.name!r} in seat {player} (game seed {seed}): {action!r} is not an action"
                            )
                            raise _IllegalAgentActionError(message, agent=agent.name, seat=player, seed=seed) from None
                    else:
                        action = agent.act(GameState(game, pos.copy(), auto_chance=True), rngs[player])
                        try:
                            checked = check_action(game, pos, action)
                        except IllegalActionError as error:
                            message = f"agent {agent.name!r} in seat {player} (game seed {seed}): {error}"
                            raise _IllegalAgentActionError(message, agent=agent.name, seat=player, seed=seed) from None
                    if keep_actions:
                        actions.append(action)
            except AgentError:
                raise
            except Exception as error:
                raise _failed(agents, player, seed, f"raised {type(error).__name__}: {error}") from error
            try:
                if checked[0] == "blitz":
                    # What apply_action and resolve_chance do for a blitz (the commonest action), without the detour
                    # through the BLITZ node: the same transition as resolve_chance's.
                    _, source, target, stop_at = checked
                    draw_blitz(game, pos, source, target, stop_at, player)
                    if pos.phase is occupying and moves_all[player]:  # the agent's decision, known in advance
                        moved = most_to_move(game, pos, source, target)
                        if keep_actions:
                            actions.append(("occupy", moved))
                        occupy(game, pos, moved)
                else:
                    apply_action(game, pos, checked)
                    if pos.phase not in decisions:
                        resolve_chance(game, pos)
            except Exception as error:
                if not trusted[player]:
                    raise  # a checked action: not the agent's doing
                reason = (
                    f"returned {checked!r}, which the game could not apply unchecked ({type(error).__name__}: {error})"
                )
                raise _failed(agents, player, seed, reason) from error
    if keep_actions:
        actions = [to_action(game, a) if isinstance(a, tuple) else a for a in actions]
    return state, actions, snapshots


def play_others(
    game: Game,
    state: GameState,
    seat: int,
    agents: dict[int, Any],
    rngs: dict[int, random.Random],
    deciders: dict[int, Decide | None] | None = None,
) -> GameState:
    """The state where ``seat`` next decides, is out, or the game is over, the other seats played by ``agents``.

    ``state`` (a decision state of ``game`` with automatic chance) is not
    changed: its position is copied once and the moves are made on the copy
    in place, as :func:`run_game` makes them (a trusted agent's fast
    decision or its action applied unchecked; any other agent shown a copy
    and its action checked), which is what ``state.apply`` would give move
    by move, without a copy per move.  ``agents`` and ``rngs`` map each
    other seat to its agent and generator, ``deciders`` to its
    :func:`fast_decider` (found here if None).  An agent's error propagates
    (``state`` is still as it was).
    """
    pos = state.position
    if pos.phase is Phase.GAME_OVER or pos.player == seat or not pos.alive[seat]:
        return state
    if deciders is None:
        deciders = {player: fast_decider(agent) for player, agent in agents.items()}
    pos = pos.copy()
    live = GameState(game, pos, auto_chance=True)  # the record changed below; shown to trusted agents
    game_over, decisions = Phase.GAME_OVER, _DECISIONS
    while pos.phase is not game_over and pos.player != seat and pos.alive[seat]:
        player = pos.player
        agent, decide = agents[player], deciders[player]
        if decide is not None:
            checked = decide(live, rngs[player])
        elif getattr(agent, "trusted", False) is True:
            action = agent.act(live, rngs[player])
            try:
                checked = to_engine(game, action)
            except TypeError:
                raise IllegalActionError(f"agent {agent!r} in seat {player}: {action!r} is not an action") from None
        else:
            action = agent.act(GameState(game, pos.copy(), auto_chance=True), rngs[player])
            checked = check_action(game, pos, action)
        apply_action(game, pos, checked)
        if pos.phase not in decisions:
            resolve_chance(game, pos)
    return live
