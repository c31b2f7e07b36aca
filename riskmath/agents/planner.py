"""An agent that weighs its moves by the estimated chance of victory of the position they leave: :class:`PlannerAgent`.

The odds agent (:class:`~riskmath.agents.OddsAgent`) decides by thresholds
on battle odds: attack when the chance of winning is at least 0.75, plan a
continent when taking it is at least 35 % likely.  The planner keeps its
candidate moves but chooses among them by what each is worth: the
expectation, over the exact battle outcomes, of the calibrated victory
estimate (:func:`~riskmath.evaluate.estimate_victory_probabilities`) of the
position the move leaves, read as at the start of the next player's turn
(:class:`~riskmath.evaluate.WhatIf`).  So a move that wins a battle but
leaves a thin border, or takes a territory whose loss the rival will punish,
scores below one that waits.

- **Reinforce.** Trades as the odds agent does.  The candidates are the odds
  agent's plan for the turn (a continent, or its best single attack), the
  whole pool on the source of each of the ``placement_candidates`` likeliest
  attacks (each followed by that attack), and the whole pool on each of the
  three territories whose strongest rival neighbor outnumbers them most
  (followed by no attack).  A continent plan is worth its chance of
  success times the value of the continent taken (the survivors of each
  route reckoned at 0.9 armies lost per defender) plus the chance of failure
  times the value of the route's source left with one army; a single attack
  as below.  The best candidate is placed.
- **Attack.** The candidates are ending the attacks and the
  ``attack_candidates`` blitzes with the best odds, at least 10 % to win
  (with the next step of a planned route among them).  A blitz is worth ``p * value(won) + (1 - p) *
  value(lost)``: won, the expected survivors move in (all of them when the
  source has no other rival neighbor, else half); lost, the source keeps
  one army and the defender its expected survivors.  A first capture of the
  turn also earns a card, and taking a player's last territory its cards.
  The blitz worth most is made if it is worth more than stopping.
- **Occupy.** The least, the most, the middle and the odds agent's number of
  armies are weighed; the best moves in.  Where only one of the two
  territories borders a rival still in the game, everything goes there
  (the estimate prefers it: the other cannot fall) without asking.
- **Fortify.** Every move of all but one army, or of half, from the six
  biggest stacks to any territory the rules let them reach that borders a
  rival is weighed against not moving.
- **Three players or more.** From ``reinforce_only_from`` players on (3 by
  default) only the reinforcement is weighed: the attacks, occupations and
  fortifications are the odds agent's (along the planner's routes).  Weighing
  them too made the planner hoard armies behind a few territories in
  four-player games: it won 3 of 200 against three odds agents with a dealt
  set-up (an even share is 50), and 61 of the same 200 with the odds agent's
  attacks, occupations and fortifications (docs/strategy.rst).  In
  two-player games every move is weighed: there the odds agent's attacks
  cost it 7.5 points (58 % against 65.5 % of 400 games).  In those games
  it also plays for eliminations, which decide them (the winner of a
  four-player game between odds agents made two or three of the three
  kills in 95 of 100): where the rules trade a kill's cards at once, before
  weighing its placements it plans the turn around taking every territory
  of a rival when that is at least ``kill_threshold`` likely (the rival
  whose chance times one more than its cards is highest: the cards come
  with its last territory, and the set traded pays for the next kill);
  once it has taken a territory in
  a turn, it attacks off its planned routes only at
  ``multiplayer_attack_threshold`` (0.99: near-certain captures, so that its
  stacks are not spent while three rivals wear each other down; for the
  game's first ``careful_turns`` player-turns, so that planners among
  themselves do not stall); and it
  weighs its placements with the ``multiplayer_lineup`` estimate (the
  default one).  Against three odds agents that took it from 25-30 % of
  the games to about half, and to two thirds with a dealt set-up
  (docs/strategy.rst).
- **Estimate.** By default the ``"odds"`` line-up variant (``lineup=``),
  whose weights change with the rules.
- **Set-up and defence** are the odds agent's.

About sixty estimates per player-turn (each a few tens of microseconds)
keep it above 200 two-player player-turns a second on one core, about a
fifth of the odds agent's rate (where only the reinforcement is weighed,
a quarter or more of it); ``budget`` buys a
stronger, slower setting: a Monte Carlo check
(:class:`~riskmath.agents.SearchAgent`, common random numbers, rollouts
played by odds agents) of its reinforcement, attack and fortification
choices.
"""

