"""What actions and chance outcomes do to a position (private; the rules of play).

Every function here takes the game and a :class:`~riskmath.game.position.Position`
and changes the position in place: a *fresh copy* made by
:meth:`GameState.apply`, or the private position that the play loop of
:mod:`riskmath.sim` changes in place.  The caller has already checked
legality (or asked not to, for actions known to be legal).  The entry points
are :func:`apply_action` (a checked action, see :mod:`~riskmath.game.checked`)
and :func:`apply_outcome` (a chance outcome); the loop also calls
:func:`end_blitz` and :func:`occupy` directly.  The comments cite the rule
each step implements (1993 US rules unless an option says otherwise).
"""

from __future__ import annotations

from typing import Any

from riskmath.game.actions import DrawCard, FirstPlayer, PlaceArmies, RollOutcome
from riskmath.game.cards import territory_bonus, trade_down_needed
from riskmath.game.chance import UNIT, advance, battle, is_chance, sample_outcome, step
from riskmath.game.checked import Checked
from riskmath.game.context import GameContext
from riskmath.game.missions import completed
from riskmath.game.phase import (
    ATTACK,
    BLITZ,
    DEFEND,
    DRAW,
    FORTIFY,
    GAME_OVER,
    OCCUPY,
    REINFORCE,
    ROLL,
    SETUP_CAPITAL,
    SETUP_CLAIM,
    SETUP_DEAL,
    SETUP_MISSION,
    SETUP_ORDER,
    SETUP_PILE,
    SETUP_PLACE,
    TRADE_DOWN,
)
from riskmath.game.position import (
    Capture,
    PendingBattle,
    Position,
    attacker_dice_most,
    cards_in_play,
    defender_dice_most,
    defense_chooser,
    holds_set,
    income,
    room,
    trade_down_over,
    trade_forced,
)
from riskmath.game.rules import MAX_OPTION
from riskmath.game.setup import capital_chooser, pile_chooser

_new_tuple = tuple.__new__


# -- set-up -----------------------------------------------------------------------------


def _begin_placement(game: GameContext, pos: Position, player: int) -> None:
    """Start placing the remaining starting armies, from ``player`` round the table."""
    pos.phase = SETUP_PLACE
    pos.player = player
    if game.rules.starting_armies_rule == "territories_dealt":  # 1959: one army per territory, no more (neutrals too)
        pos.setup_left[:] = [0] * len(pos.setup_left)
    queue_placements(game, pos)


def queue_placements(game: GameContext, pos: Position) -> None:
    """Fill the queue of placements for the current player's set-up turn, moving on when empty.

    The step the engine takes when a set-up turn begins (after the claim or
    deal, and after each player's placements), and the one that
    ``Game.position(..., phase="place")`` takes on a position set up by hand
    in ``SETUP_PLACE``: from ``pos.player``, the first player with armies
    left and room for them gets a queue of placements (with the neutrals'
    one army each in the 1993 two-player game); armies no territory can
    take are lost to the caps; once nothing is left the set-up ends
    (headquarters, then the first turn).
    """
    for _ in range(game.players + 1):
        if sum(pos.setup_left) == 0:
            _finish_setup(game, pos)
            return
        p = pos.player
        queue: list[tuple[int, int]] = []
        if pos.setup_left[p] > 0:
            queue.append((p, min(game.setup_per_turn, pos.setup_left[p])))
        if game.neutrals_place:
            queue += [(o, 1) for o in range(game.players, game.owners) if pos.setup_left[o] > 0]
        queue = [(o, k) for o, k in queue if _has_room(game, pos, o)]
        if queue:
            pos.queue = queue
            return
        for o in range(game.owners):  # nobody in the queue can place: their armies are lost to the caps
            if not _has_room(game, pos, o):
                pos.setup_left[o] = 0
        pos.player = (p + 1) % game.players
    _finish_setup(game, pos)


