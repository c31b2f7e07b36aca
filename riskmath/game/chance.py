"""The fast internal path of the rules model (private): sampling chance nodes, and in-place play.

:func:`sample_outcome` is what :meth:`GameState.sample_chance` returns: it
draws one uniform number from the state's SplitMix64 generator (without
advancing it) and maps it to an outcome with exactly the distribution that
``chance_outcomes()`` lists, without building that list where it is costly:

* a card draw or deal walks the deck with the same cumulative float sums as
  the listed ``Fraction(count, deck size)`` probabilities (so the same number
  gives the same card as a walk over the list);
* a blitz of at most :data:`TABLE_ATTACKERS` attacking and
  :data:`TABLE_DEFENDERS` defending armies is one draw from the cached table
  of the whole battle (:meth:`Game.blitz_table`); one with more attackers is
  drawn in pieces from the table of :data:`TABLE_ATTACKERS` attackers (see
  :func:`_blitz`), and one with more defenders is rolled out (in blocks of
  rolls where it can; :func:`roll_out`) with a stream of numbers seeded by
  the generator's next output (:func:`substream`).  The tables stay few and
  small: a simulation never builds the table of a battle of thousands of
  armies that it meets once.

:func:`run_game` plays a game between agents on one private state changed in
place (no copy per action), which is what :func:`riskmath.play` and
:func:`riskmath.simulate` use.  Agents marked ``trusted`` (the built-in ones,
whose legality the test suite checks over thousands of games in every rule
variant) see that live state and their actions are applied unchecked; any
other agent is shown a copy and every action it returns is checked.
"""

from __future__ import annotations

import copy
import functools
import math
from bisect import bisect_right
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from riskmath.errors import IllegalActionError
from riskmath.game.actions import (
    Attack,
    BattleOutcome,
    Blitz,
    ChooseCapital,
    ChoosePile,
    Defend,
    DrawCard,
    EndPhase,
    FirstPlayer,
    Fortify,
    Occupy,
    PlaceArmies,
    TradeCards,
)
from riskmath.game.game import WILD
from riskmath.odds.dice import CombatRules

if TYPE_CHECKING:
    import random

    from riskmath.game.game import Game
    from riskmath.game.state import GameState

MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_UNIT = 1.0 / (1 << 53)

#: The largest blitz (armies able to attack, defenders) drawn from its own cached battle table.  With more
#: attackers it is drawn in pieces of ``TABLE_ATTACKERS``; with more defenders it is rolled out.
TABLE_ATTACKERS = 64
TABLE_DEFENDERS = 16


