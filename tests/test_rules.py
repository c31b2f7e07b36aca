"""Rules: the 1993 defaults, the edition presets, validation and the reinforcement table.

Expected values are written out from the public sources of docs/sources.rst (tags in comments) and
the Japanese Wikipedia article (preset "article_ja"), never computed with the code under test.
"""

from __future__ import annotations

import json
import pickle

import pytest

import riskmath as rm
from riskmath.game.rules import CHOICES

PRESETS = (
    "us_1993",
    "us_1993_experts",
    "us_1993_secret_mission",
    "us_1993_capital",
    "us_1959",
    "us_1963",
    "euro_2003",
    "risiko",
    "french_1957",
    "anniversary_1999",
    "article_ja",
)


def test_defaults_are_the_1993_us_rules():
    rules = rm.Rules()
    assert rules.edition == "us_1993"
    assert rules.board == "classic"  # 83 borders, [M1]-[M4]
    assert rules.setup == "claim"  # 1993 rules [R1]: claim in turn
    assert dict(rules.starting_armies) == {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}  # 1993 rules [R1]
    assert rules.setup_cap_per_territory is None  # 1993 rules [R1]: no limit per territory
    assert (rules.min_reinforcement, rules.territory_divisor, rules.rounding) == (3, 3, "floor")  # 1993 rules [R1]
    assert rules.combat == rm.CombatRules(3, 2, 6, 6, "defender")  # 1993 rules [R1]
    assert rules.occupy_min == "dice_rolled"  # 1993 rules [R1]
    assert rules.fortify == "adjacent"  # 1993 rules [R1]
    assert rules.set_values.values(9) == [4, 6, 8, 10, 12, 15, 20, 25, 30]  # 1993 rules [R1] [R2a]
    assert rules.territory_card_bonus == "plus2_once_per_turn"  # 1993 rules [R1] [R2a]
    assert rules.forced_trade_at == 5  # 1993 rules [R1] [R2a]: 5 or 6 cards at the start of the turn
    assert (rules.elimination_trade_at, rules.elimination_trade_to) == (6, 4)  # 1993 rules [R1] [R2d]
    assert rules.card_symbols == "B"  # mapping B, [C4]-[C6]
    assert rules.wild_cards == 2  # 1993 rules [R1]
    assert rules.max_armies_per_territory is None  # 1993 rules [R1]
    assert rules.two_player == "neutral_1993"  # 1993 two-player rules [R1] [R3b]
    assert (rules.missions, rules.capital, rules.turn_cap) == ("none", "none", None)
    assert rules.mission_target_killed_by_other == "counts_as_complete"  # 1993 Secret Mission rules [R1], their example
    assert rm.Rules() == rm.Rules.preset("us_1993")


def test_presets_lists_every_edition():
    assert rm.Rules.presets() == PRESETS


def test_the_odds_know_every_preset_and_its_dice():
    # The odds layer lists the presets' names for rules="risiko" (it cannot read the rules model above it); the
    # presets take their dice from CombatRules.edition, so that the two lists and the two dice cannot drift.
    from riskmath.odds.dice import EDITIONS

    assert rm.Rules.presets() == EDITIONS
    for name in EDITIONS:
        assert rm.Rules.preset(name).combat == rm.CombatRules.edition(name)
    three = [name for name in EDITIONS if rm.CombatRules.edition(name).defender_max_dice == 3]
    assert three == ["risiko", "french_1957"]  # the Italian and the 1957 French editions (docs/editions.rst)
    with pytest.raises(rm.RulesError, match="unknown rules preset 'classic'; presets are us_1993, "):
        rm.CombatRules.edition("classic")


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_constructs_and_describes_itself(name):
    rules = rm.Rules.preset(name)
    assert rules.edition == name
    assert isinstance(rm.Rules.describe_preset(name), str)
    assert rm.Rules.describe_preset(name)


