"""Positions set up by hand: who holds what, with how many armies and which cards (``Game.position``).

:func:`build_position` is the logic behind :meth:`riskmath.Game.position`:
it checks a description of a board (owners and armies by territory, hands of
cards, sets traded so far) and returns the position at the start of a player's
turn, exactly as the engine would have it there (armies to place, a forced
trade with too many cards, a mission won on one's own turn).  Every
inconsistency is refused with an :class:`~riskmath.errors.InvalidArgumentError`
naming the bad value; the position it returns passes the save-file checks of
``riskmath.game.serialize`` (which are run on it as a last safety net).
"""

from __future__ import annotations

import numbers
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from riskmath._validation import check_int, is_sequence, shown
from riskmath.errors import BoardError, InvalidArgumentError, StateError
from riskmath.game.cards import WILD
from riskmath.game.chance import MASK
from riskmath.game.context import GameContext
from riskmath.game.missions import missions_for
from riskmath.game.phase import Phase
from riskmath.game.position import (
    Capture,
    Position,
    cards_in_play,
    headquarters_cards,
    most_cards,
    room,
    trade_forced,
)
from riskmath.game.serialize import BIG, problems
from riskmath.game.transitions import queue_placements, start_turn_at

__all__ = ["PHASES", "build_position"]

#: The decisions ``Game.position`` builds a position at: a turn's start, its attack, occupation and
#: fortification, and the set-up's claim and placement.
PHASES = (Phase.REINFORCE, Phase.ATTACK, Phase.OCCUPY, Phase.FORTIFY, Phase.SETUP_CLAIM, Phase.SETUP_PLACE)
#: The set-up decisions by their short names (``phase="claim"``, ``phase="place"``).
SETUP_NAMES = {"claim": Phase.SETUP_CLAIM, "place": Phase.SETUP_PLACE}


def _territory(game: GameContext, key: object, where: str) -> int:
    try:
        return game.board.index(key)  # type: ignore[arg-type]
    except BoardError as error:
        raise InvalidArgumentError(f"{where}: {error}") from None


def _by_territory(game: GameContext, values: object, where: str) -> dict[int, tuple[object, object]]:
    """``values`` (territory -> value) by territory id, with the key as given; unknown or repeated keys refused."""
    if not isinstance(values, Mapping):
        raise InvalidArgumentError(f"{where} must be a mapping of territory to value, got {shown(values)}")
    found: dict[int, tuple[object, object]] = {}
    names = game.board.territories
    for key, value in values.items():
        t = _territory(game, key, where)
        if t in found:
            raise InvalidArgumentError(
                f"{where} names {names[t]} twice (as {found[t][0]!r} and {key!r}; aliases name the same territory)"
            )
        found[t] = (key, value)
    return found


