"""Perft for the rules model: the size of the tree of legal actions and chance outcomes from fixed positions.

Like a chess engine's perft files (reference move counts at a fixed depth), this pins the engine apart from
the agents: from each starting position every decision branches over ``legal_actions()`` and every chance node
over ``chance_outcomes()`` (one branch per outcome), to a fixed depth (``legal_actions()`` lists the blitzes
with ``stop_at=0`` only: the other stop values are legal but not counted).  At each depth the reference holds the
number of nodes, how many are in each phase and how many were reached by each kind of action or outcome
(``Attack``, ``RollOutcome``, ``TradeCards`` ...), and the probability mass: the sum over the nodes of the product of
the chance probabilities on the way there, exact (a Fraction) where every probability is, and separately as
a float for the paths through a blitz (whose tables are floats).  The mass pins the chance tables too: a changed
probability anywhere in the tree changes it.

On the way every node is checked: a decision node that is not terminal has a legal action, ``len`` of the
legal actions is what iterating them gives, a chance node's probabilities are positive and sum to 1, a terminal
node has no action; and on a sample of the nodes, applying every child leaves the state as it was (its JSON) and
the playouts' invariants hold (``check_invariants``).

The cases: three presets on the six-territory toy board (``game_helpers.TOY``) that differ in set-up and
combat (``us_1993`` with 3 players: territories claimed, the defender rolls up to 2 dice; ``article_ja`` with
2 players and a neutral: each claims a third, the rest neutral; ``french_1957`` with 3 players: territories
dealt one chance node at a time, the defender rolls up to 3 dice), each from four positions: the state before
the set-up (seed 1), the first state after a seeded random set-up (``after_setup(game, 1)``), and two states
of a seeded random game (seed 1): the first in the attack phase after a capture with two cards in the mover's
hand (card draws, eliminations and the game's end within reach), and the first reinforcement phase in which
the mover may trade a set.  The positions are stored in the reference file (every field of their JSON but the
game), so that the counts do not depend on how a seeded playout reaches them.

The fast tier counts to a shallow depth; the slow one to the full depth of the file.  The reference file is
``tests/reference/perft.json``, written by ``PYTHONPATH=. python tests/test_perft.py --regen`` from the root of
the checkout whose engine it records (never run by pytest; it names the engine it imported).  A change to the
engine that changes these counts must say why, and regenerate the file in the same commit.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from game_helpers import TOY, after_setup, check_invariants, data_of, load, play_until

import riskmath as rm

REFERENCE = Path(__file__).parent / "reference" / "perft.json"

#: (preset, players) on the toy board.
GAMES = [("us_1993", 3), ("article_ja", 2), ("french_1957", 3)]

#: Starting positions and (fast depth, full depth) for each.
STARTS = {"initial": (6, 10), "after_setup": (3, 5), "midgame": (4, 6), "trade": (3, 5)}

#: Every how-many-th node has its JSON compared before and after its children and its invariants checked.
SAMPLE = 13


def game_of(preset: str, players: int) -> rm.Game:
    return rm.Game(players, rm.Rules.preset(preset), TOY)


def midgame(state: rm.GameState) -> bool:
    """An attack phase after a capture, the mover holding two cards or more (its card draw and a trade ahead)."""
    return state.phase is rm.Phase.ATTACK and data_of(state)["captured"] and len(state.cards(state.current_player)) >= 2


def trade(state: rm.GameState) -> bool:
    """A reinforcement phase in which the mover may trade a set."""
    return state.phase is rm.Phase.REINFORCE and any(isinstance(a, rm.TradeCards) for a in state.legal_actions())


def reach(game: rm.Game, start: str) -> rm.GameState:
    """The starting position ``start`` of ``game``, reached by seeded play (used to write the reference)."""
    if start == "initial":
        return game.new_initial_state(seed=1)
    if start == "after_setup":
        return after_setup(game, 1)
    return play_until(game.new_initial_state(seed=1), midgame if start == "midgame" else trade, random.Random(1))


def position_of(state: rm.GameState) -> dict[str, Any]:
    """A state's JSON fields, less the game (rebuilt from the preset on reading)."""
    return {k: v for k, v in data_of(state).items() if k not in ("format", "game")}


def from_position(game: rm.Game, fields: dict[str, Any]) -> rm.GameState:
    data = data_of(game.new_initial_state(seed=0))
    data.update(fields)
    return load(data)


