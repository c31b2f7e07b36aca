"""What actions and chance outcomes do to a state (private; the rules of play).

Every function here mutates the state it is given: a *fresh copy* made by
:meth:`GameState.apply`, or the private state that :func:`riskmath.play`
changes in place (``riskmath.game.chance``); the caller has already checked
legality (or asked not to, for actions known to be legal).  The comments cite
the rule each step implements (1993 US rules unless an option says
otherwise).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from riskmath.game.actions import DrawCard, FirstPlayer, PlaceArmies, RollOutcome
from riskmath.game.cards import has_set
from riskmath.game.missions import mission_complete

if TYPE_CHECKING:
    from riskmath.game.game import Game
    from riskmath.game.state import GameState


@functools.lru_cache(maxsize=256)
def deal_schedule(game: Game, first: int) -> tuple[int, ...]:
    """Owner of each dealt territory card, in dealing order.

    Cards go round the table starting with the first player, skipping owners
    whose share is full: an even deal among the players (4 or 5 players: the
    first two get one more), three piles of 14 with a neutral (1993 two-player
    game), or 9 + 9 + 4 x 6 with four neutrals (2003).
    """
    n = len(game.board)
    # The article's neutral (claimed set-up) is dealt like the 1993 one when the territories are dealt or
    # assigned at random: three piles of 14.  (Fix: an even deal to the two players left the neutral nothing.)
    if game.two_player in ("neutral_1993", "neutral_article"):
        owners = [first, 1 - first, game.players]
        quotas = [n // 3 + (i < n % 3) for i in range(3)]
    elif game.two_player == "neutrals_2003":
        owners = [first, 1 - first, *range(game.players, game.owners)]
        neutral_share = (n - 18) // 4
        quotas = [9, 9] + [neutral_share] * 3 + [n - 18 - 3 * neutral_share]
    else:
        owners = [(first + k) % game.players for k in range(game.players)]
        quotas = [n // game.players + (k < n % game.players) for k in range(game.players)]
    schedule: list[int] = []
    left = quotas[:]
    while len(schedule) < n:
        for i, owner in enumerate(owners):
            if left[i] > 0:
                schedule.append(owner)
                left[i] -= 1
    return tuple(schedule)


def _claiming(game: Game) -> bool:
    return game.rules.setup == "claim" and game.two_player not in ("neutral_1993", "neutrals_2003")


# -- set-up -----------------------------------------------------------------------------


def _begin_placement(s: GameState, player: int) -> None:
    """Start placing the remaining starting armies, from ``player`` round the table."""
    s._phase = s._phase.__class__.SETUP_PLACE
    s._player = player
    if s.game.rules.starting_armies_rule == "territories_dealt":  # 1959: one army per territory, no more
        for p in range(s.game.players):
            s._setup_left[p] = 0
    _queue_placements(s)


# Set-up armies a player places a turn (with the neutrals' after them), by two-player variant; else 1.
_PER_TURN = {"neutral_1993": 2, "neutrals_2003": 3}


def _queue_placements(s: GameState) -> None:
    """Fill the queue of placements for the current player's set-up turn, moving on when empty."""
    game = s.game
    for _ in range(game.players + 1):
        if sum(s._setup_left) == 0:
            _finish_setup(s)
            return
        p = s._player
        queue: list[tuple[int, int]] = []
        per_turn = _PER_TURN.get(game.two_player, 1)
        if s._setup_left[p] > 0:
            queue.append((p, min(per_turn, s._setup_left[p])))
        if game.two_player in ("neutral_1993", "neutrals_2003"):
            queue += [(o, 1) for o in range(game.players, game.owners) if s._setup_left[o] > 0]
        queue = [(o, k) for o, k in queue if _has_room(s, o)]
        if queue:
            s._queue = queue
            return
        for o in range(game.owners):  # nobody in the queue can place: their armies are lost to the caps
            if not _has_room(s, o):
                s._setup_left[o] = 0
        s._player = (p + 1) % game.players
    _finish_setup(s)


