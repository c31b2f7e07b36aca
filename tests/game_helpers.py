"""Helpers for the rules-model tests: positions built by editing a state's JSON, seeded playouts through one
play loop (``play_until``), the one invariant checker every playout suite uses (``check_invariants``), and the
fast/slow split of long sweeps.

A position is built from a real state's JSON (``GameState.to_json``; the fields mirror ``FIELDS`` in
``riskmath/game/position.py``) with some fields replaced, then read back with ``GameState.from_json``, which checks it
for consistency.  Cards are kept consistent automatically: the deck is the full deck minus the hands and the
discard pile.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pytest

import riskmath as rm

#: A six-territory board of two continents, small enough for random play to finish games.
TOY = rm.Board.from_dict(
    {
        "name": "toy",
        "continents": [
            {"name": "East", "bonus": 2, "territories": ["A", "B", "C"]},
            {"name": "West", "bonus": 1, "territories": ["D", "E", "F"]},
        ],
        "borders": [["A", "B"], ["B", "C"], ["A", "C"], ["C", "D"], ["D", "E"], ["E", "F"]],
    }
)

# Card symbols of mapping "B" ([C4]-[C6] in docs/sources.rst, the default), a few of each, for building sets by hand.
INFANTRY = ("Alaska", "Venezuela", "Peru", "Argentina", "Iceland", "Egypt", "East Africa", "Congo", "Kamchatka")
CAVALRY = ("Greenland", "Alberta", "Ontario", "Quebec", "Scandinavia", "Ukraine", "North Africa", "Madagascar")
ARTILLERY = ("Northwest Territory", "Western United States", "Eastern United States", "Central America", "Brazil")

# The continents and bonuses of the classic board ([M1]-[M4], [R1] in docs/sources.rst).
CONTINENTS = {
    "North America": (
        "Alaska",
        "Northwest Territory",
        "Greenland",
        "Alberta",
        "Ontario",
        "Quebec",
        "Western United States",
        "Eastern United States",
        "Central America",
    ),
    "South America": ("Venezuela", "Peru", "Brazil", "Argentina"),
    "Europe": (
        "Iceland",
        "Scandinavia",
        "Great Britain",
        "Northern Europe",
        "Western Europe",
        "Southern Europe",
        "Ukraine",
    ),
    "Africa": ("North Africa", "Egypt", "East Africa", "Congo", "South Africa", "Madagascar"),
    "Asia": (
        "Ural",
        "Siberia",
        "Yakutsk",
        "Kamchatka",
        "Irkutsk",
        "Mongolia",
        "Japan",
        "Afghanistan",
        "China",
        "Middle East",
        "India",
        "Siam",
    ),
    "Australia": ("Indonesia", "New Guinea", "Western Australia", "Eastern Australia"),
}
BONUS = {"Asia": 7, "North America": 5, "Europe": 5, "Africa": 3, "South America": 2, "Australia": 2}


def tiny_game(
    territories: str, borders: list[str], continents: list[tuple[str, int, str]], players: int = 2
) -> rm.Game:
    """A game on a small board: one-letter territories (in id order), borders as letter pairs, and continents as
    (name, bonus, letters); no neutral player."""
    board = rm.Board.from_dict(
        {
            "name": "tiny",
            "continents": [{"name": n, "bonus": b, "territories": list(ts)} for n, b, ts in continents],
            "borders": [list(pair) for pair in borders],
        }
    )
    assert board.territories == tuple(territories)
    return rm.Game(players, rm.Rules(two_player="none"), board)


def data_of(state: rm.GameState) -> dict[str, Any]:
    """A state's JSON as a dict."""
    return json.loads(state.to_json())


def load(data: Mapping[str, Any]) -> rm.GameState:
    return rm.GameState.from_json(json.dumps(data))


def base_data(game: rm.Game, seed: int = 0) -> dict[str, Any]:
    """The JSON data of a new state of ``game`` (the set-up not begun)."""
    return data_of(game.new_initial_state(seed=seed))