def perft(start: rm.GameState, depth: int) -> list[dict[str, Any]]:
    """Per depth 0..``depth``: nodes, nodes per phase, nodes per kind of action or outcome that led there, and
    the probability mass (exact, and through blitzes)."""
    nodes = [0] * (depth + 1)
    phases: list[Counter[str]] = [Counter() for _ in range(depth + 1)]
    via: list[Counter[str]] = [Counter() for _ in range(depth + 1)]
    exact = [Fraction(0)] * (depth + 1)
    floats: list[list[float]] = [[] for _ in range(depth + 1)]
    visited = 0

    def visit(state: rm.GameState, parent: rm.GameState | None, d: int, mass: Fraction | float, step: Any) -> None:
        nonlocal visited
        visited += 1
        nodes[d] += 1
        phases[d][state.phase.name] += 1
        if step is not None:
            via[d][type(step).__name__] += 1
        if isinstance(mass, Fraction):
            exact[d] += mass
        else:
            floats[d].append(mass)
        sampled = visited % SAMPLE == 1
        if sampled:
            check_invariants(state, parent)
        if state.is_terminal():
            assert len(state.legal_actions()) == 0, state
            assert not state.is_chance_node(), state
            return
        if d == depth:
            return
        before = state.to_json() if sampled else None
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes, state
            assert all(p > 0 for _, p in outcomes), (state, outcomes)
            if all(isinstance(p, Fraction) for _, p in outcomes):
                assert sum(p for _, p in outcomes) == 1, state
            else:
                assert math.isclose(math.fsum(p for _, p in outcomes), 1, rel_tol=1e-12), state
            for outcome, p in outcomes:
                if isinstance(mass, Fraction) and isinstance(p, Fraction):
                    visit(state.apply(outcome), state, d + 1, mass * p, outcome)
                else:
                    visit(state.apply(outcome), state, d + 1, float(mass) * float(p), outcome)
        else:
            legal = state.legal_actions()
            actions = list(legal)
            assert actions, f"a decision node with no legal action: {state!r}"
            assert len(legal) == len(actions), state
            for action in actions:
                visit(state.apply(action), state, d + 1, mass, action)
        if sampled:
            assert state.to_json() == before, f"applying the children of {state!r} changed it"

    visit(start, None, 0, Fraction(1), None)
    return [
        {
            "nodes": nodes[d],
            "phases": dict(sorted(phases[d].items())),
            "via": dict(sorted(via[d].items())),
            "mass": str(exact[d]),
            "mass_float": math.fsum(floats[d]),
        }
        for d in range(depth + 1)
    ]


def reference() -> dict[str, Any]:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def check(key: str, depth: int) -> None:
    case = reference()["cases"][key]
    start = from_position(game_of(case["preset"], case["players"]), case["position"])
    expected = case["depths"][: depth + 1]
    assert len(expected) == depth + 1, f"the reference of {key} stops before depth {depth}"
    counted = perft(start, depth)
    # The node counts first: the clearest message when the tree changed.
    assert [row["nodes"] for row in counted] == [row["nodes"] for row in expected]
    for d, (got, want) in enumerate(zip(counted, expected, strict=True)):
        assert got["phases"] == want["phases"], d
        assert got["via"] == want["via"], d
        assert Fraction(got["mass"]) == Fraction(want["mass"]), d
        assert got["mass_float"] == pytest.approx(want["mass_float"], rel=1e-9, abs=1e-12), d


KEYS = [f"{preset}/{players}/{start}" for preset, players in GAMES for start in STARTS]


@pytest.mark.parametrize("key", KEYS)
def test_perft(key):
    check(key, STARTS[key.rsplit("/", 1)[1]][0])


@pytest.mark.slow
@pytest.mark.parametrize("key", KEYS)
def test_perft_deep(key):
    check(key, STARTS[key.rsplit("/", 1)[1]][1])


def test_reference_covers_the_cases():
    cases = reference()["cases"]
    assert sorted(cases) == sorted(KEYS)
    for key, case in cases.items():
        assert len(case["depths"]) == STARTS[key.rsplit("/", 1)[1]][1] + 1, key
        assert case["depths"][0]["nodes"] == 1


def regenerate() -> None:
    print(f"engine: {Path(rm.__file__).parent}", file=sys.stderr)
    cases = {}
    for preset, players in GAMES:
        game = game_of(preset, players)
        for start, (_, full) in STARTS.items():
            state = reach(game, start)
            position = position_of(state)
            assert from_position(game, position) == state
            depths = perft(state, full)
            key = f"{preset}/{players}/{start}"
            cases[key] = {"preset": preset, "players": players, "position": position, "depths": depths}
            print(f"{key}: {[row['nodes'] for row in depths]}", file=sys.stderr)
    about = (
        "Perft of the rules model on the toy board of tests/game_helpers.py: per depth, the nodes of the tree of "
        "legal actions and chance outcomes, their phases and their probability mass (exact; and as a float "
        "through blitzes).  Written by PYTHONPATH=. python tests/test_perft.py --regen; see that module."
    )
    REFERENCE.write_text(json.dumps({"about": about, "cases": cases}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {REFERENCE}", file=sys.stderr)


if __name__ == "__main__":  # regenerate the reference file
    if sys.argv[1:] != ["--regen"]:
        sys.exit("usage: PYTHONPATH=. python tests/test_perft.py --regen  (rewrites tests/reference/perft.json)")
    regenerate()