from __future__ import annotations

import inspect
import math
import random
import sys
from typing import Any

from riskmath._validation import check_int, check_probability
from riskmath.agents.basic import MOST_BUDGET
from riskmath.agents.odds import OddsAgent, placements
from riskmath.agents.search import SearchAgent
from riskmath.errors import InvalidArgumentError
from riskmath.evaluate.estimate import check_lineup
from riskmath.evaluate.outlook import ContinentPlan, plan_continent_above, win_probability
from riskmath.evaluate.whatif import WhatIf
from riskmath.game.actions import EndPhase, Fortify
from riskmath.game.checked import Checked, to_engine
from riskmath.game.position import fortification_reach, occupation_range, own_territories, rival_table
from riskmath.game.state import GameState
from riskmath.odds._odds_grids import chain_odds
from riskmath.odds.battles import battle

#: The odds agent's options a planner takes as keywords (its thresholds), read from its signature.
_ODDS_OPTIONS = tuple(inspect.signature(OddsAgent).parameters)

__all__ = ["PlannerAgent"]

#: Armies a route's stack is reckoned to lose per defending army when a continent plan succeeds.
LOSS_PER_DEFENDER = 0.9

#: Territories whose strongest rival neighbor outnumbers them most, weighed as places for the whole pool.
DEFENSIVE_CANDIDATES = 3

#: Blitzes less likely than this to win are not weighed (the stack is all but lost).
LEAST_ODDS = 0.1

#: Biggest stacks whose moves are weighed in the fortification.
FORTIFY_SOURCES = 6

#: Rivals holding more territories than this are not planned against for elimination (the route search and
#: the chain odds grow with the territories, and a turn rarely takes more).
KILL_TERRITORIES = 10


