"""The typed position under GameState: its record, the read-only views and the action codec."""

from __future__ import annotations

import json

import numpy as np
import pytest
from game_helpers import tiered

import riskmath as rm
from riskmath.game.checked import KIND, to_action, to_engine
from riskmath.game.position import FIELDS, Capture, PendingBattle, Position


def _attack_state(defender_decides: bool = False) -> rm.GameState:
    state = rm.Game(3, defender_decides=defender_decides).new_initial_state(seed=4, auto_chance=True)
    while state.phase is not rm.Phase.ATTACK:
        state = state.apply(state.legal_actions()[0])
    return state


def test_every_field_is_a_slot_and_copy_is_deep():
    state = rm.Game(3).new_initial_state(seed=1, auto_chance=True)
    pos = state.position
    assert Position.__slots__ == FIELDS
    twin = pos.copy()
    assert twin == pos
    assert twin is not pos
    twin.armies[0] += 1
    twin.hands[0].append("wild")
    assert twin != pos
    assert state.armies(0) == pos.armies[0]  # the state still sees its own position


def test_bulk_views_are_read_only_copies():
    state = rm.Game(4).new_initial_state(seed=2, auto_chance=True)
    state = state.apply(state.legal_actions()[0])
    owners, armies = state.owners, state.army_counts
    names = state.game.board.territories
    assert owners.dtype == np.int64
    assert armies.dtype == np.int64
    assert [state.owner(t) for t in names] == owners.tolist()
    assert [state.armies(t) for t in names] == armies.tolist()
    with pytest.raises(ValueError, match="read-only"):
        owners[0] = 3
    assert state.pending is None


def test_pending_battle_is_a_named_record():
    state = _attack_state(defender_decides=True)
    attack = next(a for a in state.legal_actions() if isinstance(a, rm.Attack))
    after = state.apply(attack)
    pending = after.pending
    assert isinstance(pending, PendingBattle)
    assert (pending.kind, pending.attacker, pending.defense) == ("attack", state.current_player, None)
    assert after.game.board.territories[pending.source] == attack.source
    # JSON keeps the six-value list of the state format
    data = json.loads(after.to_json())
    assert data["pending"] == list(pending)
    assert rm.GameState.from_json(after.to_json()) == after
    # dice and stop_at are read apart: each is None for the other kind of battle
    assert (pending.dice, pending.stop_at) == (attack.dice, None)
    blitz = rm.Blitz(attack.source, attack.target, 1)
    waiting = rm.GameState(state.game, state.position.copy())  # chance left to the caller: the BLITZ node stays
    declared = waiting.apply(blitz).pending
    assert declared is not None
    assert (declared.kind, declared.dice, declared.stop_at) == ("blitz", None, 1)


def test_capture_is_a_named_record():
    state = _attack_state()
    while state.capture is None:
        legal = state.legal_actions()
        blitzes = [a for a in legal if isinstance(a, rm.Blitz)]
        state = state.apply(blitzes[0] if blitzes else legal[0])
    occupy = state.position.occupy
    assert isinstance(occupy, Capture)
    names = state.game.board.territories
    assert state.capture == (names[occupy.source], names[occupy.target], occupy.least)


def test_codec_round_trips_every_action_kind():
    game = rm.Game(3)
    actions = [
        rm.PlaceArmies("Alaska", 2),
        rm.TradeCards(("Alaska", "Peru", "wild")),
        rm.Attack("Alaska", "Kamchatka", 2),
        rm.Blitz("Alaska", "Kamchatka", 1),
        rm.Defend(1),
        rm.Occupy(3),
        rm.Fortify("Alaska", "Alberta", 4),
        rm.ChooseCapital("Peru"),
        rm.ChoosePile(2),
        rm.EndPhase(),
    ]
    assert {KIND[type(a)] for a in actions} == set(KIND.values())
    for action in actions:
        checked = to_engine(game, action)
        assert checked[0] == KIND[type(action)]
        assert to_action(game, checked) == action
    with pytest.raises(TypeError):
        to_engine(game, "attack")
    with pytest.raises(ValueError, match="not a checked action"):
        to_action(game, ("nonsense",))


def test_a_state_can_be_built_from_a_position():
    state = rm.Game(3).new_initial_state(seed=5, auto_chance=True)
    again = rm.GameState(state.game, state.position.copy(), auto_chance=True)
    assert again == state
    assert again.problems() == []
    assert again.apply(again.legal_actions()[0]) == state.apply(state.legal_actions()[0])


def _fortify_states(rules: rm.Rules, players: int = 3, games: int = 2) -> list[rm.GameState]:
    """FORTIFY states of random games (several moves a turn under the Experts rules)."""
    import random

    game = rm.Game(players, rules, max_turns=40)
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed, auto_chance=True)
        while not state.is_terminal():
            if state.phase is rm.Phase.FORTIFY:
                found.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    return found


# The Experts rules' games fortify most (about a second): slow.
@pytest.mark.parametrize("rules", tiered(["classic", "experts", "capped"], ["classic", "capped"]))
def test_fortification_targets_are_what_check_action_accepts(rules):
    """The query (and so the enumeration) against the check, pair by pair: a one-army move is legal exactly there."""
    from riskmath.game.position import fortification_reach, fortification_targets

    chosen = {
        "classic": rm.Rules(),
        "experts": rm.Rules.preset("us_1993_experts"),
        "capped": rm.Rules(fortify="connected", max_armies_per_territory=4),
    }[rules]
    states = _fortify_states(chosen)
    assert states
    for state in states[::3]:
        game, pos = state.game, state.position
        names = game.board.territories
        mine = {t for t, o in enumerate(pos.owner) if o == pos.player}
        regions: dict[int, list[int]] = {}
        for source in sorted(mine):
            targets = fortification_targets(game, pos, source, mine, regions)
            assert targets == fortification_targets(game, pos, source, mine)  # the regions remembered change nothing
            assert set(targets) <= set(fortification_reach(game, pos, source))
            legal = [u for u in range(len(names)) if state.is_legal(rm.Fortify(names[source], names[u], 1))]
            assert sorted(targets) == legal


def test_rivals_and_enemies():
    """Two meanings, one table: a rival is a living player; an enemy is any other owner, neutrals included."""
    from riskmath.game.position import is_enemy, is_rival, rival_table

    state = rm.Game(2).new_initial_state(seed=1, auto_chance=True)  # two players and a neutral (owner 2)
    game, pos = state.game, state.position
    table = rival_table(game, pos)
    for player in range(-1, game.owners):
        for other in range(-1, game.owners):
            assert is_rival(game, pos, player, other) == (other != player and table[other + 1])
            assert is_enemy(player, other) == (other != player and other >= 0)
            assert not is_rival(game, pos, player, other) or is_enemy(player, other)
    assert is_enemy(0, 2)  # the neutral: attacked, never attacking
    assert not is_rival(game, pos, 0, 2)
    assert not is_enemy(0, -1)  # nobody
    assert not is_rival(game, pos, 0, -1)
