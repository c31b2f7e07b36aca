"""The state of a game of RISK, with its legal actions and chance nodes.

A :class:`GameState` follows the protocol that search and learning code
expects (OpenSpiel's): ``current_player``, ``legal_actions()``,
``apply(action)`` returning a **new** state, ``is_chance_node()`` with
``chance_outcomes()``, ``is_terminal()`` and ``returns()``.  Dice rolls, whole
blitz battles, card draws and deals are chance nodes whose outcomes are listed
with their exact probabilities; :meth:`GameState.sample_chance` (or
``auto_chance=True``) draws them from the state's seeded generator.

Phases, in the order a game meets them: ``SETUP_ORDER`` (chance: who
starts), ``SETUP_DEAL`` (chance: deal territory cards), ``SETUP_CLAIM``,
``SETUP_PLACE`` (decisions, or chance in a random set-up),
``SETUP_CAPITAL`` / ``SETUP_MISSION`` (Capital and Secret Mission RISK), then
each turn ``REINFORCE`` (trade sets, place armies), ``ATTACK`` (with
``DEFEND`` when defenders choose dice, ``ROLL`` / ``BLITZ`` chance nodes,
``OCCUPY`` after a capture and ``TRADE_DOWN`` after an elimination),
``FORTIFY`` and ``DRAW`` (chance: the card for a capture); ``GAME_OVER``.

An illegal action raises :class:`riskmath.IllegalActionError` naming the
action, phase, player and reason; the public API never changes a state in
place.  (:func:`riskmath.play` and :func:`riskmath.simulate` play on a
private state that they change in place, through the same transitions; see
``riskmath.game.chance``.)
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from riskmath.errors import IllegalActionError
from riskmath.game.actions import (
    Attack,
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
from riskmath.game.chance import MASK as _MASK
from riskmath.game.chance import advance, sample_outcome
from riskmath.game.game import Game
from riskmath.game.legality import LegalActions
from riskmath.game.missions import mission_complete, missions_for
from riskmath.game.phase import CHANCE, CHANCE_PHASES, TERMINAL, Phase

__all__ = ["CHANCE", "TERMINAL", "GameState", "LegalActions", "Phase"]

# The fields that make up a state (besides the game), in serialisation order.
_FIELDS = (
    "phase", "player", "turn", "first", "owner", "armies", "hands", "deck", "discard", "sets_traded",
    "pool", "bonus", "setup_left", "queue", "dealt", "captured", "bonus_taken", "pending", "occupy",
    "trade_down", "alive", "killed_by", "winner", "missions", "capitals", "moved", "piles", "rng",
)  # fmt: skip


class GameState:
    """One position of a game; see the module docstring.  Build with :meth:`Game.new_initial_state`.

    Examples
    --------
    >>> import riskmath as rm
    >>> state = rm.Game(3).new_initial_state(seed=0)
    >>> state, state.is_chance_node(), state.chance_outcomes()[0]
    (<GameState turn 0, SETUP_ORDER, chance to move>, True, (FirstPlayer(player=0), Fraction(1, 3)))
    >>> state.apply(rm.FirstPlayer(0))    # a new state; ``state`` is unchanged
    <GameState turn 0, SETUP_CLAIM, player 0 to move>
    """

    __slots__ = ("_auto", "game", *(f"_{name}" for name in _FIELDS))

    game: Game
    _auto: bool
    _phase: Phase
    _player: int
    _turn: int
    _first: int
    _owner: list[int]
    _armies: list[int]
    _hands: list[list[str]]
    _deck: list[str]
    _discard: list[str]
    _sets_traded: int
    _pool: int
    _bonus: dict[int, int]
    _setup_left: list[int]
    _queue: list[tuple[int, int]]
    _dealt: int
    _captured: bool
    _bonus_taken: int
    _pending: tuple[Any, ...] | None
    _occupy: tuple[int, int, int] | None
    _trade_down: bool
    _alive: list[bool]
    _killed_by: list[int]
    _winner: int | None
    _missions: list[str]
    _capitals: list[int]
    _moved: list[int]
    _piles: list[int]
    _rng: int

    # -- construction ---------------------------------------------------------------
    @classmethod
    def initial(cls, game: Game, *, seed: int | None = None, auto_chance: bool = False) -> GameState:
        self = cls.__new__(cls)
        self.game = game
        n = len(game.board)
        self._phase = Phase.SETUP_ORDER
        self._player = CHANCE
        self._turn = 0
        self._first = -1
        self._owner = [-1] * n
        self._armies = [0] * n
        self._hands = [[] for _ in range(game.players)]
        self._deck = list(game.territory_cards)  # wild cards join after the set-up
        self._discard = []
        self._sets_traded = 0
        self._pool = 0
        self._bonus = {}
        start = game.rules.starting_armies_for(game.players)
        neutral_start = {"neutral_1993": 40, "neutral_article": 28, "neutrals_2003": 24}.get(game.two_player, 0)
        self._setup_left = [start] * game.players + [neutral_start] * game.neutrals
        self._queue = []  # set-up placements due this turn: (owner, armies)
        self._dealt = 0
        self._captured = False
        self._bonus_taken = 0
        self._pending = None  # (kind, source, target, attacker dice or stop_at)
        self._occupy = None  # (source, target, least armies to move)
        self._trade_down = False
        self._alive = [True] * game.players
        self._killed_by = [-1] * game.players
        self._winner = None
        self._missions = []
        self._capitals = []
        self._moved = []  # experts fortification: territories already moved from or to
        self._piles = []  # 1993 two-player deal: the pile (0-2) of each territory until the piles are chosen
        self._rng = (secrets.randbits(64) if seed is None else int(seed)) & _MASK
        self._auto = auto_chance
        if auto_chance:
            self._resolve_chance()
        return self

    def _copy(self) -> GameState:
        new = GameState.__new__(GameState)
        new.game = self.game
        new._phase, new._player, new._turn, new._first = self._phase, self._player, self._turn, self._first
        new._owner = self._owner[:]
        new._armies = self._armies[:]
        new._hands = [hand[:] for hand in self._hands]
        new._deck = self._deck[:]
        new._discard = self._discard[:]
        new._sets_traded, new._pool = self._sets_traded, self._pool
        new._bonus = dict(self._bonus)
        new._setup_left = self._setup_left[:]
        new._queue = self._queue[:]
        new._dealt, new._captured, new._bonus_taken = self._dealt, self._captured, self._bonus_taken
        new._pending, new._occupy, new._trade_down = self._pending, self._occupy, self._trade_down
        new._alive = self._alive[:]
        new._killed_by = self._killed_by[:]
        new._winner = self._winner
        new._missions = self._missions[:]
        new._capitals = self._capitals[:]
        new._moved = self._moved[:]
        new._piles = self._piles[:]
        new._rng, new._auto = self._rng, self._auto
        return new

    # -- the protocol ---------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The current :class:`Phase`."""
        return self._phase

    @property
    def current_player(self) -> int:
        """The player to decide: :data:`~riskmath.game.state.CHANCE` at a chance node,
        :data:`~riskmath.game.state.TERMINAL` at the end."""
        if self._phase is Phase.GAME_OVER:
            return TERMINAL
        if self._phase in CHANCE_PHASES or (self._phase is Phase.SETUP_PLACE and self.game.rules.setup == "random"):
            return CHANCE
        return self._player

    @property
    def turn(self) -> int:
        """Player-turns begun so far (0 during the set-up)."""
        return self._turn

    @property
    def turn_player(self) -> int:
        """Whose turn it is (the attacker during a defender's decision)."""
        return self._player if self._pending is None or self._phase is not Phase.DEFEND else self._pending[4]

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def is_terminal(self) -> bool:
        return self._phase is Phase.GAME_OVER

    @property
    def winner(self) -> int | None:
        """The winning player, or None (game running, or a draw)."""
        return self._winner

    @property
    def draw(self) -> bool:
        """Whether the game ended by the turn cap without a winner."""
        return self._phase is Phase.GAME_OVER and self._winner is None

    def returns(self) -> list[float]:
        """1 for the winner and 0 for everyone else; all 0 while running or after a draw."""
        return [1.0 if p == self._winner else 0.0 for p in range(self.game.players)]

    def legal_actions(self) -> LegalActions:
        """The actions the current player may take (empty at chance and terminal nodes)."""
        return LegalActions(self)

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` may be applied now (decision nodes only)."""
        if self.is_chance_node() or self.is_terminal():
            return False
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Any, *, check: bool = True) -> GameState:
        """The state after ``action`` (or, at a chance node, after the outcome).

        Parameters
        ----------
        action : action or outcome
            A decision from ``legal_actions()``, or at a chance node one of the
            outcomes of ``chance_outcomes()``.
        check : bool, default True
            Validate first.  ``check=False`` is the fast path for actions
            taken from ``legal_actions()`` or ``chance_outcomes()``; an
            illegal action then corrupts the new state.

        Raises
        ------
        IllegalActionError
            If the action is malformed or not allowed; ``self`` is unchanged.
        """
        if self.is_chance_node():
            if check:
                self._check_outcome(action)
            new = self._copy()
            new._apply_outcome(action)
        else:
            checked = self._check(action) if check else self._normalise(action)
            new = self._copy()
            new._apply_action(checked)
        if new._auto:
            new._resolve_chance()
        return new

    def chance_outcomes(self) -> list[tuple[Any, Fraction | float]]:
        """``[(outcome, probability), ...]`` at a chance node (Fractions; floats for blitzes)."""
        phase, game = self._phase, self.game
        if phase is Phase.SETUP_ORDER:
            return [(FirstPlayer(p), Fraction(1, game.players)) for p in range(game.players)]
        if phase in (Phase.SETUP_DEAL, Phase.DRAW):
            counts: dict[str, int] = {}
            for card in self._deck:
                counts[card] = counts.get(card, 0) + 1
            total = len(self._deck)
            return [(DrawCard(card), Fraction(k, total)) for card, k in counts.items()]
        if phase is Phase.SETUP_MISSION:
            left = [m for m in missions_for(game.rules.missions, game.players) if m not in self._missions]
            return [(DrawCard(m), Fraction(1, len(left))) for m in left]
        if phase is Phase.SETUP_PLACE:  # random set-up: a random territory of the placing owner
            owner = self._queue[0][0]
            mine = [t for t in range(len(self._owner)) if self._owner[t] == owner and self._room(t, setup=True)]
            names = game.board.territories
            return [(PlaceArmies(names[t], 1), Fraction(1, len(mine))) for t in mine]
        if phase in (Phase.ROLL, Phase.BLITZ):
            return list(self._chance_table().outcomes)
        return []

    def _chance_table(self) -> Any:
        """The cached table of a roll or blitz node."""
        assert self._pending is not None
        _, source, target, third, _, defence = self._pending
        if self._phase is Phase.ROLL:
            return self.game.roll_table(third, defence)
        return self.game.blitz_table(self._armies[source] - 1, self._armies[target], third)

    def sample_chance(self) -> Any:
        """The outcome of this chance node drawn from the state's generator.

        The generator is part of the state and this method does not change
        it: the same state always samples the same outcome.  Applying any
        outcome of a chance node advances the generator one step, so a game
        replayed from its recorded outcomes ends in the same state.

        Outcomes have exactly the distribution that ``chance_outcomes()``
        lists.  A blitz of up to 64 attacking and 16 defending armies is one
        draw from the battle's cached table; one with more attackers is drawn
        in pieces from the table of 64 attackers, and one with more defenders
        is rolled out (16 rolls at a time where it can) with a stream of
        numbers derived from the generator: the same distribution, without
        building the table of a battle of hundreds or thousands of armies.
        """
        return sample_outcome(self)

    def reseeded(self, seed: int) -> GameState:
        """A copy of this state whose chance generator starts from ``seed``.

        The generator is part of the state, so a copy sampled as it is would
        know the dice the real game is going to roll.  Search agents explore
        from reseeded copies (seeded from their own generator) so that they
        only see what their player may see.
        """
        new = self._copy()
        new._rng = int(seed) & _MASK
        return new

    def _resolve_chance(self) -> None:
        """Auto-chance: sample and apply outcomes in place until a decision or the end.

        Also called by the in-place play loop (``riskmath.game.chance.run_game``).
        """
        while self._phase in CHANCE_PHASES or (self._phase is Phase.SETUP_PLACE and self.game.rules.setup == "random"):
            self._apply_outcome(sample_outcome(self))

    # -- queries ----------------------------------------------------------------------
    def _id(self, territory: object) -> int:
        return self.game.board.index(territory)  # type: ignore[arg-type]

    def owner(self, territory: str | int) -> int:
        """Owner id of a territory (-1 before it is claimed; neutrals are >= players)."""
        return self._owner[self._id(territory)]

    def armies(self, territory: str | int) -> int:
        """Armies on a territory."""
        return self._armies[self._id(territory)]

    def cards(self, player: int) -> tuple[str, ...]:
        """The cards in a player's hand (territory names, or ``"wild"``)."""
        return tuple(self._hands[player])

    def territories_of(self, owner: int) -> tuple[str, ...]:
        """Names of the territories an owner holds."""
        names = self.game.board.territories
        return tuple(names[t] for t, o in enumerate(self._owner) if o == owner)

    def reinforcements(self, player: int) -> int:
        """Armies ``player`` would receive for territories and continents now (before cards)."""
        owner = self._owner
        bonus = 0
        for value, members in self.game.continents:
            for t in members:
                if owner[t] != player:
                    break
            else:
                bonus += value
        return self.game.rules.reinforcements(owner.count(player)) + bonus

    @property
    def pool(self) -> int:
        """Armies the current player still has to place."""
        return self._pool

    @property
    def sets_traded(self) -> int:
        """Sets traded so far in the game (by anyone)."""
        return self._sets_traded

    @property
    def deck_size(self) -> int:
        return len(self._deck)

    def mission(self, player: int) -> str | None:
        """A player's secret mission (Secret Mission RISK), or None."""
        return self._missions[player] if player < len(self._missions) else None

    def capital(self, player: int) -> str | None:
        """A player's headquarters (Capital RISK), or None."""
        chosen = len(self._capitals)
        # While the players choose (from the first player round the table) the list is in the order of choice;
        # once complete it is indexed by player (fix: it was read by player during the choice too).
        k = player if chosen == self.game.players else (player - self._first) % self.game.players
        if k < chosen:
            return self.game.board.territories[self._capitals[k]]
        return None

    def alive(self, player: int) -> bool:
        return self._alive[player]

    @property
    def capture(self) -> tuple[str, str, int] | None:
        """While armies move into a capture (``OCCUPY``): source, target and the least armies to move; else None."""
        if self._occupy is None or self._phase is not Phase.OCCUPY:
            return None
        source, target, least = self._occupy
        names = self.game.board.territories
        return names[source], names[target], least

    def _repr_html_(self) -> str | None:
        """Rich display in notebooks (renderers in :mod:`riskmath.plots.notebook`)."""
        from riskmath._html import render

        return render(self)

    def __repr__(self) -> str:
        if self.is_terminal():
            result = "a draw" if self._winner is None else f"won by {self.game.owner_name(self._winner)}"
            return f"<GameState turn {self._turn}, GAME_OVER, {result}>"
        who = "chance" if self.is_chance_node() else self.game.owner_name(self._player)
        return f"<GameState turn {self._turn}, {self._phase.name}, {who} to move>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            self.game is other.game or self.game.to_dict() == other.game.to_dict()
        ) and self._as_tuple() == other._as_tuple()

    def __hash__(self) -> int:
        return hash((self._phase, self._turn, tuple(self._owner), tuple(self._armies)))

    def _as_tuple(self) -> tuple[Any, ...]:
        values = []
        for name in _FIELDS:
            value = getattr(self, f"_{name}")
            if isinstance(value, list):
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            elif isinstance(value, dict):
                value = tuple(sorted(value.items()))
            values.append(value)
        return tuple(values)

    # -- validation ---------------------------------------------------------------
    def _illegal(self, action: object, reason: str) -> IllegalActionError:
        who = self.game.owner_name(self._player) if self._player >= 0 else "nobody"
        return IllegalActionError(f"{action!r} is illegal in {self._phase.name} for {who}: {reason}")

    def _territory(self, action: object, territory: object) -> int:
        try:
            return self.game.board.index(territory)  # type: ignore[arg-type]
        except ValueError as error:
            raise self._illegal(action, str(error)) from None

    def _count(self, action: object, name: str, value: object, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._illegal(action, f"{name} must be an integer, got {value!r}")
        if not low <= value <= high:
            raise self._illegal(action, f"{name} must be in {low}..{high}, got {value}")
        return value

    def _room(self, t: int, setup: bool = False) -> int:
        """Armies territory ``t`` can still take under the caps."""
        cap = self.game.setup_cap if setup else self.game.cap
        return cap - self._armies[t] if cap > self._armies[t] else 0

    def _normalise(self, action: Any) -> Any:
        """Territory names to ids, without checks (the fast path)."""
        index = self.game.index
        if isinstance(action, PlaceArmies):
            return ("place", index.get(action.territory, action.territory), action.armies)  # type: ignore[arg-type]
        if isinstance(action, (Attack, Blitz, Fortify)):
            source = index.get(action.source, action.source)  # type: ignore[arg-type]
            target = index.get(action.target, action.target)  # type: ignore[arg-type]
            if isinstance(action, Attack):
                return ("attack", source, target, action.dice)
            if isinstance(action, Blitz):
                return ("blitz", source, target, action.stop_at)
            return ("fortify", source, target, action.armies)
        if isinstance(action, TradeCards):
            return ("trade", tuple(action.cards))
        if isinstance(action, Defend):
            return ("defend", action.dice)
        if isinstance(action, Occupy):
            return ("occupy", action.armies)
        if isinstance(action, ChooseCapital):
            return ("capital", index.get(action.territory, action.territory))  # type: ignore[arg-type]
        if isinstance(action, ChoosePile):
            return ("pile", action.pile)
        if isinstance(action, EndPhase):
            return ("end",)
        raise self._illegal(action, "not an action")

    def _check(self, action: Any) -> tuple[Any, ...]:
        """Validate ``action`` against this state; return its normalised form."""
        from riskmath.game.legality import check_action

        return check_action(self, action)

    def _check_outcome(self, outcome: Any) -> None:
        if all(outcome != possible for possible, _ in self.chance_outcomes()):
            raise self._illegal(outcome, "not a possible outcome of this chance node")

    # -- transitions ----------------------------------------------------------------
    def _apply_action(self, checked: tuple[Any, ...]) -> None:
        from riskmath.game.transitions import apply_action

        apply_action(self, checked)

    def _apply_outcome(self, outcome: Any) -> None:
        from riskmath.game.transitions import apply_outcome

        self._rng = advance(self._rng)
        apply_outcome(self, outcome)

    def _enumerate(self) -> list[tuple[int, Callable[[int], Any]]]:
        from riskmath.game.legality import enumerate_actions

        return enumerate_actions(self)

    # -- serialisation ----------------------------------------------------------------
    def to_json(self) -> str:
        """The state (and its game) as JSON; :meth:`from_json` reads it back."""
        from riskmath.game.serialise import state_to_json

        return state_to_json(self)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """Rebuild a state from :meth:`to_json`, checking it for consistency.

        Raises
        ------
        StateError
            If the JSON is malformed or describes an impossible state.
        """
        from riskmath.game.serialise import state_from_json

        return state_from_json(text)

    def problems(self) -> list[str]:
        """What is inconsistent in this state (an empty list for a sound one).

        Checks that every territory has an owner and at least one army (after
        the set-up), that the cards in the deck, the discard pile and the
        hands make up the whole deck, and that players marked alive hold
        territory.  States built by ``apply`` are always sound; this is for
        states loaded or edited by hand.
        """
        from riskmath.game.serialise import state_problems

        return state_problems(self)

    def mission_complete(self, player: int) -> bool:
        """Whether ``player`` has completed its secret mission now."""
        return bool(self._missions) and mission_complete(self, player)
