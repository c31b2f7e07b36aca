"""What one player cannot see of a state, resampled; and a short text of what it can see (for search).

Information-set search (ISMCTS: Cowling, Powley and Whitehouse 2012)
plays many times from states that the searching player cannot tell apart
from the real one.  Two functions serve it:

- :func:`resample_hidden` returns a state consistent with what ``player``
  saw, the hidden parts drawn afresh: the other players' hands (each keeps
  its size), the order of the deck, the other players' missions and the
  state's chance generator (what the dice will roll).  Everything public
  stays: the board, the discard pile, the hand sizes, the phase, the pending
  battle, ``player``'s own cards and mission.
- :func:`view_string` is ``player``'s view of a state as one short line
  (the public fields and ``player``'s own cards and mission): two states
  with the same view give the same text, and a state resampled for
  ``player`` has the view of the state it came from.  Its length grows with
  the board (the owners and armies) and the discard pile, not with the game.

**What the resampler draws from.**  The cards that ``player`` has not seen
(the deck and the other players' hands together) are shuffled and dealt
back: each other hand gets as many as it held, the deck the rest.  Each
hidden card is then equally likely to be any unseen card, which is what
the player knows under a model of the others that does not read their
play: cards are drawn uniformly, traded face up (the discard pile is
public), and a victim's hand passes to its conqueror whole, so nothing
else singles a card out.  (A player out of the game never decides; its
resampled states treat the cards it handed to its conqueror as unknown too.)
Missions are drawn uniformly from the cards ``player`` has not seen, one
for each other player dealt one, among the assignments in which no mission
of a player still in is complete where the rules check missions at once
(``mission_check="immediate"``): such a mission would have ended the game.
Missions that only an earlier position rules out are not excluded.

The resampler is exact about the present and forgets how the game got
there: the player's beliefs are those of someone who sees the position now
and counts cards, not those of someone reading the others' choices.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from riskmath._validation import shown
from riskmath.envs.codec import BattleChance, CountChoice
from riskmath.envs.observations import checked_node
from riskmath.errors import InvalidArgumentError
from riskmath.game import GameState
from riskmath.game.missions import completed, missions_for
from riskmath.game.phase import Phase

__all__ = ["MISSION_TRIES", "resample_hidden", "view_string"]

#: Uniform draws of the other players' missions tried before the resampler falls back to a search (see
#: :func:`resample_hidden`); each try is accepted unless two players drew the same mission.
MISSION_TRIES = 200


def resample_hidden(node: Any, player: int, seed: int) -> Any:
    """A state that ``player`` cannot tell from ``node``, the hidden parts drawn with generator ``seed``.

    Parameters
    ----------
    node : GameState or CountChoice or BattleChance
        The state (or a count being chosen, or a blitz in pieces: the
        same node is returned around the resampled state).
    player : int
        The player whose view is kept.
    seed : int
        Seeds the ``random.Random`` that draws the hands, the deck order,
        the missions and the new state's chance generator: the same seed
        gives the same state.

    Returns
    -------
    GameState or CountChoice or BattleChance
        A node of the same kind, sound (``problems()`` of its state is
        empty), with ``view_string(result, player) == view_string(node,
        player)``.

    Raises
    ------
    InvalidArgumentError
        If ``node`` is not a state, ``player`` not a player id of its game,
        or ``seed`` not an integer.

    Notes
    -----
    The other players' missions are drawn uniformly among the allowed
    assignments by rejection (:data:`MISSION_TRIES` tries); if every try
    gives two players the same mission, a search in random order takes the
    first allowed assignment (still consistent, no longer exactly uniform).

    Examples
    --------
    >>> import riskmath as rm
    >>> state = rm.Game(3, rm.Rules.preset("us_1993_secret_mission")).new_initial_state(seed=1, auto_chance=True)
    >>> other = resample_hidden(state, 0, seed=7)
    >>> other.mission(0) == state.mission(0), other.problems(), view_string(other, 0) == view_string(state, 0)
    (True, [], True)
    """
    state, _, player = checked_node(node, player)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidArgumentError(f"seed must be an integer, got {shown(seed)}")
    rng = random.Random(seed)
    game, pos = state.game, state.position.copy()
    others = [q for q in range(game.players) if q != player]
    unseen = pos.deck + [card for q in others for card in pos.hands[q]]
    rng.shuffle(unseen)
    at = 0
    for q in others:
        size = len(pos.hands[q])
        pos.hands[q] = unseen[at : at + size]
        at += size
    pos.deck = unseen[at:]
    _resample_missions(state, pos, player, rng)
    pos.rng = rng.getrandbits(64)
    new = GameState(game, pos, auto_chance=state.auto_chance)
    if isinstance(node, (CountChoice, BattleChance)):
        return dataclasses.replace(node, state=new)
    return new


def _resample_missions(state: GameState, pos: Any, player: int, rng: random.Random) -> None:
    """Draw the missions dealt to players other than ``player`` (see the module docstring)."""
    game = state.game
    rules = game.rules
    dealt = len(pos.missions)
    others = [q for q in range(dealt) if q != player]
    if not others:
        return
    seen = {pos.missions[player]} if player < dealt else set()
    pool = [m for m in missions_for(rules.missions, game.players) if m not in seen]
    checked = dealt == game.players and rules.mission_check == "immediate" and pos.phase is not Phase.GAME_OVER
    allowed = {}
    for q in others:
        allowed[q] = [m for m in pool if not (checked and pos.alive[q] and _complete(state, pos, q, m))]
    for _ in range(MISSION_TRIES):
        draw = {q: rng.choice(allowed[q]) for q in others}
        if len(set(draw.values())) == len(others):
            break
    else:
        draw = _first_assignment(others, allowed, rng)
    for q, mission in draw.items():
        pos.missions[q] = mission


def _complete(state: GameState, pos: Any, q: int, mission: str) -> bool:
    """Whether ``q``'s mission would be complete in ``pos`` if it were ``mission``."""
    held = pos.missions[q]
    pos.missions[q] = mission
    try:
        return completed(state.game, pos, q)
    finally:
        pos.missions[q] = held