def build(
    game: rm.Game,
    *,
    owner: Mapping[str, int] | None = None,
    default_owner: int | Callable[[int], int] | None = None,
    armies: Mapping[str, int] | int = 3,
    default_armies: int | None = None,
    hands: list[list[str]] | None = None,
    discard: list[str] | None = None,
    phase: str = "attack",
    player: int = 0,
    seed: int = 0,
    **fields: Any,
) -> rm.GameState:
    """A mid-game position of ``game``.

    ``owner`` maps territory names to owners; the rest go to ``default_owner`` (an owner, or a function of the
    territory id; by default round robin over the players).  ``armies`` is a count for every territory, or a
    mapping with ``default_armies`` (3) for the rest.  Other keyword arguments replace state fields as they
    appear in the JSON (``pool``, ``sets_traded``, ``missions``, ...).
    """
    n = len(game.board)
    names = game.board.territories
    if default_owner is None:
        default: Callable[[int], int] = lambda t: t % game.players  # noqa: E731
    elif callable(default_owner):
        default = default_owner
    else:
        fixed = default_owner
        default = lambda t: fixed  # noqa: E731
    owner = dict(owner or {})
    owners = [owner.get(names[t], -2) for t in range(n)]
    owners = [o if o != -2 else default(t) for t, o in enumerate(owners)]
    if isinstance(armies, int):
        counts = [armies] * n
    else:
        counts = [armies.get(names[t], 3 if default_armies is None else default_armies) for t in range(n)]
    hands = [list(h) for h in (hands or [[] for _ in range(game.players)])]
    discard = list(discard or [])
    headquarters = {names[t] for t in fields.get("capitals", [])}  # Capital RISK: HQ cards are out of play
    deck = Counter(c for c in game.full_deck if c not in headquarters)
    deck.subtract(Counter(c for h in hands for c in h))
    deck.subtract(Counter(discard))
    assert all(k >= 0 for k in deck.values()), "a card is used twice"
    deck_cards = [c for c in dict.fromkeys(game.full_deck) for _ in range(deck[c])]
    data = base_data(game, seed)
    data.update(
        phase=phase,
        player=player,
        turn=fields.pop("turn", 1),
        first=0,
        owner=owners,
        armies=counts,
        hands=hands,
        deck=deck_cards,
        discard=discard,
        setup_left=[0] * game.owners,
        alive=[p in owners for p in range(game.players)],
        # A player without territory was eliminated, by someone (the first player still in).
        killed_by=[-1 if p in owners else min(o for o in owners if 0 <= o < game.players) for p in range(game.players)],
        captured=phase in ("occupy", "trade_down", "draw"),  # (these follow a capture)
    )
    data.update(fields)
    return load(data)


def edit(state: rm.GameState, **fields: Any) -> rm.GameState:
    """``state`` with some JSON fields replaced (checked by ``from_json``)."""
    data = data_of(state)
    data.update(fields)
    return load(data)


def random_action(state: rm.GameState, rng: random.Random) -> Any:
    """A chance outcome (sampled) or a random legal action."""
    if state.is_chance_node():
        return state.sample_chance()
    return rng.choice(state.legal_actions())


def play_until(
    state: rm.GameState,
    stop: Callable[[rm.GameState], bool],
    rng: random.Random,
    *,
    choose: Callable[[rm.GameState, random.Random], Any] = random_action,
    limit: int | None = 20000,
    must_stop: bool = True,
    check_every: int = 0,
    record: list[Any] | None = None,
) -> rm.GameState:
    """The one play loop of the playout suites: apply ``choose(state, rng)`` until ``stop(state)``.

    ``stop`` is checked before each action (``rm.GameState.is_terminal`` plays a game to its end); ``choose``
    picks a decision or a chance outcome (by default a sampled outcome or a random legal action).  After
    ``limit`` actions (None: no limit) the loop fails, or with ``must_stop=False`` returns the state reached.
    With ``check_every`` the playouts' invariants are checked after every action (``check_invariants``, a
    chosen decision in ``legal_actions()`` first), fully every ``check_every``-th step and at the game's end;
    ``record`` collects the actions applied.
    """
    steps = itertools.count(1) if limit is None else range(1, limit + 1)
    for step in steps:
        if stop(state):
            return state
        action = choose(state, rng)
        if check_every and not state.is_chance_node():
            assert action in state.legal_actions(), (state, action)
        after = state.apply(action)
        if record is not None:
            record.append(action)
        if check_every:
            # A state that resolves chance at once may roll within an attack: no comparison with the one before.
            before = None if state.auto_chance else state
            check_invariants(after, before, full=step % check_every == 0 or after.is_terminal())
        state = after
    if must_stop and not stop(state):
        raise AssertionError(f"no state met the condition in {limit} steps: {state!r}")
    return state


