"""An agent that plays by the exact odds: :class:`OddsAgent`.

It decides from :mod:`riskmath.evaluate` and the battle and conquest odds:

- **Reinforce.** Trade a set as soon as it can.  Plan the turn: for every
  continent it does not hold, :func:`~riskmath.evaluate.plan_continent`
  with the armies at hand; the plan with the best ``probability * bonus``
  wins if its probability is at least ``take_threshold``.  Otherwise the
  armies go where a single attack is most likely to win (a card needs a
  capture).  First, though, a held continent whose chance of being kept
  (:func:`~riskmath.evaluate.hold_probability`) is below ``hold_threshold``
  gets up to half the armies on its most threatened territories.  (A
  continent that a quick guess finds hopeless is not planned, nor one whose
  plan could not reach the probability it would need by a second guess,
  one stack of every army that could take part; plans and route searches
  are remembered: see ``_out_of_reach`` and ``_one_stack_odds``.)
- **Attack.** Follow the plan's routes in order while the exact chance of
  finishing the rest of the route (:func:`riskmath.conquest`) is at least
  ``continue_threshold``; then attack any neighbor it beats with
  probability ``attack_threshold`` or more (``card_threshold`` while it has
  captured nothing this turn).  Opportunistic attacks blitz with a stop
  threshold: the stack stops when a third of it is left.
- **Occupy.** Everything moves on when the plan continues from the captured
  territory or the source has no enemy left next to it; otherwise the
  source keeps enough armies that its strongest enemy neighbor (a neutral
  counts too, though neutrals never attack) beats it with probability at
  most ``attack_threshold`` (as far as it can).
- **Fortify.** One move of the largest interior stack (no enemy neighbor)
  to the reachable border territory most likely to fall.
- **Set-up.** Claims territories in the continent where it holds the
  largest share (small continents first on ties) and places on its most
  threatened border territories; the defender throws its maximum dice.

Every choice is checked with ``state.is_legal``; where a rule variant
forbids it (army caps, trade rules), the agent falls back to a legal move of
the same kind.  It only reads what its player may see.
"""

from __future__ import annotations

import math
import random
import weakref
from collections.abc import Sequence
from typing import Any

from riskmath.agents.basic import (
    BuiltIn,
    Signature,
    check_asked,
    check_threshold,
    first_trade,
    placement_signature,
    position_signature,
)
from riskmath.errors import IllegalActionError
from riskmath.evaluate.outlook import (
    ContinentPlan,
    fall_probabilities,
    kept_probability,
    owners_and_armies,
    plan_continent_above,
    win_probability,
)
from riskmath.game.actions import (
    ChooseCapital,
    Defend,
    EndPhase,
    Fortify,
    PlaceArmies,
    TradeCards,
)
from riskmath.game.board import Board, Continent
from riskmath.game.checked import Checked, to_action, to_engine
from riskmath.game.game import Game
from riskmath.game.legality import check_action
from riskmath.game.phase import Phase
from riskmath.game.position import (
    fortification_reach,
    is_enemy,
    occupation_range,
    own_territories,
    rival_table,
    room,
    trade_down_over,
)
from riskmath.game.state import GameState
from riskmath.odds._odds_grids import chain_odds, small_battles

__all__ = ["OddsAgent"]


