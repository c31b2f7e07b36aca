"""Simulation: reproducible across workers, legal agents, records that replay, clear errors; fast-path sampling."""

from __future__ import annotations

import math
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from game_helpers import build, check_invariants, tiered

import riskmath as rm
from riskmath.agents import AggressiveAgent, RandomAgent, make_agent
from riskmath.game.chance import TABLE_ATTACKERS, _block, splitmix64
from riskmath.sim.simulation import game_seeds, play, simulate

GAME = rm.Game(3, max_turns=80)
AGENTS = [AggressiveAgent(), RandomAgent(), RandomAgent()]


def test_same_table_serial_parallel_and_on_an_executor():
    serial = simulate(GAME, AGENTS, 6, seed=3)
    assert list(serial["seed"]) == game_seeds(3, 6)
    assert serial.equals(simulate(GAME, AGENTS, 6, seed=3, n_jobs=2))
    with ThreadPoolExecutor(2) as pool:
        assert serial.equals(simulate(GAME, AGENTS, 6, seed=3, executor=pool))
    assert not serial.equals(simulate(GAME, AGENTS, 6, seed=4))


def test_columns_and_consistency():
    table = simulate(GAME, AGENTS, 5, seed=0)
    assert list(table.columns) == ["seed", "winner", "draw", "turns"] + [
        f"{kind}_{seat}" for seat in range(3) for kind in ("territories", "armies")
    ]
    assert table["turns"].between(1, 80).all()
    assert (table["draw"] == table["winner"].isna()).all()
    won = table.dropna(subset=["winner"])
    for _, row in won.iterrows():
        assert row[f"territories_{int(row['winner'])}"] >= 1


def test_records_replay_and_history():
    record = play(GAME, AGENTS, 11)
    assert GAME.replay(record.actions, 11, auto_chance=True) == record.final
    history = record.history()
    assert list(history.index) == list(range(1, record.final.turn + 1))
    totals = history[[f"territories_{k}" for k in range(3)]].sum(axis=1)
    assert (totals == 42).all()


@pytest.mark.parametrize("agent", [RandomAgent(), AggressiveAgent()])
def test_agents_only_play_legal_actions(agent):
    # play() applies every action with checking on, so an illegal one would raise.
    for seed in range(4):
        record = play(rm.Game(4, max_turns=60), [agent] * 4, seed, record_history=False)
        check_invariants(record.final)  # sound, and a living winner or a draw at exactly turn 60


def test_aggressive_beats_random():
    table = simulate(rm.Game(2, max_turns=200), [AggressiveAgent(), RandomAgent()], 20, seed=7)
    assert (table["winner"] == 0).sum() >= 15


def test_bad_arguments():
    with pytest.raises(rm.InvalidArgumentError, match="n_games must be >= 1, got 0"):
        simulate(GAME, AGENTS, 0)
    with pytest.raises(rm.InvalidArgumentError, match=r"need one agent per player \(3\), got 2"):
        simulate(GAME, AGENTS[:2], 3)
    with pytest.raises(rm.InvalidArgumentError, match="is not an agent"):
        simulate(GAME, [AggressiveAgent(), RandomAgent(), 42], 3)
    with pytest.raises(rm.InvalidArgumentError, match="unknown agent 'genius'; agents are random, aggressive"):
        simulate(GAME, [AggressiveAgent(), RandomAgent(), "genius"], 3)
    with pytest.raises(rm.InvalidArgumentError, match="unknown agent 'genius'; agents are random, aggressive"):
        make_agent("genius")
    with pytest.raises(rm.InvalidArgumentError, match="n_jobs must be >= 1, got 0"):
        simulate(GAME, AGENTS, 2, n_jobs=0)


def test_agents_by_name_play_as_the_agents_themselves():
    # simulate and play took agent objects only, while tournament and victory_probabilities took names too.
    named = simulate(GAME, ["aggressive", "random", "random"], 3, seed=5)
    made = simulate(GAME, [AggressiveAgent(), RandomAgent(), RandomAgent()], 3, seed=5)
    assert named.equals(made)
    record = rm.play(GAME, ["aggressive", RandomAgent(), "random"], 5)
    assert record.actions == rm.play(GAME, [AggressiveAgent(), RandomAgent(), RandomAgent()], 5).actions


def test_an_illegal_agent_is_named():
    class Cheater:
        name = "cheater"

        def act(self, state, rng):
            return rm.PlaceArmies("Alaska", 99)

    with pytest.raises(rm.IllegalActionError, match="agent 'cheater' in seat"):
        play(GAME, [Cheater(), Cheater(), Cheater()], 1)


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_table():
    # riskmath[distributed]: a client's executor runs the same games, in 2 worker processes.
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        on_dask = simulate(GAME, AGENTS, 6, seed=3, executor=client.get_executor())
    assert on_dask.equals(simulate(GAME, AGENTS, 6, seed=3))