def after_setup(game: rm.Game, seed: int = 0) -> rm.GameState:
    """The first REINFORCE state of a seeded random set-up."""
    rng = random.Random(seed)
    return play_until(game.new_initial_state(seed=seed), lambda s: not s.phase.name.startswith("SETUP"), rng)


def aggressive(state: rm.GameState, rng: random.Random) -> Any:
    """A policy that attacks whenever it has the larger stack (blitz) and moves everything in: games end sooner.

    It trades a set whenever it can and otherwise places its whole pool on one territory; it never fortifies.
    """
    if state.is_chance_node():
        return state.sample_chance()
    legal = state.legal_actions()
    phase = state.phase
    if phase is rm.Phase.ATTACK:
        board = state.game.board
        player = state.current_player
        best, margin = None, 1
        for t in range(len(board)):
            if state.owner(t) != player or state.armies(t) < 3:
                continue
            for u in board.neighbor_ids(t):
                if state.owner(u) != player and state.armies(t) - state.armies(u) > margin:
                    best, margin = (t, u), state.armies(t) - state.armies(u)
        if best is None:
            return rm.EndPhase()
        return rm.Blitz(board.territories[best[0]], board.territories[best[1]])
    if phase is rm.Phase.OCCUPY:
        return legal[-1]
    if phase is rm.Phase.FORTIFY:
        return rm.EndPhase()
    if phase in (rm.Phase.REINFORCE, rm.Phase.TRADE_DOWN):
        if isinstance(legal[0], rm.TradeCards):
            return legal[0]
        board = state.game.board
        player = state.current_player
        front = [
            t
            for t in range(len(board))
            if state.owner(t) == player and any(state.owner(u) != player for u in board.neighbor_ids(t))
        ]
        if front:  # the whole pool on the strongest front-line territory (or one at random)
            t = max(front, key=state.armies) if rng.random() < 0.8 else rng.choice(front)
            whole = rm.PlaceArmies(board.territories[t], state.pool)
            if state.is_legal(whole):
                return whole
    return rng.choice(legal)


def card_total(state: rm.GameState) -> Counter[str]:
    """Every card in the deck, the discard pile and the hands."""
    data = data_of(state)
    total = Counter(data["deck"]) + Counter(data["discard"])
    for hand in data["hands"]:
        total += Counter(hand)
    return total


def in_setup(state: rm.GameState) -> bool:
    return state.phase.name.startswith("SETUP")


def army_total(state: rm.GameState) -> int:
    return sum(state.armies(t) for t in range(len(state.game.board)))


# Phases after which the armies on the board may fall (dice) or rise (placement); every other step keeps the total.
_LOSSES = frozenset({rm.Phase.ROLL, rm.Phase.BLITZ})
_PLACEMENTS = frozenset({rm.Phase.REINFORCE, rm.Phase.TRADE_DOWN})


def check_invariants(
    state: rm.GameState,
    before: rm.GameState | None = None,
    *,
    full: bool = True,
) -> None:
    """The invariants every playout keeps, checked through the public API only.

    Always: the engine's own check, ``state.problems() == []``, and after the set-up no more cards in the hands
    and the deck than the deck has.  With ``full`` (the costlier checks), once the set-up is over:

    * every territory has an owner (a player or a neutral) and at least one army; only the territory just
      captured may be empty, while the attacker moves in (``OCCUPY``);
    * a player is alive exactly when it holds territory;
    * every card is in the deck, the discard pile or a hand: the full deck, less the Capital RISK headquarters
      cards, which are out of play;
    * a finished game has a living winner, or is a draw reached exactly at the turn cap (``check_ending``);
      a running one has neither.

    With ``before`` (the state the last action was applied to): the turn never goes back, and the armies on
    the board change only by combat losses (after a dice roll) and by placements (reinforcing, trading down).
    (States that resolve chance at once, ``auto_chance=True``, roll within an attack: give no ``before``.)
    """
    assert state.problems() == [], state.problems()
    game = state.game
    if before is not None and not in_setup(before) and not in_setup(state):
        assert state.turn >= before.turn, (before.turn, state.turn)
        change = army_total(state) - army_total(before)
        if before.phase in _LOSSES:
            assert change <= 0, (before.phase, change)
        elif before.phase in _PLACEMENTS:
            assert change >= 0, (before.phase, change)
        else:
            assert change == 0, (before.phase, state.phase, change)
    if in_setup(state):
        return
    hands = sum(len(state.cards(p)) for p in range(game.players))
    assert hands + state.deck_size <= len(game.full_deck)
    if not full:
        return
    captured = state.capture[1] if state.phase is rm.Phase.OCCUPY and state.capture else None
    held: Counter[int] = Counter()
    for t, name in enumerate(game.board.territories):
        owner, armies = state.owner(t), state.armies(t)
        assert 0 <= owner < game.owners, (name, owner)
        assert armies >= 1 or (armies == 0 and name == captured), (name, armies)
        held[owner] += 1
    for p in range(game.players):
        assert state.alive(p) == (held[p] > 0) == bool(state.territories_of(p)), p
    headquarters = Counter(state.capital(p) for p in range(game.players) if state.capital(p))
    assert card_total(state) == Counter(game.full_deck) - headquarters  # Capital RISK: HQ cards are out of play
    if state.is_terminal():
        check_ending(state)
    else:
        assert state.winner is None
        assert not state.draw
        assert game.max_turns is None or state.turn <= game.max_turns