class OddsAgent(BuiltIn):
    """Plays by the exact battle and conquest odds; see the module docstring.

    Parameters
    ----------
    take_threshold : float, default 0.35
        Least probability of taking a continent for the turn to be planned around it.
    continue_threshold : float, default 0.2
        Least probability of finishing the rest of a planned route to go on with it.
    attack_threshold : float, default 0.75
        Least win probability of an opportunistic attack.
    card_threshold : float, default 0.5
        Least win probability of an attack while nothing has been captured this turn.
    hold_threshold : float, default 0.5
        Below this chance of keeping a held continent, armies go to defend it.

    Examples
    --------
    >>> import riskmath as rm
    >>> from riskmath.agents import AggressiveAgent
    >>> record = rm.play(rm.Game(2, max_turns=30), [OddsAgent(), AggressiveAgent()], seed=1)
    >>> record.winner, record.final.turn, record.final.returns()
    (0, 16, [1.0, 0.0])
    """

    name = "odds"
    #: Its actions are checked by the agent itself (``is_legal``), and tests/test_oddsagent.py checks them
    #: over every preset: :func:`riskmath.play` may apply them unchecked (see :mod:`riskmath.agents`).
    trusted = True

    def __init__(
        self,
        take_threshold: float = 0.35,
        continue_threshold: float = 0.2,
        attack_threshold: float = 0.75,
        card_threshold: float = 0.5,
        hold_threshold: float = 0.5,
    ) -> None:
        self.take_threshold = check_threshold("take_threshold", take_threshold)
        self.continue_threshold = check_threshold("continue_threshold", continue_threshold)
        self.attack_threshold = check_threshold("attack_threshold", attack_threshold)
        self.card_threshold = check_threshold("card_threshold", card_threshold)
        self.hold_threshold = check_threshold("hold_threshold", hold_threshold)
        # Per player: (game turn, placements still to make, routes, territories held at the start of the turn).
        self._plans: dict[int, tuple[int, list[tuple[int, int]], list[tuple[int, ...]], int]] = {}
        # Per player: the position its last placement leads to (its game first): the turn's next placement goes on
        # with the plan only from exactly that position; the plan's routes are read only in that game.
        self._boards: dict[int, Signature | tuple[object]] = {}

    def __repr__(self) -> str:
        return (
            f"OddsAgent(take_threshold={self.take_threshold!r}, continue_threshold={self.continue_threshold!r}, "
            f"attack_threshold={self.attack_threshold!r}, card_threshold={self.card_threshold!r}, "
            f"hold_threshold={self.hold_threshold!r})"
        )

    # -- the protocol ---------------------------------------------------------------
    def act(self, state: GameState, rng: random.Random) -> Any:
        check_asked(state, rng)
        handler = _HANDLERS.get(state.phase)
        action = None if handler is None else getattr(self, handler)(state)
        if action is not None and state.is_legal(action):
            return action
        return _fallback(state, rng)

    def _decide(self, state: GameState, rng: random.Random) -> Checked:
        """:meth:`act` in the checked form (territory ids), for the in-place path of :func:`riskmath.simulate`.

        The same decision, checked once (``act`` checks it with ``is_legal``
        and the loop converts it again).
        """
        phase = state.phase
        direct = _CHECKED.get(phase)
        if direct is not None:  # (the most frequent decisions: no action object made, nothing converted)
            checked = getattr(self, direct)(state)
            return checked if checked is not None else to_engine(state.game, _fallback(state, rng))
        handler = _HANDLERS.get(phase)
        action = None if handler is None else getattr(self, handler)(state)
        if action is not None:
            if phase in _LEGAL_BY_CONSTRUCTION:
                return to_engine(state.game, action)
            try:
                return check_action(state.game, state.position, action)
            except IllegalActionError:
                pass
        return to_engine(state.game, _fallback(state, rng))

    @staticmethod
    def _defend(state: GameState) -> Any:
        return max(state.legal_actions(), key=lambda a: a.dice if isinstance(a, Defend) else 0)

    # -- reinforcement ----------------------------------------------------------------
    def _reinforce(self, state: GameState) -> Any:
        me = state.current_player
        game, pos = state.game, state.position
        hand = len(pos.hands[me])
        if hand >= 3 and (state.phase is Phase.REINFORCE or not trade_down_over(game, pos)):
            trade = first_trade(state, me)  # the first of the legal actions when a set may be traded
            if trade is not None:
                return TradeCards((trade[0], trade[1], trade[2]))
        if state.pool == 0:
            legal = state.legal_actions()
            return legal[0] if len(legal) else None
        turn, todo, routes, held = self._plans.get(me, (-1, [], [], 0))
        owners = owners_and_armies(state)[0]
        # The plan goes on only from the position its last placement leads to: the same agent may play several seats
        # and games, or be asked about any position (a placement made elsewhere, a position of another board), and
        # then plans afresh.
        going_on = sum(k for _, k in todo) == state.pool and self._boards.get(me) == position_signature(state)
        if turn != state.turn or not going_on:
            todo, routes = self._plan_turn(state, me)
            held = owners.count(me)
        armies_on = owners_and_armies(state)[1]
        todo = [(t, k) for t, k in todo if room(game, pos, t)]  # capped territories take nothing
        short = state.pool - sum(k for _, k in todo)
        if short > 0:  # what was planned for full territories goes where there is most room (the fewest armies)
            mine = [t for t in range(len(armies_on)) if owners[t] == me]
            # (kept in the plan, which then still sums to the pool: left out, it made every later placement a
            # replanning, so a pool of a billion under a cap of a billion was placed some armies at a time)
            todo.append((min(mine, key=lambda t: (armies_on[t], t)), short))
        territory, planned = todo[0]
        space = room(game, pos, territory)
        armies = min(planned, state.pool, space)
        rest = [(territory, planned - armies)] if planned > armies else []
        if rest and armies >= space:
            rest = []  # the cap is reached: what is left goes to the next placements (or is replanned)
        self._plans[me] = (state.turn, rest + todo[1:], routes, held)
        self._boards[me] = placement_signature(state, territory, armies)
        return PlaceArmies(state.game.board.territories[territory], armies)

    def _plan_turn(self, state: GameState, me: int) -> tuple[list[tuple[int, int]], list[tuple[int, ...]]]:
        """Placements (territory, armies) for the pool, and the routes to attack along."""
        board = state.game.board
        owners = owners_and_armies(state)[0]
        pool = state.pool
        todo: list[tuple[int, int]] = []
        held = [c.ids for c in board.continents.values() if all(owners[t] == me for t in c.ids)]
        falls = fall_probabilities(state, True, only={t for ids in held for t in ids}) if pool >= 2 and held else []
        for continent in board.continents.values():
            if pool < 2 or all(owners[t] != me for t in continent.ids):
                continue
            if all(owners[t] == me for t in continent.ids) and (
                kept_probability(continent.ids, falls) < self.hold_threshold
            ):
                weakest = max(continent.ids, key=lambda t: (falls[t], -t))
                share = pool // 2
                todo.append((weakest, share))
                pool -= share
        # The plan with the best score (chance times bonus) of those likely enough, the first in board order on
        # ties.  Continents are looked at in order of bonus, so that one whose bonus cannot beat the best score
        # so far (a chance is at most 1) is not planned at all: about 40 % of the plans in odds-agent games.
        best: tuple[float, int, ContinentPlan] | None = None
        for k, name, continent in _by_bonus(board):
            if best is not None:
                bound = continent.bonus if continent.bonus >= 0 else continent.bonus * max(self.take_threshold, 0.0)
                if bound < best[0] or (bound == best[0] and k > best[1]):
                    continue
            if all(owners[t] == me for t in continent.ids) or self._out_of_reach(state, me, continent.ids, pool):
                continue
            plan = _plan_continent(state, me, name, pool, self._floor(continent.bonus, best))
            if plan is None:  # at most the floor: below take_threshold, or a score below the best
                continue
            score = plan.probability * continent.bonus
            if plan.probability >= self.take_threshold and (
                best is None or score > best[0] or (score == best[0] and k < best[1])
            ):
                best = (score, k, plan)
        if best is not None:
            return placements(best[2], pool, todo), list(best[2].routes)
        source, target = self._best_attack(state, me, pool)
        todo.append((source, pool))
        return _merged(todo), [(source, target)] if target is not None else []

    def _floor(self, bonus: int, best: tuple[float, int, ContinentPlan] | None) -> float:
        """A probability at or below which a continent's plan cannot be chosen in :meth:`_plan_turn`.

        Below ``take_threshold``; and for a positive bonus, also any ``p`` whose score ``p * bonus`` (as a
        float) is below the best score so far (a tie may still win on board order, so the floor stays under
        it).  Float products are monotone, so every ``p`` up to the floor scores below the best as well.
        """
        floor = math.nextafter(self.take_threshold, -math.inf)
        if best is not None and bonus > 0:
            below = best[0] / bonus
            while below > floor and below * bonus >= best[0]:
                below = math.nextafter(below, -math.inf)
            floor = max(floor, below)
        return floor

    def _out_of_reach(self, state: GameState, me: int, members: Sequence[int], pool: int) -> bool:
        """Whether a plan for the continent is hopeless, so that :func:`plan_continent` is not asked.

        A quick optimistic guess: every army that could take part (``pool``
        and the armies able to attack on the player's territories next to
        the continent's enemy territories), less one left in each capture
        but the last, against all the enemy armies of the continent in one
        battle.  It is hopeless when that battle's odds are below a tenth of
        ``take_threshold``, or when there are fewer armies than territories
        to take.  Measured on 6,843 plans of odds-agent self-play: the guess
        skipped 56 % of them, and the best real plan among those skipped had
        a probability of 0.105 (the threshold is 0.35): no decision changed
        there, nor in the pinned seeded games.  A heuristic, not a bound: with
        a much lower ``take_threshold`` it could skip a plan that reaches it.
        """
        owners, armies = owners_and_armies(state)
        neighbors = state.game.neighbors
        enemy = [t for t in members if owners[t] != me]
        sources = {u for t in enemy for u in neighbors[t] if owners[u] == me}
        able = pool + sum(armies[u] - 1 for u in sources) - len(enemy) + 1
        if able < 1:
            return True
        guess = win_probability(able, sum(armies[t] for t in enemy), state.game.rules.combat)
        return guess < self.take_threshold / 10

    def _best_attack(self, state: GameState, me: int, extra: int) -> tuple[int, int | None]:
        """The own territory (and target) where ``extra`` more armies give the likeliest single win."""
        combat = state.game.rules.combat
        owners, armies = owners_and_armies(state)
        neighbors = state.game.neighbors
        best: tuple[float, int, int | None] | None = None
        for t, owner in enumerate(owners):
            if owner != me:
                continue
            for u in neighbors[t]:
                if owners[u] != me:
                    p = win_probability(armies[t] - 1 + extra, armies[u], combat)
                    if best is None or p > best[0]:
                        best = (p, t, u)
        if best is None:
            return owners.index(me), None
        return best[1], best[2]

    # -- attacks --------------------------------------------------------------------------
    def _attack(self, state: GameState) -> Any:
        return to_action(state.game, self._attack_checked(state))

    def _attack_checked(self, state: GameState) -> Checked:
        """The attack (or the end of the phase) in the checked form: legal by construction."""
        me = state.current_player
        combat = state.game.rules.combat
        turn, _, routes, held = self._plans.get(me, (-1, [], [], 0))
        if turn != state.turn or not self._same_game(me, state):
            routes, held = [], owners_and_armies(state)[0].count(me)
            self._plans[me] = (state.turn, [], routes, held)
            self._boards[me] = (state.game,)  # (the game the empty plan belongs to)
        owners, armies = owners_and_armies(state)
        for route in routes:  # the next enemy territory on a planned route, from the territory before it
            for k in range(1, len(route)):
                source, target = route[k - 1], route[k]
                if owners[target] == me:
                    continue
                if owners[source] != me or armies[source] < 2:
                    break
                able = armies[source] - 1
                rest = [armies[t] for t in route[k:] if owners[t] != me]
                chance = chain_odds(able, tuple(rest), combat)
                if chance >= self.continue_threshold:
                    return ("blitz", source, target, 0)
                break
        captured = owners.count(me) > held
        threshold = self._attack_threshold(state) if captured else self.card_threshold
        neighbors = state.game.neighbors
        grid = small_battles(combat)  # win_probability of up to 32 a side, read without a call
        small = len(grid)
        best: tuple[float, int, int] | None = None
        for t, (owner, stack) in enumerate(zip(owners, armies, strict=True)):
            if owner != me or stack < 2:
                continue
            able = stack - 1
            row = grid[able - 1] if able <= small else None
            for u in neighbors[t]:
                if owners[u] != me:
                    d = armies[u]
                    p = row[d - 1] if row is not None and d <= small else win_probability(able, d, combat)
                    if p >= threshold and (best is None or p > best[0]):
                        best = (p, t, u)
        if best is None:
            return ("end",)
        _, source, target = best
        return ("blitz", source, target, (armies[source] - 1) // 3)

    def _same_game(self, me: int, state: GameState) -> bool:
        """Whether ``me``'s plan was made in the game of ``state`` (a position of another board reads other ids)."""
        made = self._boards.get(me)
        return made is not None and made[0] is state.game

    def _attack_threshold(self, state: GameState) -> float:
        """The least win probability of an attack off the planned routes once a territory was taken this turn."""
        return self.attack_threshold

    def _occupy(self, state: GameState) -> Any:
        checked = self._occupy_checked(state)
        return None if checked is None else to_action(state.game, checked)

    def _occupy_checked(self, state: GameState) -> Checked | None:
        """The armies to move in, in the checked form (within the legal range), or None if not a capture."""
        pos = state.position
        if pos.occupy is None:
            return None  # (not a capture: the fallback)
        source, target, _ = pos.occupy
        least, most = occupation_range(state.game, pos)  # the range of the legal Occupy actions
        me = state.current_player
        turn, _, routes, _ = self._plans.get(me, (-1, [], [], 0))
        if turn != state.turn or not self._same_game(me, state):
            routes = []  # a plan of another turn or game says nothing here
        onward = any(target in route[:-1] for route in routes)
        owners = pos.owner
        enemies_at_source = [u for u in state.game.neighbors[source] if is_enemy(me, owners[u])]
        if onward or not enemies_at_source:
            return ("occupy", most)
        if not any(is_enemy(me, owners[u]) for u in state.game.neighbors[target]):
            return ("occupy", least)
        combat = state.game.rules.combat
        strongest = max(state.position.armies[u] - 1 for u in enemies_at_source)
        total = state.position.armies[source]  # the source keeps total - moved
        while most - least > 64:  # a big stack: halve the range (the chance grows with the armies moved)
            middle = (least + most) // 2
            if win_probability(strongest, total - middle, combat) <= self.attack_threshold:
                least = middle
            else:
                most = middle - 1
        for moved in range(most, least - 1, -1):
            if win_probability(strongest, total - moved, combat) <= self.attack_threshold:
                return ("occupy", moved)
        return ("occupy", least)

    # -- fortification ------------------------------------------------------------------
    def _fortify(self, state: GameState) -> Any:
        me = state.current_player
        game = state.game
        owners, armies = owners_and_armies(state)
        pos = state.position
        mine = own_territories(pos)
        regions: dict[int, list[int]] = {}  # the groups of joined own territories, searched once each
        # Where Rules.fortify lets the armies of each interior stack go; unlike fortification_targets
        # (legal_actions), regardless of Position.moved (Experts) and of the cap: such a move is refused and the
        # phase ends (see _fallback).  The fall chances are computed for those targets only (each territory's
        # on its own, so the same floats as for all of them): about two interior stacks a turn reach a few.
        moves = [
            (source, [t for t in fortification_reach(game, pos, source, mine, regions) if t in mine])
            for source in sorted(mine)
            if armies[source] >= 2 and not any(is_enemy(me, owners[u]) for u in game.neighbors[source])
        ]
        targets = {t for _, reach in moves for t in reach}
        if not targets:
            return EndPhase()
        falls = fall_probabilities(state, False, only=targets)
        best: tuple[tuple[float, int], Fortify] | None = None
        for source, reach in moves:
            for target in reach:
                if falls[target] > 0.0:
                    key = (falls[target], armies[source])
                    if best is None or key > best[0]:
                        names = game.board.territories
                        best = (key, Fortify(names[source], names[target], armies[source] - 1))
        return EndPhase() if best is None else best[1]

    # -- set-up -------------------------------------------------------------------------
    def _claim(self, state: GameState) -> Any:
        me = state.current_player
        board = state.game.board
        owners = owners_and_armies(state)[0]
        best: tuple[tuple[float, int], int] | None = None
        for continent in board.continents.values():
            first, mine, others = -1, 0, 0  # the first free territory (by id), the player's, the others'
            for t in continent.ids:
                owner = owners[t]
                if owner < 0:
                    if first < 0:
                        first = t
                elif owner == me:
                    mine += 1
                else:
                    others += 1
            if first < 0:
                continue
            key = ((mine + 1 - others) / len(continent.ids), -len(continent.ids))
            if best is None or key > best[0]:
                best = (key, first)
        return None if best is None else PlaceArmies(board.territories[best[1]], 1)

    def _setup_place(self, state: GameState) -> Any:
        """The own territory most likely to fall to its strongest rival neighbor (first by name on ties).

        As many armies as are due and fit there.  One pass over the territories in alphabetical order, with
        what ``fall_probabilities`` would give (no reinforcements), for the territories that have room.
        """
        me = state.current_player
        game, pos = state.game, state.position
        placer, due = pos.queue[0]
        if placer != me:
            return None  # a neutral's army: the fallback places it
        owners, armies, neighbors = pos.owner, pos.armies, game.neighbors
        combat = game.rules.combat
        grid = small_battles(combat)  # win_probability of up to 32 a side, read without a call
        small = len(grid)
        rival = rival_table(game, pos)  # rival[o + 1]: o is a living player
        best, most, top = -1, 0, -1.0
        for t in game.alphabetical:
            if owners[t] != placer:
                continue
            space = room(game, pos, t, setup=True)
            if not space:
                continue
            able = -1  # the armies able to attack of the strongest rival neighbor (-1: none)
            for u in neighbors[t]:
                enemy = owners[u]
                if enemy != placer and rival[enemy + 1] and armies[u] - 1 > able:
                    able = armies[u] - 1
            d = armies[t]
            if able < 1:  # (no rival neighbor, or one that cannot attack: win_probability(0, d) is 0)
                fall = 0.0
            elif able <= small and d <= small:
                fall = grid[able - 1][d - 1]
            else:
                fall = win_probability(able, d, combat)
            if fall > top:
                best, top = t, fall
                most = min(due, space)
        if best < 0:
            return None
        return PlaceArmies(game.board.territories[best], most)

    def _capital(self, state: GameState) -> Any:
        me = state.current_player
        names = state.game.board.territories
        mine = [t for t in range(len(names)) if state.owner(t) == me]
        owners = state.position.owner
        exposed = {t: sum(is_enemy(me, owners[u]) for u in state.game.neighbors[t]) for t in mine}
        return ChooseCapital(names[min(mine, key=lambda t: (exposed[t], -state.armies(t), t))])


#: The method deciding in each phase (the others fall back).
_HANDLERS = {
    Phase.REINFORCE: "_reinforce",
    Phase.TRADE_DOWN: "_reinforce",
    Phase.ATTACK: "_attack",
    Phase.OCCUPY: "_occupy",
    Phase.FORTIFY: "_fortify",
    Phase.DEFEND: "_defend",
    Phase.SETUP_CLAIM: "_claim",
    Phase.SETUP_PLACE: "_setup_place",
    Phase.SETUP_CAPITAL: "_capital",
}


#: The phases whose handlers only ever return legal actions (or None), by construction: attacks from an own
#: territory of two armies or more into a bordering enemy one, with ``stop_at`` below the armies able to
#: attack; occupations within the legal range; claims of free territories; set-up placements within the room
#: and the armies due.  :meth:`OddsAgent._decide` passes them on unchecked (a tenth of its time, checked), and
#: tests/test_oddsagent.py checks them in every rule variant.  The other phases' actions are checked.
_LEGAL_BY_CONSTRUCTION = frozenset({Phase.ATTACK, Phase.OCCUPY, Phase.SETUP_CLAIM, Phase.SETUP_PLACE})

#: Of those, the phases whose handlers make the checked form directly (the public action is made from it).
_CHECKED = {Phase.ATTACK: "_attack_checked", Phase.OCCUPY: "_occupy_checked"}

#: Plans remembered by :func:`_plan_continent` (all forgotten when full); a plan holds a few short lists.
_PLANS_KEPT = 8192
#: (The game by a weak reference, checked on every hit: a plan never keeps a game alive, and a new game given a dead
#: one's id finds nothing.)
_PLANS: dict[tuple[int, str, int, int, tuple[int, ...]], tuple[weakref.ref[Game], ContinentPlan | None, float]] = {}
_REGIONS: dict[int, tuple[weakref.ref[Game], dict[str, tuple[int, ...]]]] = {}  # (weakly, as _PLANS)


def _plan_continent(state: GameState, me: int, name: str, pool: int, floor: float) -> ContinentPlan | None:
    """:func:`plan_continent` above ``floor`` (see :func:`plan_continent_above`), remembered.

    A plan depends only on which territories of the continent and of its
    neighbors are the player's and on their armies (and on ``pool``, the
    board and the combat rules, which the game fixes), so those are the key.
    About a quarter of the plans of odds-agent self-play repeat.  An answer
    of None is remembered with its floor, and serves a floor as high or
    higher (the plan is at most that floor); a lower floor computes again.
    A plan whose one-stack guess (:func:`_one_stack_odds`) is below the floor
    by ``ONE_STACK_MARGIN`` is not made: None, remembered in the same way.
    """
    game, pos = state.game, state.position
    regions = _REGIONS.get(id(game))
    if regions is None or regions[0]() is not game:
        if len(_REGIONS) >= 64:
            _REGIONS.clear()
        around: dict[str, tuple[int, ...]] = {}
        for label, continent in game.board.continents.items():
            members = set(continent.ids)
            around[label] = tuple(sorted(members.union(*(game.neighbors[t] for t in members))))
        regions = _REGIONS[id(game)] = (weakref.ref(game), around)
    owners, armies = pos.owner, pos.armies
    region = regions[1][name]
    signature = tuple([armies[t] if owners[t] == me else -armies[t] for t in region])  # (armies are >= 1)
    key = (id(game), name, me, pool, signature)
    found = _PLANS.get(key)
    if found is not None and found[0]() is game:
        if found[1] is not None:
            return found[1] if found[1].probability > floor else None
        if floor >= found[2]:
            return None
    ids = game.board.continents[name].ids
    if _one_stack_odds(state, me, ids, pool) <= floor - ONE_STACK_MARGIN:
        plan = None  # (hopeless by the one-stack guess: see _one_stack_odds)
    else:
        plan = plan_continent_above(state, me, ids, pool, floor)
    if len(_PLANS) >= _PLANS_KEPT:
        _PLANS.clear()
    _PLANS[key] = (weakref.ref(game), plan, floor)
    return plan


#: How far below a plan's floor the one-stack guess must fall for the plan to be skipped (see :func:`_one_stack_odds`).
ONE_STACK_MARGIN = 0.02


def _one_stack_odds(state: GameState, me: int, members: Sequence[int], pool: int) -> float:
    """A quick guess, from above, at the probability of the plan :func:`plan_continent_above` would make.

    Every army that could take part in the plan (``pool`` and the armies able
    to attack on the player's territories next to the continent's enemy
    territories) in one stack, taking the enemy territories one after the
    other, strongest first: :func:`chain_odds`.  A plan splits those armies
    over paths the board allows, in orders the board allows; one stack, in an
    order that suits it, does about as well or better.  That is not a
    theorem (the best order is not always strongest first), so
    :func:`_plan_continent` skips a plan only when the guess is below its
    floor by ``ONE_STACK_MARGIN`` (0.02).  Measured by
    ``bench/one_stack_guess.py`` on 39,499 plans of odds- and planner-agent
    games (every preset; 2, 3, 4 and 6 players): a plan was above the guess
    558 times, by 8.0e-4 at most; the guess skipped 52 % of the 21,921 plans
    that came to nothing, and never a plan above its floor.  The odds agent
    plays the same games (the pinned seeded games, and a digest of 336
    games of 2 to 6 players), with 7.8 % fewer instructions per player-turn.
    """
    owners, armies = owners_and_armies(state)
    neighbors = state.game.neighbors
    enemy = [t for t in members if owners[t] != me]
    sources = {u for t in enemy for u in neighbors[t] if owners[u] == me}
    if not enemy:  # (held: its plan has probability 1)
        return 1.0
    able = pool + sum(armies[u] - 1 for u in sources)
    if able < len(enemy):  # (one army stays in each territory taken)
        return 0.0
    return chain_odds(able, tuple(sorted([armies[t] for t in enemy], reverse=True)), state.game.rules.combat)


def _by_bonus(board: Board) -> list[tuple[int, str, Continent]]:
    """The continents with their place in board order, highest bonus first (board order on ties)."""
    found = _BY_BONUS.get(id(board))
    if found is None or found[0] is not board:
        if len(_BY_BONUS) >= 64:
            _BY_BONUS.clear()
        ranked = sorted(enumerate(board.continents.items()), key=lambda item: (-item[1][1].bonus, item[0]))
        found = _BY_BONUS[id(board)] = (board, [(k, name, continent) for k, (name, continent) in ranked])
    return found[1]


_BY_BONUS: dict[int, tuple[Board, list[tuple[int, str, Continent]]]] = {}


def placements(plan: ContinentPlan, pool: int, todo: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """The placements (territory, armies) of a plan's routes, after ``todo``, with what is left of ``pool``.

    Each route's source takes its share (``plan.placed``); the rest of the
    pool goes to the first route's source (at least one army, so that a plan
    with nothing placed still says where the turn starts).  One entry per
    territory, in order of first appearance.
    """
    result = [*todo, *((route[0], placed) for route, placed in zip(plan.routes, plan.placed, strict=True) if placed)]
    leftover = pool - sum(plan.placed)
    if leftover > 0 or not result:
        result.append((plan.routes[0][0], max(leftover, 1)))
    return _merged(result)


def _merged(todo: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Placements with one entry per territory (in order of first appearance)."""
    totals: dict[int, int] = {}
    for territory, armies in todo:
        totals[territory] = totals.get(territory, 0) + armies
    return list(totals.items())


def _fallback(state: GameState, rng: random.Random) -> Any:
    """A legal move when the preferred one is not allowed: end the phase if possible, else at random."""
    if state.phase is Phase.SETUP_PLACE:  # (a neutral's army in every two-player set-up: a quarter of its moves)
        placement = _random_placement(state, rng)
        if placement is not None:
            return placement
    legal = state.legal_actions()
    if EndPhase() in legal:  # (a membership test: not a walk through every placement of a big pool)
        return EndPhase()
    return rng.choice(legal)


def _random_placement(state: GameState, rng: random.Random) -> PlaceArmies | None:
    """``rng.choice(state.legal_actions())`` at a set-up placement, without listing the actions; None if none.

    The same draw from ``rng`` and the same action: the legal placements are
    listed territory by territory in id order, each with 1 up to the armies
    that are due and fit there (see ``riskmath.game.legality``), so the
    ``i``-th is found from the counts alone.  ``EndPhase`` is never legal
    here, so :func:`_fallback` would draw at once as well.
    """
    game, pos = state.game, state.position
    placer, due = pos.queue[0]
    owners = pos.owner
    runs = [(t, min(due, room(game, pos, t, setup=True))) for t in range(len(owners)) if owners[t] == placer]
    total = sum(most for _, most in runs if most > 0)
    if not total:
        return None
    index = rng.choice(range(total))  # (random.choice draws an index below the length, whatever the sequence)
    for t, most in runs:
        if index < most:
            return PlaceArmies(game.board.territories[t], index + 1)
        index -= max(most, 0)
    raise AssertionError("unreachable: the index is below the total")
