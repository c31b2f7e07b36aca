"""riskmath.envs.hidden: resampled states keep the player's view and change only what it cannot see; the hidden
cards are dealt uniformly; missions that would have ended the game are never drawn; the view string."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import riskmath as rm
from riskmath.envs import CountChoice, observation
from riskmath.envs.hidden import resample_hidden, view_string
from riskmath.errors import InvalidArgumentError
from riskmath.game.missions import completed

GAMES = {
    "classic": rm.Game(3, max_turns=40),
    "missions": rm.Game(4, rm.Rules.preset("us_1993_secret_mission"), max_turns=40),
    "small": rm.Game(2, board="south_america_africa", max_turns=40),
}


def random_state(game, seed, steps):
    """The state after ``steps`` random steps (uniform decisions, chance sampled) from seed ``seed``."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


def unseen(state, player):
    pos = state.position
    return Counter(pos.deck + [c for q, hand in enumerate(pos.hands) if q != player for c in hand])


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 4000),
    player=st.integers(0, 3),
    draw=st.integers(0, 2**64),
)
def test_only_what_the_player_cannot_see_changes(name, seed, steps, player, draw):
    game = GAMES[name]
    state = random_state(game, seed, steps)
    player %= game.players
    new = resample_hidden(state, player, draw)
    assert new.problems() == []
    assert view_string(new, player) == view_string(state, player)
    assert (observation(new, player) == observation(state, player)).all()
    old_pos, new_pos = state.position, new.position
    assert new_pos.hands[player] == old_pos.hands[player]
    assert [len(h) for h in new_pos.hands] == [len(h) for h in old_pos.hands]
    assert unseen(new, player) == unseen(state, player)
    for field in ("owner", "armies", "discard", "phase", "pending", "occupy", "alive", "killed_by", "capitals"):
        assert getattr(new_pos, field) == getattr(old_pos, field)
    if player < len(old_pos.missions):
        assert new_pos.missions[player] == old_pos.missions[player]
    assert len(new_pos.missions) == len(old_pos.missions)
    if len(new_pos.missions) == game.players and not new.is_terminal():  # immediate checks: none complete
        assert not any(new_pos.alive[q] and completed(game, new_pos, q) for q in range(game.players))
    assert new == resample_hidden(state, player, draw)  # the seed decides everything
    if state.current_player == player:
        assert list(new.legal_actions()) == list(state.legal_actions())


def test_a_count_choice_keeps_its_count():
    game = GAMES["small"]
    state = random_state(game, 3, 400)
    while state.is_chance_node() or state.is_terminal():
        state = random_state(game, 3, 401)
    choice = CountChoice(state, "place", 0, -1, 1, 5, 2)
    new = resample_hidden(choice, state.current_player, 1)
    assert isinstance(new, CountChoice)
    assert (new.kind, new.source, new.target, new.low, new.high, new.chosen) == ("place", 0, -1, 1, 5, 2)
    assert view_string(new, state.current_player) == view_string(choice, state.current_player)
    assert "count place 0 -1 1 5 2" in view_string(new, state.current_player)


def test_the_hidden_cards_are_dealt_uniformly():
    """Monte Carlo, 4,000 resamples with fixed seeds: each unseen card lands in a given opponent's hand with
    probability (its hand size) / (the unseen cards); every card's share within 0.035 (about 5 standard
    deviations of a share near 0.1 over 4,000 draws)."""
    game = GAMES["classic"]
    states = (random_state(game, k, 2500) for k in range(40))
    state = next(s for s in states if len(s.position.hands[1]) >= 3)
    player, other = 0, 1
    pool = unseen(state, player)
    size = len(state.position.hands[other])
    assert size > 0
    counts = Counter()
    draws = 4000
    for seed in range(draws):
        counts.update(set(resample_hidden(state, player, seed).position.hands[other]))
    expected = size / sum(pool.values())
    for card, k in pool.items():
        if card == "wild":
            continue
        assert abs(counts[card] / draws - expected * k) < 0.035, (card, counts[card] / draws, expected)


def test_the_view_hides_the_others_cards_and_shows_ones_own():
    state = random_state(GAMES["classic"], 7, 3000)
    hands = state.position.hands
    holder = next(q for q in range(3) if hands[q])
    card = hands[holder][0]
    assert repr(card) in view_string(state, holder)
    for q in range(3):
        if q != holder and card not in hands[q] and card not in state.position.discard:
            assert card not in view_string(state, q)


@pytest.mark.parametrize("bad", [None, -1, 3, True, 1.0, "0"])
def test_a_bad_player_is_named(bad):
    state = GAMES["classic"].new_initial_state(seed=0)
    with pytest.raises(InvalidArgumentError, match=r"player must be a player id in 0\.\.2"):
        resample_hidden(state, bad, 0)
    with pytest.raises(InvalidArgumentError, match=r"player must be a player id in 0\.\.2"):
        view_string(state, bad)


def test_a_bad_node_or_seed_is_named():
    state = GAMES["classic"].new_initial_state(seed=0)
    with pytest.raises(InvalidArgumentError, match="expected a GameState"):
        resample_hidden("state", 0, 0)
    with pytest.raises(InvalidArgumentError, match=r"seed must be an integer, got 1\.5"):
        resample_hidden(state, 0, 1.5)