def _has_room(game: GameContext, pos: Position, owner: int) -> bool:
    cap, armies = game.setup_cap, pos.armies
    return any(o == owner and armies[t] < cap for t, o in enumerate(pos.owner))


def _place_setup(game: GameContext, pos: Position, t: int, k: int) -> None:
    owner, due = pos.queue[0]
    pos.armies[t] += k
    pos.setup_left[owner] -= k
    if due - k > 0 and _has_room(game, pos, owner):
        pos.queue[0] = (owner, due - k)
    else:
        if due - k > 0:
            pos.setup_left[owner] = 0
        pos.queue.pop(0)
    if not pos.queue:
        pos.player = (pos.player + 1) % game.players
        queue_placements(game, pos)


def _finish_setup(game: GameContext, pos: Position) -> None:
    pos.queue = []
    if game.rules.capital != "none" and len(pos.capitals) < game.players:
        pos.phase = SETUP_CAPITAL
        pos.player = capital_chooser(pos.first, len(pos.capitals), game.players)
        return
    # The wild cards go back in and the deck is shuffled; headquarters cards stay out (Capital RISK, 1993).
    pos.deck = cards_in_play(game, pos.capitals)
    _start_turn(game, pos, pos.first)


# -- turns ----------------------------------------------------------------------------------


def _start_turn(game: GameContext, pos: Position, player: int, own_mission: bool = True) -> None:
    if game.max_turns is not None and pos.turn >= game.max_turns:
        pos.phase, pos.player = GAME_OVER, -1  # a draw
        return
    if pos.turn < MAX_OPTION:  # an uncapped count stops at what a save holds (reached only from a state set so)
        pos.turn += 1
    pos.player = player
    pos.phase = REINFORCE
    pos.pool = income(game, pos, player)
    pos.bonus_taken = 0
    pos.captured = False
    pos.bonus = {}
    pos.moved = []
    if own_mission and game.rules.mission_check == "own_turn" and _check_missions(game, pos, only=player):
        return
    if pos.pool == 0 and holds_set(game, pos.hands[player]):
        # Without a minimum (Risiko) a turn can start with nothing to place: the player may still trade a
        # set, or end the reinforcement with EndPhase.  (With a minimum of 3 this never happens.)
        return
    _after_placement(game, pos)


def start_turn_at(game: GameContext, pos: Position, player: int, turn: int, *, begun: bool = False) -> None:
    """Begin player-turn ``turn`` of ``player`` on a position set up by hand (``Game.position``).

    What the engine does when the previous turn ends (income, a forced
    trade, a mission checked on one's own turn); first, where a capture can
    decide the game (Capital RISK, missions checked at once), the win the
    engine would already have declared.  ``begun``: the position is a later
    decision of the turn (an attack, an occupation, a fortification), so the
    check of missions on one's own turn was made when the turn began, on
    another board: a mission completed since wins at the start of the
    player's next turn, not now.
    """
    pos.turn, pos.player = turn, player
    if game.decided_by_captures and _check_missions(game, pos):
        return
    pos.turn = turn - 1
    _start_turn(game, pos, player, own_mission=not begun)


def _after_placement(game: GameContext, pos: Position) -> None:
    """Leave REINFORCE / TRADE_DOWN once nothing is left to place or trade."""
    if pos.pool > 0:
        player, armies, cap = pos.player, pos.armies, game.cap
        for t, owner in enumerate(pos.owner):
            if owner == player and armies[t] < cap:
                return
        pos.pool = 0  # the caps leave nowhere to put them: they are lost (1993 experts rule)
    if pos.phase is REINFORCE:
        if not trade_forced(game, pos):
            pos.phase = ATTACK
    elif pos.phase is TRADE_DOWN and trade_down_over(game, pos):
        pos.trade_down = False
        pos.phase = ATTACK


