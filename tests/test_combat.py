"""Attacks: dice, the defender's choice, roll and blitz chance nodes, occupation, elimination and the win.

Sources (tags of docs/sources.rst): the 1993 US rules [R1] (dice, capture and occupation, elimination and hand
limits [R2d], winning, two players: the opponent rolls for a neutral [R3b]); Domination's Italian option [R13]
and sge-risk [M10] for the variants; the Japanese Wikipedia article for the trade-down at 5 cards (preset
"article_ja").
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import pytest
from game_helpers import build

import riskmath as rm

# Alaska borders Northwest Territory, Alberta and Kamchatka ([M1]-[M4]); Kamchatka borders Alaska, Yakutsk,
# Irkutsk, Mongolia and Japan.


def duel(attackers: int, defenders: int, game: rm.Game | None = None, **kwargs) -> rm.GameState:
    """Player 0's ATTACK phase: Alaska (``attackers`` armies) against player 1's Kamchatka."""
    game = game or rm.Game(3)
    owner = {"Alaska": 0, "Kamchatka": 1, "Northwest Territory": 0, "Alberta": 2, "Japan": 1}
    owner.update(kwargs.pop("owner", {}))
    armies = {"Alaska": attackers, "Kamchatka": defenders, "Northwest Territory": 1}
    armies.update(kwargs.pop("armies", {}))
    return build(game, owner=owner, armies=armies, **kwargs)


@pytest.mark.parametrize(("armies", "most"), [(2, 1), (3, 2), (4, 3), (9, 3)])
def test_attacker_dice_need_one_more_army(armies, most):
    # 1993 rules [R1]: at least one more army in the territory than the dice rolled; at most 3 dice.
    state = duel(armies, 2)
    for dice in range(1, most + 1):
        assert state.is_legal(rm.Attack("Alaska", "Kamchatka", dice))
    with pytest.raises(rm.IllegalActionError, match=rf"dice must be in 1\.\.{most}, got {most + 1}"):
        state.apply(rm.Attack("Alaska", "Kamchatka", most + 1))
    listed = [a for a in state.legal_actions() if getattr(a, "source", None) == "Alaska" and a.target == "Kamchatka"]
    assert listed == [
        *(rm.Attack("Alaska", "Kamchatka", d) for d in range(1, most + 1)),
        rm.Blitz("Alaska", "Kamchatka"),
    ]


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (rm.Attack("Alaska", "Japan", 1), "Alaska does not border Japan"),
        (rm.Attack("Alaska", "Northwest Territory", 1), "Northwest Territory is yours"),
        (rm.Attack("Kamchatka", "Alaska", 1), "Kamchatka is not yours"),
        (rm.Attack("Northwest Territory", "Alberta", 1), "Northwest Territory has 1 army: attacking needs 2"),
        (rm.Attack("Alaska", "Kamchatka", 0), r"dice must be in 1\.\.3, got 0"),
        (rm.Attack("Alaska", "Kamchatka", 2.0), "dice must be an integer, got 2.0"),
        (rm.Attack("Alaska", "Kamchatka", True), "dice must be an integer, got True"),
        (rm.Attack("Alaska", "Atlantis", 1), "unknown territory 'Atlantis'"),
        (rm.Attack(99, "Kamchatka", 1), "territory id 99 is out of range"),
        (rm.Blitz("Alaska", "Kamchatka", 4), r"stop_at must be in 0\.\.3, got 4"),
        (rm.Blitz("Alaska", "Kamchatka", -1), r"stop_at must be in 0\.\.3, got -1"),
        (rm.Occupy(1), "expected Attack, Blitz or EndPhase"),
        (rm.PlaceArmies("Alaska", 1), "expected Attack, Blitz or EndPhase"),
    ],
)
def test_illegal_attacks(action, reason):
    state = duel(5, 2)
    before = state.to_json()
    with pytest.raises(rm.IllegalActionError, match=reason):
        state.apply(action)
    assert not state.is_legal(action)
    assert action not in state.legal_actions()
    assert state.to_json() == before


def test_ids_and_aliases_name_territories():
    state = duel(5, 2)
    alaska, kamchatka = state.game.board.index("Alaska"), state.game.board.index("Kamchatka")
    by_id = state.apply(rm.Attack(alaska, kamchatka, 3))
    assert by_id == state.apply(rm.Attack("alaska", "KAMCHATKA", 3))
    assert by_id.phase is rm.Phase.ROLL


@pytest.mark.parametrize(("defenders", "defense"), [(1, 1), (2, 2), (7, 2)])
@pytest.mark.parametrize("dice", [1, 2, 3])
def test_roll_outcomes_are_the_exact_odds(dice, defenders, defense):
    # 1993 rules [R1]: the defender throws min(2, defenders) dice by default; the chance node is roll_odds exactly.
    state = duel(4, defenders).apply(rm.Attack("Alaska", "Kamchatka", dice))
    assert state.phase is rm.Phase.ROLL
    assert state.is_chance_node()
    assert state.current_player == -1
    outcomes = dict(state.chance_outcomes())
    expected = {rm.RollOutcome(a, d): p for (a, d), p in rm.roll_odds(dice, defense).items()}
    assert outcomes == expected
    assert all(isinstance(p, Fraction) for p in outcomes.values())
    assert sum(outcomes.values()) == 1
    assert isinstance(state.sample_chance(), rm.RollOutcome)
    assert state.sample_chance() == state.sample_chance()  # the generator is part of the state


def test_sample_chance_is_refused_where_there_is_nothing_to_draw():
    # A decision node and the end of the game list no chance outcomes; sampling there raised a bare IndexError
    # from inside the sampler (hostile client review, 2026-12-03).
    from riskmath.agents import RandomAgent

    over = rm.play(rm.Game(3, max_turns=3), [RandomAgent()] * 3, 1).final
    setup = rm.Game(3).new_initial_state(seed=1, auto_chance=True)
    assert over.is_terminal()
    for state in (duel(4, 2), duel(4, 2).apply(rm.EndPhase()), setup, over):
        assert not state.is_chance_node()
        assert state.chance_outcomes() == []
        with pytest.raises(rm.IllegalActionError, match=r"sample_chance\(\) draws the outcome of a chance node, and "):
            state.sample_chance()


def test_roll_outcomes_with_three_defender_dice():
    # Variant (Risiko; [R13], [R12a]): up to 3 defender dice.
    game = rm.Game(3, rm.Rules.preset("risiko"))
    state = duel(4, 5, game).apply(rm.Attack("Alaska", "Kamchatka", 3))
    expected = {rm.RollOutcome(a, d): p for (a, d), p in rm.roll_odds(3, 3).items()}
    assert dict(state.chance_outcomes()) == expected


def test_roll_losses_apply():
    state = duel(5, 4).apply(rm.Attack("Alaska", "Kamchatka", 3))
    after = state.apply(rm.RollOutcome(1, 1))
    assert (after.armies("Alaska"), after.armies("Kamchatka"), after.phase) == (4, 3, rm.Phase.ATTACK)
    assert after.current_player == 0
    with pytest.raises(rm.IllegalActionError, match="not a possible outcome"):
        state.apply(rm.RollOutcome(0, 3))
    with pytest.raises(rm.IllegalActionError, match="not a possible outcome"):
        state.apply(rm.BattleOutcome(4, 0))


def test_defender_decides_its_dice():
    # 1993 rules [R1]: the defender chooses 1 or 2 dice (2 need 2 armies), a decision node of its own.
    game = rm.Game(3, defender_decides=True)
    state = duel(5, 3, game).apply(rm.Attack("Alaska", "Kamchatka", 2))
    assert state.phase is rm.Phase.DEFEND
    assert (state.current_player, state.turn_player) == (1, 0)
    assert list(state.legal_actions()) == [rm.Defend(1), rm.Defend(2)]
    with pytest.raises(rm.IllegalActionError, match=r"DEFEND for player 1: dice must be in 1\.\.2, got 3"):
        state.apply(rm.Defend(3))
    with pytest.raises(rm.IllegalActionError, match="expected Defend"):
        state.apply(rm.EndPhase())
    one = state.apply(rm.Defend(1))
    assert one.phase is rm.Phase.ROLL
    assert dict(one.chance_outcomes()) == {rm.RollOutcome(a, d): p for (a, d), p in rm.roll_odds(2, 1).items()}
    after = one.apply(rm.RollOutcome(0, 1))
    assert (after.phase, after.current_player, after.armies("Kamchatka")) == (rm.Phase.ATTACK, 0, 2)
    # A lone defending army may roll only one die.
    state = duel(5, 1, game).apply(rm.Attack("Alaska", "Kamchatka", 3))
    assert list(state.legal_actions()) == [rm.Defend(1)]


def test_opponent_rolls_for_a_neutral_in_a_two_player_game():
    # 1993 two-player rules [R1] [R3b]: "When you attack a neutral territory, your opponent rolls its defense dice."
    game = rm.Game(2, defender_decides=True)
    state = duel(5, 2, game, owner={"Kamchatka": 2, "Japan": 1, "Alberta": 1}, default_owner=lambda t: t % 2)
    assert state.owner("Kamchatka") == 2
    state = state.apply(rm.Attack("Alaska", "Kamchatka", 3))
    assert (state.phase, state.current_player) == (rm.Phase.DEFEND, 1)
    assert state.apply(rm.Defend(2)).phase is rm.Phase.ROLL
    # Four neutrals (2003): the same.
    game = rm.Game(2, rm.Rules.preset("euro_2003"), defender_decides=True)
    state = duel(5, 2, game, owner={"Kamchatka": 4, "Japan": 1, "Alberta": 1}, default_owner=lambda t: t % 2)
    assert state.apply(rm.Attack("Alaska", "Kamchatka", 3)).current_player == 1


def test_capture_moves_at_least_the_dice_rolled():
    # 1993 rules [R1]: move in at least as many armies as dice rolled in the final battle, leaving at least 1 behind.
    for dice in (1, 2, 3):
        state = duel(6, 1).apply(rm.Attack("Alaska", "Kamchatka", dice)).apply(rm.RollOutcome(0, 1))
        assert state.phase is rm.Phase.OCCUPY
        assert state.owner("Kamchatka") == 0
        assert state.armies("Kamchatka") == 0
        assert state.problems() == []
        assert list(state.legal_actions()) == [rm.Occupy(k) for k in range(dice, 6)]
        with pytest.raises(rm.IllegalActionError, match=rf"armies must be in {dice}\.\.5, got {dice - 1}"):
            state.apply(rm.Occupy(dice - 1))
        with pytest.raises(rm.IllegalActionError, match=rf"armies must be in {dice}\.\.5, got 6"):
            state.apply(rm.Occupy(6))
        with pytest.raises(rm.IllegalActionError, match="expected Occupy"):
            state.apply(rm.EndPhase())
        after = state.apply(rm.Occupy(dice))
        assert (after.armies("Alaska"), after.armies("Kamchatka")) == (6 - dice, dice)
        assert after.phase is rm.Phase.ATTACK
        assert after.turn_player == 0


def test_occupy_min_one():
    # Some implementations (sge-risk [M10], after the 1963 rules) require only 1 army.
    game = rm.Game(3, rm.Rules(occupy_min="one"))
    state = duel(6, 1, game).apply(rm.Attack("Alaska", "Kamchatka", 3)).apply(rm.RollOutcome(0, 1))
    assert list(state.legal_actions()) == [rm.Occupy(k) for k in range(1, 6)]


@pytest.mark.parametrize(("attackers", "defenders", "stop_at"), [(5, 3, 0), (5, 3, 2), (1, 1, 0), (12, 7, 4)])
def test_blitz_outcomes_are_the_battle_distribution(attackers, defenders, stop_at):
    # A blitz is one chance node with riskmath.battle's outcomes (attackers = armies - 1).
    state = duel(attackers + 1, defenders).apply(rm.Blitz("Alaska", "Kamchatka", stop_at))
    assert state.phase is rm.Phase.BLITZ
    outcomes = dict(state.chance_outcomes())
    expected = rm.battle(attackers, defenders, stop_at=stop_at).outcomes
    assert set(outcomes) == {rm.BattleOutcome(int(a), int(d)) for a, d in expected.index}
    for (a, d), p in expected.items():
        assert isinstance(outcomes[rm.BattleOutcome(a, d)], float)
        assert outcomes[rm.BattleOutcome(a, d)] == pytest.approx(float(p), rel=1e-12, abs=1e-15)
    assert math.isclose(sum(outcomes.values()), 1.0, rel_tol=1e-12)


def test_blitz_capture_and_stop():
    state = duel(8, 3).apply(rm.Blitz("Alaska", "Kamchatka"))
    # After a blitz capture the least move is min(3, attackers left) (the last roll lost nothing).
    for left, least in [(7, 3), (3, 3), (2, 2), (1, 1)]:
        after = state.apply(rm.BattleOutcome(left, 0))
        assert (after.phase, after.armies("Alaska"), after.owner("Kamchatka")) == (rm.Phase.OCCUPY, left + 1, 0)
        assert list(after.legal_actions()) == [rm.Occupy(k) for k in range(least, left + 1)]
    # A failed blitz leaves the armies able to attack, plus the one that stays behind.
    after = state.apply(rm.BattleOutcome(0, 2))
    assert (after.phase, after.armies("Alaska"), after.armies("Kamchatka")) == (rm.Phase.ATTACK, 1, 2)
    stopped = duel(8, 9).apply(rm.Blitz("Alaska", "Kamchatka", 4))
    assert all(o.attackers_left <= 4 or o.defenders_left == 0 for o, _ in stopped.chance_outcomes())


def test_blitz_ignores_the_defenders_choice():
    game = rm.Game(3, defender_decides=True)
    assert duel(5, 3, game).apply(rm.Blitz("Alaska", "Kamchatka")).phase is rm.Phase.BLITZ


# -- elimination (1993 rules [R1] [R2d]) -----------------------------------------------------------------------

# Cards of territories held by player 2, so that no territory bonus applies: infantry Egypt, Peru, Argentina,
# Venezuela; cavalry Greenland, Ontario, Quebec, Madagascar.
INF = ["Egypt", "Peru", "Argentina", "Venezuela"]
CAV = ["Greenland", "Ontario", "Quebec", "Madagascar"]


def last_stand(game: rm.Game, mine: list[str], theirs: list[str], **kwargs) -> rm.GameState:
    """Player 0 has captured player 1's last territory (Kamchatka) and must occupy it."""
    owner = {"Alaska": 0, "Kamchatka": 1} | {t: 2 for t in INF + CAV}
    others = lambda t: 0 if t % 3 == 0 else 2  # noqa: E731 - player 1 holds Kamchatka only
    state = build(
        game,
        owner=owner,
        default_owner=others,
        armies={"Alaska": 6, "Kamchatka": 1},
        hands=[mine, theirs, []],
        **kwargs,
    )
    state = state.apply(rm.Attack("Alaska", "Kamchatka", 3)).apply(rm.RollOutcome(0, 1))
    assert state.phase is rm.Phase.OCCUPY
    return state


