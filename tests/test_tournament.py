"""Tournaments: the table, its intervals, and the ordering the issue asks for (odds > aggressive > random).

The ordering tests play fixed seeds, so they are deterministic; the margins are chosen so that the claims
would also hold, with high probability, for other seeds: each asserts that the lower end of the 95 % Wilson
interval clears the bar (a clear majority: above one half), not merely the point estimate.
"""

from __future__ import annotations

import re
import types

import numpy as np
import pytest

import riskmath as rm
from riskmath.agents import AggressiveAgent, RandomAgent
from riskmath.agents.odds import OddsAgent
from riskmath.errors import InvalidArgumentError
from riskmath.tournament import tournament, wilson_interval


@pytest.mark.parametrize(
    ("k", "n", "expected"),
    [
        # Wilson (1927) score interval, z = 1.959964; values as tabulated by Newcombe (1998), Table I.
        (81, 263, (0.2553, 0.3662)),
        (15, 148, (0.0624, 0.1605)),
        (0, 20, (0.0, 0.1611)),
        (1, 29, (0.0061, 0.1718)),
    ],
)
def test_wilson_interval_reference_values(k, n, expected):
    low, high = wilson_interval(k, n)
    assert (round(low, 4), round(high, 4)) == expected


def test_wilson_interval_bad_arguments():
    with pytest.raises(InvalidArgumentError, match="successes"):
        wilson_interval(5, 4)
    for bad in (1.0, 1, 95.0, 0, float("nan")):
        with pytest.raises(InvalidArgumentError, match=rf"confidence must be strictly between 0 and 1, got {bad!r}$"):
            wilson_interval(1, 4, confidence=bad)
    for bad in (True, "0.95"):
        with pytest.raises(InvalidArgumentError, match=rf"confidence must be a number, got {bad!r}$"):
            wilson_interval(1, 4, confidence=bad)
    assert wilson_interval(1, 4, confidence=np.float32(0.95)) == wilson_interval(
        1, 4, confidence=float(np.float32(0.95))
    )


class Counting(RandomAgent):
    """A random agent that counts its decisions."""

    decisions = 0

    def act(self, state, rng):
        Counting.decisions += 1
        return super().act(state, rng)


@pytest.mark.parametrize(
    ("game", "confidence", "message"),
    [
        (rm.Game(2, max_turns=20), 95.0, "confidence must be strictly between 0 and 1, got 95.0"),
        (None, 0.95, "game must be a riskmath Game, got NoneType: None"),
        ("classic", 0.95, "game must be a riskmath Game, got str: 'classic'"),
    ],
)
def test_a_tournament_refuses_bad_arguments_before_any_game(game, confidence, message):
    # Found by a hostile-user review: confidence was checked once every game was played, and a game that is not
    # a Game raised AttributeError.
    Counting.decisions = 0
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        tournament(game, [[Counting(), RandomAgent()]], 4, confidence=confidence)
    assert Counting.decisions == 0


def test_a_tournament_too_big_for_memory_is_refused_in_its_own_name():
    # It was refused as "simulate with n_games=500000000000": another function, and half the games asked for.
    Counting.decisions = 0
    with pytest.raises(rm.ResourceLimitError, match=r"^tournament with n_games=1000000000000 \(500000000000 games a "):
        tournament(rm.Game(2), [[Counting(), RandomAgent()]], 10**12)
    assert Counting.decisions == 0


def test_rotations_and_columns():
    table = tournament(rm.Game(3, max_turns=40), [[AggressiveAgent(), RandomAgent(), RandomAgent()]], 7, seed=2)
    assert list(table.columns) == [
        "lineup", "agent", "seats", "games", "wins", "draws", "win_rate", "ci_low", "ci_high", "seconds_per_game",
    ]  # fmt: skip
    assert table["lineup"].tolist() == ["aggressive,random,random"] * 2
    assert table["seats"].tolist() == [1, 2]
    assert table["wins"].sum() + table["draws"].iloc[0] == 7
    # One wall time per line-up, on each of its rows; everything else is reproducible.
    assert table["seconds_per_game"].nunique() == 1
    assert 0 < table["seconds_per_game"].iloc[0] < 60
    again = tournament(rm.Game(3, max_turns=40), [[AggressiveAgent(), RandomAgent(), RandomAgent()]], 7, seed=2)
    assert table.drop(columns="seconds_per_game").equals(again.drop(columns="seconds_per_game"))


