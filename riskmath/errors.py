"""Exceptions raised by riskmath.

Every error riskmath raises on purpose derives from :class:`RiskmathError`, so
``except riskmath.RiskmathError`` catches them all.  Errors caused by a bad
argument value also derive from :class:`ValueError`, so code that already
catches ``ValueError`` keeps working.  Each message names the offending value.

Examples
--------
>>> import riskmath as rm
>>> try:
...     rm.battle(2.5, 3)
... except rm.RiskmathError as error:
...     print(type(error).__name__, isinstance(error, ValueError), error)
InvalidArgumentError True attackers must be an integer, got 2.5
"""

from __future__ import annotations

import signal

__all__ = [
    "AgentError",
    "BoardError",
    "CardError",
    "IllegalActionError",
    "InvalidArgumentError",
    "ResourceLimitError",
    "RiskmathError",
    "RulesError",
    "SimulationInterrupted",
    "StateError",
    "UndefinedStatisticError",
    "WorkerError",
]


class RiskmathError(Exception):
    """Base class of every exception raised by riskmath.

    Examples
    --------
    >>> issubclass(InvalidArgumentError, RiskmathError), issubclass(IllegalActionError, RiskmathError)
    (True, True)
    """


class InvalidArgumentError(RiskmathError, ValueError):
    """An argument has a bad value: a negative or non-integer army count,
    zero dice, an unknown option name, and so on.

    Examples
    --------
    >>> import riskmath as rm
    >>> rm.battle(-1, 3)
    Traceback (most recent call last):
        ...
    riskmath.errors.InvalidArgumentError: attackers must be >= 0, got -1
    """


class ResourceLimitError(InvalidArgumentError):
    """The arguments ask for more memory or time than the current limits allow.

    Raised *before* anything large is allocated; the message names the
    argument, the estimate and the limit.  The limits are set in one place,
    :func:`riskmath.set_limits`, and a subclass of :class:`InvalidArgumentError`
    so that code catching bad arguments catches this too.

    Examples
    --------
    >>> import riskmath as rm
    >>> with rm.set_limits(max_memory=2**20):
    ...     rm.odds_table(1000, 1000)
    Traceback (most recent call last):
        ...
    riskmath.errors.ResourceLimitError: statistics of the 1000 x 1000 grid (...) needs about 45.9 MiB, ...
    """


class BoardError(RiskmathError, ValueError):
    """A board (map) is inconsistent, e.g. a border names an unknown territory
    or the map is not connected, or a territory or continent name is unknown.

    Examples
    --------
    >>> import riskmath as rm
    >>> rm.Board.from_dict({"name": "tiny", "continents": [{"name": "A", "bonus": 1, "territories": ["a", "b"]}],
    ...                     "borders": [["a", "c"]]})
    Traceback (most recent call last):
        ...
    riskmath.errors.BoardError: border 0 ['a', 'c'] names unknown territory 'c'
    """


class CardError(RiskmathError, ValueError):
    """A card, a deck, a set or a set-value schedule is invalid, e.g. three
    cards that are not a set, an unknown schedule name or symbol mapping.

    Examples
    --------
    >>> import riskmath as rm
    >>> rm.SetValues.preset("doubling")
    Traceback (most recent call last):
        ...
    riskmath.errors.CardError: set-value schedule must be one of 'progressive_1993', ...; got 'doubling'
    """


class RulesError(RiskmathError, ValueError):
    """A rules object is inconsistent, e.g. zero dice or one-sided dice.

    Examples
    --------
    >>> import riskmath as rm
    >>> rm.CombatRules(attacker_sides=1)
    Traceback (most recent call last):
        ...
    riskmath.errors.RulesError: CombatRules.attacker_sides must be an integer in 2..1000, got 1
    """


class UndefinedStatisticError(RiskmathError, ValueError):
    """A conditional statistic was asked for on an event of probability zero,
    e.g. the expected survivors *given a win* of a battle that cannot be won.

    Examples
    --------
    >>> import riskmath as rm
    >>> rm.battle(0, 1).expected_attackers_left_if_won
    Traceback (most recent call last):
        ...
    riskmath.errors.UndefinedStatisticError: expected_attackers_left_if_won is undefined for Battle(0, 1): ...
    """


class IllegalActionError(RiskmathError, ValueError):
    """An action is malformed or not allowed in the current state.

    The message names the action, the phase, the player and the reason; the
    state it was applied to is unchanged.

    Examples
    --------
    >>> import riskmath as rm
    >>> state = rm.Game(3).new_initial_state(seed=0, auto_chance=True)
    >>> state.apply(rm.Attack("Alaska", "Kamchatka"))
    Traceback (most recent call last):
        ...
    riskmath.errors.IllegalActionError: Attack(...) is illegal in SETUP_CLAIM for player 2: expected PlaceArmies ...
    """


