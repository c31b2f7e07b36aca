"""A fast, calibrated estimate of each player's chance of victory, fitted to self-play; and how to check one.

:func:`estimate_victory_probabilities` is a conditional (multinomial) logit: each
player still in the game gets a score ``w . f(player)`` from the features of
:mod:`riskmath.evaluate._features` (shares of territories, armies and
income, the expected losses and captures of the next turn from the exact
battle odds, continents likely to be kept, cards, whose turn it is), and the
chances are the softmax of the scores over those players.  The weights ``w``
were fitted by maximum likelihood (with a small L2 penalty) to the winners
of games between the built-in odds agents, 2 to 6 players on the classic
map, at player-turns 10 to 40; ``bench/fit_estimate.py`` regenerates them
into :mod:`riskmath.evaluate._coefficients` and reports how well they do on
games the fit never saw (see the docs page "How good is the estimate").

With ``lineup=`` (a name of ``riskmath.evaluate.estimate.LINEUPS``), the estimate is a variant
fitted to the games of that line-up of agents under every preset of
:meth:`riskmath.Rules.presets`: its weights are ``W @ [1, r]``, ``r`` the
rule features of the game (``riskmath.evaluate._rule_features``), computed once
per line-up, rules and player count; it adds each player's progress along its
secret mission, its share of the headquarters (Capital RISK) and which agent
sits in its seat.  The variants' weights are data,
``riskmath/evaluate/data/lineups.json``, written by
``bench/fit_estimate.py --lineups``.

:func:`victory_chances_over` evaluates the estimate turn by turn over a sequence
of states, and :func:`calibration_table` bins predicted probabilities against
what happened (the numbers of a reliability diagram).
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Iterable, Sequence
from importlib import resources
from operator import mul
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import deprecated, shown
from riskmath.errors import InvalidArgumentError
from riskmath.evaluate._coefficients import COEFFICIENTS
from riskmath.evaluate._features import player_features
from riskmath.evaluate._rule_features import extra_features, rule_features
from riskmath.evaluate.outlook import check_state
from riskmath.game.phase import Phase

if TYPE_CHECKING:
    import pandas as pd

    from riskmath.game.context import GameContext
    from riskmath.game.state import GameState

__all__ = [
    "LINEUPS",
    "calibration_table",
    "estimate_victory_probabilities",
    "estimate_win_probabilities",
    "victory_chances_over",
    "win_chances_over",
]

#: The phases of the set-up, in which there is no position to estimate.
SETUP_PHASES = (
    Phase.SETUP_ORDER,
    Phase.SETUP_DEAL,
    Phase.SETUP_PILE,
    Phase.SETUP_CLAIM,
    Phase.SETUP_PLACE,
    Phase.SETUP_CAPITAL,
    Phase.SETUP_MISSION,
)


def _check_state(state: object) -> GameState:
    state = check_state(state)
    if state.phase in SETUP_PHASES or -1 in state.position.owner:
        raise InvalidArgumentError(f"state must be past the set-up, got {state!r}")
    return state


def _load_variants() -> dict[str, Any]:
    """The line-up variants' agents and weights, as ``bench/estimate_lineups.py`` wrote them (data, not code)."""
    text = resources.files("riskmath.evaluate").joinpath("data", "lineups.json").read_text(encoding="utf-8")
    lineups: dict[str, Any] = json.loads(text)["lineups"]
    return lineups


_VARIANT_DATA = _load_variants()
#: Each line-up variant's weights: one row per feature (the estimate's, the extra ones, one per agent), one value
#: for the base and one per rule feature (``riskmath.evaluate._rule_features.RULE_FEATURES``) in each row.
_VARIANTS: dict[str, tuple[tuple[float, ...], ...]] = {
    name: tuple(tuple(row) for row in entry["weights"]) for name, entry in _VARIANT_DATA.items()
}

#: The line-ups the estimate has a fitted variant for: each name (the ``lineup=`` keyword) and the agents of the
#: seats, by their names in :data:`riskmath.agents.AGENTS`, cycled from seat 0 (so ``("aggressive", "odds", "random")``
#: puts an aggressive agent in seats 0 and 3, an odds agent in seats 1 and 4, a random agent in seats 2 and 5).
LINEUPS: dict[str, tuple[str, ...]] = {name: tuple(entry["agents"]) for name, entry in _VARIANT_DATA.items()}


