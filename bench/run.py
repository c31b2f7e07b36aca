"""Benchmarks: riskmath against straightforward pure-Python code, timed in the same run.

Run with ``make bench`` (or ``python bench/run.py [--quick]``).  Each line
prints the best of several repeats for both sides and their ratio; the
targets are those of the issue that introduced each capability; then
come start-up times of fresh processes, medians (bench/imports.py), and
last the short version of the strength table (``bench/strength.py --quick``,
a minute or less: a handful of games per pairing, so the intervals are wide;
the full table is in the docs).  Nothing here asserts on time: the figures
are for people (see bench/README.md).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import timeit
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import scipy

sys.path.insert(0, str(Path(__file__).parent))

import baselines
import imports
import odds_speed
import strength

import riskmath as rm
from riskmath.odds.battles import clear_battle_cache
from riskmath.odds.dice import count_pair_wins


def best(func: Callable[[], object], repeat: int, *, warm_up: bool = True) -> float:
    """Best wall time of ``repeat`` single calls, in seconds.

    ``warm_up=False`` when the caller has just made the same call (to check
    its result), which served as the warm-up.
    """
    if warm_up:
        func()  # warm up (imports, caches of the rules kernel, allocator)
    return min(timeit.repeat(func, number=1, repeat=repeat))


def best_per_call(func: Callable[[], object], repeat: int, number: int) -> float:
    """Best mean wall time per call over ``repeat`` runs of ``number`` calls, after one warm-up call."""
    func()
    return min(timeit.repeat(func, number=number, repeat=repeat)) / number


def peak_memory(func: Callable[[], object]) -> int:
    tracemalloc.start()
    func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def report(name: str, ours: float, baseline: float, target: float | None, unit: str = "ms") -> None:
    """One line: both times (in ``unit``, "ms" or "us"), their ratio and the verdict on the target."""
    ratio = baseline / ours
    verdict = "" if target is None else f"  (target >= {target:g}x: {'met' if ratio >= target else 'NOT met'})"
    scale = 1e3 if unit == "ms" else 1e6
    print(
        f"{name:<50} riskmath {ours * scale:9.2f} {unit}   baseline {baseline * scale:9.1f} {unit}   "
        f"{ratio:7.1f}x{verdict}"
    )


def report_alone(name: str, ours: float, note: str = "") -> None:
    """A figure without a baseline."""
    print(f"{name:<50} riskmath {ours * 1e3:9.2f} ms   {note}".rstrip())


def check_close(name: str, ours: dict[int, float], theirs: dict[int, float], tolerance: float = 1e-9) -> None:
    """Fail loudly unless two distributions agree entry by entry (missing entries count as 0)."""
    worst = max(abs(ours.get(k, 0.0) - theirs.get(k, 0.0)) for k in ours.keys() | theirs.keys())
    if not worst < tolerance:
        raise AssertionError(f"{name}: riskmath and the baseline differ by {worst:.3g} (tolerance {tolerance:g})")


def time_estimates(quick: bool) -> None:
    """The limits' time estimate of a battle against its time, for tall grids (the column sweep) and others.

    ``docs/limits.rst`` says the estimates are within about a factor of two and on the cautious side; a
    hostile-user review found the column sweep's 2-3 times too low (2026-12-02).  Printed, never asserted.
    """
    from riskmath.odds._sweeps import forward_cost

    sizes = [(10**6, 40), (3 * 10**5, 200), (10**5, 40), (2000, 2000)] if not quick else [(3 * 10**5, 40)]
    _ = rm.battle(10**4, 40).win_probability  # (the column sweep's first call imports scipy.signal: not timed)
    for a, d in sizes:
        _, estimate = forward_cost(a, d, 0, rm.CombatRules(), False)
        clear_battle_cache()
        start = time.perf_counter()
        _ = rm.battle(a, d).win_probability
        taken = time.perf_counter() - start
        verdict = "cautious" if estimate >= taken else ("within 2x" if 2 * estimate >= taken else "TOO LOW")
        print(f"{f'time estimate of battle({a}, {d})':<50} {estimate:6.2f} s v {taken:6.2f} s taken   ({verdict})")


def chained(repeat: int, slow_repeat: int) -> None:
    """Chained conquests, planning queries, tree plans and optimal policies."""
    path = [1 + i % 5 for i in range(40)]  # defenders cycling 1..5
    n = 1000

    def ours_final(attackers: int, defenders: list[int]) -> dict[int, float]:
        return rm.conquest(attackers, defenders).final_distribution.to_dict()

    def check_chain(name: str, defenders: list[int], won: list[float]) -> None:
        """The baseline's capture distribution ``won`` against riskmath's, raw and given success."""
        ours = rm.conquest(n, defenders)
        check_close(name, dict(enumerate(ours.captures[-1].tolist())), dict(enumerate(won)))
        check_close(name, ours.final_distribution.to_dict(), baselines.final_distribution(won))

    # The full case of the issue, then the same against the column-pass chain.
    full = best(lambda: ours_final(n, path), repeat)
    report_alone(
        f"conquest({n}, {len(path)} territories) + final distrib.",
        full,
        f"(target well under 1 s: {'met' if full < 1 else 'NOT met'})",
    )
    check_chain("conquest v column-pass chain", path, baselines.conquest_columns(n, path))
    base = best(lambda: baselines.final_distribution(baselines.conquest_columns(n, path)), slow_repeat)
    report(f"  v one column pass per battle ({n} x {len(path)})", full, base, None)

    # One battle per incoming count is quadratic in the attackers: 1000 x 40
    # takes about 18 s, so it runs on the first 10 territories only.
    short = path[:10]
    check_chain("conquest v per-start chain", short, baselines.conquest_per_start(n, short))
    base = best(
        lambda: baselines.final_distribution(baselines.conquest_per_start(n, short)),
        slow_repeat,
        warm_up=False,  # the check was the warm-up
    )
    ours = best(lambda: ours_final(n, short), repeat)
    report(f"  v one battle per incoming count ({n} x {len(short)})", ours, base, None)

    needed_path, probability = [3, 2, 2, 2], 0.99
    answer = rm.armies_needed(needed_path, probability)
    if baselines.armies_needed_scan(needed_path, probability) != answer:
        raise AssertionError("armies_needed and the scan disagree")
    ours = best(lambda: rm.armies_needed(needed_path, probability), repeat)
    base = best(lambda: baselines.armies_needed_scan(needed_path, probability), repeat)
    report(f"armies_needed({needed_path}, {probability}) = {answer} v scan", ours, base, None)

    ours = best(lambda: rm.optimal_policy(100, 100), slow_repeat)
    report_alone("optimal_policy(100, 100)", ours, "(10^4 states, pure-Python backward induction)")
    ours = best(lambda: rm.optimal_policy(30, 30, exact=True), slow_repeat)
    report_alone("optimal_policy(30, 30, exact=True)", ours)

    plan = rm.Target(
        2, "Venezuela", then=[rm.Target(1, "Peru", then=[rm.Target(1, "Argentina")]), rm.Target(2, "Brazil")]
    )
    ours = best(lambda: rm.plan_conquest(100, plan).win_probability, repeat)
    report_alone("plan_conquest(100, South America: 4 targets)", ours)


def rules_engine(games: int, quick: bool) -> None:
    """Full-rules games: the public API (issue 4) and simulate's in-place path (issue 5)."""
    import playouts

    cold, _ = playouts.turns_per_second("random", games, warm_up=0)
    fast, turns = playouts.turns_per_second("random", games)
    checked, _ = playouts.turns_per_second("random", games, check=True)
    listed, _ = playouts.turns_per_second("random", max(2, games // 4), materialise=True)
    blitz, blitz_turns = playouts.turns_per_second("blitz", games)
    print(f"{'4-player games, random agents, cold caches':<50} {cold:9.0f} player-turns/s")
    print(f"{'4-player games, random agents (' + str(turns) + ' turns)':<50} {fast:9.0f} player-turns/s")
    print(f"{'  the same with every action checked':<50} {checked:9.0f} player-turns/s   ({fast / checked:.2f}x)")
    print(f"{'  choosing from a materialised action list':<50} {listed:9.0f} player-turns/s   ({fast / listed:.2f}x)")
    print(f"{'4-player games, blitz agents (' + str(blitz_turns) + ' turns)':<50} {blitz:9.0f} player-turns/s")

    # simulate(): per core, every seat the same built-in agent; ratios against the public-API loops above.
    budget = 0.5 if quick else 1.0
    scanning, _ = playouts.turns_per_second("scanning", 2 if quick else 4, warm_up=1)
    print(f"{'aggressive agents scanning legal_actions(), apply()':<50} {scanning:9.0f} player-turns/s")
    baselines_by_agent = {"random": fast, "aggressive": scanning}
    four_players: dict[str, float] = {}
    for name in playouts.available():
        cap = 300 if name in baselines_by_agent else 60  # agents added later may be slow: shorter games
        for players in (2, 4):
            rate, turns = playouts.simulate_rate(name, players, budget=budget, max_turns=cap)
            if players == 4:
                four_players[name] = rate
            label = f"simulate: {name}, {players} players ({turns} turns)"
            if cap != 300:
                label = f"simulate: {name}, {players} players, cap {cap} ({turns} turns)"
            line = f"{label:<50} {rate:9.0f} player-turns/s per core"
            if players == 4 and name in baselines_by_agent:
                line += f"   ({rate / baselines_by_agent[name]:.1f}x the public-API loop)"
            if players == 4 and name == "aggressive":
                line += f"  (target >= 20000: {'met' if rate >= 20_000 else 'NOT met'})"
            print(line)
    if "odds" in four_players and "aggressive" in four_players:
        # Issue 12's target, measured once the caches are warm (see playouts.steady_rate), each agent twice in
        # turn and the better run of each kept, so that a burst of load elsewhere on the machine does not decide.
        ratio = four_players["odds"] / four_players["aggressive"]
        label = "  odds v aggressive, 4 players, as above (cold)"
        print(f"{label:<50} {ratio:9.3f} of its player-turns/s")
        steady: dict[str, float] = {}
        for _ in range(2):
            for name in ("odds", "aggressive"):
                rate = playouts.steady_rate(name, 4, budget=1.0 if quick else 3.0)
                steady[name] = max(steady.get(name, 0.0), rate)
        for name, rate in steady.items():
            print(f"{'simulate: ' + name + ', 4 players, 8 games warm-up':<50} {rate:9.0f} player-turns/s (CPU)")
        ratio = steady["odds"] / steady["aggressive"]
        label = "odds agent v aggressive, 4 players (warm)"
        verdict = "met" if ratio >= 0.2 else "NOT met"
        print(f"{label:<50} {ratio:9.3f} of its player-turns/s   (target >= 0.2: {verdict})")
        # Issue 20's measure: 2 and 4 players, games capped at 200 player-turns, the two agents' chunks of games
        # in turn (process time), the median of the rounds' ratios.  Fifteen rounds: with five, runs a minute
        # apart read 0.18 to 0.23 (bench/README.md, "Seventh pass"); with fifteen, 0.187 to 0.193.
        for players in (2, 4):
            odds, aggressive, ratio = playouts.paired_ratio(players, rounds=5 if quick else 15)
            label = f"odds v aggressive, {players} players, cap 200, paired"
            verdict = "met" if ratio >= 0.2 else "NOT met"
            print(
                f"{label:<50} {ratio:9.3f} ({odds:.0f} v {aggressive:.0f} player-turns/s)   (target >= 0.2: {verdict})"
            )
    if "planner" in playouts.available():
        # Issue 20, part 1: the planner at least 200 player-turns/s on one core (self-play, warm, the better of two).
        for players in (2, 4):
            rate = max(playouts.steady_rate("planner", players, budget=1.0 if quick else 3.0) for _ in range(2))
            label = f"simulate: planner, {players} players (warm)"
            verdict = f"   (target >= 200: {'met' if rate >= 200 else 'NOT met'})" if players == 2 else ""
            print(f"{label:<50} {rate:9.0f} player-turns/s (CPU){verdict}")
    for name, players, n in (("aggressive", 4, 60 if quick else 160), ("random", 4, 6 if quick else 16)):
        one, two, turns = playouts.scaling(name, players, n)
        label = f"simulate n_jobs=2 v 1: {name}, {players} players ({n} games)"
        verdict = f"  (target >= 1.7x: {'met' if one / two >= 1.7 else 'NOT met'})" if name == "aggressive" else ""
        print(f"{label:<50} {one:6.2f} s v {two:6.2f} s   {one / two:5.2f}x{verdict}")


def envs_speed(games: int) -> None:
    """The three environments driven by a random masked policy, against riskmath's own random play (issue 22).

    One baseline for all: :func:`riskmath.play` with four :class:`~riskmath.agents.RandomAgent` s
    (decisions/s, a decision one action applied).  Each environment is driven as its users drive it, by
    a policy choosing uniformly among the ids its mask allows, and a decision is one id applied by a
    player (an action with an open count takes more than one; chance outcomes are not decisions).  The policy
    and the chance draws use Python's ``random`` (cheaper than NumPy's generator for one draw), so that the
    loops time the environments rather than the sampling:

    - PettingZoo: ``env()``, ``agent_iter``, ``last()`` (the observation and the mask), ``step``; the policy
      takes ``np.flatnonzero`` of the int8 mask, and beside it ``mask.view(bool).nonzero()[0]`` (the same
      ids, a quarter of the time: NumPy has a fast path for bool arrays only);
    - Gymnasium: ``RiskEnv(opponents=["random"] * 3)``, ``reset``/``step`` on the dict observation; its
      rate counts the learner's steps (as the issue's 0.18x did) and, beside it, every decision of the
      game (the learner's and the opponents' inside ``step``; an episode ends when the learner is out);
    - OpenSpiel: ``pyspiel.load_game("python_risk")``, chance outcomes sampled from ``chance_outcomes()``,
      ``legal_actions()`` and ``apply_action``, with ``observation_tensor()`` read at every decision,
      without, and with the tensor read through an observer made once by OpenSpiel's
      ``make_observation`` (``set_from``; ``observation_tensor()`` makes a new initial state every call).

    Every loop plays seeded 4-player games on the classic board capped at 60 player-turns, game by game
    in turn (same seed), so that a change in the load of a shared machine falls on all alike; each ratio
    is the median over the rounds of the ratio within a round.  The goals are issue 22's: PettingZoo and
    Gymnasium at least 0.5x, OpenSpiel with its tensor at least 0.4x.  The Gymnasium goal is read on both of
    its lines: the learner's steps cannot reach it in a four-player game (each of its steps also plays the
    three opponents' turns, so even an environment that took no time would give about 1/3), every decision
    of the game can (bench/README.md, "The three environments against play").
    """
    import random
    import statistics
    import time

    import pyspiel
    from open_spiel.python.observation import make_observation

    from riskmath.agents import RandomAgent
    from riskmath.envs.gymnasium import RiskEnv
    from riskmath.envs.openspiel import register
    from riskmath.envs.pettingzoo import env

    players, cap = 4, 60
    game = rm.Game(players, max_turns=cap)
    register()
    spiel = pyspiel.load_game("python_risk", {"players": players, "max_turns": cap})
    aec = env(players=players, max_turns=cap)

    class Counted(RandomAgent):  # a RandomAgent that counts its decisions (the Gymnasium opponents)
        decisions = 0
        trusted = True  # as RandomAgent: its actions are applied unchecked

        def act(self, state: rm.GameState, rng: random.Random) -> object:
            Counted.decisions += 1
            return super().act(state, rng)

    gym = RiskEnv(opponents=[Counted() for _ in range(players - 1)], max_turns=cap)

    def baseline(seed: int) -> tuple[int, int]:
        record = rm.play(game, [RandomAgent()] * players, seed, record_history=False)
        return len(record.actions), len(record.actions)

    def zoo(seed: int, *, as_bool: bool = False) -> tuple[int, int]:
        rng = random.Random(seed)
        aec.reset(seed=seed)
        steps = 0
        for _ in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            mask = observation["action_mask"]  # int8: np.flatnonzero takes ~4x as long as on the bool view
            legal = mask.view(bool).nonzero()[0] if as_bool else np.flatnonzero(mask)
            aec.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps, steps

    def gymnasium(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        observation, _ = gym.reset(seed=seed)
        before, steps, done = Counted.decisions, 0, False
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, truncated, _ = gym.step(int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
            steps += 1
        return steps, steps + Counted.decisions - before

    observer = make_observation(spiel)  # OpenSpiel's observer, made once

    def openspiel(seed: int, *, tensor: bool, made: bool = False) -> tuple[int, int]:
        rng = random.Random(seed)
        state = spiel.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                ids, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, probabilities)[0])
                continue
            if made:
                observer.set_from(state, state.current_player())
            elif tensor:
                state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps, steps

    loops: dict[str, Callable[[int], tuple[int, int]]] = {
        "riskmath": baseline,
        "pettingzoo": zoo,
        "pettingzoo+bool": lambda seed: zoo(seed, as_bool=True),
        "gymnasium": gymnasium,
        "openspiel+tensor": lambda seed: openspiel(seed, tensor=True),
        "openspiel": lambda seed: openspiel(seed, tensor=False),
        "openspiel+observer": lambda seed: openspiel(seed, tensor=False, made=True),
    }
    for loop in loops.values():  # warm up (imports, the game's blitz tables)
        loop(10_000)
    rounds: list[dict[str, tuple[float, float]]] = []
    for seed in range(games):
        rates: dict[str, tuple[float, float]] = {}
        for name, loop in loops.items():
            start = time.process_time()
            decisions, every = loop(seed)
            elapsed = time.process_time() - start
            rates[name] = (decisions / elapsed, every / elapsed)
        rounds.append(rates)

    def median(name: str, which: int = 0) -> float:
        return statistics.median(r[name][which] for r in rounds)

    def share(name: str, which: int = 0) -> float:
        return statistics.median(r[name][which] / r["riskmath"][0] for r in rounds)

    print(f"{f'rm.play, {players} random agents, cap {cap} (baseline)':<50} {median('riskmath'):9.0f} decisions/s")
    lines = (
        ("  PettingZoo env(), agent_iter, last(), step", "pettingzoo", 0, 0.5),
        ("    the same, the policy on the mask as bool", "pettingzoo+bool", 0, None),
        ("  Gymnasium RiskEnv, the learner's steps", "gymnasium", 0, 0.5),
        ("    the same, every decision of the game", "gymnasium", 1, 0.5),
        ("  OpenSpiel, observation_tensor() each decision", "openspiel+tensor", 0, 0.4),
        ("    the same without the tensor", "openspiel", 0, None),
        ("    the tensor from make_observation's set_from", "openspiel+observer", 0, None),
    )
    for label, name, which, goal in lines:
        ratio = share(name, which)
        verdict = ""
        if goal:
            bound = ""
            if name == "gymnasium" and which == 0:  # each learner's step also plays the opponents' decisions
                learner = statistics.median(r[name][0] / r[name][1] for r in rounds)
                bound = f"; at most {learner:.2f}x at play's own cost: the learner takes {learner:.0%} of the decisions"
            verdict = f"   (goal >= {goal}x: {'met' if ratio >= goal else 'NOT met'}{bound})"
        print(f"{label:<50} {median(name, which):9.0f} decisions/s {ratio:5.2f}x{verdict}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else 7
    slow_repeat = 1 if args.quick else 3
    print(
        f"riskmath {rm.__version__}, Python {platform.python_version()}, numpy {np.__version__}, "
        f"scipy {scipy.__version__}, {platform.machine()}"
    )

    n = 1000

    def swept_battle() -> object:  # the sweep itself, not a read from the shared cache of battles
        clear_battle_cache()
        return rm.battle(n, n).outcomes

    ours = best(swept_battle, repeat)
    base = best(lambda: baselines.forward_battle(n, n), slow_repeat)
    report(f"battle({n}, {n}) with its outcome distribution", ours, base, 30)
    odds_speed.report(args.quick)  # issue 21: the peers, first calls, the compiled DP, memory (bench/odds_speed.py)

    ours = best(lambda: rm.odds_table(n, n), repeat)
    base = best(lambda: baselines.backward_table(n, n), slow_repeat)
    report(f"odds_table({n}, {n})", ours, base, 20)
    table_bytes = peak_memory(lambda: rm.odds_table(n, n))
    per_cell = table_bytes / (n * n)
    print(f"{'':<50} peak memory {table_bytes / 2**20:.1f} MiB for {n * n} cells ({per_cell:.0f} bytes/cell)")

    ours = best(lambda: rm.odds_table(200, 200), repeat)
    base = best(lambda: baselines.backward_table(200, 200), repeat)
    report("odds_table(200, 200)", ours, base, None)

    ours = best(lambda: count_pair_wins.__wrapped__(3, 3, 6, 6, False), repeat)
    base = best(lambda: baselines.roll_table(3, 3), slow_repeat)
    report("roll_odds(3, 3) by counting v listing 6^6 throws", ours, base, None)
    ours = best(lambda: count_pair_wins.__wrapped__(10, 10, 100, 100, False), slow_repeat)
    name = "roll_odds(10, 10) with 100-sided dice"
    print(f"{name:<50} riskmath {ours * 1e3:9.2f} ms   (listing 100^20 throws: infeasible)")

    m = 60

    def swept_exact() -> object:  # computed, not read back from the cache of battles
        clear_battle_cache()
        return rm.battle(m, m, exact=True).win_probability

    ours = best(swept_exact, slow_repeat)
    base = best(lambda: baselines.forward_battle_exact(m, m), slow_repeat)
    report(f"battle({m}, {m}, exact=True) v Fraction DP", ours, base, None)

    time_estimates(args.quick)
    chained(repeat, slow_repeat)
    rules_engine(4 if args.quick else 12, args.quick)
    envs_speed(2 if args.quick else 3)
    imports.report(repeat)  # start-up: fresh processes, medians (bench/imports.py)
    print()
    strength.main(["--quick"])  # every agent against every other, a few games each (bench/strength.py)


if __name__ == "__main__":
    main()