def _end_turn(game: GameContext, pos: Position) -> None:
    rules = game.rules
    if pos.captured:
        if not pos.deck and rules.deck_recycle:
            pos.deck, pos.discard = pos.discard, []  # the traded cards are shuffled into a new deck
        if pos.deck:
            pos.phase = DRAW
            return
    _next_turn(game, pos)


def _next_turn(game: GameContext, pos: Position) -> None:
    players = game.players
    p = pos.player
    for offset in range(1, players + 1):
        candidate = (p + offset) % players
        if pos.alive[candidate]:
            _start_turn(game, pos, candidate)
            return


def _trade(game: GameContext, pos: Position, cards: tuple[str, ...]) -> None:
    rules, player = game.rules, pos.player
    hand = pos.hands[player]
    for card in cards:
        hand.remove(card)
    pos.discard.extend(cards)
    if pos.sets_traded < MAX_OPTION:  # as the turn: the count stops at what a save holds (and values at MAX_ARMIES)
        pos.sets_traded += 1
    traded = [game.cards[c] for c in cards]
    pos.pool += rules.set_values.value(pos.sets_traded, traded)
    if rules.territory_card_bonus == "none":
        return
    index = game.index
    owned = {c for c in cards if c in index and pos.owner[index[c]] == player}
    if not owned:  # no card shows a territory of the player's: no bonus
        return
    # The player's pick among the bonus territories is always the first (in the order of the traded cards).
    for name, extra in territory_bonus([traded], owned, rules.territory_card_bonus, pos.bonus_taken):  # type: ignore[arg-type]
        t = index[name]  # the armies must go on that territory: place them at once, up to its cap
        pos.armies[t] += min(extra, room(game, pos, t))
        pos.bonus_taken += extra


def _capture(game: GameContext, pos: Position, source: int, target: int, least: int) -> None:
    attacker = pos.player
    victim = pos.owner[target]
    pos.owner[target] = attacker
    pos.captured = True
    pos.occupy = _new_tuple(Capture, (source, target, least))  # Capture(...) without its Python-level __new__
    pos.phase = OCCUPY
    if victim < game.players and victim not in pos.owner:
        rules = game.rules
        pos.alive[victim] = False
        pos.killed_by[victim] = attacker
        pos.hands[attacker].extend(pos.hands[victim])
        pos.hands[victim] = []
        at = rules.elimination_trade_at
        if at is not None and trade_down_needed(len(pos.hands[attacker]), at, rules.elimination_trade_to):
            pos.trade_down = True
        if sum(pos.alive) == 1:
            _win(game, pos, attacker)


def _win(game: GameContext, pos: Position, player: int) -> None:
    if pos.occupy is not None:  # the last capture still moves in its minimum
        source, target, least = pos.occupy
        pos.armies[source] -= least
        pos.armies[target] += least
        pos.occupy = None
    pos.pending = None
    pos.winner = player
    pos.phase = GAME_OVER
    pos.player = -1


def _missions_now(game: GameContext, pos: Position) -> bool:
    """Whether missions win the moment they are complete (``mission_check="immediate"``).

    Placing armies (reinforcements, the territory-card bonus) and fortifying
    can complete "occupy 18 territories with at least 2 armies each", as a
    capture can; each of these moves checks the missions at once.
    """
    rules = game.rules
    return rules.missions != "none" and rules.mission_check == "immediate"


def _check_missions(game: GameContext, pos: Position, only: int | None = None) -> bool:
    """Declare a winner if a mission or the capitals decide the game."""
    if pos.phase is GAME_OVER:
        return True
    if game.rules.missions != "none" and len(pos.missions) == game.players:
        order = [only] if only is not None else [(pos.player + k) % game.players for k in range(game.players)]
        for p in order:
            if pos.alive[p] and completed(game, pos, p):
                _win(game, pos, p)
                return True
    if game.rules.capital != "none" and len(pos.capitals) == game.players:
        needed = game.players - 1
        if game.rules.capital == "short":
            needed = {4: 2, 5: 3, 6: 3}.get(game.players, needed)
        for p in range(game.players):
            if not pos.alive[p] or pos.owner[pos.capitals[p]] != p:
                continue
            held = sum(1 for q, hq in enumerate(pos.capitals) if q != p and pos.owner[hq] == p)
            if held >= needed:
                _win(game, pos, p)
                return True
    return False