def test_by_seat_rows_add_up_to_the_table_without_them():
    game = rm.Game(3, max_turns=40)
    lineups = [[AggressiveAgent(), RandomAgent(), RandomAgent()], [RandomAgent(), AggressiveAgent(), OddsAgent()]]
    table = tournament(game, lineups, 8, seed=4)
    seats = tournament(game, lineups, 8, seed=4, by_seat=True)
    assert list(seats.columns) == [
        "lineup", "agent", "seats", "seat", "games", "wins", "draws", "win_rate", "ci_low", "ci_high",
        "seconds_per_game",
    ]  # fmt: skip
    assert len(seats) == 3 * (2 + 3)  # one row per line-up, agent and seat
    summed = seats.groupby(["lineup", "agent"], sort=False)[["games", "wins", "draws"]].sum().reset_index()
    assert summed["wins"].tolist() == table["wins"].tolist()
    assert summed["games"].tolist() == (table["games"] * table["seats"]).tolist()
    assert summed["draws"].tolist() == (table["draws"] * table["seats"]).tolist()
    # Each game fills every seat once: per line-up and seat, the agents' games add up to the line-up's.
    assert (seats.groupby(["lineup", "seat"])["games"].sum() == 8).all()
    held = seats[seats["games"] > 0]
    assert ((held["wins"] / held["games"]) == held["win_rate"]).all()
    assert ((held["ci_low"] <= held["win_rate"]) & (held["win_rate"] <= held["ci_high"])).all()
    # A line-up's wall time, shared among its games: every seat's rows add up to the same total.
    for _, rows in seats.groupby("lineup"):
        spent = (rows["seconds_per_game"].fillna(0) * rows["games"]).groupby(rows["seat"]).sum()
        assert spent.to_numpy() == pytest.approx([spent.iloc[0]] * 3)
        assert spent.iloc[0] > 0


def test_by_seat_on_a_fixed_seed_and_the_seat_is_the_order_of_play():
    """Exact values of a small two-player table, and each game's seat 0 is the player who moved first."""
    import numpy as np

    game = rm.Game(2, max_turns=150)
    agents = [AggressiveAgent(), RandomAgent()]
    seats = tournament(game, [agents], 6, seed=5, by_seat=True)
    assert seats[["agent", "seat", "games", "wins", "draws"]].values.tolist() == EXACT_BY_SEAT
    assert seats["seats"].tolist() == [1, 1, 1, 1]
    # The same games played one by one: who took the first turn, and who won, seat by seat.
    streams = np.random.SeedSequence(5).generate_state(2, dtype=np.uint32)
    tally = {}
    for shift, stream in enumerate(streams):
        seated = [agents[(seat + shift) % 2] for seat in range(2)]
        for seed in rm.simulate(game, seated, 3, seed=int(stream))["seed"]:
            record = rm.play(game, seated, int(seed))
            final = record.final
            first = record.snapshots[0]["player"]  # who took player-turn 1
            assert record.snapshots[0]["turn"] == 1
            assert record.snapshots[1]["player"] == 1 - first  # and seat 1 took player-turn 2
            for seat in range(2):
                player = (first + seat) % 2
                games, wins = tally.get((seated[player].name, seat), (0, 0))
                tally[seated[player].name, seat] = (games + 1, wins + (final.winner == player))
    assert [list(tally[a, s]) for a, s in seats[["agent", "seat"]].values.tolist()] == seats[
        ["games", "wins"]
    ].values.tolist()


def test_by_seat_with_a_seat_never_held():
    """Two games, two rotations: an agent may miss a seat; its row says so instead of failing."""
    seats = tournament(rm.Game(2, max_turns=30), [[RandomAgent(), AggressiveAgent()]], 2, seed=1, by_seat=True)
    assert (seats.groupby("agent")["games"].sum() == 2).all()
    empty = seats[seats["games"] == 0]
    assert len(empty) == 2  # on this seed the first player was the same player in both games
    assert empty["win_rate"].isna().all()
    assert (empty["ci_low"] == 0.0).all()
    assert (empty["ci_high"] == 1.0).all()
    assert empty["seconds_per_game"].isna().all()