def _softmax(
    rows: Sequence[Sequence[float]], alive: Sequence[bool], weights: Sequence[float], seats: Sequence[float] = ()
) -> list[float]:
    """The softmax of ``weights . row`` (plus ``seats[p]``, if given) over the players in the game; 0 for the others."""
    # (sum over map: the same products summed in the same order as a generator, at half the cost)
    scores = [sum(map(mul, weights, row)) if a else -math.inf for row, a in zip(rows, alive, strict=False)]
    for p, bonus in enumerate(seats):
        scores[p] += bonus
    top = max(scores)
    powers = [math.exp(s - top) if s > -math.inf else 0.0 for s in scores]
    total = sum(powers)
    return [x / total for x in powers]


def victory_from_features(
    rows: Sequence[Sequence[float]],
    alive: Sequence[bool],
    weights: Sequence[float] | None = None,
    seats: Sequence[float] = (),
) -> list[float]:
    """The estimate from feature rows (``riskmath.evaluate._features``): the shipped weights, or a variant's.

    For :class:`~riskmath.evaluate.WhatIf`; ``weights`` and ``seats`` as :func:`variant_weights` gives them.
    """
    return _softmax(rows, alive, COEFFICIENTS if weights is None else weights, seats)


def check_lineup(lineup: object, name: str = "lineup") -> str | None:
    """``lineup`` if it is ``None`` or the name of a line-up of :data:`LINEUPS`; else an error naming ``name``."""
    if lineup is None or (isinstance(lineup, str) and lineup in LINEUPS):
        return lineup
    names = ", ".join(repr(known) for known in LINEUPS)
    raise InvalidArgumentError(f"{name} must be None or one of {names}, got {shown(lineup)}")


#: Each variant's weights for a game (line-up, rules, players): the feature weights and each seat's agent term.
_FOR_GAME: dict[tuple[str, object, int, str], tuple[list[float], list[float]]] = {}


def _variant(lineup: str, game: GameContext) -> tuple[list[float], list[float]]:
    """A line-up variant's weights under ``game``'s rules, ``W @ [1, r]``, split into features and seat terms."""
    key = (lineup, game.rules, game.players, game.board.name)  # (the board: a feature of its own)
    found = _FOR_GAME.get(key)
    if found is None:
        r = (1.0, *rule_features(game))
        weights = [sum(w * x for w, x in zip(row, r, strict=True)) for row in _VARIANTS[lineup]]
        agents = LINEUPS[lineup]
        distinct = list(dict.fromkeys(agents))
        first = len(weights) - len(distinct)
        seats = [weights[first + distinct.index(agents[p % len(agents)])] for p in range(game.players)]
        if len(_FOR_GAME) >= 1024:
            _FOR_GAME.clear()
        found = _FOR_GAME[key] = (weights[:first], seats)
    return found


def variant_weights(lineup: str, game: GameContext) -> tuple[list[float], list[float]]:
    """A line-up variant's weights under ``game``'s rules and player count: per feature, and per seat.

    The features are :data:`~riskmath.evaluate._features.FEATURES` followed by the
    extra ones (:func:`~riskmath.evaluate._rule_features.extra_features`).
    Raises InvalidArgumentError for an unknown ``lineup``.
    """
    check_lineup(lineup)
    return _variant(lineup, game)


def victory_list(state: GameState, weights: Sequence[float] | None = None, *, lineup: str | None = None) -> list[float]:
    """:func:`estimate_victory_probabilities` as a list (no state checks, no pandas): for agents and scripts.

    ``weights`` replaces the default estimate's weights (not with ``lineup``);
    an unknown ``lineup`` raises InvalidArgumentError.
    """
    if lineup is not None:  # (checked first: at the end of a game the answer needs neither, and was given anyway)
        if weights is not None:
            raise InvalidArgumentError(f"give weights or lineup, not both (got lineup {lineup!r})")
        check_lineup(lineup)
    pos = state.position
    if pos.phase is Phase.GAME_OVER:
        return [1.0 if p == pos.winner else 0.0 for p in range(state.game.players)]
    rows, alive = player_features(state)
    if lineup is None:
        return _softmax(rows, alive, COEFFICIENTS if weights is None else weights)
    main, seats = _variant(lineup, state.game)
    extra = extra_features(state, alive)
    return _softmax([row + more for row, more in zip(rows, extra, strict=True)], alive, main, seats)