# -- chance nodes on the fast path ---------------------------------------------------------------


def blitz_state(attackers: int, defenders: int, stop_at: int = 0, game: rm.Game | None = None) -> rm.GameState:
    """A BLITZ chance node: ``attackers`` able to attack from Alaska against ``defenders`` in Kamchatka."""
    game = game or rm.Game(3)
    owner = {"Alaska": 0, "Kamchatka": 1, "Northwest Territory": 0, "Alberta": 2, "Japan": 1}
    armies = {"Alaska": attackers + 1, "Kamchatka": defenders, "Northwest Territory": 1}
    state = build(game, owner=owner, armies=armies)
    return state.apply(rm.Blitz("Alaska", "Kamchatka", stop_at))


def pieced_distribution(game: rm.Game, a: int, d: int, stop_at: int) -> dict[rm.BattleOutcome, float]:
    """The distribution the fast path draws a long blitz from: table pieces of TABLE_ATTACKERS, composed."""
    if a <= TABLE_ATTACKERS:
        return dict(game.blitz_table(a, d, stop_at).outcomes)
    shift = a - TABLE_ATTACKERS
    low = stop_at - shift
    result: Counter = Counter()
    for piece, p in game.blitz_table(TABLE_ATTACKERS, d, max(low, game.rules.combat.attacker_max_dice - 1)).outcomes:
        left, d_left = piece.attackers_left + shift, piece.defenders_left
        if d_left == 0 or piece.attackers_left <= low:
            result[rm.BattleOutcome(left, d_left)] += p
        else:
            for outcome, q in pieced_distribution(game, left, d_left, stop_at).items():
                result[outcome] += p * q
    return dict(result)


@pytest.mark.parametrize(
    ("attackers", "defenders", "stop_at", "rules"),
    [
        (100, 3, 0, rm.Rules()),
        (180, 16, 0, rm.Rules()),
        (200, 6, 150, rm.Rules()),
        (90, 1, 27, rm.Rules()),
        pytest.param(300, 12, 0, rm.Rules(combat=rm.CombatRules.three_defender_dice()), marks=pytest.mark.slow),
        (150, 9, 3, rm.Rules(combat=rm.CombatRules(attacker_max_dice=5, defender_max_dice=4))),
    ],
)
def test_long_blitzes_drawn_in_pieces_have_the_battle_distribution(attackers, defenders, stop_at, rules):
    # Exact check of the decomposition: composing the pieces' tables gives the whole battle's table.
    game = rm.Game(3, rules)
    pieced = pieced_distribution(game, attackers, defenders, stop_at)
    exact = dict(blitz_state(attackers, defenders, stop_at, game).chance_outcomes())
    assert set(pieced) <= set(exact)
    for outcome, p in exact.items():
        assert pieced.get(outcome, 0.0) == pytest.approx(p, abs=1e-12), outcome


def rolled_out_distribution(game: rm.Game, a: int, d: int, stop_at: int) -> dict[rm.BattleOutcome, float]:
    """The distribution roll_out draws from, by pushing probability mass through its steps (rolls and blocks)."""
    tables = game.roll_tables()
    block, span = _block(game.rules.combat)
    most_a, most_d = len(tables) - 1, len(tables[1]) - 1
    clear_a, clear_d = max(most_a, stop_at + 1) + span, most_d + span

    def steps(a: int, d: int) -> list[tuple[float, int, int]]:
        if a >= clear_a and d >= clear_d:
            cumulative = block
            losses = [(lost, span - lost) for lost in range(span + 1)]
        else:
            cumulative, losses = tables[min(a, most_a)][min(d, most_d)]
        previous, result = 0.0, []
        for k, (total, (lost_a, lost_d)) in enumerate(zip(cumulative, losses, strict=True)):
            p = (1.0 if k == len(cumulative) - 1 else total) - previous  # the last takes the rounding
            previous = total
            result.append((p, a - lost_a, d - lost_d))
        return result

    mass: dict[tuple[int, int], float] = {(a, d): 1.0}
    final: Counter = Counter()
    for total in range(a + d, -1, -1):  # every step removes armies: a sweep by decreasing total
        for (x, y), p in [(state, p) for state, p in mass.items() if sum(state) == total]:
            del mass[x, y]
            if x <= stop_at or y == 0:
                final[rm.BattleOutcome(x, y)] += p
                continue
            for q, x2, y2 in steps(x, y):
                mass[x2, y2] = mass.get((x2, y2), 0.0) + p * q
    return dict(final)