def test_bad_arguments():
    game = rm.Game(2, max_turns=20)
    with pytest.raises(InvalidArgumentError, match="one agent per player"):
        tournament(game, [[RandomAgent()]], 4)
    with pytest.raises(InvalidArgumentError, match="at least one line-up"):
        tournament(game, [], 4)
    with pytest.raises(InvalidArgumentError, match="n_games must be at least the number of rotations"):
        tournament(game, [[RandomAgent(), RandomAgent()]], 1)
    with pytest.raises(InvalidArgumentError, match="by_seat must be True or False, got 1"):
        tournament(game, [[RandomAgent(), RandomAgent()]], 2, by_seat=1)
    # A flat list of agents, or something that is not an agent, was an AttributeError or a TypeError from inside.
    with pytest.raises(InvalidArgumentError, match=r"lineups\[0\] must be a sequence of agents or agent names"):
        tournament(game, [AggressiveAgent(), RandomAgent()], 2)
    with pytest.raises(InvalidArgumentError, match=r"lineups\[0\]\[0\] must be an agent"):
        tournament(game, [[object(), RandomAgent()]], 2)


def test_agents_may_be_named_as_for_make_agent():
    game = rm.Game(2, max_turns=20)
    named = tournament(game, [["aggressive", "random"]], 4, seed=3)
    built = tournament(game, [[AggressiveAgent(), RandomAgent()]], 4, seed=3)
    columns = ["agent", "games", "wins", "draws"]
    assert named[columns].values.tolist() == built[columns].values.tolist()


EXACT_BY_SEAT = [["aggressive", 0, 2, 2, 0], ["aggressive", 1, 4, 4, 0], ["random", 0, 4, 0, 0], ["random", 1, 2, 0, 0]]


def share(table, agent):
    row = table[table["agent"] == agent].iloc[0]
    return row["win_rate"], row["ci_low"]


@pytest.mark.slow
def test_odds_beats_aggressive_in_two_player_games():
    table = tournament(rm.Game(2, max_turns=500), [[OddsAgent(), AggressiveAgent()]], 120, seed=11, n_jobs=2)
    rate, low = share(table, "odds")
    assert rate >= 0.6
    assert low > 0.5


@pytest.mark.slow
def test_odds_beats_aggressive_in_four_player_games():
    lineups = [[OddsAgent(), AggressiveAgent(), OddsAgent(), AggressiveAgent()]]
    table = tournament(rm.Game(4, max_turns=500), lineups, 60, seed=12, n_jobs=2)
    rate, low = share(table, "odds")  # two seats each: half the games is parity
    assert rate >= 0.75
    assert low > 0.5


@pytest.mark.slow
@pytest.mark.parametrize("agent", [OddsAgent(), AggressiveAgent()], ids=["odds", "aggressive"])
def test_both_beat_random(agent):
    table = tournament(rm.Game(2, max_turns=500), [[agent, RandomAgent()]], 60, seed=13, n_jobs=2)
    rate, low = share(table, agent.name)
    assert rate >= 0.95
    assert low > 0.8


def test_a_tournament_takes_a_turn_cap():
    table = tournament(rm.Game(2), [["aggressive", "random"]], 4, max_turns=5)
    assert table["draws"].tolist() == [4, 4]  # nobody wins in five player-turns


def test_every_line_up_and_rotation_plays_on_its_own_seeds(monkeypatch):
    # A mutant giving every line-up the first line-up's seeds passed every test (a mutation test); the docstring
    # promises each line-up and rotation its own stream: SeedSequence(seed).generate_state(line-ups x rotations).
    import riskmath.sim.tournaments as tournaments

    seeds = []
    real = tournaments.simulate

    def spy(*args, **kwargs):
        seeds.append(kwargs["seed"])
        return real(*args, **kwargs)

    monkeypatch.setattr(tournaments, "simulate", spy)
    lineups = [[AggressiveAgent(), RandomAgent()], [RandomAgent(), AggressiveAgent()]]
    tournament(rm.Game(2, max_turns=20), lineups, 2, seed=1)
    assert seeds == np.random.SeedSequence(1).generate_state(4, dtype=np.uint32).tolist()
    assert seeds == [1835504127, 1731038949, 1320224556, 2330041505]