def test_elimination_takes_the_cards():
    state = last_stand(rm.Game(3), INF[:2], CAV[:3])
    assert not state.alive(1)
    assert state.cards(0) == (*INF[:2], *CAV[:3])
    assert state.cards(1) == ()
    after = state.apply(rm.Occupy(3))
    assert after.phase is rm.Phase.ATTACK  # 5 cards: no trade now (1993 rules [R1] [R2d]: fewer than 6, wait)
    assert after.problems() == []


def test_trade_down_to_four_after_an_elimination_1993():
    # 1993 rules [R2d]: 6 or more cards after an elimination: trade at once until 4 or fewer, place, keep attacking.
    state = last_stand(rm.Game(3), INF[:3], CAV[:3], sets_traded=2).apply(rm.Occupy(3))
    assert state.phase is rm.Phase.TRADE_DOWN
    assert state.current_player == 0
    assert state.pool == 0
    assert sorted(a.cards for a in state.legal_actions()) == sorted([tuple(sorted(INF[:3])), tuple(sorted(CAV[:3]))])
    for illegal in (rm.EndPhase(), rm.Attack("Kamchatka", "Japan", 1), rm.PlaceArmies("Alaska", 1)):
        with pytest.raises(rm.IllegalActionError, match="TRADE_DOWN"):
            state.apply(illegal)
    state = state.apply(rm.TradeCards(tuple(INF[:3])))
    assert (state.phase, state.pool, len(state.cards(0))) == (rm.Phase.TRADE_DOWN, 8, 3)  # the third set: 8
    with pytest.raises(rm.IllegalActionError, match="down to 3 cards: trading must stop"):
        state.apply(rm.TradeCards(tuple(CAV[:3])))
    assert not any(isinstance(a, rm.TradeCards) for a in state.legal_actions())
    state = state.apply(rm.PlaceArmies("Kamchatka", 8))
    assert (state.phase, state.armies("Kamchatka")) == (rm.Phase.ATTACK, 11)