def _has_room(s: GameState, owner: int) -> bool:
    cap, armies = s.game.setup_cap, s._armies
    return any(o == owner and armies[t] < cap for t, o in enumerate(s._owner))


def _place_setup(s: GameState, t: int, k: int) -> None:
    owner, due = s._queue[0]
    s._armies[t] += k
    s._setup_left[owner] -= k
    if due - k > 0 and _has_room(s, owner):
        s._queue[0] = (owner, due - k)
    else:
        if due - k > 0:
            s._setup_left[owner] = 0
        s._queue.pop(0)
    if not s._queue:
        s._player = (s._player + 1) % s.game.players
        _queue_placements(s)


def _finish_setup(s: GameState) -> None:
    Phase = s._phase.__class__
    game = s.game
    s._queue = []
    if game.rules.capital != "none" and len(s._capitals) < game.players:
        s._phase = Phase.SETUP_CAPITAL
        s._player = (s._first + len(s._capitals)) % game.players
        return
    # The wild cards go back in and the deck is shuffled; headquarters cards stay out (Capital RISK, 1993).
    s._deck = [card for card in game.full_deck if card not in _hq_cards(s)]
    _start_turn(s, s._first)


def _hq_cards(s: GameState) -> set[str]:
    names = s.game.board.territories
    return {names[t] for t in s._capitals}


# -- turns ----------------------------------------------------------------------------------


def _start_turn(s: GameState, player: int) -> None:
    Phase = s._phase.__class__
    game = s.game
    if game.max_turns is not None and s._turn >= game.max_turns:
        s._phase, s._player = Phase.GAME_OVER, -1  # a draw
        return
    s._turn += 1
    s._player = player
    s._phase = Phase.REINFORCE
    s._pool = s.reinforcements(player)
    s._bonus_taken = 0
    s._captured = False
    s._bonus = {}
    s._moved = []
    if game.rules.mission_check == "own_turn" and _check_missions(s, only=player):
        return
    if s._pool == 0 and _holds_set(s):
        # Without a minimum (Risiko) a turn can start with nothing to place: the player may still trade a
        # set, or end the reinforcement with EndPhase.  (With a minimum of 3 this never happens.)
        return
    _after_placement(s)


def _holds_set(s: GameState) -> bool:
    hand = [s.game.cards[c] for c in s._hands[s._player]]
    return len(hand) >= 3 and has_set(hand)


def _after_placement(s: GameState) -> None:
    """Leave REINFORCE / TRADE_DOWN once nothing is left to place or trade."""
    Phase = s._phase.__class__
    rules = s.game.rules
    if s._pool > 0:
        player, armies, cap = s._player, s._armies, s.game.cap
        for t, owner in enumerate(s._owner):
            if owner == player and armies[t] < cap:
                return
        s._pool = 0  # the caps leave nowhere to put them: they are lost (1993 experts rule)
    hand = len(s._hands[s._player])
    if s._phase is Phase.REINFORCE:
        if rules.forced_trade_at is None or hand < rules.forced_trade_at:
            s._phase = Phase.ATTACK
    elif s._phase is Phase.TRADE_DOWN and hand <= rules.elimination_trade_to:
        s._trade_down = False
        s._phase = Phase.ATTACK


def _end_turn(s: GameState) -> None:
    Phase = s._phase.__class__
    rules = s.game.rules
    if s._captured:
        if not s._deck and rules.deck_recycle:
            s._deck, s._discard = s._discard, []  # the traded cards are shuffled into a new deck
        if s._deck:
            s._phase = Phase.DRAW
            return
    _next_turn(s)


def _next_turn(s: GameState) -> None:
    players = s.game.players
    p = s._player
    for step in range(1, players + 1):
        candidate = (p + step) % players
        if s._alive[candidate]:
            _start_turn(s, candidate)
            return