def estimate_victory_probabilities(state: GameState, *, lineup: str | None = None) -> pd.Series:
    """Each player's chance of victory from ``state``, estimated in well under a millisecond from its features.

    A conditional logit over the players still in the game: player ``p``
    wins the game with probability ``exp(w . f(p)) / sum_q exp(w . f(q))``, where
    ``f`` are features of the position relative to the table (see
    ``riskmath.evaluate.estimate``) and ``w`` weights fitted to the
    outcomes of self-play between the built-in odds agents
    (:class:`~riskmath.agents.odds.OddsAgent`).  Unlike
    :func:`~riskmath.evaluate.position_value`, whose weights are chosen by hand, the result is
    a probability, and its calibration is measured on games the fit never
    saw (Brier score, log loss and a reliability diagram on the docs page
    "How good is the estimate").

    Parameters
    ----------
    state : GameState
        Any state past the set-up.  The weights were fitted at the start of
        player-turns 10 to 40 of classic-rules games (2 to 6 players, classic
        map, no missions or capitals); elsewhere the estimate is an
        extrapolation: mid-turn states (whose features are read as they
        stand, the turn's attacks partly made) and other rules get numbers,
        but nobody has measured them.
    lineup : str, optional
        Who plays on: the name of a line-up of ``riskmath.evaluate.estimate.LINEUPS`` (``"odds"``,
        ``"aggressive"``, ``"mixed"``, ``"planner"``: the agents of the seats, cycled from
        seat 0) for that line-up's variant, whose weights were fitted to its
        games under every preset of :meth:`riskmath.Rules.presets` and change
        with the rules (missions, capitals, the defender's dice, the card
        values, ...; the docs page "How good is the estimate" has its
        held-out scores per preset).  By default (``None``), the estimate
        fitted to odds agents under the classic rules, as before.

    Returns
    -------
    pandas.Series
        Named ``victory``, indexed by ``player`` (``0 .. players - 1``; neutral
        owners are not players).  The values sum to 1 and are exactly 0 for
        an eliminated player.  At the end of a game the winner gets exactly
        1 and everybody else 0; after a draw (the game ended by its turn cap
        without a winner) every value is 0, as in ``state.returns()``: nobody
        can win any more, so that is the one case where the values do not
        sum to 1.

    Raises
    ------
    InvalidArgumentError
        If ``state`` is not a :class:`~riskmath.GameState`, or is still in
        the set-up (territories unclaimed or armies being placed), or
        ``lineup`` names no line-up of ``riskmath.evaluate.estimate.LINEUPS``.

    See Also
    --------
    riskmath.victory_probabilities : Rollouts from the position (slower, with intervals).
    riskmath.evaluate.position_value : The hand-weighted score the agents use.

    Examples
    --------
    A position ten turns into a three-player game between odds agents, player 1 to place 8 armies:

    >>> import random, riskmath as rm
    >>> from riskmath.agents.odds import OddsAgent
    >>> state = rm.Game(3).new_initial_state(seed=4, auto_chance=True)
    >>> agent, rng = OddsAgent(), random.Random(0)
    >>> while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
    ...     state = state.apply(agent.act(state, rng))
    >>> chances = estimate_victory_probabilities(state)
    >>> chances.round(3)
    player
    0    0.082
    1    0.573
    2    0.344
    Name: victory, dtype: float64
    >>> round(float(chances.sum()), 12)
    1.0

    The same position, asked of the line-up variants: odds agents playing
    on (the variant fitted under every preset), aggressive agents, and the
    mixed table, in which player 1 is the odds agent and player 2 the
    random one:

    >>> estimate_victory_probabilities(state, lineup="odds").round(3).tolist()
    [0.05, 0.662, 0.287]
    >>> estimate_victory_probabilities(state, lineup="aggressive").round(3).tolist()
    [0.121, 0.547, 0.332]
    >>> estimate_victory_probabilities(state, lineup="mixed").round(3).tolist()
    [0.029, 0.968, 0.003]
    """
    import pandas as pd

    _check_state(state)
    check_lineup(lineup)
    chances = victory_list(state, lineup=lineup)
    return pd.Series(chances, index=pd.RangeIndex(state.game.players, name="player"), name="victory")


@deprecated("riskmath.evaluate.estimate_win_probabilities", "riskmath.evaluate.estimate_victory_probabilities")
def estimate_win_probabilities(state: GameState, *, lineup: str | None = None) -> pd.Series:
    """Deprecated: :func:`estimate_victory_probabilities`, the Series named ``win`` as before.

    Warns a ``DeprecationWarning`` naming the new function.
    """
    return estimate_victory_probabilities(state, lineup=lineup).rename("win")