def test_trade_down_from_eight_cards_needs_two_sets():
    state = last_stand(rm.Game(3), [*INF[:2], *CAV[:2]], [INF[2], INF[3], CAV[2], CAV[3]]).apply(rm.Occupy(3))
    assert (state.phase, len(state.cards(0))) == (rm.Phase.TRADE_DOWN, 8)
    state = state.apply(rm.TradeCards(tuple(INF[:3])))
    assert len(state.cards(0)) == 5
    state = state.apply(rm.PlaceArmies("Alaska", 4))  # placing between the trades is allowed
    assert state.phase is rm.Phase.TRADE_DOWN  # 5 cards: still too many
    state = state.apply(rm.TradeCards(tuple(CAV[:3])))
    assert (len(state.cards(0)), state.pool) == (2, 6)
    state = state.apply(rm.PlaceArmies("Alaska", 6))
    assert state.phase is rm.Phase.ATTACK


def test_article_trades_down_at_five_cards():
    # The article: "この際にカードが5枚以上になった場合、4枚以下になるようにその時点で増援を行う"
    # (5 or more cards: trade at once down to 4 or fewer).
    state = last_stand(rm.Game(3, rm.Rules.preset("article_ja")), INF[:2], CAV[:3]).apply(rm.Occupy(3))
    assert state.phase is rm.Phase.TRADE_DOWN
    state = state.apply(rm.TradeCards(tuple(CAV[:3])))
    assert (len(state.cards(0)), state.pool) == (2, 4)
    # Risiko: no card limit at all.
    state = last_stand(rm.Game(3, rm.Rules.preset("risiko")), [*INF[:3], CAV[3]], CAV[:3]).apply(rm.Occupy(3))
    assert state.phase is rm.Phase.ATTACK