# -- decisions --------------------------------------------------------------------------------


def apply_action(game: GameContext, pos: Position, action: Checked) -> None:
    """Apply a checked action (:mod:`~riskmath.game.checked` form) to ``pos`` in place."""
    rules = game.rules
    checked: tuple[Any, ...] = action  # dispatched on its kind below, then read as the plain tuple it is
    kind = checked[0]
    phase = pos.phase
    # The commonest first: a simulated turn is mostly blitz, occupy, blitz, occupy ...
    if kind == "blitz":
        _, source, target, stop_at = checked
        pos.pending = PendingBattle("blitz", source, target, stop_at, pos.player, None)
        pos.phase = BLITZ
    elif kind == "occupy":
        occupy(game, pos, checked[1])
    elif kind == "end":
        if phase is REINFORCE:  # nothing to place and no wish to trade (see _start_turn)
            pos.phase = ATTACK
        elif phase is ATTACK and rules.fortify != "none":
            pos.phase = FORTIFY
        else:
            _end_turn(game, pos)
    elif kind == "place":
        _, t, k = checked
        if phase is SETUP_CLAIM:
            _claim(game, pos, t)
        elif phase is SETUP_PLACE:
            _place_setup(game, pos, t, k)
        else:  # REINFORCE or TRADE_DOWN
            pos.armies[t] += k
            pos.pool -= k
            if _missions_now(game, pos) and _check_missions(game, pos):
                return
            _after_placement(game, pos)
    elif kind == "trade":
        _trade(game, pos, checked[1])
        if _missions_now(game, pos) and _check_missions(game, pos):  # the territory bonus places armies too
            return
        _after_placement(game, pos)
    elif kind == "attack":
        _, source, target, dice = checked
        if game.defender_decides:
            chooser = defense_chooser(game, pos, target, pos.player)
            if chooser >= 0:
                pos.pending = PendingBattle("attack", source, target, dice, pos.player, None)
                pos.phase, pos.player = DEFEND, chooser
                return
        pos.pending = PendingBattle("attack", source, target, dice, pos.player, defender_dice_most(game, pos, target))
        pos.phase = ROLL
    elif kind == "defend":
        assert pos.pending is not None
        pos.pending = pos.pending._replace(defense=checked[1])
        pos.player = pos.pending.attacker
        pos.phase = ROLL
    elif kind == "fortify":
        _, source, target, k = checked
        pos.armies[source] -= k
        pos.armies[target] += k
        if _missions_now(game, pos) and _check_missions(game, pos):
            return
        if rules.fortify == "experts":
            pos.moved += [source, target]  # each territory moves armies (out or in) once a turn
        else:
            _end_turn(game, pos)
    elif kind == "pile":
        _take_pile(game, pos, checked[1], pos.player)
        left = set(pos.piles) - {-1}
        if len(left) == 1:  # the last pile is the neutral's
            _take_pile(game, pos, left.pop(), game.players)
            pos.piles = []
            _begin_placement(game, pos, pos.first)
        else:
            pos.player = pile_chooser(pos.first, len(left))
    elif kind == "capital":
        pos.capitals.append(checked[1])
        if len(pos.capitals) < game.players:
            pos.player = capital_chooser(pos.first, len(pos.capitals), game.players)
        else:
            # The choices were made from the first player round the table; once all are in, index them by player
            # (GameState.capital and the win check read capitals[player]).
            by_player = [-1] * game.players
            for i, t in enumerate(pos.capitals):
                by_player[capital_chooser(pos.first, i, game.players)] = t
            pos.capitals = by_player
            _finish_setup(game, pos)