class PlannerAgent(OddsAgent):
    """Chooses each move by the victory estimate of the position it leaves; see the module docstring.

    Parameters
    ----------
    attack_candidates : int, default 4
        Blitzes weighed at each attack decision (those with the best odds).
    placement_candidates : int, default 24
        Attacks weighed as the target of the turn's reinforcements (those
        with the best odds for the whole pool).  24 reaches the plateau of
        two-player strength: against the odds agent over 1,600 games per
        preset, 5 won 71.25 % (1993 rules), 70.9 % (``risiko``) and
        82.25 % (``euro_2003``), 24 won 76.75 %, 75.9 % and 84.6 %, 42 (every
        attack) 76.6 % and 75.6 %; in four-player games no difference was
        measured.  Fewer are faster (5: about a fifth more player-turns a
        second in two-player games).
    budget : int, default 0
        Rollouts per searched decision for a stronger, slower setting (0:
        none).  With a budget the agent's reinforcement, attack and
        fortification choices are checked by a
        :class:`~riskmath.agents.SearchAgent` with this budget, guided by
        the planner (a candidate replaces the planner's move only when its
        rollouts beat it by a standard error) and rolled out by odds agents,
        as fast as the search agent's.  Give at least twice as many
        rollouts as candidates (32, the search agent's default, is about
        eight a candidate): with one rollout a candidate, chance alone
        decides.  Since the rollouts play odds agents, what a budget adds
        is a model of the odds agent: in four-player games ``budget=32``
        won 79-85 % against three odds agents (the default 50-57 %), but
        22.5 % against three default planners (the strategy page).
    lineup : str or None, default "odds"
        The line-up variant of the victory estimate to weigh positions by (a
        name of ``riskmath.evaluate.estimate.LINEUPS``; None for the default
        estimate).  The ``"odds"`` variant was fitted to odds agents' games
        under every preset and its weights change with the rules: against
        the odds agent, on the same 200 games per preset, it won 70 % under
        the 1993 rules, 67.5 % under ``risiko`` and 84 % under ``euro_2003``,
        the default estimate 69.5 %, 63 % and 83 %.
    reinforce_only_from : int or None, default 3
        In games of at least this many players, only the reinforcement is
        weighed by the estimate; attacks, occupations and fortifications are
        the odds agent's (see the module docstring for the measurements).
        None weighs every move in every game.
    kill_threshold : float or None, default 0.7
        Where only the reinforcement is weighed, and under rules that trade
        the cards of an elimination at once (``Rules.elimination_trade_at``
        set: every preset but ``risiko``): the least chance of taking all
        the territories of a rival holding at most ``KILL_TERRITORIES`` (10)
        for the turn to be planned around it (placed for and attacked along,
        as a continent plan).  None plans no eliminations.  Under ``risiko``,
        where a kill's cards wait for the next turn, planned eliminations
        cost about 2.5 points against three odds agents (48.3 % against
        50.9 % of the same 1,600 games); elsewhere they gained 9 to 12.5.
    multiplayer_attack_threshold : float, default 0.99
        Where only the reinforcement is weighed: the least win probability
        of an attack off the planned routes once the planner has taken a
        territory this turn (the odds agent's ``attack_threshold``, 0.75,
        still sets its occupations).  Against three odds agents, 1,600
        games per preset: 0.75 won 35.4 %, 32.3 % and 33.7 % under the 1993
        rules, ``risiko`` and ``euro_2003``, 0.99 51.75 %, 50.9 % and 52.0 %;
        0.95 to 0.99 were within the noise of one another on 800, and
        attacking off the routes never (a threshold above 1) lost nearly
        every game, the stacks never finishing a rival.
    careful_turns : int or None, default 150
        ``multiplayer_attack_threshold`` holds for the game's first
        ``careful_turns`` player-turns; after them the odds agent's
        ``attack_threshold`` (None: for the whole game).  Planners among
        themselves, attacking off their routes only near-surely, wore each
        other down without end under the experts' rules (sets worth 4, 5,
        6, ...): 47 to 53 of 80 games of three to five planners reached the
        cap of 500 player-turns, none with 150 (and 12 of 12 finished under
        every other preset either way).  Games against odds agents are
        nearly always over by then: on the same 800 four-player games per
        preset, 150 changed one result under ``risiko`` and none under the
        1993 rules and ``euro_2003``.
    multiplayer_lineup : str or None, default None
        The estimate weighing the placements where only the reinforcement is
        weighed (None: the default estimate; ``lineup`` is used in the other
        games).  Over 1,600 four-player games per preset, the default
        estimate won 3 to 4 points more than the ``"odds"`` variant under
        the 1993 rules and ``risiko``, and 1 more under ``euro_2003``.

    **thresholds : float
        The odds agent's thresholds (:class:`~riskmath.agents.OddsAgent`'s
        keywords), used where it decides (the set-up, and the continent plans
        among the candidates).

    Examples
    --------
    >>> import riskmath as rm
    >>> from riskmath.agents import OddsAgent
    >>> record = rm.play(rm.Game(2, max_turns=60), [PlannerAgent(), OddsAgent()], seed=3)
    >>> record.winner, record.final.turn
    (0, 13)
    """

    name = "planner"
    #: Legal by construction where it decides unchecked (the blitzes and occupations, as the odds agent's);
    #: its placements and fortifications are checked with ``is_legal`` (tests/test_planner.py).
    trusted = True

    def __init__(
        self,
        attack_candidates: int = 4,
        placement_candidates: int = 24,
        budget: int = 0,
        lineup: str | None = "odds",
        reinforce_only_from: int | None = 3,
        kill_threshold: float | None = 0.7,
        multiplayer_attack_threshold: float = 0.99,
        multiplayer_lineup: str | None = None,
        careful_turns: int | None = 150,
        **thresholds: float,
    ) -> None:
        unknown = sorted(set(thresholds) - set(_ODDS_OPTIONS))
        if unknown:  # (passed on, they were refused as OddsAgent.__init__()'s, with a bare TypeError)
            raise InvalidArgumentError(
                f"PlannerAgent got unknown option(s) {', '.join(unknown)}; it takes attack_candidates, "
                "placement_candidates, budget, lineup, reinforce_only_from, kill_threshold, "
                f"multiplayer_attack_threshold, multiplayer_lineup, careful_turns and {', '.join(_ODDS_OPTIONS)}"
            )
        super().__init__(**thresholds)
        self.lineup = check_lineup(lineup)
        self.reinforce_only_from = (
            None if reinforce_only_from is None else check_int("reinforce_only_from", reinforce_only_from, minimum=2)
        )
        self.kill_threshold = (
            None if kill_threshold is None else float(check_probability("kill_threshold", kill_threshold))
        )
        self.multiplayer_attack_threshold = float(
            check_probability("multiplayer_attack_threshold", multiplayer_attack_threshold)
        )
        self.multiplayer_lineup = check_lineup(multiplayer_lineup, "multiplayer_lineup")
        self.careful_turns = None if careful_turns is None else check_int("careful_turns", careful_turns, minimum=0)
        # (NumPy integers are taken, as plain ints, as by every other integer argument of riskmath)
        self.attack_candidates = attack_candidates = check_int("attack_candidates", attack_candidates, minimum=1)
        self.placement_candidates = placement_candidates = check_int(
            "placement_candidates", placement_candidates, minimum=0
        )
        self.budget = budget = check_int("budget", budget, minimum=0, maximum=MOST_BUDGET)
        self._search: SearchAgent | None = None
        if budget:
            guide = PlannerAgent(
                attack_candidates,
                placement_candidates,
                0,
                lineup,
                reinforce_only_from,
                self.kill_threshold,
                self.multiplayer_attack_threshold,
                self.multiplayer_lineup,
                self.careful_turns,
                **thresholds,
            )
            self._search = SearchAgent(budget=budget, guide=guide)

    def __repr__(self) -> str:
        return (
            f"PlannerAgent(attack_candidates={self.attack_candidates!r}, "
            f"placement_candidates={self.placement_candidates!r}, budget={self.budget!r}, lineup={self.lineup!r}, "
            f"reinforce_only_from={self.reinforce_only_from!r}, kill_threshold={self.kill_threshold!r}, "
            f"multiplayer_attack_threshold={self.multiplayer_attack_threshold!r}, "
            f"multiplayer_lineup={self.multiplayer_lineup!r}, careful_turns={self.careful_turns!r}{self._thresholds()})"
        )

    def _thresholds(self) -> str:
        """The odds agent's thresholds that differ from its defaults, for the repr (a tournament tells agents of
        one name apart by it: two planners of different thresholds were counted as one)."""
        default = OddsAgent()
        changed = [name for name in _ODDS_OPTIONS if getattr(self, name) != getattr(default, name)]
        return "".join(f", {name}={getattr(self, name)!r}" for name in changed)

    def _reinforce_only(self, state: GameState) -> bool:
        """Whether only the reinforcement is weighed in this game (``reinforce_only_from``)."""
        return self.reinforce_only_from is not None and state.game.players >= self.reinforce_only_from

    def act(self, state: GameState, rng: random.Random) -> Any:
        if self._search is not None:
            return self._search.act(state, rng)
        return super().act(state, rng)

    def _decide(self, state: GameState, rng: random.Random) -> Checked:
        if self._search is not None:
            return to_engine(state.game, self._search.act(state, rng))
        return super()._decide(state, rng)

    # -- what a position is worth ----------------------------------------------------------
    @staticmethod
    def _cards(state: GameState, me: int, earned: bool) -> list[int]:
        """The hand sizes at the end of the turn: one more for ``me`` if it earns a card."""
        cards = [len(hand) for hand in state.position.hands]
        if earned and state.game.rules.cards != "none":
            cards[me] += 1
        return cards

    def _blitz_value(
        self,
        whatif: WhatIf,
        state: GameState,
        placed: dict[int, tuple[int, int]],
        cards: list[int],
        cards_won: list[int],
        source: int,
        target: int,
    ) -> float:
        """The expected estimate after blitzing from ``source`` into ``target`` to the end.

        ``placed`` holds the territories changed before the blitz (the turn's reinforcements), as
        :meth:`WhatIf.chance`'s ``changes``.
        """
        game, me = state.game, whatif.player
        owners, armies = state.position.owner, state.position.armies
        stack = placed[source][1] if source in placed else armies[source]
        p, left_if_won, defenders_if_lost = _outcome(stack - 1, armies[target], game.rules.combat)
        value = 0.0
        if p > 0.0:
            victim = owners[target]
            alive: list[bool] | None = None
            hands = cards_won
            if 0 <= victim < game.players and owners.count(victim) == 1:  # its last territory: out, its cards mine
                alive = list(state.position.alive)
                alive[victim] = False
                hands = cards_won[:]
                hands[me] += hands[victim]
                hands[victim] = 0
            survivors = max(1, round(left_if_won))
            rivals = any(owners[u] != me for u in game.neighbors[source] if u != target)
            keep = max(1, (survivors + 1) // 2) if rivals else 1
            won = {**placed, source: (me, keep), target: (me, survivors + 1 - keep)}
            value += p * whatif.chance(changes=won, alive=alive, cards=hands)
        if p < 1.0:
            lost = {**placed, source: (me, 1), target: (owners[target], max(1, round(defenders_if_lost)))}
            value += (1.0 - p) * whatif.chance(changes=lost, cards=cards)
        return value

    def _attack_threshold(self, state: GameState) -> float:
        if self._reinforce_only(state) and (self.careful_turns is None or state.turn <= self.careful_turns):
            return self.multiplayer_attack_threshold
        return self.attack_threshold

    # -- reinforcement ----------------------------------------------------------------------
    def _plan_turn(self, state: GameState, me: int) -> tuple[list[tuple[int, int]], list[tuple[int, ...]]]:
        several = self._reinforce_only(state)
        if several and self.kill_threshold is not None and state.game.rules.elimination_trade_at is not None:
            elimination = self._elimination(state, me)
            if elimination is not None:
                return elimination
        todo, routes = super()._plan_turn(state, me)
        game, pos = state.game, state.position
        combat = game.rules.combat
        owners, armies = list(pos.owner), list(pos.armies)
        pool = state.pool
        whatif = WhatIf(state, me, lineup=self.multiplayer_lineup if several else self.lineup)
        cards, cards_won = self._cards(state, me, pos.captured), self._cards(state, me, True)
        placed = armies[:]
        for t, k in todo:
            placed[t] += k
        changes = {t: (me, placed[t]) for t, _ in todo}
        if len(routes) > 1 or (routes and len(routes[0]) > 2):  # a continent plan
            score = self._plan_value(whatif, state, routes, placed, cards, cards_won)
        elif routes:
            source, target = routes[0]
            score = max(
                whatif.chance(changes=changes, cards=cards),
                self._blitz_value(whatif, state, changes, cards, cards_won, source, target),
            )
        else:
            score = whatif.chance(changes=changes, cards=cards)
        best: tuple[float, int, int | None] | None = None
        attacks: list[tuple[float, int, int]] = []
        exposed: list[tuple[int, int]] = []
        neighbors = game.neighbors
        for t, owner in enumerate(owners):
            if owner != me:
                continue
            rivals = [u for u in neighbors[t] if owners[u] != me]
            if not rivals:
                continue
            for u in rivals:
                attacks.append((win_probability(armies[t] - 1 + pool, armies[u], combat), t, u))
            exposed.append((max(armies[u] for u in rivals) - armies[t], t))
        attacks.sort(key=lambda x: (-x[0], x[1], x[2]))
        exposed.sort(key=lambda x: (-x[0], x[1]))
        for _, t, u in attacks[: self.placement_candidates]:
            value = self._blitz_value(whatif, state, {t: (me, armies[t] + pool)}, cards, cards_won, t, u)
            if value > score and (best is None or value > best[0]):
                best = (value, t, u)
        for _, t in exposed[:DEFENSIVE_CANDIDATES]:
            value = whatif.chance(changes={t: (me, armies[t] + pool)}, cards=cards)
            if value > score and (best is None or value > best[0]):
                best = (value, t, None)
        if best is None:
            return todo, routes
        chosen, aim = best[1], best[2]
        return [(chosen, pool)], ([(chosen, aim)] if aim is not None else [])

    def _elimination(self, state: GameState, me: int) -> tuple[list[tuple[int, int]], list[tuple[int, ...]]] | None:
        """The turn planned around taking a rival's last territories, if that is likely enough; else None.

        For each living rival with at most ``KILL_TERRITORIES`` territories,
        the best plan to take them all this turn (routes from the player's
        stacks through them, the pool shared among the routes' sources: as
        :func:`~riskmath.evaluate.plan_continent` plans a continent).  Of the
        plans at least ``kill_threshold`` likely, the one whose probability
        times one more than the cards in the rival's hand (they come with its
        last territory) is highest; the lowest seat on ties.
        """
        assert self.kill_threshold is not None
        game, pos = state.game, state.position
        owners, pool = pos.owner, state.pool
        rival = rival_table(game, pos)  # rival[o + 1]: o is a living player
        floor = math.nextafter(self.kill_threshold, -math.inf)  # a plan comes back when its probability > floor
        best: tuple[float, ContinentPlan] | None = None
        for other in range(game.players):
            if other == me or not rival[other + 1]:
                continue
            theirs = [t for t, owner in enumerate(owners) if owner == other]
            if len(theirs) > KILL_TERRITORIES:
                continue
            plan = plan_continent_above(state, me, theirs, pool, floor)
            if plan is None:
                continue
            score = plan.probability * (1 + len(pos.hands[other]))
            if best is None or score > best[0]:
                best = (score, plan)
        if best is None:
            return None
        return placements(best[1], pool), list(best[1].routes)

    def _plan_value(
        self,
        whatif: WhatIf,
        state: GameState,
        routes: list[tuple[int, ...]],
        placed: list[int],
        cards: list[int],
        cards_won: list[int],
    ) -> float:
        """A continent plan's worth: taken with its chance, else its sources left with one army each."""
        me = whatif.player
        owners, armies = state.position.owner, state.position.armies
        combat = state.game.rules.combat
        chance = 1.0
        taken, after, failed = list(owners), placed[:], placed[:]
        for route in routes:
            rest = tuple(armies[t] for t in route[1:] if owners[t] != me)
            able = placed[route[0]] - 1
            if rest:
                chance *= chain_odds(able, rest, combat) if able > 0 else 0.0
            stack = float(able)
            for t in route[1:]:
                if owners[t] != me:
                    stack -= LOSS_PER_DEFENDER * armies[t]
                taken[t] = me
                after[t] = 1
                stack -= 1.0
            after[route[0]] = 1
            after[route[-1]] = max(1, round(stack) + 1)
            failed[route[0]] = 1
        return chance * whatif.chance(taken, after, cards=cards_won) + (1.0 - chance) * whatif.chance(
            owners, failed, cards=cards
        )

    # -- attacks ------------------------------------------------------------------------------
    def _attack_checked(self, state: GameState) -> Checked:
        guided = super()._attack_checked(state)  # (also keeps the turn's plan current)
        if self._reinforce_only(state):
            return guided
        me = state.current_player
        game, pos = state.game, state.position
        combat = game.rules.combat
        owners, armies = pos.owner, pos.armies
        candidates: list[tuple[float, int, int]] = []
        for t, owner in enumerate(owners):
            if owner != me or armies[t] < 2:
                continue
            for u in game.neighbors[t]:
                if owners[u] != me:
                    p = win_probability(armies[t] - 1, armies[u], combat)
                    if p >= LEAST_ODDS:
                        candidates.append((p, t, u))
        candidates.sort(key=lambda x: (-x[0], x[1], x[2]))
        pairs = [(t, u) for _, t, u in candidates[: self.attack_candidates]]
        if guided[0] == "blitz" and (guided[1], guided[2]) not in pairs:
            pairs.append((guided[1], guided[2]))
        if not pairs:
            return ("end",)
        whatif = WhatIf(state, me, lineup=self.lineup)
        cards, cards_won = self._cards(state, me, pos.captured), self._cards(state, me, True)
        best = whatif.chance(cards=cards)
        chosen: tuple[int, int] | None = None
        for t, u in pairs:
            value = self._blitz_value(whatif, state, {}, cards, cards_won, t, u)
            if value > best:
                best, chosen = value, (t, u)
        if chosen is None:
            return ("end",)
        return ("blitz", chosen[0], chosen[1], 0)

    # -- occupation ---------------------------------------------------------------------------
    def _occupy_checked(self, state: GameState) -> Checked | None:
        guided = super()._occupy_checked(state)
        pos = state.position
        if guided is None or pos.occupy is None or self._reinforce_only(state):
            return guided
        source, target, _ = pos.occupy
        least, most = occupation_range(state.game, pos)
        me = state.current_player
        # Where only one side borders a rival (a player in the game: neutrals never attack), moving everything
        # there is what the estimate prefers (the other side cannot fall, nothing else changes): no need to ask.
        owners, alive, neighbors, players = pos.owner, pos.alive, state.game.neighbors, state.game.players
        if least == most or not any(
            o != me and 0 <= o < players and alive[o] for o in map(owners.__getitem__, neighbors[source])
        ):
            return ("occupy", most)
        if not any(o != me and 0 <= o < players and alive[o] for o in map(owners.__getitem__, neighbors[target])):
            return ("occupy", least)
        whatif = WhatIf(state, me, lineup=self.lineup)
        cards = self._cards(state, me, True)
        armies = pos.armies
        best: tuple[float, int] | None = None
        odds_choice: int = guided[1]  # type: ignore[misc,assignment]  # ("occupy", armies)
        for moved in sorted({least, most, (least + most) // 2, odds_choice}):
            changes = {source: (me, armies[source] - moved), target: (me, armies[target] + moved)}
            value = whatif.chance(changes=changes, cards=cards)
            if best is None or value > best[0]:
                best = (value, moved)
        assert best is not None
        return ("occupy", best[1])

    # -- fortification --------------------------------------------------------------------------
    def _fortify(self, state: GameState) -> Any:
        if self._reinforce_only(state):
            return super()._fortify(state)
        me = state.current_player
        game, pos = state.game, state.position
        owners, armies = list(pos.owner), list(pos.armies)
        whatif = WhatIf(state, me, lineup=self.lineup)
        cards = self._cards(state, me, pos.captured)
        mine = own_territories(pos)
        best = whatif.chance(cards=cards)
        chosen: Fortify | None = None
        regions: dict[int, list[int]] = {}
        names = game.board.territories
        sources = sorted((t for t in mine if armies[t] >= 2), key=lambda t: (-armies[t], t))[:FORTIFY_SOURCES]
        for source in sources:
            for target in fortification_reach(game, pos, source, mine, regions):
                if target == source or target not in mine or not any(owners[u] != me for u in game.neighbors[target]):
                    continue  # (armies moved inside change no feature of the estimate but the chance they fall)
                for moved in sorted({armies[source] - 1, armies[source] // 2}):
                    changes = {source: (me, armies[source] - moved), target: (me, armies[target] + moved)}
                    value = whatif.chance(changes=changes, cards=cards)
                    if value > best:
                        best, chosen = value, Fortify(names[source], names[target], moved)
        return EndPhase() if chosen is None else chosen


def _outcome(attackers: int, defenders: int, combat: Any) -> tuple[float, float, float]:
    """(win probability, expected attackers left if won, expected defenders left if lost) of a blitz, remembered."""
    key = (attackers, defenders, combat)
    found = _OUTCOMES.get(key)
    if found is None:
        if attackers > _EXACT_SIDE or defenders > _EXACT_SIDE:
            p, if_won, if_lost = _outcome_of_a_big_battle(attackers, defenders, combat)
        else:
            result = battle(attackers, defenders, rules=combat)
            p = float(result.win_probability)
            # (a mean given a win is undefined below the smallest normal float, UndefinedStatisticError: there
            # the win is as good as impossible, and counted as when it is 0)
            if_won = float(result.expected_attackers_left_if_won) if p >= _SMALLEST_NORMAL else 0.0
            if_lost = float(result.expected_defenders_left) / (1.0 - p) if p < 1.0 else 1.0
        if len(_OUTCOMES) >= _OUTCOMES_KEPT:
            _OUTCOMES.clear()
        found = _OUTCOMES[key] = (p, if_won, if_lost)
    return found


def _outcome_of_a_big_battle(attackers: int, defenders: int, combat: Any) -> tuple[float, float, float]:
    """:func:`_outcome` of a battle over ``_EXACT_SIDE`` armies on a side, estimated in bounded memory.

    An agent's guide, as the odds agent's :func:`~riskmath.evaluate.outlook.win_probability` is for such
    battles, not exact odds.  A side far larger than the other (over ``4 x + 40`` against ``x``) is taken at
    ``4 x + 40``: its losses are those of that battle (it almost never runs short), so the armies it keeps
    are its own less those losses.  A battle still over ``_EXACT_SIDE`` a side is computed scaled down in
    proportion to ``_EXACT_SIDE`` on its larger side, and the losses scaled back up.  (A stack of a billion
    against two, or two stacks of 16,500 each, asked ``battle`` for gigabytes.)
    """
    a = min(attackers, 4 * defenders + 40)
    d = min(defenders, 4 * attackers + 40)
    factor = 1.0
    if max(a, d) > _EXACT_SIDE:
        factor = _EXACT_SIDE / max(a, d)
        a, d = max(1, round(a * factor)), max(1, round(d * factor))
    result = battle(a, d, rules=combat)
    p = float(result.win_probability)
    attacker_losses = (a - float(result.expected_attackers_left_if_won)) / factor if p >= _SMALLEST_NORMAL else 0.0
    defender_losses = (d - float(result.expected_defenders_left) / (1.0 - p)) / factor if p < 1.0 else 0.0
    if_won = max(1.0, attackers - attacker_losses) if p >= _SMALLEST_NORMAL else 0.0
    if_lost = max(1.0, defenders - defender_losses) if p < 1.0 else 1.0
    return p, if_won, if_lost


#: The smallest win probability whose battle has a mean given a win (``sys.float_info.min``; see ``Battle``).
_SMALLEST_NORMAL = sys.float_info.min
#: The largest side :func:`_outcome` computes exactly (a battle of 2,048 v 2,048 takes about 0.1 s, once).
_EXACT_SIDE = 2048
#: Blitz outcomes remembered by :func:`_outcome` (all forgotten when full).
_OUTCOMES_KEPT = 65536
_OUTCOMES: dict[tuple[int, int, Any], tuple[float, float, float]] = {}