def test_eliminating_the_last_opponent_wins():
    # 1993 rules [R1] [R2e]: win by eliminating every opponent.  Player 1 is already out; player 2 holds only Kamchatka.
    game = rm.Game(3)
    state = build(
        game,
        owner={"Kamchatka": 2},
        default_owner=0,
        armies={"Alaska": 6, "Kamchatka": 1},
        alive=[True, False, True],
        killed_by=[-1, 0, -1],
        hands=[INF[:3], [], CAV[:3]],
    )
    state = state.apply(rm.Attack("Alaska", "Kamchatka", 3))
    assert not state.is_terminal()
    state = state.apply(rm.RollOutcome(0, 1))
    assert state.is_terminal()
    assert state.phase is rm.Phase.GAME_OVER
    assert (state.winner, state.draw, state.current_player) == (0, False, -4)
    assert state.returns() == [1.0, 0.0, 0.0]
    assert state.armies("Kamchatka") == 3  # the least move was made
    assert state.armies("Alaska") == 3
    assert list(state.legal_actions()) == []
    assert not state.is_legal(rm.Occupy(3))
    assert state.problems() == []


def test_two_player_win_leaves_the_neutral():
    # 1993 two-player rules [R1] [R3b]: win by eliminating the opponent; the neutral need not be eliminated.
    game = rm.Game(2)
    state = build(
        game,
        owner={"Alaska": 0, "Kamchatka": 1, "Japan": 2},
        default_owner=lambda t: 0 if t % 2 else 2,
        armies={"Alaska": 6, "Kamchatka": 1},
    )
    state = state.apply(rm.Blitz("Alaska", "Kamchatka")).apply(rm.BattleOutcome(5, 0))
    assert (state.winner, state.returns()) == (0, [1.0, 0.0])
    assert state.territories_of(2)