def _integer(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _player(game: GameContext, value: object, name: str) -> int:
    if not _integer(value) or not 0 <= int(value) < game.players:  # type: ignore[call-overload]
        raise InvalidArgumentError(f"{name} must be a player id in 0..{game.players - 1}, got {shown(value)}")
    return int(value)  # type: ignore[call-overload, no-any-return]


def _board(
    game: GameContext, owners: object, armies: object, emptied: int = -1, claiming: bool = False
) -> tuple[list[int], list[int]]:
    """The owner and the armies of every territory, checked (``emptied``: the capture's target, 0 armies).

    With ``claiming`` (the claim of the set-up) territories may be left out: unclaimed, owner -1 and 0 armies.
    """
    names, n = game.board.territories, len(game.board)
    owned = _by_territory(game, owners, "owners")
    missing = [names[t] for t in range(n) if t not in owned]
    unclaimed: set[int] = set()
    if claiming:
        unclaimed = {t for t in range(n) if t not in owned}
        extra = [names[t] for t in _by_territory(game, armies, "armies") if t in unclaimed]
        if extra:
            raise InvalidArgumentError(f"armies names {', '.join(extra[:5])}, not in owners (unclaimed: no armies)")
        owned |= {t: (names[t], 0) for t in unclaimed}
        armies = {**{names[t]: 0 for t in unclaimed}, **armies}  # type: ignore[dict-item]
        missing = []
    if missing:
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise InvalidArgumentError(
            f"owners has no owner for {', '.join(missing[:5])}{more} (every territory needs one)"
        )
    counts = _by_territory(game, armies, "armies")
    if counts.keys() != owned.keys():
        missing = [names[t] for t in range(n) if t not in counts]
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise InvalidArgumentError(
            f"owners and armies name different territories: armies has none for {', '.join(missing[:5])}{more}"
        )
    owner_ids, army_counts = [], []
    last = game.owners - 1
    for t in range(n):
        if t in unclaimed:
            owner_ids.append(-1)
            army_counts.append(0)
            continue
        key, who = owned[t]
        if not _integer(who) or not 0 <= int(who) <= last:  # type: ignore[call-overload]
            kinds = f"players 0..{game.players - 1}" + (f", neutrals {game.players}..{last}" if game.neutrals else "")
            raise InvalidArgumentError(f"owners[{key!r}] is {shown(who)}, not an owner id ({kinds})")
        key, count = counts[t]
        if claiming:
            if count != 1 or not _integer(count):
                raise InvalidArgumentError(f"armies[{key!r}] is {shown(count)}: a claimed territory holds 1 army")
        elif t == emptied:
            if count != 0 or not _integer(count):
                raise InvalidArgumentError(
                    f"armies[{key!r}] is {shown(count)}: the territory just captured (occupy) is empty, 0 armies"
                )
        elif not _integer(count) or not 1 <= int(count) <= game.cap:  # type: ignore[call-overload]
            why = "" if game.cap < 10**9 else " (10**9 when the rules set no cap)"
            raise InvalidArgumentError(
                f"armies[{key!r}] is {shown(count)}: a territory holds 1 to {game.cap} armies (an integer){why}"
            )
        owner_ids.append(int(who))  # type: ignore[call-overload]
        army_counts.append(int(count))  # type: ignore[call-overload]
    return owner_ids, army_counts


def _card_name(game: GameContext, card: object, where: str) -> str:
    """The canonical name of ``card`` (a territory's name or alias, or ``"wild"``); ``where`` names the argument."""
    if isinstance(card, str) and card.strip().lower() == WILD:
        return WILD
    if not isinstance(card, str):
        raise InvalidArgumentError(f"{where}: a card is a territory name or 'wild', got {shown(card)}")
    try:
        return game.board.name_of(card)
    except BoardError as error:
        raise InvalidArgumentError(f"{where}: unknown card {card!r} ({error})") from None


def _hands(game: GameContext, cards: object, headquarters: set[str], trader: int = -1) -> list[list[str]]:
    """Every player's hand (canonical card names), checked against the deck; ``trader`` (if a player) is trading
    down the cards of a player it has just eliminated, and may hold more."""
    hands: list[list[str]] = [[] for _ in range(game.players)]
    if cards is None:
        return hands
    if not isinstance(cards, Mapping):
        raise InvalidArgumentError(f"cards must be a mapping of player to a list of card names, got {shown(cards)}")
    if game.rules.cards == "none" and any(is_sequence(hand) and len(hand) for hand in cards.values()):
        raise InvalidArgumentError(f"cards given, but these rules play without cards (cards='none'): {shown(cards)}")
    holder: dict[str, int] = {}
    deck = Counter(game.full_deck)
    for key, hand in cards.items():
        player = _player(game, key, "a key of cards")
        if not is_sequence(hand):
            raise InvalidArgumentError(f"cards[{player}] must be a list of card names, got {shown(hand)}")
        if len(hand) > len(game.full_deck):
            raise InvalidArgumentError(f"cards[{player}] holds {len(hand)} cards; the deck has {len(game.full_deck)}")
        for card in hand:
            name = _card_name(game, card, f"cards[{player}]")
            if name in headquarters:
                raise InvalidArgumentError(
                    f"cards[{player}]: the card {name} is a headquarters' card, out of the deck in Capital RISK"
                )
            if name != WILD and name in holder:
                other = holder[name]
                where = "twice in that hand" if other == player else f"also in the hand of player {other}"
                raise InvalidArgumentError(f"cards[{player}]: the card {name} is {where} (the deck has one)")
            holder[name] = player
            hands[player].append(name)
    wilds = sum(hand.count(WILD) for hand in hands)
    if wilds > deck[WILD]:
        raise InvalidArgumentError(f"cards: {wilds} wild cards in the hands, but the deck has {deck[WILD]}")
    rules = game.rules
    for player, hand in enumerate(hands):
        most = most_cards(game, trading_down=player == trader)  # a saved state's limit too
        if most is not None and len(hand) > most:
            raise InvalidArgumentError(
                f"cards[{player}] holds {len(hand)} cards, more than the rules allow ({most}: forced_trade_at="
                f"{rules.forced_trade_at}, elimination_trade_at={rules.elimination_trade_at})"
            )
    return hands


def _missions(game: GameContext, missions: object) -> list[str]:
    deck = game.rules.missions
    if deck == "none":
        if missions is not None:
            raise InvalidArgumentError(f"missions given, but these rules have no secret missions: {shown(missions)}")
        return []
    cards = missions_for(deck, game.players)
    if not isinstance(missions, Mapping):
        raise InvalidArgumentError(
            f"Secret Mission RISK: pass missions={{player: mission}} for every player (missions are "
            f"{', '.join(cards)}), got {shown(missions)}"
        )
    chosen: dict[int, str] = {}
    for key, mission in missions.items():
        player = _player(game, key, "a key of missions")
        if mission not in cards:
            raise InvalidArgumentError(f"missions[{player}] is {shown(mission)}, not one of {', '.join(cards)}")
        chosen[player] = mission
    absent = [p for p in range(game.players) if p not in chosen]
    if absent:
        raise InvalidArgumentError(f"missions has none for player(s) {absent}: every player holds one")
    if len(set(chosen.values())) != len(chosen):
        raise InvalidArgumentError(f"missions {chosen} deal a mission card twice")
    return [chosen[p] for p in range(game.players)]


def _capitals(game: GameContext, capitals: object) -> list[int]:
    if game.rules.capital == "none":
        if capitals is not None:
            raise InvalidArgumentError(f"capitals given, but these rules have no headquarters: {shown(capitals)}")
        return []
    if not isinstance(capitals, Mapping):
        raise InvalidArgumentError(
            f"Capital RISK: pass capitals={{player: territory}} for every player, got {shown(capitals)}"
        )
    chosen: dict[int, int] = {}
    for key, territory in capitals.items():
        player = _player(game, key, "a key of capitals")
        chosen[player] = _territory(game, territory, f"capitals[{player}]")
    absent = [p for p in range(game.players) if p not in chosen]
    if absent:
        raise InvalidArgumentError(f"capitals has none for player(s) {absent}: every player has a headquarters")
    if len(set(chosen.values())) != len(chosen):
        raise InvalidArgumentError("capitals names a territory twice (each player's headquarters is its own)")
    return [chosen[p] for p in range(game.players)]


def _phase(value: object) -> Phase:
    if isinstance(value, str) and not isinstance(value, Phase):
        name = value.strip().lower()
        value = SETUP_NAMES.get(name) or next((p for p in PHASES if p.value == name), value)
    if value not in PHASES:
        choices = ", ".join([*(repr(p.value) for p in PHASES[:4]), *map(repr, SETUP_NAMES)])
        raise InvalidArgumentError(f"phase must be one of {choices} (or those Phase members), got {shown(value)}")
    return Phase(value)


def _capture(game: GameContext, occupy: object, phase: Phase) -> tuple[int, int, object] | None:
    """The capture (source, target, least as given) of ``occupy``, given exactly in the ``OCCUPY`` phase."""
    if phase is not Phase.OCCUPY:
        if occupy is not None:
            raise InvalidArgumentError(f"occupy given, but phase is {phase.value!r}, not 'occupy': {shown(occupy)}")
        return None
    if not is_sequence(occupy) or len(occupy) not in (2, 3):
        raise InvalidArgumentError(
            f"phase 'occupy' needs occupy=(from, to) or (from, to, least): the attacking territory, the one just "
            f"captured (emptied: 0 armies) and the fewest armies that must move in (default 1), got {shown(occupy)}"
        )
    parts = list(occupy)
    source = _territory(game, parts[0], "occupy[0] (the attacking territory)")
    target = _territory(game, parts[1], "occupy[1] (the territory just captured)")
    return source, target, parts[2] if len(parts) == 3 else 1


def _enter_phase(
    game: GameContext, pos: Position, phase: Phase, captured: object, capture: tuple[int, int, object] | None
) -> None:
    """Move a position at the start of a turn on to ``phase``: armies placed, the attack or fortification begun."""
    if not isinstance(captured, bool):
        raise InvalidArgumentError(f"captured must be True or False, got {shown(captured)}")
    if phase is Phase.REINFORCE:
        if captured:
            raise InvalidArgumentError("captured=True, but phase 'reinforce' starts the turn: nothing captured yet")
        return
    if pos.phase is Phase.GAME_OVER:  # a mission or the headquarters decided the game already
        if capture is not None:
            raise InvalidArgumentError(
                f"occupy: the board already decides the game (player {pos.winner} wins), so no occupation follows"
            )
        return
    pos.phase, pos.pool, pos.captured = phase, 0, captured
    if capture is not None:
        source, target, least = capture
        if not captured:
            raise InvalidArgumentError("captured=False, but phase 'occupy' follows a capture (pass captured=True)")
        least = check_int("occupy[2] (the fewest armies to move in)", least, minimum=1, maximum=BIG)
        pos.occupy = Capture(source, target, least)


def _moved(game: GameContext, moved: object, phase: Phase, owner: list[int], player: int) -> list[int]:
    """The territories armies already moved out of or into this turn (the experts' fortification), as ids."""
    if moved is None:
        return []
    if phase is not Phase.FORTIFY or game.rules.fortify != "experts":
        raise InvalidArgumentError(
            f"moved is for phase 'fortify' under the experts' fortification (Rules(fortify='experts')), "
            f"not phase {phase.value!r} with fortify={game.rules.fortify!r}"
        )
    if isinstance(moved, (str, bytes)) or not isinstance(moved, Iterable):
        raise InvalidArgumentError(f"moved must be a collection of territories, got {shown(moved)}")
    ids = [_territory(game, t, "moved") for t in moved]
    names = game.board.territories
    for k, t in enumerate(ids):
        if t in ids[:k]:
            raise InvalidArgumentError(f"moved names {names[t]} twice (one move per territory and turn)")
        if owner[t] != player:
            raise InvalidArgumentError(
                f"moved names {names[t]}, which is not current_player {player}'s: armies move only between its own"
            )
    return ids


def _set_pool(game: GameContext, pos: Position, pool: object) -> None:
    """The reinforcement under way: ``pool`` armies still to place (some placed, or a set traded, already)."""
    pos.pool = check_int("pool", pool, minimum=0, maximum=BIG)
    pos.phase = Phase.REINFORCE  # (the start of the turn may have moved on: its income had nowhere to go)
    if pos.pool == 0 and not trade_forced(game, pos):
        raise InvalidArgumentError(
            "pool=0 at phase 'reinforce' with no trade forced: the reinforcement is over once nothing is left to "
            "place or trade (build phase 'attack')"
        )
    if pos.pool and not any(room(game, pos, t) for t, owner in enumerate(pos.owner) if owner == pos.player):
        raise InvalidArgumentError(
            f"pool={pos.pool}, but every territory of player {pos.player} is at the cap of {game.cap} armies: "
            "nowhere to place them (the engine drops them and goes on to 'attack')"
        )


def _discard(game: GameContext, discard: object, deck: list[str]) -> list[str]:
    """The discard pile (canonical card names, in the order given), taken out of ``deck``, the cards in no hand."""
    if discard is None:
        return []
    if not is_sequence(discard):
        raise InvalidArgumentError(f"discard must be a list of card names, got {shown(discard)}")
    if game.rules.cards == "none" and len(discard):
        raise InvalidArgumentError(
            f"discard given, but these rules play without cards (cards='none'): {shown(discard)}"
        )
    pile = []
    for card in discard:
        name = _card_name(game, card, "discard")
        if name not in deck:
            raise InvalidArgumentError(
                f"discard: the card {name} is not in the draw pile to discard (it is in a hand, given twice or, "
                "a headquarters' card, out of the deck)"
            )
        deck.remove(name)
        pile.append(name)
    return pile


def _armies_left(game: GameContext, armies_left: object) -> list[int]:
    """The set-up armies each owner (players, then neutrals) has left to place; owners left out have none."""
    if not isinstance(armies_left, Mapping):
        raise InvalidArgumentError(
            f"phase 'place' needs armies_left={{owner: armies still to place}} (players 0..{game.players - 1}"
            + (f", neutrals {game.players}..{game.owners - 1}" if game.neutrals else "")
            + f"), got {shown(armies_left)}"
        )
    left = [0] * game.owners
    for key, value in armies_left.items():
        if not _integer(key) or not 0 <= int(key) < game.owners:
            raise InvalidArgumentError(f"a key of armies_left is {shown(key)}, not an owner id in 0..{game.owners - 1}")
        most = game.starting_armies[int(key)]
        left[int(key)] = check_int(f"armies_left[{key}]", value, minimum=0, maximum=most)
    return left


def _build_setup(
    game: GameContext,
    phase: Phase,
    owners: object,
    armies: object,
    player: int,
    first: object,
    armies_left: object,
    missions: object,
    rng: int,
) -> Position:
    """A position at a set-up decision: the claim (some territories unclaimed) or the placement of armies."""
    rules, n, players = game.rules, len(game.board), game.players
    claiming = phase is Phase.SETUP_CLAIM
    if claiming and not game.claiming:
        raise InvalidArgumentError(
            f"phase 'claim': these rules deal the territories (setup={rules.setup!r}, "
            f"two_player={rules.two_player!r} with {players} players), nobody claims them"
        )
    if not claiming and rules.starting_armies_rule == "territories_dealt":
        raise InvalidArgumentError(
            "phase 'place': under starting_armies_rule='territories_dealt' no armies are placed in the set-up"
        )
    owner, army = _board(game, owners, armies, claiming=claiming)
    start = _player(game, player if first is None else first, "first")
    if claiming:
        if armies_left is not None:
            raise InvalidArgumentError(
                f"armies_left given at phase 'claim': the armies left follow from the claims, got {shown(armies_left)}"
            )
        claimed = n - owner.count(-1)
        if any(o >= players for o in owner):
            raise InvalidArgumentError("phase 'claim': a neutral holds territory, but neutrals claim nothing")
        if claimed >= game.claimed_by_players:
            raise InvalidArgumentError(
                f"phase 'claim': {claimed} territories are claimed, every one the players claim "
                "(build phase='place' for the placements that follow)"
            )
        if first is None:
            start = (player - claimed) % players
        for p in range(players):
            due = sum(1 for i in range(claimed) if (start + i) % players == p)
            if owner.count(p) != due:
                raise InvalidArgumentError(
                    f"phase 'claim': player {p} has claimed {owner.count(p)} territories, but claims go round the "
                    f"table one at a time from the first player {start}, so {due} after {claimed} claims"
                )
        if (start + claimed) % players != player:
            raise InvalidArgumentError(
                f"phase 'claim': after {claimed} claims from the first player {start}, player "
                f"{(start + claimed) % players} claims next, not current_player {player}"
            )
        left = list(game.starting_armies)
        for p in range(players):
            left[p] -= owner.count(p)
            if left[p] < 0:
                raise InvalidArgumentError(
                    f"phase 'claim': player {p} has claimed {owner.count(p)} territories, more than its "
                    f"{game.starting_armies[p]} starting armies"
                )
    else:
        left = _armies_left(game, armies_left)
        absent = [p for p in range(players) if p not in owner]
        if absent:
            raise InvalidArgumentError(f"phase 'place': player(s) {absent} hold no territory after the set-up's deal")
        if not sum(left):
            raise InvalidArgumentError(
                "phase 'place': armies_left has nothing left to place (the set-up is over: build the first turn "
                "with phase='reinforce')"
            )
        for o in range(game.owners):  # the set-up's armies are on the board or still to place: never more
            on_board = sum(a for a, who in zip(army, owner, strict=True) if who == o)
            if on_board + left[o] > game.starting_armies[o]:
                raise InvalidArgumentError(
                    f"phase 'place': owner {o} has {on_board} armies on the board and armies_left {left[o]}, "
                    f"more than the {game.starting_armies[o]} the set-up gives it in all"
                )
    deck = list(game.territory_cards) if game.claiming else []
    pos = Position.initial(n, players, deck=deck, setup_left=left, rng=rng)
    pos.owner, pos.armies = owner, army
    pos.first, pos.player, pos.phase = start, player, phase
    pos.missions = _missions(game, missions)
    if not claiming:
        if not game.claiming:
            pos.dealt = n
        queue_placements(game, pos)
    found = problems(game, pos)
    if found:
        raise InvalidArgumentError(f"no sound position at phase {phase.value!r}: " + "; ".join(found))
    return pos


def build_position(
    game: GameContext,
    owners: Mapping[Any, int],
    armies: Mapping[Any, int],
    *,
    current_player: int = 0,
    cards: Mapping[int, Sequence[str]] | None = None,
    sets_traded: int = 0,
    turn: int = 1,
    missions: Mapping[int, str] | None = None,
    capitals: Mapping[int, Any] | None = None,
    killed_by: Mapping[int, int] | None = None,
    seed: int | None = None,
    phase: object = Phase.REINFORCE,
    captured: object = False,
    occupy: object = None,
    first: object = None,
    armies_left: object = None,
    moved: object = None,
    trade_down: object = False,
    bonus_taken: object = 0,
    pool: object = None,
    discard: object = None,
) -> Position:
    """The position at the start of ``current_player``'s turn, or at a later decision of it, or in the set-up.

    See :meth:`riskmath.Game.position`.
    """
    chosen_phase = _phase(phase)
    if chosen_phase in SETUP_NAMES.values():
        defaults: dict[str, object] = {"cards": None, "sets_traded": 0, "turn": 1, "capitals": None, "killed_by": None}
        supplied: dict[str, object] = {"cards": cards, "sets_traded": sets_traded, "turn": turn, "capitals": capitals}
        supplied |= {"killed_by": killed_by, "captured": captured, "occupy": occupy, "moved": moved}
        supplied |= {"trade_down": trade_down, "bonus_taken": bonus_taken, "pool": pool, "discard": discard}
        defaults |= {"captured": False, "occupy": None, "moved": None, "trade_down": False, "bonus_taken": 0}
        defaults |= {"pool": None, "discard": None}
        wrong = [k for k, v in supplied.items() if not (v is defaults[k] or (type(v) is int and v == defaults[k]))]
        if wrong:
            raise InvalidArgumentError(
                f"{', '.join(wrong)} given at the set-up phase {chosen_phase.value!r}, where there is none yet "
                "(no cards, sets, turns, headquarters, eliminations, captures or reinforcements)"
            )
        player = _player(game, current_player, "current_player")
        rng = secrets.randbits(64) if seed is None else check_int("seed", seed, minimum=-(1 << 63), maximum=MASK) & MASK
        return _build_setup(game, chosen_phase, owners, armies, player, first, armies_left, missions, rng)
    for name, value in (("first", first), ("armies_left", armies_left)):
        if value is not None:
            raise InvalidArgumentError(
                f"{name} is for the set-up phases 'claim' and 'place', not {chosen_phase.value!r}"
            )
    if pool is not None and chosen_phase is not Phase.REINFORCE:
        raise InvalidArgumentError(
            f"pool is for phase 'reinforce' (the armies still to place), not {chosen_phase.value!r}, where nothing "
            f"is left to place: got pool={shown(pool)}"
        )
    capture = _capture(game, occupy, chosen_phase)
    owner, army = _board(game, owners, armies, -1 if capture is None else capture[1])
    player = _player(game, current_player, "current_player")
    alive = [p in owner for p in range(game.players)]
    if sum(alive) < 2:
        raise InvalidArgumentError(
            f"owners leaves {sum(alive)} player(s) holding territory: a game in progress needs at least 2"
        )
    if not alive[player]:
        raise InvalidArgumentError(f"current_player {player} holds no territory: that player is eliminated")
    sets = check_int("sets_traded", sets_traded, minimum=0, maximum=BIG)
    turn = check_int("turn", turn, minimum=1, maximum=BIG if game.max_turns is None else game.max_turns)
    rng = secrets.randbits(64) if seed is None else check_int("seed", seed, minimum=-(1 << 63), maximum=MASK) & MASK
    chosen_missions = _missions(game, missions)
    chosen_capitals = _capitals(game, capitals)
    names = game.board.territories
    if not isinstance(trade_down, bool):
        raise InvalidArgumentError(f"trade_down must be True or False, got {shown(trade_down)}")
    if trade_down and chosen_phase is not Phase.OCCUPY:
        raise InvalidArgumentError(
            f"trade_down=True is for phase 'occupy' (the capture that eliminated a player, whose cards must be "
            f"traded down after the occupation), not phase {chosen_phase.value!r}"
        )
    hands = _hands(game, cards, headquarters_cards(game, chosen_capitals), player if trade_down else -1)
    for p, hand in enumerate(hands):
        if hand and not alive[p]:
            raise InvalidArgumentError(f"cards[{p}] holds {len(hand)} card(s) but player {p} holds no territory")
    killers = [-1] * game.players
    given = {} if killed_by is None else killed_by
    if not isinstance(given, Mapping):
        raise InvalidArgumentError(f"killed_by must be a mapping of player to player, got {shown(given)}")
    for key, killer in given.items():
        victim = _player(game, key, "a key of killed_by")
        if alive[victim]:
            raise InvalidArgumentError(f"killed_by[{victim}]: player {victim} holds territory, it is not eliminated")
        killer = _player(game, killer, f"killed_by[{victim}]")
        if killer == victim:
            raise InvalidArgumentError(f"killed_by[{victim}] is {victim}: a player is not eliminated by itself")
        killers[victim] = killer
    for p in range(game.players):
        if not alive[p] and killers[p] < 0:
            killers[p] = player  # by default the player to move eliminated the others
    deck = cards_in_play(game, chosen_capitals)  # the draw pile: the rest of the deck
    for hand in hands:
        for card in hand:
            deck.remove(card)
    discarded = _discard(game, discard, deck)
    pos = Position.initial(len(names), game.players, deck=deck, setup_left=[0] * game.owners, rng=rng)
    pos.owner, pos.armies, pos.hands, pos.discard = owner, army, hands, discarded
    pos.sets_traded = sets
    pos.first = player
    pos.alive, pos.killed_by = alive, killers
    pos.missions, pos.capitals = chosen_missions, chosen_capitals
    start_turn_at(game, pos, player, turn, begun=chosen_phase is not Phase.REINFORCE or pool is not None)
    _enter_phase(game, pos, chosen_phase, captured, capture)
    if pool is not None and pos.phase is not Phase.GAME_OVER:
        _set_pool(game, pos, pool)
    pos.moved = _moved(game, moved, chosen_phase, owner, player)
    if trade_down:
        if not any(not alive[p] and killers[p] == player for p in range(game.players)):
            raise InvalidArgumentError(
                f"trade_down=True, but no player is out by current_player {player}'s hand (killed_by names the victim)"
            )
        pos.trade_down = True
    taken = check_int("bonus_taken", bonus_taken, minimum=0, maximum=BIG)
    if taken:
        if chosen_phase is Phase.REINFORCE and pool is None:
            raise InvalidArgumentError(
                f"bonus_taken={taken} at phase 'reinforce', the start of the turn: no set is traded yet "
                "(give the pool left after the trade, pool=..., or apply the TradeCards)"
            )
        pos.bonus_taken = taken
    found = problems(game, pos)
    if found and chosen_phase is not Phase.REINFORCE:  # the phase's own invariants, named
        raise InvalidArgumentError(f"no sound position at phase {chosen_phase.value!r}: " + "; ".join(found))
    if found:  # a case the checks above missed: never hand out an inconsistent state
        raise StateError("the position is inconsistent: " + "; ".join(found))
    return pos