def test_preset_details():
    # 1993 rules [R1] [R2e] experts: sets rise by 1, fortify along paths, 12 armies per territory.
    experts = rm.Rules.preset("us_1993_experts")
    assert experts.set_values.values(5) == [4, 5, 6, 7, 8]
    assert (experts.fortify, experts.max_armies_per_territory) == ("experts", 12)
    # 1993 Secret Mission rules [R1] [R3a]: Secret Mission deals the territories, 12 mission cards.
    assert (rm.Rules.preset("us_1993_secret_mission").setup, rm.Rules.preset("us_1993_secret_mission").missions) == (
        "deal",
        "us_1993_12",
    )
    assert rm.Rules.preset("us_1993_capital").capital == "all"  # 1993 Capital RISK rules [R1] [R3c]
    # The 1959 rules [R6] and SMG's edition history [R4a]: 1959 deals the territories, no territory-card bonus.
    assert (rm.Rules.preset("us_1959").setup, rm.Rules.preset("us_1959").territory_card_bonus) == ("deal", "none")
    # [R4a] [R12e]: 1963 gives 2 players 50 each and +2 per matching territory.
    us_1963 = rm.Rules.preset("us_1963")
    assert us_1963.starting_armies_for(2) == 50
    assert us_1963.territory_card_bonus == "plus2_per_matching_territory"
    # [R4a] [R12b]: 2003 has 36 each with four neutrals, chains, no bonus.
    euro = rm.Rules.preset("euro_2003")
    assert (euro.starting_armies_for(2), euro.two_player, euro.fortify, euro.territory_card_bonus) == (
        36,
        "neutrals_2003",
        "connected",
        "none",
    )
    # Risiko ([R13], [R4a]): 3 defender dice, fixed table F2 (3 artillery = 4), no minimum of 3, no card limit.
    risiko = rm.Rules.preset("risiko")
    assert risiko.combat.defender_max_dice == 3
    assert risiko.set_values.value(1, [rm.Symbol.ARTILLERY] * 3) == 4
    assert (risiko.min_reinforcement, risiko.forced_trade_at, risiko.elimination_trade_at) == (0, None, None)
    assert rm.Rules.preset("french_1957").combat.defender_max_dice == 3  # the French original of 1957 [R12a]
    assert rm.Rules.preset("anniversary_1999").board == "anniversary_1999"  # the 1999 board [R11a]
    # The article: 4, 6, 8, 10, then 15, 20, 25; trade down to 4 at 5 cards; 14 neutral territories of 2.
    article = rm.Rules.preset("article_ja")
    assert article.set_values.values(7) == [4, 6, 8, 10, 15, 20, 25]
    assert (article.elimination_trade_at, article.elimination_trade_to) == (5, 4)
    assert article.two_player == "neutral_article"


def test_an_unknown_option_is_refused_as_replace_refuses_it():
    # Rules(foo=1) raised Python's TypeError naming the generated __init__ (2026-12-04); replace and from_dict
    # already raised RulesError.  Too many positional values are refused alike, and pickling still works.
    with pytest.raises(rm.RulesError, match=r"unknown rules options \['foo'\]; the options are board, "):
        rm.Rules(foo=1)
    with pytest.raises(rm.RulesError, match="at most 28 options, got 29 positional values"):
        rm.Rules(*[None] * 29)
    rules = rm.Rules.preset("risiko")
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_unknown_preset_is_named():
    with pytest.raises(rm.RulesError, match="'us_2525'"):
        rm.Rules.preset("us_2525")
    with pytest.raises(rm.RulesError, match="'us_2525'"):
        rm.Rules.describe_preset("us_2525")


@pytest.mark.parametrize("option", sorted(CHOICES))
def test_every_choice_rejects_an_unknown_value(option):
    with pytest.raises(rm.RulesError, match=rf"Rules\.{option} must be one of .*'bogus'"):
        rm.Rules(**{option: "bogus"})


@pytest.mark.parametrize("option", sorted(CHOICES))
def test_every_choice_accepts_its_values(option):
    for value in CHOICES[option]:
        rules = rm.Rules(**{option: value})
        assert getattr(rules, option) == value


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("min_reinforcement", -1),
        ("min_reinforcement", 2.5),
        ("min_reinforcement", True),
        ("territory_divisor", 0),
        ("territory_divisor", "3"),
        ("wild_cards", -1),
        ("elimination_trade_to", 1),
        ("setup_cap_per_territory", 0),
        ("forced_trade_at", 4),
        ("forced_trade_at", 5.0),
        ("elimination_trade_at", 4),
        ("max_armies_per_territory", 0),
        ("turn_cap", 0),
        ("turn_cap", False),
        ("card_symbols", "Z"),
        ("combat", "dice"),
        ("set_values", [4, 6, 8]),
        ("deck_recycle", "yes"),
        ("starting_armies", {2: 0}),
        ("starting_armies", {7: 20}),
        ("starting_armies", 40),
    ],
)
def test_bad_values_name_the_option(option, value):
    with pytest.raises(rm.RulesError, match=rf"Rules\.{option}"):
        rm.Rules(**{option: value})