def end_blitz(
    game: GameContext, pos: Position, source: int, target: int, attacker: int, left: int, defenders_left: int
) -> None:
    """A blitz from ``source`` ends with ``left`` armies able to attack and ``defenders_left`` in ``target``."""
    pos.armies[source] = left + 1
    pos.armies[target] = defenders_left
    pos.pending = None
    pos.player = attacker
    if defenders_left == 0:
        # The capturing roll cost the attacker nothing, so it threw the most dice of the armies left.
        _capture(game, pos, source, target, attacker_dice_most(game, pos, source) if game.occupy_dice_rolled else 1)
        if game.decided_by_captures:
            _check_missions(game, pos)
    else:
        pos.phase = ATTACK


def occupy(game: GameContext, pos: Position, armies: int) -> None:
    """Move ``armies`` into the territory just captured (the ``Occupy`` decision)."""
    assert pos.occupy is not None
    source, target, _ = pos.occupy
    pos.armies[source] -= armies
    pos.armies[target] += armies
    pos.occupy = None
    if pos.trade_down:
        pos.phase = TRADE_DOWN
        _after_placement(game, pos)  # nothing to trade (no set in the hand): the trade-down is over at once
    else:
        pos.phase = ATTACK
    if game.decided_by_captures:
        _check_missions(game, pos)


def _take_pile(game: GameContext, pos: Position, pile: int, owner: int) -> None:
    for t, k in enumerate(pos.piles):
        if k == pile:
            pos.owner[t] = owner
            pos.armies[t] = 1
            pos.setup_left[owner] -= 1
            pos.piles[t] = -1


def _claim(game: GameContext, pos: Position, t: int) -> None:
    p = pos.player
    pos.owner[t] = p
    pos.armies[t] = 1
    pos.setup_left[p] -= 1
    claimed = len(pos.owner) - pos.owner.count(-1)
    if game.neutral_takes_unclaimed and claimed == game.claimed_by_players:
        for u in range(len(pos.owner)):  # the article's 1975 rule: the rest is neutral, 2 armies each
            if pos.owner[u] < 0:
                pos.owner[u] = game.players
                pos.armies[u] = game.neutral_armies_each
        pos.setup_left[game.players] = 0
        _begin_placement(game, pos, pos.first)
    elif claimed == len(pos.owner):
        _begin_placement(game, pos, (p + 1) % game.players)
    else:
        pos.player = (p + 1) % game.players


# -- chance ---------------------------------------------------------------------------------