def victory_chances_over(states: Iterable[GameState], *, lineup: str | None = None) -> pd.DataFrame:
    """The estimate at the start of every player-turn in a sequence of states (a game in order).

    Parameters
    ----------
    states : iterable of GameState
        The states of one game in the order played, for instance every state
        of a replay (``state.apply`` action after action).  States in the
        set-up are skipped, and of several states in the same player-turn
        only the first is evaluated.  If the last state is the end of the
        game, the row of its player-turn holds the result instead, so that
        a finished game ends on it: 1 for the winner and 0 for the others,
        or 0 for everyone at a draw by the turn cap, with ``player`` -1
        (nobody's turn).  A sequence that stops before the end has no such
        row.
    lineup : str, optional
        The line-up variant of the estimate (see
        :func:`estimate_victory_probabilities`); by default the estimate
        fitted to odds agents under the classic rules.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``turn``: ``player`` (whose turn it is, -1 in a finished
        game's last row) and one column per player, ``0 .. players - 1``,
        holding :func:`estimate_victory_probabilities` at that point.

    Raises
    ------
    InvalidArgumentError
        If an element is not a GameState, the states are from different
        games or not in turn order, or none is past the set-up, or
        ``lineup`` names no line-up of ``riskmath.evaluate.estimate.LINEUPS``.

    Examples
    --------
    >>> import riskmath as rm
    >>> from riskmath.agents import AggressiveAgent, RandomAgent
    >>> game = rm.Game(2, max_turns=30)
    >>> record = rm.play(game, [AggressiveAgent(), AggressiveAgent()], seed=1)
    >>> def replay(record):
    ...     state = game.new_initial_state(record.seed, auto_chance=True)
    ...     yield state
    ...     for action in record.actions:
    ...         state = state.apply(action)
    ...         yield state
    >>> chances = victory_chances_over(replay(record))
    >>> chances.index[0], chances.index[-1] == record.final.turn, record.winner
    (1, True, 0)
    >>> chances.iloc[-1].tolist()    # the result: player -1 (nobody's turn), player 0 has won
    [-1.0, 1.0, 0.0]
    """
    import pandas as pd

    from riskmath.game.state import GameState

    check_lineup(lineup)
    rows: list[list[Any]] = []
    game = None
    last_turn, last = 0, None
    given: object = states  # (typed as what the caller should pass; checked as anything)
    if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
        raise InvalidArgumentError(f"states must be an iterable of GameStates, got {shown(states)}")
    for state in states:
        if not isinstance(state, GameState):
            raise InvalidArgumentError(f"states must be GameStates, got {type(state).__name__}: {state!r}")
        if game is None:
            game = state.game
        elif state.game is not game and state.game.to_dict() != game.to_dict():
            raise InvalidArgumentError(f"states must come from one game, got {state.game!r} after {game!r}")
        if state.phase in SETUP_PHASES or -1 in state.position.owner:
            continue
        if state.turn < last_turn:
            raise InvalidArgumentError(f"states must be in turn order, got turn {state.turn} after turn {last_turn}")
        last = state
        if state.turn != last_turn:
            last_turn = state.turn
            rows.append([state.turn, state.turn_player, *victory_list(state, lineup=lineup)])
            last = None
    if last is not None and last.is_terminal():
        final = [last.turn, last.turn_player, *victory_list(last, lineup=lineup)]
        if rows and rows[-1][0] == last.turn:
            rows[-1] = final
        else:
            rows.append(final)
    if game is None or not rows:
        raise InvalidArgumentError("states must hold at least one state past the set-up")
    columns = ["turn", "player", *range(game.players)]
    return pd.DataFrame(rows, columns=columns).set_index("turn")


@deprecated("riskmath.evaluate.win_chances_over", "riskmath.evaluate.victory_chances_over")
def win_chances_over(states: Iterable[GameState], *, lineup: str | None = None) -> pd.DataFrame:
    """Deprecated: :func:`victory_chances_over` (the same table), with a ``DeprecationWarning``."""
    return victory_chances_over(states, lineup=lineup)


@deprecated("riskmath.evaluate.estimate.win_list", "riskmath.evaluate.estimate.victory_list")
def win_list(state: GameState, weights: Sequence[float] | None = None, *, lineup: str | None = None) -> list[float]:
    """Deprecated: :func:`victory_list` under its old name, with a ``DeprecationWarning``."""
    return victory_list(state, weights, lineup=lineup)