def test_max_armies_must_leave_room_to_attack():
    with pytest.raises(rm.RulesError, match=r"Rules\.max_armies_per_territory"):
        rm.Rules(max_armies_per_territory=1)


@pytest.mark.parametrize(("at", "to"), [(6, 6), (6, 7), (5, 5)])
def test_elimination_trade_to_must_be_below_trade_at(at, to):
    with pytest.raises(rm.RulesError, match=r"elimination_trade_to .* elimination_trade_at"):
        rm.Rules(elimination_trade_at=at, elimination_trade_to=to)


def test_elimination_trade_to_is_free_without_a_trade_down():
    assert rm.Rules(elimination_trade_at=None, elimination_trade_to=9).elimination_trade_to == 9


@pytest.mark.parametrize("missions", ["us_1993_12", "euro_14"])
@pytest.mark.parametrize("capital", ["all", "short"])
def test_missions_and_capital_together_are_refused(missions, capital):
    with pytest.raises(rm.RulesError, match=r"Rules\.missions and Rules\.capital"):
        rm.Rules(missions=missions, capital=capital)


def test_replace_validates_again():
    assert rm.Rules().replace(fortify="none").fortify == "none"
    with pytest.raises(rm.RulesError, match=r"Rules\.fortify"):
        rm.Rules().replace(fortify="teleport")


def test_starting_armies_accepts_a_mapping_and_reports_missing_counts():
    rules = rm.Rules(starting_armies={3: 30, 4: 25})
    assert rules.starting_armies == ((3, 30), (4, 25))
    assert rules.starting_armies_for(4) == 25
    with pytest.raises(rm.RulesError, match="no starting armies for 2 players"):
        rules.starting_armies_for(2)


@pytest.mark.parametrize("name", PRESETS)
def test_to_dict_from_dict_round_trip_through_json(name):
    rules = rm.Rules.preset(name)
    data = json.loads(json.dumps(rules.to_dict()))
    back = rm.Rules.from_dict(data)
    assert back == rules
    assert back.to_dict() == rules.to_dict()
    assert back.set_values.name == rules.set_values.name


def test_from_dict_rejects_unknown_keys_and_bad_values():
    with pytest.raises(rm.RulesError, match="colour"):
        rm.Rules.from_dict({"colour": "red"})
    with pytest.raises(rm.RulesError, match="mapping"):
        rm.Rules.from_dict([("fortify", "none")])  # type: ignore[arg-type]
    with pytest.raises(rm.RulesError, match="bad rules data"):
        rm.Rules.from_dict({"set_values": {"start": [4]}})  # no "kind"
    with pytest.raises(rm.RulesError, match=r"Rules\.fortify"):
        rm.Rules.from_dict({"fortify": "teleport"})
    assert rm.Rules.from_dict({}) == rm.Rules()


# 1993 rules [R1]: "Examples in the rules: 11 -> 3, 14 -> 4, 17 -> 5"; table T <= 11 -> 3, 12-14 -> 4, ..., 42 -> 14.
@pytest.mark.parametrize(
    ("territories", "armies"),
    [(0, 3), (1, 3), (8, 3), (11, 3), (12, 4), (14, 4), (15, 5), (17, 5), (18, 6), (21, 7), (41, 13), (42, 14)],
)
def test_reinforcement_table_1993(territories, armies):
    assert rm.Rules().reinforcements(territories) == armies


# [R13]: Risiko (Domination's Italian mode) has no minimum of 3: floor(T / 3) only.
@pytest.mark.parametrize(("territories", "armies"), [(1, 0), (2, 0), (3, 1), (8, 2), (11, 3), (42, 14)])
def test_reinforcements_without_a_minimum(territories, armies):
    assert rm.Rules.preset("risiko").reinforcements(territories) == armies


# Hasbro's 2008 FAQ [R9d]: "rounding up" (unverified), an option.
@pytest.mark.parametrize(("territories", "armies"), [(1, 3), (9, 3), (10, 4), (12, 4), (13, 5), (40, 14), (42, 14)])
def test_reinforcements_rounded_up(territories, armies):
    assert rm.Rules(rounding="ceil").reinforcements(territories) == armies


def test_reinforcements_other_divisors():
    assert rm.Rules(territory_divisor=2, min_reinforcement=0).reinforcements(7) == 3
    assert rm.Rules(territory_divisor=4, min_reinforcement=1).reinforcements(3) == 1