def _trade(s: GameState, cards: tuple[str, ...]) -> None:
    game, rules, player = s.game, s.game.rules, s._player
    hand = s._hands[player]
    for card in cards:
        hand.remove(card)
    s._discard.extend(cards)
    s._sets_traded += 1
    s._pool += rules.set_values.value(s._sets_traded, [game.cards[c] for c in cards])
    owned = [game.index[c] for c in cards if c in game.index and s._owner[game.index[c]] == player]
    if rules.territory_card_bonus == "plus2_once_per_turn" and owned and s._bonus_taken == 0:
        owned = owned[:1]  # 1993: +2 on one such territory, at most once a turn
    elif rules.territory_card_bonus != "plus2_per_matching_territory":
        owned = []
    for t in owned:  # the 2 armies must go on that territory: place them at once
        extra = min(2, s._room(t))
        s._armies[t] += extra
        s._bonus_taken += 2


def _capture(s: GameState, source: int, target: int, least: int) -> None:
    game = s.game
    attacker = s._player
    victim = s._owner[target]
    s._owner[target] = attacker
    s._captured = True
    s._occupy = (source, target, least)
    s._phase = s._phase.__class__.OCCUPY
    if victim < game.players and victim not in s._owner:
        rules = game.rules
        s._alive[victim] = False
        s._killed_by[victim] = attacker
        s._hands[attacker].extend(s._hands[victim])
        s._hands[victim] = []
        if rules.elimination_trade_at is not None and len(s._hands[attacker]) >= rules.elimination_trade_at:
            s._trade_down = True
        if sum(s._alive) == 1:
            _win(s, attacker)


def _win(s: GameState, player: int) -> None:
    Phase = s._phase.__class__
    if s._occupy is not None:  # the last capture still moves in its minimum
        source, target, least = s._occupy
        s._armies[source] -= least
        s._armies[target] += least
        s._occupy = None
    s._pending = None
    s._winner = player
    s._phase = Phase.GAME_OVER
    s._player = -1


def _missions_now(s: GameState) -> bool:
    """Whether missions win the moment they are complete.

    Fix: placing armies (reinforcements, the territory-card bonus) and fortifying can complete "occupy 18
    territories with at least 2 armies each"; with ``mission_check="immediate"`` that wins at once, as a
    completion by a capture does (before, these moves were not checked until the next capture).
    """
    rules = s.game.rules
    return rules.missions != "none" and rules.mission_check == "immediate"


def _check_missions(s: GameState, only: int | None = None) -> bool:
    """Declare a winner if a mission or the capitals decide the game."""
    game = s.game
    if s._phase.value == "game_over":
        return True
    if game.rules.missions != "none" and len(s._missions) == game.players:
        order = [only] if only is not None else [(s._player + k) % game.players for k in range(game.players)]
        for p in order:
            if s._alive[p] and mission_complete(s, p):
                _win(s, p)
                return True
    if game.rules.capital != "none" and len(s._capitals) == game.players:
        needed = game.players - 1
        if game.rules.capital == "short":
            needed = {4: 2, 5: 3, 6: 3}.get(game.players, needed)
        for p in range(game.players):
            if not s._alive[p] or s._owner[s._capitals[p]] != p:
                continue
            held = sum(1 for q, hq in enumerate(s._capitals) if q != p and s._owner[hq] == p)
            if held >= needed:
                _win(s, p)
                return True
    return False


# -- decisions --------------------------------------------------------------------------------