@pytest.mark.parametrize(("attackers", "defenders", "stop_at"), [(60, 40, 0), (50, 45, 12), (20, 38, 0)])
def test_rolled_out_blitzes_have_the_battle_distribution(attackers, defenders, stop_at):
    # More defenders than the tables take: rolled out, in blocks of rolls while both sides stay clear of the edges.
    game = rm.Game(3)
    rolled = rolled_out_distribution(game, attackers, defenders, stop_at)
    exact = dict(blitz_state(attackers, defenders, stop_at, game).chance_outcomes())
    assert set(rolled) <= set(exact)
    for outcome, p in exact.items():
        assert rolled.get(outcome, 0.0) == pytest.approx(p, abs=1e-12), outcome


# The fast tier: two of the five.
@pytest.mark.parametrize(
    ("attackers", "defenders", "stop_at"),
    tiered([(5, 3, 0), (120, 4, 0), (70, 2, 20), (12, 30, 0), (60, 45, 0)], [(5, 3, 0), (70, 2, 20)]),
)
def test_sampled_blitzes_follow_the_listed_distribution(attackers, defenders, stop_at):
    # One table draw, long battles in pieces, and roll-outs (more defenders than the tables take; in blocks for the
    # last); over many generator states each outcome's frequency is within 4 standard errors of its probability.
    state = blitz_state(attackers, defenders, stop_at)
    exact = dict(state.chance_outcomes())
    n = 3000
    counts: Counter = Counter()
    for k in range(n):
        copy = state.reseeded(k * 7919 + 1)
        outcome = copy.sample_chance()
        assert outcome == copy.sample_chance()  # pure: the same state, the same outcome
        counts[outcome] += 1
    assert set(counts) <= set(exact)
    for outcome, p in exact.items():
        assert abs(counts[outcome] / n - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-9, outcome


def test_card_draws_walk_the_listed_probabilities():
    # The deck walk gives, bit for bit, the outcome a walk over chance_outcomes() gives for the same number.
    game = rm.Game(3)
    state = game.new_initial_state(3, auto_chance=True)
    while state.phase is not rm.Phase.FORTIFY or state.position.captured is False:
        state = state.apply(state.legal_actions()[-1] if state.phase is not rm.Phase.ATTACK else _blitz_or_end(state))
    state = rm.GameState(game, state.position.copy(), auto_chance=False)  # stop at the draw
    state = state.apply(rm.EndPhase())
    assert state.phase is rm.Phase.DRAW
    for k in range(400):
        copy = state.reseeded(k * 7919 + 1)
        x = splitmix64(copy.position.rng)[1]
        total, expected = 0.0, None
        for outcome, p in copy.chance_outcomes():
            total += float(p)
            if x < total:
                expected = outcome
                break
        assert copy.sample_chance() == (expected or copy.chance_outcomes()[-1][0])
    assert "wild" in state.position.deck


def _blitz_or_end(state: rm.GameState):
    legal = state.legal_actions()
    blitzes = [a for a in legal if isinstance(a, rm.Blitz)]
    return blitzes[0] if blitzes and not state.position.captured else rm.EndPhase()


# -- the progress bar ------------------------------------------------------------------------------


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_progress_bar_counts_games_on_stderr(capsys, n_jobs):
    plain = simulate(GAME, AGENTS, 6, seed=3)
    shown = simulate(GAME, AGENTS, 6, seed=3, n_jobs=n_jobs, progress=True)
    assert shown.equals(plain)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "6/6" in captured.err
    assert "games/s" in captured.err


def test_progress_bar_on_an_executor(capsys):
    with ThreadPoolExecutor(2) as pool:
        shown = simulate(GAME, AGENTS, 5, seed=2, executor=pool, progress=True)
    assert shown.equals(simulate(GAME, AGENTS, 5, seed=2))
    assert "5/5" in capsys.readouterr().err


def test_progress_on_the_command_line(capsys):
    from riskmath.cli import main

    argv = ["simulate", "--players", "2", "--agents", "aggressive,random", "--games", "3", "--max-turns", "40"]
    assert main([*argv, "--progress"]) == 0
    shown = capsys.readouterr()
    assert "3/3" in shown.err
    assert "games/s" in shown.err
    assert main(argv) == 0
    assert capsys.readouterr() == (shown.out, "")


def test_progress_needs_tqdm(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if it were not installed
    missing = r"progress=True \(--progress on the command line\) needs tqdm, which is not installed: pip install tqdm"
    with pytest.raises(rm.InvalidArgumentError, match=missing):
        simulate(GAME, AGENTS, 2, progress=True)
    with pytest.raises(rm.InvalidArgumentError, match="progress must be True or False"):
        simulate(GAME, AGENTS, 2, progress="yes")


def test_a_record_played_on_from_a_built_position_gives_its_states_and_replays():
    # From a hostile-user review: a record of play(start=...) could not be replayed without touching the
    # position (no public way to turn auto_chance on), and plots.win_chances replayed it from a new game.
    from riskmath.agents import AggressiveAgent

    game = rm.Game(3, max_turns=60)
    names = game.board.territories
    start = game.position({t: k % 3 for k, t in enumerate(names)}, dict.fromkeys(names, 3), seed=2)
    assert not start.auto_chance
    record = rm.play(game, [AggressiveAgent()] * 3, seed=8, start=start)
    replayed = start.reseeded(record.seed).with_auto_chance()
    assert replayed.auto_chance
    for action in record.actions:
        replayed = replayed.apply(action)
    assert replayed == record.final
    states = list(record.states())
    assert len(states) == len(record.actions) + 1
    assert states[-1] == record.final
    new_game = rm.play(game, [AggressiveAgent()] * 3, seed=8)
    assert list(new_game.states())[-1] == new_game.final
    with pytest.raises(rm.InvalidArgumentError, match="auto_chance must be True or False"):
        start.with_auto_chance("yes")
    with pytest.raises(rm.InvalidArgumentError, match="record_history must be True or False"):
        rm.play(game, [AggressiveAgent()] * 3, seed=8, record_history="no")


def test_one_agent_or_name_plays_every_seat():
    # victory_probabilities took one agent for every seat; simulate and play refused it.
    one = simulate(GAME, "aggressive", 2, seed=3)
    assert one.equals(simulate(GAME, [AggressiveAgent(), AggressiveAgent(), AggressiveAgent()], 2, seed=3))
    agent = AggressiveAgent(ratio=2.0)
    record = rm.play(GAME, agent, 3)
    assert record.turns == record.final.turn  # (the repr's turns=, now an attribute too)
    assert record.actions == rm.play(GAME, [agent] * 3, 3).actions


@pytest.mark.parametrize(("seed", "n"), [(-1, 2), (0, -1), (2.5, 2)])
def test_game_seeds_refuses_bad_arguments_with_a_riskmath_error(seed, n):
    from riskmath.sim import game_seeds

    with pytest.raises(rm.InvalidArgumentError, match="must be"):  # was NumPy's plain ValueError / TypeError
        game_seeds(seed, n)


@pytest.mark.parametrize("cap", [4, 300])
def test_max_turns_overrides_the_games_own_cap_either_way(cap):
    """Kills: ``if max_turns is not None`` written ``... and game.max_turns is None`` (the override applied only to
    a game without a cap; only an error-message test of test_rollouts.py noticed it, indirectly).

    The docstring: "A turn cap ... ; overrides the game's."  ``simulate(Game(2, max_turns=20), ..., max_turns=cap)``
    must give the table of ``Game(2, max_turns=cap)``, below the game's cap (4: every game a draw at turn 4) and
    above it (300: these seeded games are won, none at turn 20).
    """
    agents = ["aggressive", "random"]
    table = rm.simulate(rm.Game(2, max_turns=20), agents, 3, seed=0, max_turns=cap)
    assert table.equals(rm.simulate(rm.Game(2, max_turns=cap), agents, 3, seed=0))
    if cap == 4:
        assert table["draw"].all()
        assert (table["turns"] == 4).all()
        assert table["winner"].isna().all()
    else:
        assert not table["draw"].any()
        assert (table["turns"] > 20).all()


def test_an_executor_class_or_an_executor_without_futures_is_refused_before_any_game():
    # The class itself got through (submit is a function of it) and failed in the pool's internals, losing the
    # games in flight; an object whose submit returns a plain value failed with a raw TypeError (hostile CLI
    # review, 2026-12-03).
    class Plain:
        def submit(self, function, *args):
            return [function]

    game = rm.Game(3, max_turns=20)
    with pytest.raises(rm.InvalidArgumentError, match=r"executor must be a concurrent\.futures\.Executor instance"):
        rm.simulate(game, "aggressive", 3, executor=ThreadPoolExecutor)
    with pytest.raises(rm.InvalidArgumentError, match=r"executor.submit returned \[<function"):
        rm.simulate(game, "aggressive", 3, executor=Plain())