def _first_assignment(others: list[int], allowed: dict[int, list[str]], rng: random.Random) -> dict[int, str]:
    """Distinct missions for ``others`` from their allowed lists, by a search over shuffled lists.

    The real assignment is allowed, so a search over every choice finds one.
    """
    order = {q: rng.sample(allowed[q], len(allowed[q])) for q in others}

    def search(k: int, taken: dict[int, str]) -> dict[int, str] | None:
        if k == len(others):
            return dict(taken)
        q = others[k]
        for mission in order[q]:
            if mission not in taken.values():
                taken[q] = mission
                found = search(k + 1, taken)
                if found is not None:
                    return found
                del taken[q]
        return None

    found = search(0, {})
    if found is None:  # a state edited by hand whose missions no game could have dealt
        choices = "; ".join(f"player {q} {allowed[q]}" for q in others)
        raise InvalidArgumentError(f"no distinct missions fit the state: allowed {choices}")
    return found


def view_string(node: Any, player: int) -> str:
    """``player``'s view of ``node`` as one line: every public field, and its own cards and mission.

    The fields, ``|``-separated: the viewer, the phase, the player to move,
    the turn, the first player; the owners and armies of the territories (in
    board order); the viewer's cards; every hand's size; the deck's size and
    the discard pile; sets traded, armies to place, the territory-card
    bonus taken, a capture made this turn, a trade-down due; set-up armies
    left, the set-up queue and the cards dealt; the pending battle and the
    capture being occupied; who is in and who eliminated whom; the winner;
    the missions dealt and the viewer's own; the headquarters; the
    territories moved from or to (Experts fortification); the 1993
    two-player piles; and a pending count or blitz piece.  Not in it: the
    other hands' cards, the deck's cards and order, the others' missions,
    the chance generator.

    Raises
    ------
    InvalidArgumentError
        As :func:`resample_hidden`.

    Examples
    --------
    >>> import riskmath as rm
    >>> state = rm.Game(2, board="south_america_africa").new_initial_state(seed=3, auto_chance=True)
    >>> view_string(state, 0)[:60]
    'p0|SETUP_PILE|0|0|0|[-1, -1, -1, -1, -1, -1, -1, -1, -1, -1]'
    """
    state, _, player = checked_node(node, player)
    pos = state.position
    missions = pos.missions
    own = missions[player] if player < len(missions) else "-"
    extra = ""
    if isinstance(node, CountChoice):
        extra = f"count {node.kind} {node.source} {node.target} {node.low} {node.high} {node.chosen}"
    elif isinstance(node, BattleChance):
        extra = f"blitz {node.attackers} {node.defenders} {node.stop_at}"
    sizes = [len(hand) for hand in pos.hands]
    # Lists and tuples are written by repr (one C call each): short enough, and far faster than joining.
    return (
        f"p{player}|{pos.phase.name}|{state.current_player}|{pos.turn}|{pos.first}|{pos.owner}|{pos.armies}|"
        f"{pos.hands[player]}|{sizes}|{len(pos.deck)}|{pos.discard}|{pos.sets_traded}|{pos.pool}|"
        f"{pos.bonus_taken}|{pos.captured:d}|{pos.trade_down:d}|{pos.setup_left}|{pos.queue}|{pos.dealt}|"
        f"{pos.pending and tuple(pos.pending)}|{pos.occupy and tuple(pos.occupy)}|{pos.alive}|{pos.killed_by}|"
        f"{pos.winner}|{len(missions)} {own}|{pos.capitals}|{pos.moved}|{pos.piles}|{sorted(pos.bonus.items())}|"
        f"{extra}"
    )