def splitmix64(state: int) -> tuple[int, float]:
    """One step of SplitMix64 (Steele, Lea and Flood 2014): new state and a uniform float in [0, 1)."""
    state = (state + _GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    return state, (z >> 11) * _UNIT


def substream(state: int) -> int:
    """The seed of the stream of numbers a blitz draws from: the generator's next 64-bit output.

    Seeding with the output rather than the state keeps the stream off the
    generator's own sequence (states ``rng + k * golden``), which the next
    chance nodes use: a roll-out never shares numbers with a later node.
    """
    z = (state + _GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def advance(state: int) -> int:
    """The generator state one step on (the state part of :func:`splitmix64`, without the output)."""
    return (state + _GOLDEN) & MASK


# -- sampling chance nodes ---------------------------------------------------------------------


def sample_outcome(s: GameState) -> Any:
    """The outcome of chance node ``s`` for the next number of its generator (see the module docstring)."""
    x = splitmix64(s._rng)[1]
    phase = s._phase.name
    if phase == "BLITZ":
        return _blitz(s, x)
    if phase == "ROLL":
        return s._chance_table().sample(x)
    if phase in ("DRAW", "SETUP_DEAL"):
        return DrawCard(_card(s._deck, x))
    if phase == "SETUP_ORDER":
        return FirstPlayer(_uniform(range(s.game.players), x))
    if phase == "SETUP_PLACE":  # random set-up: one army on a territory of the placing owner, uniformly
        owner, n = s._queue[0][0], len(s._owner)
        mine = [t for t in range(n) if s._owner[t] == owner and s._room(t, setup=True)]
        return PlaceArmies(s.game.board.territories[_uniform(mine, x)], 1)
    outcomes = s.chance_outcomes()  # mission cards: once per player and game
    total = 0.0
    for outcome, p in outcomes:
        total += float(p)
        if x < total:
            return outcome
    return outcomes[-1][0]


def _uniform(items: Sequence[Any], x: float) -> Any:
    """The item for ``x`` under the cumulative sums of ``Fraction(1, len(items))`` taken as floats."""
    step = 1 / len(items)
    total = 0.0
    for item in items:
        total += step
        if x < total:
            return item
    return items[-1]


def _card(deck: list[str], x: float) -> str:
    """The card for ``x`` under the cumulative sums of the deck's listed draw probabilities.

    ``chance_outcomes()`` lists each distinct card once, in the order of its
    first place in the deck, with ``Fraction(count, len(deck))``.  Only wild
    cards repeat, so the sums are ``1 / n`` per territory card and
    ``wilds / n`` at the first wild; ``float(Fraction(k, n))`` is ``k / n``
    rounded once, as here, so the walk gives the listed outcome bit for bit.
    """
    n = len(deck)
    step = 1 / n
    wild_step = -1.0
    total = 0.0
    last = deck[-1]
    for card in deck:
        if card == WILD:
            if wild_step >= 0:
                continue
            wild_step = deck.count(WILD) / n
            total += wild_step
        else:
            total += step
        last = card
        if x < total:
            return card
    return last


def _blitz(s: GameState, x: float) -> BattleOutcome:
    """A blitz drawn from battle tables (a long one in several draws), or rolled out if it has many defenders.

    A battle of more than :data:`TABLE_ATTACKERS` attackers is drawn in
    pieces: shifted down by ``shift = a - TABLE_ATTACKERS``, it fights as the
    table battle ``(TABLE_ATTACKERS, d)`` as long as the attacker throws its
    most dice, so that table with ``stop_at`` raised to ``max_dice - 1``
    (while the real battle has not reached its own ``stop_at``) gives where it
    ends or where its attacker falls to fewer dice in the shifted frame; there
    it goes on from the real position with the next number of the stream (the
    chain is Markov, so the pieces compose to the battle's distribution).
    Each piece removes at least ``TABLE_ATTACKERS - max_dice + 1`` attackers,
    and almost every battle ends in the first.
    """
    assert s._pending is not None
    _, source, target, stop_at, _, _ = s._pending
    return _battle(s.game, s._armies[source] - 1, s._armies[target], stop_at, x, s._rng)


def _battle(game: Game, a: int, d: int, stop_at: int, x: float, rng: int) -> BattleOutcome:
    """:func:`_blitz` from the numbers: ``a`` attackers, ``d`` defenders, ``x`` the generator's next number."""
    if d > TABLE_DEFENDERS:
        return roll_out(game, a, d, stop_at, substream(rng))
    if a <= TABLE_ATTACKERS:
        table = game.blitz_table(a, d, stop_at)
        outcome: BattleOutcome = table._drawn[bisect_right(table.cumulative, x)]  # table.sample(x)
        return outcome
    stream = -1  # the numbers after x, for the rare battle of several pieces: substream(rng)
    low_dice = game.rules.combat.attacker_max_dice - 1
    while a > TABLE_ATTACKERS:
        shift = a - TABLE_ATTACKERS
        low = stop_at - shift  # where the real battle stops, in the shifted frame
        piece: BattleOutcome = game.blitz_table(TABLE_ATTACKERS, d, max(low, low_dice)).sample(x)
        a, d = piece.attackers_left + shift, piece.defenders_left
        if d == 0 or piece.attackers_left <= low:
            return BattleOutcome(a, d)
        stream, x = splitmix64(substream(rng) if stream < 0 else stream)
    last: BattleOutcome = game.blitz_table(a, d, stop_at).sample(x)
    return last


#: Rolls drawn at once by a roll-out while both sides throw their most dice and stay clear of the edges.
ROLL_BLOCK = 16


@functools.cache
def _block(combat: CombatRules) -> tuple[tuple[float, ...], int]:
    """The attacker's losses in :data:`ROLL_BLOCK` rolls of the most dice on both sides, and the armies they remove.

    Each such roll removes ``pairs = min(max dice)`` armies, split between the
    sides by the roll's odds; the losses over a block are the sum of
    ``ROLL_BLOCK`` independent rolls, convolved exactly (integer weights over
    a common denominator).  Returns the cumulative probabilities of
    ``0 .. ROLL_BLOCK * pairs`` attacker losses, each rounded once to a
    float, and ``ROLL_BLOCK * pairs``.
    """
    most_a, most_d = combat.attacker_max_dice, combat.defender_max_dice
    odds = combat.roll_odds(most_a, most_d)
    pairs = min(most_a, most_d)
    one = [Fraction(odds.get((i, pairs - i), 0)) for i in range(pairs + 1)]
    denominator = math.lcm(*(p.denominator for p in one))
    weights = [p.numerator * (denominator // p.denominator) for p in one]
    total = [1]
    for _ in range(ROLL_BLOCK):
        total = [
            sum(total[k - i] * weights[i] for i in range(pairs + 1) if 0 <= k - i < len(total))
            for k in range(len(total) + pairs)
        ]
    scale = denominator**ROLL_BLOCK
    cumulative, running = [], 0
    for weight in total:
        running += weight
        cumulative.append(running / scale)  # int / int: correctly rounded
    return tuple(cumulative), ROLL_BLOCK * pairs


def roll_out(game: Game, a: int, d: int, stop_at: int, stream: int) -> BattleOutcome:
    """A blitz rolled out with numbers from the SplitMix64 stream after ``stream`` (a :func:`substream`).

    One number per roll, or per :data:`ROLL_BLOCK` rolls while both sides
    throw their most dice throughout the block (a battle of hundreds on
    each side is mostly blocks).
    """
    tables = game.roll_tables()
    most_a = len(tables) - 1
    most_d = len(tables[1]) - 1
    block, span = _block(game.rules.combat)
    clear_a = max(most_a, stop_at + 1) + span  # from here a block never reaches fewer dice or the stop
    clear_d = most_d + span
    while a > stop_at and d > 0:
        stream = (stream + _GOLDEN) & MASK
        z = stream
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        x = ((z ^ (z >> 31)) >> 11) * _UNIT
        if a >= clear_a and d >= clear_d:
            lost = min(bisect_right(block, x), span)
            a -= lost
            d -= span - lost
            continue
        cumulative, losses = tables[most_a if a > most_a else a][most_d if d > most_d else d]
        i = 0
        while i < len(cumulative) - 1 and x >= cumulative[i]:
            i += 1
        lost_a, lost_d = losses[i]
        a -= lost_a
        d -= lost_d
    return BattleOutcome(a, d)


# -- actions in their checked form -------------------------------------------------------------


def action_of(game: Game, checked: tuple[Any, ...]) -> Any:
    """The public action for a checked (normalised) one: territory ids back to names."""
    kind = checked[0]
    names = game.board.territories
    if kind == "blitz":
        return Blitz(names[checked[1]], names[checked[2]], checked[3])
    if kind == "occupy":
        return Occupy(checked[1])
    if kind == "place":
        return PlaceArmies(names[checked[1]], checked[2])
    if kind == "end":
        return EndPhase()
    if kind == "trade":
        return TradeCards(tuple(checked[1]))
    if kind == "attack":
        return Attack(names[checked[1]], names[checked[2]], checked[3])
    if kind == "fortify":
        return Fortify(names[checked[1]], names[checked[2]], checked[3])
    if kind == "defend":
        return Defend(checked[1])
    if kind == "capital":
        return ChooseCapital(names[checked[1]])
    if kind == "pile":
        return ChoosePile(checked[1])
    raise ValueError(f"not a checked action: {checked!r}")


# -- in-place play -----------------------------------------------------------------------------

Decide = Callable[["GameState", "random.Random"], tuple[Any, ...]]


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
) -> tuple[GameState, list[Any], list[dict[str, Any]]]:
    """Play one game in place: the final state, the decisions (if kept) and the per-turn snapshots."""
    from riskmath.game.state import GameState, Phase
    from riskmath.game.transitions import apply_action, end_blitz, occupy

    agents = copy.deepcopy(list(agents))  # fresh agents: no game depends on the games played before it here
    state = GameState.initial(game, seed=seed, auto_chance=True)
    deciders = [fast_decider(agent) for agent in agents]
    trusted = [getattr(agent, "trusted", False) is True for agent in agents]
    # A fast agent that always moves every army it can into a capture says so; the loop then occupies for it.
    moves_all = [
        decide is not None and getattr(agent, "_occupies_all", False)
        for decide, agent in zip(deciders, agents, strict=True)
    ]
    cap = game.cap
    actions: list[Any] = []
    snapshots: list[dict[str, Any]] = []
    turn = 0
    game_over, occupying = Phase.GAME_OVER, Phase.OCCUPY
    decisions = (Phase.ATTACK, Phase.OCCUPY, Phase.REINFORCE, Phase.FORTIFY, Phase.TRADE_DOWN, Phase.DEFEND)
    while state._phase is not game_over:
        if snapshot is not None and state._turn != turn:
            turn = state._turn
            snapshots.append(snapshot(state))
        player = state._player
        decide = deciders[player]
        if decide is not None:
            checked = decide(state, rngs[player])
            if keep_actions:
                actions.append(checked)
        else:
            agent = agents[player]
            if trusted[player]:
                action = agent.act(state, rngs[player])
                checked = state._normalise(action)
            else:
                action = agent.act(state._copy(), rngs[player])
                try:
                    checked = state._check(action)
                except IllegalActionError as error:
                    raise IllegalActionError(f"agent {agent.name!r} in seat {player}: {error}") from None
            if keep_actions:
                actions.append(action)
        if checked[0] == "blitz":
            # What apply_action, sample_chance and _apply_outcome do for a blitz (the commonest action), inlined:
            # the generator's next number, the battle drawn from it, the generator one step on, the outcome.
            _, source, target, stop_at = checked
            rng = state._rng
            z = (rng + _GOLDEN) & MASK
            state._rng = z
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            x = ((z ^ (z >> 31)) >> 11) * _UNIT  # splitmix64(rng)[1]
            armies = state._armies
            outcome = _battle(game, armies[source] - 1, armies[target], stop_at, x, rng)
            end_blitz(state, source, target, player, outcome.attackers_left, outcome.defenders_left)
            if state._phase is occupying and moves_all[player]:  # the agent's decision, known in advance
                room = cap - armies[target]
                moved = min(armies[source] - 1, room if room > 0 else 0)
                if keep_actions:
                    actions.append(("occupy", moved))
                occupy(state, moved)
        else:
            apply_action(state, checked)
            if state._phase not in decisions:
                state._resolve_chance()
    if keep_actions:
        actions = [action_of(game, a) if isinstance(a, tuple) else a for a in actions]
    return state, actions, snapshots
