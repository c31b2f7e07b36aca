"""Chance nodes (private): the seeded generator, and sampling an outcome from a position.

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
  :func:`battle`), and one with more defenders is rolled out (in blocks of
  rolls where it can, of :data:`LONG_BLOCK` rolls in a battle of millions
  and of :data:`HUGE_BLOCK` rolls in one of billions; :func:`roll_out`) with
  a stream of numbers seeded by the generator's next output
  (:func:`substream`).  A blitz of a billion armies a side is a few hundred
  draws, about a millisecond.  The tables stay few and
  small: a simulation never builds the table of a battle of thousands of
  armies that it meets once.

The generator is SplitMix64 (Steele, Lea and Flood 2014), one 64-bit
integer of state kept in ``Position.rng``: :func:`step` is its only
implementation (new state and 64-bit output), :func:`splitmix64` turns the
output into a float in [0, 1), and :func:`advance` moves the state on
without computing the output.  Chance nodes are functions of ``(game,
position)``: :func:`is_chance`, :func:`chance_outcomes`,
:func:`chance_table` and :func:`sample_outcome`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from bisect import bisect_right
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from riskmath._validation import as_int, check_cost, shown
from riskmath.errors import ResourceLimitError
from riskmath.game.actions import BattleOutcome, DrawCard, FirstPlayer, PlaceArmies
from riskmath.game.cards import WILD
from riskmath.game.context import TABLE_ATTACKERS, TABLE_DEFENDERS, ChanceTable, GameContext
from riskmath.game.missions import missions_for
from riskmath.game.phase import CHANCE_PHASES, Phase
from riskmath.game.position import Position, room
from riskmath.odds._sweeps import forward_cost
from riskmath.odds.dice import CombatRules

MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
#: From a 64-bit output to a float in [0, 1): ``(z >> 11) * UNIT``.
UNIT = 1.0 / (1 << 53)

#: Combat variants whose tables of huge blitzes are remembered (1 to 4 MB each; the least recently used go).
_BLOCKS_KEPT = 8


def step(state: int) -> tuple[int, int]:
    """One step of SplitMix64 (Steele, Lea and Flood 2014): the new state and its 64-bit output."""
    state = (state + _GOLDEN) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def splitmix64(state: int) -> tuple[int, float]:
    """One step of the generator: the new state and a uniform float in [0, 1) (the output's top 53 bits)."""
    state, z = step(state)
    return state, (z >> 11) * UNIT


def substream(state: int) -> int:
    """The seed of the stream of numbers a blitz draws from: the generator's next 64-bit output.

    Seeding with the output rather than the state keeps the stream off the
    generator's own sequence (states ``rng + k * golden``), which the next
    chance nodes use: a roll-out never shares numbers with a later node.
    """
    return step(state)[1]


def advance(state: int) -> int:
    """The generator state one step on (the state part of :func:`splitmix64`, without computing the output)."""
    return (state + _GOLDEN) & MASK


# -- sampling chance nodes ---------------------------------------------------------------------


def is_chance(game: GameContext, pos: Position) -> bool:
    """Whether ``pos`` is a chance node (a random set-up's placements are chance outcomes too)."""
    phase = pos.phase
    return phase in CHANCE_PHASES or (phase is Phase.SETUP_PLACE and game.rules.setup == "random")


def chance_outcomes(game: GameContext, pos: Position) -> list[tuple[Any, Fraction | float]]:
    """``[(outcome, probability), ...]`` at chance node ``pos`` (Fractions; floats for blitzes); else empty."""
    phase = pos.phase
    if phase is Phase.SETUP_ORDER:
        return [(FirstPlayer(p), Fraction(1, game.players)) for p in range(game.players)]
    if phase in (Phase.SETUP_DEAL, Phase.DRAW):
        counts: dict[str, int] = {}
        for card in pos.deck:
            counts[card] = counts.get(card, 0) + 1
        total = len(pos.deck)
        return [(DrawCard(card), Fraction(k, total)) for card, k in counts.items()]
    if phase is Phase.SETUP_MISSION:
        left = [m for m in missions_for(game.rules.missions, game.players) if m not in pos.missions]
        return [(DrawCard(m), Fraction(1, len(left))) for m in left]
    if phase is Phase.SETUP_PLACE:  # random set-up: a random territory of the placing owner
        names = game.board.territories
        mine = _placeable(game, pos)
        return [(PlaceArmies(names[t], 1), Fraction(1, len(mine))) for t in mine]
    if phase in (Phase.ROLL, Phase.BLITZ):
        return list(chance_table(game, pos).outcomes)
    return []


def check_outcome(game: GameContext, pos: Position, outcome: object) -> tuple[Any, str]:
    """The outcome of chance node ``pos`` that ``outcome`` names, as listed, or None and why it is not one.

    An outcome's counts may be NumPy integers (floats and ``bool`` are not
    counts): the outcome returned, which is the one to apply, holds plain
    ints.  A blitz whose list of outcomes would not fit in the limits (see
    :func:`chance_table`, which ``sample_chance()`` avoids by drawing in
    pieces) is checked by its form instead: a capture with 1 up to all the
    armies able to attack left, or a stop with at most ``stop_at`` of them
    left and 1 up to all the defenders.  Some outcomes of that form cannot
    happen under the dice rules (a stop far below ``stop_at``); they are
    accepted there, and the state after them is sound.
    """
    if not dataclasses.is_dataclass(outcome) or isinstance(outcome, type):
        return None, "not an outcome"
    values: list[Any] = []
    for field in dataclasses.fields(outcome):
        value = getattr(outcome, field.name)
        if not isinstance(value, str):
            value = as_int(value)
            if value is None:
                return None, f"{field.name} must be an integer, got {getattr(outcome, field.name)!r}"
        values.append(value)
    named = type(outcome)(*values)
    listed: Sequence[tuple[Any, Fraction | float]]
    if pos.phase is Phase.BLITZ:
        try:
            listed = chance_table(game, pos).outcomes
        except ResourceLimitError:
            assert pos.pending is not None
            _, source, target, stop_at, _, _ = pos.pending
            a, d = pos.armies[source] - 1, pos.armies[target]
            if isinstance(named, BattleOutcome):
                left, kept = named.attackers_left, named.defenders_left
                if (kept == 0 and 1 <= left <= a) or (1 <= kept <= d and 0 <= left <= min(stop_at, a)):
                    return named, ""
            return None, "not a possible outcome of this chance node"
    else:
        listed = chance_outcomes(game, pos)
    for possible, _ in listed:
        if type(possible) is type(named) and possible == named:
            return possible, ""
    return None, "not a possible outcome of this chance node"


def _placeable(game: GameContext, pos: Position) -> list[int]:
    """A random set-up: the territories of the owner placing now that have room for an army."""
    owner, owners = pos.queue[0][0], pos.owner
    return [t for t in range(len(owners)) if owners[t] == owner and room(game, pos, t, setup=True)]


def chance_table(game: GameContext, pos: Position) -> ChanceTable:
    """The cached table of a roll or blitz node."""
    assert pos.pending is not None
    _, source, target, third, _, defense = pos.pending
    if pos.phase is Phase.ROLL:
        assert defense is not None
        return game.roll_table(third, defense)
    a, d = pos.armies[source] - 1, pos.armies[target]
    memory, _ = forward_cost(a, d, third, game.rules.combat, False)
    outcomes = a + 1 + (min(third, a) + 1) * (d + 1)
    check_cost(  # the list of outcomes: a BattleOutcome, a float and a tuple each, about 150 bytes
        lambda: (
            f"chance_outcomes() of a blitz of {shown(a)} attackers on {shown(d)} defenders ({shown(outcomes)} outcomes)"
        ),
        memory=memory + 150.0 * min(outcomes, 2**100),
        hint="sample_chance() draws a blitz of any size in pieces; ",
    )
    return game.blitz_table(a, d, third)


def sample_outcome(game: GameContext, pos: Position) -> Any:
    """The outcome of chance node ``pos`` for the next number of its generator (see the module docstring)."""
    x = splitmix64(pos.rng)[1]
    phase = pos.phase
    if phase is Phase.BLITZ:
        assert pos.pending is not None
        _, source, target, stop_at, _, _ = pos.pending
        return battle(game, pos.armies[source] - 1, pos.armies[target], stop_at, x, pos.rng)
    if phase is Phase.ROLL:
        return chance_table(game, pos).sample(x)
    if phase is Phase.DRAW or phase is Phase.SETUP_DEAL:
        return DrawCard(_card(pos.deck, x))
    if phase is Phase.SETUP_ORDER:
        return FirstPlayer(_uniform(range(game.players), x))
    if phase is Phase.SETUP_PLACE:  # random set-up: one army on a territory of the placing owner, uniformly
        return PlaceArmies(game.board.territories[_uniform(_placeable(game, pos), x)], 1)
    outcomes = chance_outcomes(game, pos)  # mission cards: once per player and game
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


def battle(game: GameContext, a: int, d: int, stop_at: int, x: float, rng: int) -> BattleOutcome:
    """A blitz of ``a`` attackers on ``d`` defenders for ``x``, the next number of generator state ``rng``.

    Drawn from battle tables (a long one in several draws), or rolled out if it has many defenders.

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

#: Rolls drawn at once in a huge battle (both sides clear of the edges by this many rolls' losses): a battle
#: of a million armies a side is some 10**2 draws instead of 10**5.
LONG_BLOCK = 4096

#: Rolls drawn at once in a battle of billions (both sides clear of the edges by this many rolls' losses): a
#: battle of a billion armies a side is some 500 draws of these instead of 10**5 long blocks (half a second).
HUGE_BLOCK = 1 << 20

#: Losses whose probability in a huge block is below this share of the likeliest are left out of its table
#: (tens of standard deviations out: they are never drawn, a uniform float having steps of 2**-53).
HUGE_TAIL = 1e-40


def _cumulative(weights: Sequence[int], scale: int) -> tuple[float, ...]:
    """Cumulative sums of integer ``weights`` over ``scale``, each correctly rounded once to a float."""
    cumulative, running = [], 0
    for weight in weights:
        running += weight
        cumulative.append(running / scale)  # int / int: correctly rounded
    return tuple(cumulative)


@functools.lru_cache(maxsize=_BLOCKS_KEPT)
def block_weights(combat: CombatRules) -> tuple[tuple[int, ...], int]:
    """The attacker's losses in :data:`ROLL_BLOCK` rolls of the most dice on both sides, exactly.

    Each such roll removes ``pairs = min(max dice)`` armies, split between the
    sides by the roll's odds; the losses over a block are the sum of
    ``ROLL_BLOCK`` independent rolls, convolved exactly.  Returns integer
    weights of ``0 .. ROLL_BLOCK * pairs`` attacker losses and their common
    denominator (the weight over it is the probability).
    """
    weights, denominator, pairs = _roll_weights(combat)
    total = [1]
    for _ in range(ROLL_BLOCK):
        total = [
            sum(total[k - i] * weights[i] for i in range(pairs + 1) if 0 <= k - i < len(total))
            for k in range(len(total) + pairs)
        ]
    return tuple(total), denominator**ROLL_BLOCK


@functools.lru_cache(maxsize=_BLOCKS_KEPT)
def _block(combat: CombatRules) -> tuple[tuple[float, ...], int]:
    """The cumulative probabilities of :func:`block_weights` (each rounded once to a float) and the armies a block
    removes, ``ROLL_BLOCK * pairs``."""
    weights, scale = block_weights(combat)
    return _cumulative(weights, scale), len(weights) - 1


def _roll_weights(combat: CombatRules) -> tuple[list[int], int, int]:
    """One roll of the most dice on both sides: integer weights of 0..pairs attacker losses, their sum, ``pairs``."""
    most_a, most_d = combat.attacker_max_dice, combat.defender_max_dice
    odds = combat.roll_odds(most_a, most_d)
    pairs = min(most_a, most_d)
    one = [Fraction(odds.get((i, pairs - i), 0)) for i in range(pairs + 1)]
    denominator = math.lcm(*(p.denominator for p in one))
    return [p.numerator * (denominator // p.denominator) for p in one], denominator, pairs


@functools.lru_cache(maxsize=_BLOCKS_KEPT)
def _long_block(combat: CombatRules, rolls: int = LONG_BLOCK) -> tuple[tuple[float, ...], int, int]:
    """As :func:`_block` for ``rolls`` rolls (a power of two), in floating point; as :func:`_huge_block`'s, the
    result is ``(cumulative, low, span)``, here with every loss from ``low = 0`` to ``span``.

    The exact weights of ``rolls`` rolls have tens of thousands of digits;
    instead the one-roll probabilities are convolved with themselves by
    repeated squaring in float64 (:func:`~riskmath.odds._ordered.self_convolve`:
    every term positive, so the relative error stays within a few hundred
    ulps; summed in a fixed order, so every machine draws from the same
    floats).
    """
    pmf = _long_pmf(combat, rolls)
    cumulative = pmf.cumsum() / pmf.sum()  # (as before the huge blocks: the same floats, the same draws)
    return tuple(cumulative.tolist()), 0, rolls * min(combat.attacker_max_dice, combat.defender_max_dice)


@functools.lru_cache(maxsize=_BLOCKS_KEPT)
def _long_pmf(combat: CombatRules, rolls: int) -> Any:
    """The attacker's losses in ``rolls`` rolls of the most dice (a power of two), as a float64 array."""
    import numpy as np

    from riskmath.odds._ordered import self_convolve

    weights, denominator, _ = _roll_weights(combat)
    pmf = np.array([weight / denominator for weight in weights])  # int / int: no overflow, correctly rounded
    done = 1
    while done < rolls:
        pmf = self_convolve(pmf)
        done *= 2
    return pmf


@functools.lru_cache(maxsize=_BLOCKS_KEPT)
def _huge_block(
    combat: CombatRules, rolls: int = HUGE_BLOCK, base: int = LONG_BLOCK
) -> tuple[tuple[float, ...], int, int]:
    """The attacker's losses in ``rolls`` rolls (a power of two times ``base``), without their far tails.

    Returns ``(cumulative, low, span)``: entry ``i`` of ``cumulative`` is the
    probability of losing at most ``low + i`` armies (of the ``span`` the
    block removes).  Built from the :func:`_long_block` of ``base`` rolls by
    repeated squaring (:func:`~riskmath.odds._ordered.self_convolve`: every
    term positive, so the relative error stays small even in the tails;
    the same floats on every machine), dropping after each the losses
    below :data:`HUGE_TAIL` of the likeliest: their total is under
    ``1e-35``, and the arrays stay some thirty standard deviations wide.
    """
    import numpy as np

    from riskmath.odds._ordered import self_convolve

    pmf = _long_pmf(combat, base)
    low = 0
    done = base
    while True:
        keep = np.flatnonzero(pmf >= pmf.max() * HUGE_TAIL)
        low += int(keep[0])
        pmf = pmf[keep[0] : keep[-1] + 1]
        if done >= rolls:
            break
        pmf = self_convolve(pmf)
        low *= 2
        done *= 2
    cumulative = pmf.cumsum()
    cumulative /= cumulative[-1]  # (the last entry exactly 1)
    return tuple(cumulative.tolist()), low, rolls * min(combat.attacker_max_dice, combat.defender_max_dice)


def block_clearance(combat: CombatRules, stop_at: int) -> tuple[int, int]:
    """The fewest attackers and defenders from which a block of :data:`ROLL_BLOCK` rolls is one piece of a blitz.

    From there on, ``ROLL_BLOCK`` rolls of the most dice on both sides never
    bring either side to fewer dice, nor the attacker to ``stop_at``, so their
    total losses (:func:`block_weights`) replace the rolls one by one.
    """
    span = ROLL_BLOCK * min(combat.attacker_max_dice, combat.defender_max_dice)
    return max(combat.attacker_max_dice, stop_at + 1) + span, combat.defender_max_dice + span


class BlitzPiece(NamedTuple):
    """One piece of a blitz too big to be one chance outcome (see :func:`blitz_piece`)."""

    #: ``"battle"``: the rest of the battle at once, from its table (outcomes: ``BattleOutcome``);
    #: ``"rolls"``: :data:`ROLL_BLOCK` rolls of the most dice (outcomes: the attacker's losses, ``0 .. span``;
    #: the defender loses the rest of ``span``); ``"roll"``: one roll (outcomes: ``RollOutcome``).
    kind: str
    #: ``(outcome, probability)`` pairs, the probabilities floats (each rounded once from the exact value).
    outcomes: list[tuple[Any, float]]


def blitz_piece(game: GameContext, attackers: int, defenders: int, stop_at: int) -> BlitzPiece:
    """The next piece of a blitz at ``attackers`` able to attack and ``defenders``, with its exact odds.

    The one definition of how a blitz too big for a single chance outcome is
    listed in bounded pieces (the environments number them): within
    :data:`TABLE_ATTACKERS` and :data:`TABLE_DEFENDERS`, the whole battle from
    its table; clear of both edges (:func:`block_clearance`), a block of
    :data:`ROLL_BLOCK` rolls; else one roll.  The battle is a Markov chain of
    rolls, so the pieces compose to exactly its distribution, the one
    :func:`battle` samples from.

    Examples
    --------
    >>> import riskmath as rm
    >>> game = rm.Game(2)
    >>> blitz_piece(game, 3, 2, 0).kind, blitz_piece(game, 500, 500, 0).kind, blitz_piece(game, 500, 2, 0).kind
    ('battle', 'rolls', 'roll')
    >>> round(sum(p for _, p in blitz_piece(game, 500, 500, 0).outcomes), 12)
    1.0
    """
    combat = game.rules.combat
    if attackers <= TABLE_ATTACKERS and defenders <= TABLE_DEFENDERS:
        table = game.blitz_table(attackers, defenders, stop_at)
        return BlitzPiece("battle", [(o, float(p)) for o, p in table.outcomes])
    clear_a, clear_d = block_clearance(combat, stop_at)
    if attackers >= clear_a and defenders >= clear_d:
        weights, scale = block_weights(combat)
        return BlitzPiece("rolls", [(lost, w / scale) for lost, w in enumerate(weights) if w > 0])
    table = game.roll_table(min(attackers, combat.attacker_max_dice), min(defenders, combat.defender_max_dice))
    return BlitzPiece("roll", [(o, float(p)) for o, p in table.outcomes])


def roll_out(game: GameContext, a: int, d: int, stop_at: int, stream: int) -> BattleOutcome:
    """A blitz rolled out with numbers from the SplitMix64 stream after ``stream`` (a :func:`substream`).

    One number per roll, or per :data:`ROLL_BLOCK` rolls while both sides
    throw their most dice throughout the block (a battle of hundreds on
    each side is mostly blocks), or per :data:`LONG_BLOCK` rolls while both
    sides are that far from the edges (a battle of millions), or per
    :data:`HUGE_BLOCK` rolls (a battle of billions).
    """
    tables = game.roll_tables()
    most_a = len(tables) - 1
    most_d = len(tables[1]) - 1
    block, span = _block(game.rules.combat)
    clear_a, clear_d = block_clearance(game.rules.combat, stop_at)
    for rolls, blocks in ((HUGE_BLOCK, _huge_block), (LONG_BLOCK, _long_block)):  # the bigger blocks first
        rolled = span // ROLL_BLOCK * rolls  # the armies such a block removes
        level_a, level_d = clear_a - span + rolled, clear_d - span + rolled  # its clearance, as block_clearance's
        if a >= level_a and d >= level_d:  # (each table built only when needed)
            table, low, _ = blocks(game.rules.combat)
            top = len(table) - 1
            while a >= level_a and d >= level_d:
                stream, z = step(stream)
                lost = low + min(bisect_right(table, (z >> 11) * UNIT), top)
                a -= lost
                d -= rolled - lost
    while a > stop_at and d > 0:
        stream, z = step(stream)
        x = (z >> 11) * UNIT  # splitmix64(stream), one call less per roll
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