def check_ending(state: rm.GameState) -> None:
    """A finished game: a living winner with return 1, or a draw reached exactly at the turn cap."""
    game = state.game
    assert state.is_terminal()
    assert len(state.legal_actions()) == 0
    if state.winner is not None:
        assert not state.draw
        assert state.alive(state.winner)
        assert state.returns() == [1.0 if p == state.winner else 0.0 for p in range(game.players)]
        assert game.max_turns is None or state.turn <= game.max_turns
    else:
        assert state.draw
        assert state.returns() == [0.0] * game.players
        assert game.max_turns is not None
        assert state.turn == game.max_turns, (state.turn, game.max_turns)


class Checked:
    """An agent ``play`` does not trust: it is shown copies and every action it returns is checked."""

    trusted = False

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = agent.name

    def act(self, state: rm.GameState, rng: random.Random) -> Any:
        return self.agent.act(state, rng)


def spread(cases: list[tuple[Any, ...]], at: int = 0) -> list[tuple[Any, ...]]:
    """One case for each value of ``case[at]`` (a preset), taking each value's cases in turn (player counts)."""
    groups: dict[Any, list[tuple[Any, ...]]] = {}
    for case in cases:
        groups.setdefault(case[at], []).append(case)
    return [options[k % len(options)] for k, options in enumerate(groups.values())]


def tiered(cases: list[Any], fast: list[Any]) -> list[Any]:
    """``cases`` for ``parametrize``, those not in ``fast`` marked slow (``make test-fast`` skips them).

    A case is a tuple of the arguments, or one value for a single argument.
    """
    return [
        case if case in fast else pytest.param(*case if isinstance(case, tuple) else (case,), marks=pytest.mark.slow)
        for case in cases
    ]


def check_every_decision(monkeypatch: Any, agent_class: type) -> tuple[list[Any], list[Any]]:
    """Check every decision of ``agent_class._decide`` (the unchecked path of simulate) from now on.

    Returns the lists it fills: the phases decided, and the refused decisions (phase, decision, error).
    """
    from riskmath.game.checked import to_action
    from riskmath.game.legality import check_action

    phases: list[Any] = []
    refused: list[Any] = []
    real = agent_class._decide

    def checked_decide(self: Any, state: Any, rng: Any) -> Any:
        decision = real(self, state, rng)
        phases.append(state.phase)
        try:
            check_action(state.game, state.position, to_action(state.game, decision))
        except rm.IllegalActionError as error:
            refused.append((state.phase, decision, str(error)))
        return decision

    monkeypatch.setattr(agent_class, "_decide", checked_decide)
    return phases, refused


#: Every preset with 2, 3 and 5 players: the variants the agents' legality tests play.
VARIANTS = [(preset, players) for preset in rm.Rules.presets() for players in (2, 3, 5)]


def rules_or_skip(preset: str, players: int) -> rm.Rules:
    """The preset's rules, or skip the test where the preset does not allow that many players."""
    rules = rm.Rules.preset(preset)
    try:
        rm.Game(players, rules)
    except rm.RiskmathError:
        pytest.skip(f"{preset} is not for {players} players")
    return rules


class FakeTensor:
    """A 0-d tensor as torch and JAX have them: a shape of () and ``item()`` (torch is not a test dependency)."""

    shape = ()

    def __init__(self, value: object) -> None:
        self.value = value

    def item(self) -> object:
        return self.value