def calibration_table(predicted: Any, outcomes: Any, *, bins: int = 10) -> pd.DataFrame:
    """Predicted probabilities binned against the observed frequency of the event (a reliability table).

    Parameters
    ----------
    predicted : array_like of float
        Probabilities in [0, 1], one per prediction (for the victory estimate:
        one per player and position).
    outcomes : array_like of bool or {0, 1}
        Whether each predicted event happened, the same length.
    bins : int, default 10
        Equal-width bins over [0, 1]; a prediction of exactly 1 goes in the
        last.

    Returns
    -------
    pandas.DataFrame
        One row per bin holding predictions, indexed by ``bin``: ``low`` and
        ``high`` (the bin's edges), ``count``, ``events`` (outcomes that
        happened), ``predicted`` (the mean prediction in the bin) and
        ``observed`` (``events / count``).  For a calibrated predictor,
        ``observed`` is close to ``predicted`` in every bin.

    Raises
    ------
    InvalidArgumentError
        For predictions outside [0, 1] or NaN, outcomes other than 0 and 1,
        arrays of different or zero length, or ``bins`` not a positive integer.

    Examples
    --------
    >>> table = calibration_table([0.1, 0.15, 0.8, 0.9], [0, 1, 1, 1], bins=2)
    >>> table
         low  high  count  events  predicted  observed
    bin
    0    0.0   0.5      2       1      0.125       0.5
    1    0.5   1.0      2       2      0.850       1.0
    """
    import pandas as pd

    from riskmath._validation import check_int

    bins = check_int("bins", bins, minimum=1, maximum=10_000)
    try:
        given = np.asarray(predicted) if predicted is not None else None
    except (TypeError, ValueError):  # (ragged nested sequences)
        raise InvalidArgumentError(
            f"predicted must be probabilities in [0, 1] (a sequence of numbers), got {shown(predicted)}"
        ) from None
    numeric = given is not None and (
        given.dtype.kind in "biuf"
        or (given.dtype.kind == "O" and all(isinstance(v, numbers.Real) for v in given.ravel()))  # (Fractions)
    )
    if not numeric:  # (strings, None, other objects: as outcomes are refused)
        kind = "None" if given is None else f"an array of {given.dtype}"
        raise InvalidArgumentError(f"predicted must be probabilities in [0, 1] (numbers), got {kind}")
    assert given is not None
    try:
        p = given.astype(float).ravel()
    except OverflowError:  # (a Fraction too large for a float: not a probability)
        raise InvalidArgumentError(f"predicted must be probabilities in [0, 1], got {shown(predicted)}") from None
    raw = np.asarray(outcomes)
    if raw.dtype.kind not in "biuf":
        raise InvalidArgumentError(f"outcomes must be 0 or 1, got an array of {raw.dtype}")
    if given.ndim > 1 and given.shape != raw.shape:  # (flat arrays of one length pair up; shaped ones must match)
        raise InvalidArgumentError(
            f"predicted and outcomes must have the same shape, got {given.shape} and {raw.shape}"
        )
    y = raw.astype(float).ravel()
    if p.size == 0 or p.size != y.size:
        raise InvalidArgumentError(
            f"predicted and outcomes must have the same positive length, got {p.size} and {y.size}"
        )
    if not np.all((p >= 0) & (p <= 1)):
        bad = p[~((p >= 0) & (p <= 1))][0]
        raise InvalidArgumentError(f"predicted must be probabilities in [0, 1], got {bad!r}")
    if not np.all((y == 0) | (y == 1)):
        bad = y[~((y == 0) | (y == 1))][0]
        raise InvalidArgumentError(f"outcomes must be 0 or 1, got {bad!r}")
    which = np.minimum((p * bins).astype(int), bins - 1)
    count = np.bincount(which, minlength=bins)
    events = np.bincount(which, weights=y, minlength=bins)
    total = np.bincount(which, weights=p, minlength=bins)
    used = np.flatnonzero(count)
    edges = np.linspace(0.0, 1.0, bins + 1)
    frame = pd.DataFrame(
        {
            "low": edges[used],
            "high": edges[used + 1],
            "count": count[used],
            "events": events[used].astype(int),
            "predicted": total[used] / count[used],
            "observed": events[used] / count[used],
        },
        index=pd.Index(used, name="bin"),
    )
    return frame