def test_two_different_agents_of_one_name_are_refused():
    # The table has one row per name: AggressiveAgent(ratio=1.0) and (ratio=5.0) were silently added up as one.
    game = rm.Game(2, max_turns=40)
    with pytest.raises(InvalidArgumentError, match=r"two different agents named 'aggressive' \(AggressiveAgent"):
        tournament(game, [[AggressiveAgent(ratio=1.0), AggressiveAgent(ratio=5.0)]], 2)

    class Impostor(AggressiveAgent):
        name = "random"

    with pytest.raises(InvalidArgumentError, match=r"two different agents named 'random'"):
        tournament(game, [[RandomAgent(), Impostor()]], 2)
    alike = tournament(game, [[AggressiveAgent(), AggressiveAgent()]], 2)
    assert alike["agent"].tolist() == ["aggressive"]
    assert alike["seats"].tolist() == [2]
    renamed = AggressiveAgent(ratio=5.0)
    renamed.name = "aggressive5"
    apart = tournament(game, [[AggressiveAgent(ratio=1.0), renamed]], 2)
    assert apart["agent"].tolist() == ["aggressive", "aggressive5"]


# Two gaps a mutation test found (2026-12-03): every line-up rotated, and each rotation's time per game.
def test_every_line_up_is_played_in_every_rotation_of_its_seats(monkeypatch):
    """Kills: ``seated = lineup[(seat + shift) % players]`` rotated for the first line-up only.

    The docstring: "plays each line-up in every rotation of the seats".  Rotation ``shift`` of line-up ``L``
    seats ``L[(seat + shift) % players]`` at each seat; every line-up, not only the first, must be rotated.
    """
    import riskmath.sim.tournaments as tournaments

    seatings = []
    real = tournaments.simulate

    def spy(game, agents, n_games, **kwargs):
        seatings.append([agent.name for agent in agents])
        return real(game, agents, n_games, **kwargs)

    monkeypatch.setattr(tournaments, "simulate", spy)
    lineups = [["aggressive", "random", "odds"], ["random", "odds", "aggressive"]]
    tournament(rm.Game(3, max_turns=6), lineups, 3, seed=0)
    assert seatings == [
        ["aggressive", "random", "odds"],
        ["random", "odds", "aggressive"],
        ["odds", "aggressive", "random"],
        ["random", "odds", "aggressive"],
        ["odds", "aggressive", "random"],
        ["aggressive", "random", "odds"],
    ]


def test_by_seat_seconds_share_each_rotations_time_among_its_games(monkeypatch):
    """Kills: ``counts[3] += spent / count`` (a rotation's time shared among its games) written ``spent / n``.

    With a clock that advances exactly 1 s between the two readings around each rotation, each rotation takes
    1 s for its ``n / players`` games: 2 rotations of 2 games give 0.5 s a game, in the table without ``by_seat``
    (2 s / 4 games) and in every by-seat row of an agent that held the seat.
    """
    import riskmath.sim.tournaments as tournaments

    ticks = iter(range(1000))
    monkeypatch.setattr(tournaments, "time", types.SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    game, lineups = rm.Game(2, max_turns=8), [[AggressiveAgent(), RandomAgent()]]
    table = tournament(game, lineups, 4, seed=3)
    assert table["seconds_per_game"].tolist() == [0.5, 0.5]
    seats = tournament(game, lineups, 4, seed=3, by_seat=True)
    held = seats[seats["games"] > 0]
    assert len(held) > 0
    assert held["seconds_per_game"].tolist() == [0.5] * len(held)
    # Summed over an agent's seats, seconds x games is the wall time of its games: 4 games x 0.5 s.
    assert (held["seconds_per_game"] * held["games"]).groupby(held["agent"]).sum().tolist() == [2.0, 2.0]