def apply_action(s: GameState, checked: tuple[Any, ...]) -> None:
    Phase = s._phase.__class__
    game, rules = s.game, s.game.rules
    kind = checked[0]
    phase = s._phase
    # The commonest first: a simulated turn is mostly blitz, occupy, blitz, occupy ...
    if kind == "blitz":
        _, source, target, stop_at = checked
        s._pending = ("blitz", source, target, stop_at, s._player, None)
        s._phase = Phase.BLITZ
    elif kind == "occupy":
        occupy(s, checked[1])
    elif kind == "end":
        if phase is Phase.REINFORCE:  # nothing to place and no wish to trade (see _start_turn)
            s._phase = Phase.ATTACK
        elif phase is Phase.ATTACK and rules.fortify != "none":
            s._phase = Phase.FORTIFY
        else:
            _end_turn(s)
    elif kind == "place":
        _, t, k = checked
        if phase is Phase.SETUP_CLAIM:
            _claim(s, t)
        elif phase is Phase.SETUP_PLACE:
            _place_setup(s, t, k)
        else:  # REINFORCE or TRADE_DOWN
            s._armies[t] += k
            s._pool -= k
            if _missions_now(s) and _check_missions(s):
                return
            _after_placement(s)
    elif kind == "trade":
        _trade(s, checked[1])
        if _missions_now(s) and _check_missions(s):  # the territory bonus places armies too
            return
        _after_placement(s)
    elif kind == "attack":
        _, source, target, dice = checked
        defender = s._owner[target]
        if game.defender_decides:
            chooser = defender if defender < game.players else 1 - s._player if game.players == 2 else -1
            if chooser >= 0:
                s._pending = ("attack", source, target, dice, s._player, None)
                s._phase, s._player = Phase.DEFEND, chooser
                return
        defence = min(rules.combat.defender_max_dice, s._armies[target])
        s._pending = ("attack", source, target, dice, s._player, defence)
        s._phase = Phase.ROLL
    elif kind == "defend":
        assert s._pending is not None
        s._pending = (*s._pending[:5], checked[1])
        s._player = s._pending[4]
        s._phase = Phase.ROLL
    elif kind == "fortify":
        _, source, target, k = checked
        s._armies[source] -= k
        s._armies[target] += k
        if _missions_now(s) and _check_missions(s):
            return
        if rules.fortify == "experts":
            s._moved += [source, target]  # each territory moves armies (out or in) once a turn
        else:
            _end_turn(s)
    elif kind == "pile":
        _take_pile(s, checked[1], s._player)
        left = set(s._piles) - {-1}
        if len(left) == 1:  # the last pile is the neutral's
            _take_pile(s, left.pop(), game.players)
            s._piles = []
            _begin_placement(s, s._first)
        else:
            s._player = 1 - s._player
    elif kind == "capital":
        s._capitals.append(checked[1])
        if len(s._capitals) < game.players:
            s._player = (s._first + len(s._capitals)) % game.players
        else:
            # Fix: the choices were made from the first player round the table; once all are in, index them by
            # player (GameState.capital and the win check read capitals[player]).
            chosen = s._capitals
            s._capitals = [chosen[(p - s._first) % game.players] for p in range(game.players)]
            _finish_setup(s)


def end_blitz(s: GameState, source: int, target: int, attacker: int, left: int, defenders_left: int) -> None:
    """A blitz from ``source`` ends with ``left`` armies able to attack and ``defenders_left`` in ``target``."""
    s._armies[source] = left + 1
    s._armies[target] = defenders_left
    s._pending = None
    s._player = attacker
    if defenders_left == 0:
        # The capturing roll cost the attacker nothing, so it threw min(3, armies left) dice.
        game = s.game
        _capture(s, source, target, min(game.attacker_dice, left) if game.occupy_dice_rolled else 1)
        if game.decided_by_captures:
            _check_missions(s)
    else:
        s._phase = s._phase.__class__.ATTACK


def occupy(s: GameState, armies: int) -> None:
    """Move ``armies`` into the territory just captured (the ``Occupy`` decision)."""
    assert s._occupy is not None
    source, target, _ = s._occupy
    s._armies[source] -= armies
    s._armies[target] += armies
    s._occupy = None
    s._phase = s._phase.__class__.TRADE_DOWN if s._trade_down else s._phase.__class__.ATTACK
    if s.game.decided_by_captures:
        _check_missions(s)


def _take_pile(s: GameState, pile: int, owner: int) -> None:
    for t, k in enumerate(s._piles):
        if k == pile:
            s._owner[t] = owner
            s._armies[t] = 1
            s._setup_left[owner] -= 1
            s._piles[t] = -1