def apply_outcome(game: GameContext, pos: Position, outcome: Any) -> None:
    """Apply the outcome of chance node ``pos`` in place, and advance its generator one step."""
    pos.rng = advance(pos.rng)
    phase = pos.phase
    if phase is BLITZ:  # a BattleOutcome (checked by apply, or drawn)
        assert pos.pending is not None
        _, source, target, _, attacker, _ = pos.pending
        end_blitz(game, pos, source, target, attacker, outcome.attackers_left, outcome.defenders_left)
    elif phase is ROLL:
        assert isinstance(outcome, RollOutcome)
        assert pos.pending is not None
        _, source, target, dice, attacker, _ = pos.pending
        pos.armies[source] -= outcome.attacker_losses
        pos.armies[target] -= outcome.defender_losses
        pos.pending = None
        pos.player = attacker
        if pos.armies[target] == 0:
            _capture(game, pos, source, target, dice if game.occupy_dice_rolled else 1)
            if game.decided_by_captures:
                _check_missions(game, pos)
        else:
            pos.phase = ATTACK
    elif phase is DRAW:
        assert isinstance(outcome, DrawCard)
        pos.deck.remove(outcome.card)
        pos.hands[pos.player].append(outcome.card)
        _next_turn(game, pos)
    elif phase is SETUP_ORDER:
        rules = game.rules
        assert isinstance(outcome, FirstPlayer)
        pos.first = outcome.player
        pos.player = outcome.player
        if rules.missions != "none":  # 1993 Secret Mission: missions are dealt before the territories
            pos.phase, pos.player = SETUP_MISSION, -1
        else:
            pos.phase = SETUP_CLAIM if game.claiming else SETUP_DEAL
    elif phase is SETUP_DEAL and game.deals_piles:
        # 1993 two-player game: the cards are dealt into three piles of 14; the players then choose piles.
        assert isinstance(outcome, DrawCard)
        if not pos.piles:
            pos.piles = [-1] * len(pos.owner)
        pos.piles[game.index[outcome.card]] = pos.dealt % 3
        pos.deck.remove(outcome.card)
        pos.dealt += 1
        if pos.dealt == len(pos.owner):
            pos.phase, pos.player = SETUP_PILE, pile_chooser(pos.first, 3)
            if not game.chooses_piles:  # a random set-up leaves nothing to choose: piles in dealing order
                _take_pile(game, pos, 0, pile_chooser(pos.first, 3))
                _take_pile(game, pos, 1, pile_chooser(pos.first, 2))
                _take_pile(game, pos, 2, game.players)
                pos.piles = []
                _begin_placement(game, pos, pos.first)
    elif phase is SETUP_DEAL:
        assert isinstance(outcome, DrawCard)
        owner = game.deal_schedule(pos.first)[pos.dealt]
        t = game.index[outcome.card]
        pos.deck.remove(outcome.card)
        pos.owner[t] = owner
        # The article's neutral territories hold 2 armies each (28 in all), as in the claimed set-up.
        pos.armies[t] = game.neutral_armies_each if owner >= game.players else 1
        pos.setup_left[owner] -= pos.armies[t]
        pos.dealt += 1
        if pos.dealt == len(pos.owner):
            _begin_placement(game, pos, pos.first)
    elif phase is SETUP_PLACE:  # random set-up
        assert isinstance(outcome, PlaceArmies)
        _place_setup(game, pos, game.index[outcome.territory], outcome.armies)  # type: ignore[index]
    elif phase is SETUP_MISSION:
        assert isinstance(outcome, DrawCard)
        pos.missions.append(outcome.card)
        if len(pos.missions) == game.players:
            pos.player = pos.first
            pos.phase = SETUP_CLAIM if game.claiming else SETUP_DEAL


def draw_blitz(game: GameContext, pos: Position, source: int, target: int, stop_at: int, attacker: int) -> None:
    """Resolve a blitz from ``source`` on ``target`` at once: draw it, move the generator on, end it.

    The one transition of a blitz drawn from the position's generator, for
    :func:`resolve_chance` at a ``BLITZ`` node and for the play loop of
    :mod:`riskmath.sim`, which declares and resolves a blitz without passing
    through the node: the generator's next number draws the battle
    (:func:`~riskmath.game.chance.battle`, exactly the distribution the node
    lists), the generator moves one step on (as applying any outcome does), and
    :func:`end_blitz` applies the outcome.
    """
    rng = pos.rng
    pos.rng, z = step(rng)
    armies = pos.armies
    outcome = battle(game, armies[source] - 1, armies[target], stop_at, (z >> 11) * UNIT, rng)
    end_blitz(game, pos, source, target, attacker, outcome.attackers_left, outcome.defenders_left)


def resolve_chance(game: GameContext, pos: Position) -> None:
    """Sample and apply chance outcomes in place until a decision node or the end (``auto_chance``)."""
    while is_chance(game, pos):
        if pos.phase is BLITZ:
            assert pos.pending is not None
            _, source, target, stop_at, attacker, _ = pos.pending
            draw_blitz(game, pos, source, target, stop_at, attacker)
        else:
            apply_outcome(game, pos, sample_outcome(game, pos))
