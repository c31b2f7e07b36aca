"""A tournament between the built-in agents: who beats whom, with 95 % confidence intervals.

Run:  python examples/tournament.py [--games 200] [--search-games 40] [--search-budget 32] [--jobs 2]
                                    [--seed 0] [--dask]

Line-ups, each played with the seats rotated (1993 rules, a cap of 500 player-turns):

- two players: odds v aggressive, odds v random, aggressive v random, search v odds;
- four players: two odds v two aggressive, one odds v three aggressive,
  aggressive v three random, odds v three random.

``--dask`` starts a local Dask cluster (``pip install riskmath[distributed]``)
and runs the same games on it through ``client.get_executor()``: the table is
the same as with ``--jobs``; on a real cluster, pass your own client's
executor to :func:`riskmath.tournament.tournament`.  Prints the table; writes
no files.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from concurrent.futures import Executor

import pandas as pd

import riskmath as rm
from riskmath.agents import AggressiveAgent, RandomAgent
from riskmath.agents.odds import OddsAgent
from riskmath.agents.search import SearchAgent
from riskmath.tournament import tournament

MAX_TURNS = 500


@contextlib.contextmanager
def dask_executor(workers: int) -> Iterator[Executor]:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True) as cluster, Client(cluster) as client:
        yield client.get_executor()


def run(
    games: int, search_games: int, search_budget: int, jobs: int, seed: int, executor: Executor | None
) -> pd.DataFrame:
    odds, aggressive, random_ = OddsAgent(), AggressiveAgent(), RandomAgent()
    search = SearchAgent(budget=search_budget)
    plan = [
        (2, [[odds, aggressive], [odds, random_], [aggressive, random_]], games),
        (2, [[search, odds]], search_games),
        (
            4,
            [
                [odds, aggressive, odds, aggressive],
                [odds, aggressive, aggressive, aggressive],
                [aggressive, random_, random_, random_],
                [odds, random_, random_, random_],
            ],
            games,
        ),
    ]
    parts = []
    for players, lineups, n in plan:
        if n == 0:
            continue
        game = rm.Game(players, max_turns=MAX_TURNS)
        table = tournament(game, lineups, n, seed=seed, n_jobs=jobs, executor=executor)
        table.insert(0, "players", players)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per line-up (default 200)")
    parser.add_argument("--search-games", type=int, default=40, help="games of the search agent (default 40)")
    parser.add_argument("--search-budget", type=int, default=32, help="rollouts per attack decision (default 32)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dask", action="store_true", help="run on a local Dask cluster with --jobs workers")
    args = parser.parse_args()
    if args.dask:
        try:
            import distributed  # noqa: F401 -- only to say what is missing before any game is played
        except ModuleNotFoundError:
            parser.error(
                "--dask needs Dask's distributed scheduler: "
                "pip install 'dask[distributed]', or riskmath's [distributed] extra"
            )
    with dask_executor(args.jobs) if args.dask else contextlib.nullcontext() as executor:
        table = run(args.games, args.search_games, args.search_budget, args.jobs, args.seed, executor)
    shown = table.assign(
        win_rate=table["win_rate"].map("{:.0%}".format),
        ci95=[f"{low:.0%}-{high:.0%}" for low, high in zip(table["ci_low"], table["ci_high"], strict=True)],
    ).drop(columns=["ci_low", "ci_high", "seconds_per_game"])  # wall time: not the same from run to run
    print(shown.to_string(index=False))


if __name__ == "__main__":
    main()