class StateError(RiskmathError, ValueError):
    """A saved game state is corrupt or inconsistent (e.g. a territory with
    no owner, or cards that are neither in the deck nor in any hand).

    Examples
    --------
    >>> import riskmath as rm
    >>> rm.GameState.from_json("{}")
    Traceback (most recent call last):
        ...
    riskmath.errors.StateError: not a riskmath state (format 'riskmath-state/1' expected)
    """


class AgentError(RiskmathError):
    """An agent failed during a game: it raised, or a trusted agent's unchecked action broke the game.

    The message names the agent, its seat and the game's seed; the original
    exception is chained (``__cause__``).  :func:`riskmath.simulate` attaches
    the games that finished before the failure as ``results`` (a DataFrame,
    possibly empty); :func:`riskmath.play` leaves it ``None``.

    Attributes
    ----------
    agent : str
        The agent's name.
    seat : int
    seed : int
        The seed of the game it failed in (replay with ``play(game, agents, seed)``).
    results : pandas.DataFrame or None
        The rows of the games that finished (``simulate`` only).
    """

    def __init__(self, message: str, *, agent: str = "", seat: int = -1, seed: int = -1) -> None:
        super().__init__(message)
        self.agent = agent
        self.seat = seat
        self.seed = seed
        self.results: object = None

    def __reduce__(self) -> tuple[object, ...]:  # picklable from a worker process, keywords and attributes included
        return (_agent_error, (type(self), str(self), self.agent, self.seat, self.seed), dict(self.__dict__))


def _agent_error(kind: type[AgentError], message: str, agent: str, seat: int, seed: int) -> AgentError:
    return kind(message, agent=agent, seat=seat, seed=seed)


class SimulationInterrupted(KeyboardInterrupt):
    """:func:`riskmath.simulate` was interrupted: the games that finished are in ``results``.

    Raised on Ctrl-C (a ``KeyboardInterrupt``) and, during a parallel run,
    on SIGTERM or SIGHUP when they have no handler of the program's own
    (see :func:`riskmath.simulate`).  A ``KeyboardInterrupt``, so that
    ``except KeyboardInterrupt`` and the interpreter treat it as one; not a
    :class:`RiskmathError` (nothing went wrong).

    Attributes
    ----------
    results : pandas.DataFrame
        The games that finished, in seed order (possibly none).
    n_games : int
        The number of games asked for.
    signum : signal.Signals
        The signal that stopped the run: ``SIGINT`` for Ctrl-C, or
        ``SIGTERM`` or ``SIGHUP``.  A command-line program exits with
        ``128 + signum`` (130, 143, 129), as a shell reports it.

    Examples
    --------
    >>> import signal
    >>> stop = SimulationInterrupted([], 10, signum=signal.SIGTERM)
    >>> str(stop), int(stop.signum)
    ('simulation interrupted by SIGTERM: 0 of 10 games finished (kept in .results)', 15)
    """

    def __init__(self, results: object, n_games: int, *, signum: int = signal.SIGINT) -> None:
        kept = len(results)  # type: ignore[arg-type]
        self.signum = signal.Signals(signum)
        by = "" if self.signum == signal.SIGINT else f" by {self.signum.name}"
        super().__init__(f"simulation interrupted{by}: {kept} of {n_games} games finished (kept in .results)")
        self.results = results
        self.n_games = n_games

    def __reduce__(self) -> tuple[object, ...]:
        return (_interrupted, (type(self), self.results, self.n_games, int(self.signum)))


def _interrupted(
    kind: type[SimulationInterrupted], results: object, n_games: int, signum: int
) -> SimulationInterrupted:
    return kind(results, n_games, signum=signum)


class WorkerError(RiskmathError, RuntimeError):
    """A parallel run lost games: a worker process died, or the executor failed on a chunk of games.

    A worker killed from outside (by the out-of-memory killer, say) breaks
    a process pool: every chunk of games in flight is lost.  The message
    names the lost games (their numbers in the run and their seeds) and
    how the worker ended; the original exception (e.g. the pool's
    ``BrokenProcessPool``) is chained as ``__cause__``.  A ``RuntimeError``,
    like that one, and not a ``ValueError``: no argument was wrong.

    Attributes
    ----------
    results : pandas.DataFrame or None
        The games that finished, in seed order (possibly none).
    lost_games : list of int
        The numbers (0 for the first game of the run) of the games that
        were in flight and are lost.
    lost_seeds : list of int
        Their seeds (replay one with ``riskmath.play(game, agents, seed)``).

    Examples
    --------
    >>> error = WorkerError("a worker died", lost_games=[4, 5], lost_seeds=[11, 12])
    >>> error.lost_games, error.results is None, isinstance(error, RuntimeError)
    ([4, 5], True, True)
    """

    def __init__(
        self, message: str, *, lost_games: list[int] | None = None, lost_seeds: list[int] | None = None
    ) -> None:
        super().__init__(message)
        self.lost_games = list(lost_games or [])
        self.lost_seeds = list(lost_seeds or [])
        self.results: object = None