def _claim(s: GameState, t: int) -> None:
    game = s.game
    p = s._player
    s._owner[t] = p
    s._armies[t] = 1
    s._setup_left[p] -= 1
    claimed = len(s._owner) - s._owner.count(-1)
    if game.two_player == "neutral_article" and claimed == 2 * (len(s._owner) // 3):
        for u in range(len(s._owner)):  # the article's 1975 rule: the rest is neutral, 2 armies each
            if s._owner[u] < 0:
                s._owner[u] = game.players
                s._armies[u] = 2
        s._setup_left[game.players] = 0
        _begin_placement(s, s._first)
    elif claimed == len(s._owner):
        _begin_placement(s, (p + 1) % game.players)
    else:
        s._player = (p + 1) % game.players


# -- chance ---------------------------------------------------------------------------------


def apply_outcome(s: GameState, outcome: Any) -> None:
    Phase = s._phase.__class__
    game = s.game
    phase = s._phase
    if phase is Phase.BLITZ:  # a BattleOutcome (checked by apply, or drawn)
        assert s._pending is not None
        _, source, target, _, attacker, _ = s._pending
        end_blitz(s, source, target, attacker, outcome.attackers_left, outcome.defenders_left)
    elif phase is Phase.ROLL:
        assert isinstance(outcome, RollOutcome)
        assert s._pending is not None
        _, source, target, dice, attacker, _ = s._pending
        s._armies[source] -= outcome.attacker_losses
        s._armies[target] -= outcome.defender_losses
        s._pending = None
        s._player = attacker
        if s._armies[target] == 0:
            _capture(s, source, target, dice if game.occupy_dice_rolled else 1)
            if game.decided_by_captures:
                _check_missions(s)
        else:
            s._phase = Phase.ATTACK
    elif phase is Phase.DRAW:
        assert isinstance(outcome, DrawCard)
        s._deck.remove(outcome.card)
        s._hands[s._player].append(outcome.card)
        _next_turn(s)
    elif phase is Phase.SETUP_ORDER:
        rules = game.rules
        assert isinstance(outcome, FirstPlayer)
        s._first = outcome.player
        s._player = outcome.player
        if rules.missions != "none":  # 1993 Secret Mission: missions are dealt before the territories
            s._phase, s._player = Phase.SETUP_MISSION, -1
        else:
            s._phase = Phase.SETUP_CLAIM if _claiming(game) else Phase.SETUP_DEAL
    elif phase is Phase.SETUP_DEAL and game.two_player == "neutral_1993":
        rules = game.rules
        # 1993 two-player game: the cards are dealt into three piles of 14; the players then choose piles.
        assert isinstance(outcome, DrawCard)
        if not s._piles:
            s._piles = [-1] * len(s._owner)
        s._piles[game.index[outcome.card]] = s._dealt % 3
        s._deck.remove(outcome.card)
        s._dealt += 1
        if s._dealt == len(s._owner):
            s._phase, s._player = Phase.SETUP_PILE, s._first
            if rules.setup == "random":  # a random set-up leaves nothing to choose: piles in dealing order
                _take_pile(s, 0, s._first)
                _take_pile(s, 1, 1 - s._first)
                _take_pile(s, 2, game.players)
                s._piles = []
                _begin_placement(s, s._first)
    elif phase is Phase.SETUP_DEAL:
        assert isinstance(outcome, DrawCard)
        owner = deal_schedule(game, s._first)[s._dealt]
        t = game.index[outcome.card]
        s._deck.remove(outcome.card)
        s._owner[t] = owner
        # The article's neutral territories hold 2 armies each (28 in all), as in the claimed set-up.
        s._armies[t] = 2 if owner >= game.players and game.two_player == "neutral_article" else 1
        s._setup_left[owner] -= s._armies[t]
        s._dealt += 1
        if s._dealt == len(s._owner):
            _begin_placement(s, s._first)
    elif phase is Phase.SETUP_PLACE:  # random set-up
        assert isinstance(outcome, PlaceArmies)
        _place_setup(s, game.index[outcome.territory], outcome.armies)  # type: ignore[index]
    elif phase is Phase.SETUP_MISSION:
        assert isinstance(outcome, DrawCard)
        s._missions.append(outcome.card)
        if len(s._missions) == game.players:
            s._player = s._first
            s._phase = Phase.SETUP_CLAIM if _claiming(game) else Phase.SETUP_DEAL