def test_capturing_a_neutral_eliminates_nobody():
    game = rm.Game(2)
    state = build(game, owner={"Kamchatka": 2}, default_owner=lambda t: t % 2, armies={"Alaska": 6, "Kamchatka": 1})
    state = state.apply(rm.Attack("Alaska", "Kamchatka", 3)).apply(rm.RollOutcome(0, 1))
    assert (state.phase, state.alive(0), state.alive(1)) == (rm.Phase.OCCUPY, True, True)


@pytest.mark.slow
@pytest.mark.parametrize(("attackers", "defenders", "stop_at"), [(10, 8, 0), (6, 6, 2)])
def test_sampled_blitzes_follow_the_battle_distribution(attackers, defenders, stop_at):
    # sample_chance rolls a blitz out roll by roll from the state's generator; over many generator states the
    # outcomes must follow the exact distribution (each outcome's frequency within 4 standard errors).
    from collections import Counter

    state = duel(attackers + 1, defenders).apply(rm.Blitz("Alaska", "Kamchatka", stop_at))
    exact = dict(state.chance_outcomes())
    n = 4000

    def with_generator(k):  # the same state with another generator state (the JSON field "rng")
        return state.reseeded(k)

    counts = Counter(with_generator(seed * 7919 + 1).sample_chance() for seed in range(n))
    assert set(counts) <= set(exact)
    for outcome, p in exact.items():
        assert abs(counts[outcome] / n - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-12, outcome


def _win_by_recursion(attackers, defenders, combat):
    """P(win) of a battle fought to the end, by the plain recursion over one roll at a time, each roll from
    :func:`riskmath.roll_odds` (counted by ``count_pair_wins``, not read from the sweeps' written-out counts)."""

    @functools.cache
    def win(a, d):
        if d == 0:
            return Fraction(1)
        if a == 0:
            return Fraction(0)
        odds = combat.roll_odds(combat.attacker_dice(a), combat.defender_dice(d))
        return sum(p * win(a - lost_a, d - lost_d) for (lost_a, lost_d), p in odds.items())

    return win(attackers, defenders)


@pytest.mark.parametrize(
    "combat",
    [rm.CombatRules(ties="attacker"), rm.CombatRules(defender_max_dice=3, ties="attacker"), rm.CombatRules()],
    ids=["ties-attacker", "three-dice-ties-attacker", "classic"],
)
def test_battles_follow_the_tie_rule_with_six_sided_dice(combat):
    """Kills: ``_sweeps._classic`` without its ``rules.ties == "defender"`` clause, which makes a d6 variant with
    ties to the attacker read the classic (ties to the defender) roll counts: every battle then had the
    defender-ties odds.

    Reference: one roll at a time, each roll's exact odds from ``roll_odds`` with the variant's tie rule.  By
    hand for 1 v 1 (one die each): the attacker wins a roll with probability 7/12 when ties are its own
    (21 of the 36 throws have attacker >= defender), 5/12 under the classic rules.
    """
    one = rm.battle(1, 1, exact=True, rules=combat).win_probability
    assert one == (Fraction(7, 12) if combat.ties == "attacker" else Fraction(5, 12))
    for attackers in range(1, 7):
        for defenders in range(1, 6):
            expected = _win_by_recursion(attackers, defenders, combat)
            assert rm.battle(attackers, defenders, exact=True, rules=combat).win_probability == expected
            assert rm.battle(attackers, defenders, rules=combat).win_probability == pytest.approx(float(expected))
