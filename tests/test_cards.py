"""Cards: symbol mappings, decks, sets, set-value schedules, territory bonuses and hand limits.

Expected values are written out by hand from the 1993 US rules [R1], the card data [C1]-[C7] (tags of
docs/sources.rst) and the Japanese Wikipedia article, never computed with the code under test.
"""

from __future__ import annotations

import collections
import itertools
import pickle
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskmath import RiskmathError
from riskmath.errors import CardError
from riskmath.game.cards import (
    ARTICLE,
    BONUS_KINDS,
    CARD_SYMBOLS,
    EXPERTS_1993,
    FIXED_F1,
    FIXED_F2,
    FIXED_F3,
    PROGRESSIVE_1993,
    SET_TYPES,
    TRADE_DOWN_1993,
    TRADE_DOWN_ARTICLE,
    Card,
    SetValues,
    Symbol,
    bonus_candidates,
    classic_deck,
    deck_counts,
    find_sets,
    full_deck,
    has_set,
    is_set,
    set_types,
    territory_bonus,
    trade_down_needed,
    trades_required,
)

INF, CAV, ART, WLD = Symbol.INFANTRY, Symbol.CAVALRY, Symbol.ARTILLERY, Symbol.WILD

# The card data of docs/sources.rst, row by row: territory, mapping B [C4]-[C6], mapping A [C1] [C2], mapping C [C7].
FACT_SHEET_TABLE = [
    ("Alaska", "Infantry", "Artillery", "Infantry"),
    ("Northwest Territory", "Artillery", "Cavalry", "Artillery"),
    ("Greenland", "Cavalry", "Cavalry", "Cavalry"),
    ("Alberta", "Cavalry", "Artillery", "Infantry"),
    ("Ontario", "Cavalry", "Artillery", "Cavalry"),
    ("Quebec", "Cavalry", "Artillery", "Artillery"),
    ("Western United States", "Artillery", "Artillery", "Infantry"),
    ("Eastern United States", "Artillery", "Artillery", "Artillery"),
    ("Central America", "Artillery", "Infantry", "Cavalry"),
    ("Venezuela", "Infantry", "Cavalry", "Artillery"),
    ("Peru", "Infantry", "Cavalry", "Cavalry"),
    ("Brazil", "Artillery", "Infantry", "Artillery"),
    ("Argentina", "Infantry", "Infantry", "Infantry"),
    ("Iceland", "Infantry", "Cavalry", "Infantry"),
    ("Scandinavia", "Cavalry", "Infantry", "Artillery"),
    ("Great Britain", "Artillery", "Infantry", "Cavalry"),
    ("Northern Europe", "Artillery", "Cavalry", "Cavalry"),
    ("Western Europe", "Artillery", "Infantry", "Infantry"),
    ("Southern Europe", "Artillery", "Infantry", "Cavalry"),
    ("Ukraine", "Cavalry", "Infantry", "Artillery"),
    ("North Africa", "Cavalry", "Infantry", "Infantry"),
    ("Egypt", "Infantry", "Cavalry", "Infantry"),
    ("East Africa", "Infantry", "Infantry", "Artillery"),
    ("Congo", "Infantry", "Artillery", "Cavalry"),
    ("South Africa", "Artillery", "Artillery", "Artillery"),
    ("Madagascar", "Cavalry", "Cavalry", "Infantry"),
    ("Ural", "Cavalry", "Infantry", "Cavalry"),
    ("Siberia", "Cavalry", "Infantry", "Artillery"),
    ("Yakutsk", "Cavalry", "Artillery", "Cavalry"),
    ("Kamchatka", "Infantry", "Artillery", "Cavalry"),
    ("Irkutsk", "Cavalry", "Artillery", "Infantry"),
    ("Mongolia", "Infantry", "Cavalry", "Artillery"),
    ("Japan", "Artillery", "Cavalry", "Infantry"),
    ("Afghanistan", "Cavalry", "Infantry", "Infantry"),
    ("China", "Infantry", "Artillery", "Cavalry"),
    ("Middle East", "Infantry", "Artillery", "Artillery"),
    ("India", "Cavalry", "Cavalry", "Infantry"),
    ("Siam", "Infantry", "Cavalry", "Artillery"),
    ("Indonesia", "Artillery", "Infantry", "Cavalry"),
    ("New Guinea", "Infantry", "Cavalry", "Cavalry"),
    ("Western Australia", "Artillery", "Artillery", "Artillery"),
    ("Eastern Australia", "Artillery", "Cavalry", "Infantry"),
]
TERRITORIES = [row[0] for row in FACT_SHEET_TABLE]
NAMED = {"Infantry": INF, "Cavalry": CAV, "Artillery": ART}


def wild() -> Card:
    return Card(None, WLD)


# ------------------------------------------------------------------------------------------ cards and symbols


def test_card_repr_pastes_back():
    for card in (Card("Alaska", INF), Card("Northwest Territory", ART), wild()):
        assert eval(repr(card)) == card
    assert repr(Card("Alaska", INF)) == "Card('Alaska', Symbol.INFANTRY)"
    assert repr(wild()) == "Card(None, Symbol.WILD)"
    assert [eval(repr(s)) for s in Symbol] == list(Symbol)


def test_card_is_frozen_hashable_and_knows_wilds():
    card = Card("Peru", CAV)
    with pytest.raises(FrozenInstanceError):
        card.symbol = ART  # type: ignore[misc]
    assert len({card, Card("Peru", CAV), wild(), wild()}) == 2
    assert wild().is_wild
    assert not card.is_wild
    assert pickle.loads(pickle.dumps(card)) == card


@pytest.mark.parametrize(
    ("territory", "symbol", "named"),
    [
        ("Alaska", WLD, "'Alaska'"),
        (None, INF, "None"),
        ("", CAV, "''"),
        ("Peru", "infantry", "'infantry'"),
        (3, ART, "3"),
    ],
)
def test_bad_cards_raise_card_error_naming_the_value(territory, symbol, named):
    with pytest.raises(CardError, match=named):
        Card(territory, symbol)


# ---------------------------------------------------------------------------------------------- symbol mappings


def test_mappings_are_the_fact_sheet_table():
    assert list(CARD_SYMBOLS) == ["B", "A", "C"]
    for column, key in enumerate("BAC", start=1):
        expected = {row[0]: NAMED[row[column]] for row in FACT_SHEET_TABLE}
        assert CARD_SYMBOLS[key] == expected, key
        assert list(CARD_SYMBOLS[key]) == TERRITORIES


@pytest.mark.parametrize("key", ["B", "A", "C"])
def test_each_mapping_splits_14_14_14(key):
    assert len(CARD_SYMBOLS[key]) == 42
    assert collections.Counter(CARD_SYMBOLS[key].values()) == {INF: 14, CAV: 14, ART: 14}


def test_mapping_spot_checks_from_the_fact_sheet():
    b, a, c = CARD_SYMBOLS["B"], CARD_SYMBOLS["A"], CARD_SYMBOLS["C"]
    assert b["Siberia"] is CAV  # the table's value; with Infantry B would be 15/13/14
    assert a["Eastern United States"] is ART  # sge-risk's Infantry here would break 14/14/14
    assert (b["Alaska"], a["Alaska"], c["Alaska"]) == (INF, ART, INF)
    assert (b["Eastern Australia"], a["Eastern Australia"], c["Eastern Australia"]) == (ART, CAV, INF)
    # "B and A agree on only 9 of 42 territories."
    assert sum(b[t] is a[t] for t in TERRITORIES) == 9


# --------------------------------------------------------------------------------------------------------- decks


@pytest.mark.parametrize("key", ["B", "A", "C"])
def test_classic_deck_has_44_cards_each_territory_once(key):
    deck = classic_deck(TERRITORIES, symbols=key)
    assert len(deck) == 44
    assert [card.territory for card in deck[:42]] == TERRITORIES
    assert deck[42:] == (wild(), wild())
    assert collections.Counter(card.territory for card in deck) == {**dict.fromkeys(TERRITORIES, 1), None: 2}
    assert deck_counts(deck) == {INF: 14, CAV: 14, ART: 14, WLD: 2}
    assert all(card.symbol is CARD_SYMBOLS[key][card.territory] for card in deck[:42])


def test_deck_follows_the_given_territory_order():
    order = TERRITORIES[::-1]
    deck = classic_deck(order)
    assert [card.territory for card in deck[:42]] == order
    assert full_deck(order) == deck


def test_full_deck_works_on_a_small_map_and_custom_mapping():
    assert full_deck(["Alaska", "Kamchatka", "Alberta"], wilds=0) == (
        Card("Alaska", INF),
        Card("Kamchatka", INF),
        Card("Alberta", CAV),
    )
    mapping = {"North": ART, "South": CAV}
    assert full_deck(["South", "North"], symbols=mapping, wilds=1) == (Card("South", CAV), Card("North", ART), wild())
    assert classic_deck(["North", "South"], symbols=mapping) == (Card("North", ART), Card("South", CAV), wild(), wild())


def test_deck_counts_includes_zero_counts():
    assert deck_counts([]) == {INF: 0, CAV: 0, ART: 0, WLD: 0}
    assert deck_counts([Card("Peru", CAV), wild()]) == {INF: 0, CAV: 1, ART: 0, WLD: 1}


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: classic_deck(TERRITORIES, symbols="D"), "'D'"),  # unknown mapping
        (lambda: full_deck(["Alaska", "Atlantis"]), "'Atlantis'"),  # mapping missing a territory
        (lambda: full_deck(["Alaska", "Peru"], symbols={"Alaska": INF}), "'Peru'"),
        (lambda: classic_deck(TERRITORIES[:-1]), "Eastern Australia"),  # incomplete classic deck
        (lambda: full_deck(["Alaska", "Peru", "Alaska"]), "'Alaska'"),  # repeated territory
        (lambda: full_deck("Alaska"), "'Alaska'"),  # a string is not a list of names
        (lambda: full_deck(["Alaska", 7]), "7"),
        (lambda: full_deck(["Alaska"], wilds=-1), "-1"),
        (lambda: full_deck(["Alaska"], symbols={"Alaska": WLD}), "Alaska"),
        (lambda: full_deck(["Alaska"], symbols={"Alaska": "infantry"}), "'infantry'"),
        (lambda: deck_counts(["Alaska"]), "'Alaska'"),
    ],
)
def test_deck_errors_name_the_value(call, named):
    with pytest.raises(CardError, match=named):
        call()


# ----------------------------------------------------------------------------------------------------------- sets


def rule_from_the_rulebook(triple):
    """[R1] [R2a]: three of a kind, one of each, or two cards plus a wild -- with a wild standing for any symbol."""
    options = [(INF, CAV, ART) if s is WLD else (s,) for s in triple]
    return any(len(set(reading)) in (1, 3) for reading in itertools.product(*options))


def test_set_truth_table_over_all_64_symbol_triples():
    valid = {t for t in itertools.product(Symbol, repeat=3) if is_set(t)}
    assert valid == {t for t in itertools.product(Symbol, repeat=3) if rule_from_the_rulebook(t)}
    # 27 wild-free triples: 3 of a kind (3) + one of each (6) are sets; the 18 "pair plus odd one" are not.
    # All 37 triples with at least one wild are sets (any two cards plus a wild; 2 or 3 wilds too).
    assert len(valid) == 9 + 37
    not_sets = set(itertools.product(Symbol, repeat=3)) - valid
    assert len(not_sets) == 18
    assert all(WLD not in t and len(set(t)) == 2 for t in not_sets)
    assert is_set([WLD, WLD, INF])
    assert is_set([WLD, WLD, WLD])


def test_is_set_on_cards_and_wrong_sizes():
    assert is_set([Card("Alaska", INF), Card("Peru", INF), wild()])
    assert not is_set([Card("Alaska", INF), Card("Peru", INF), Card("Japan", CAV)])
    assert not is_set([])
    assert not is_set([INF, INF])
    assert not is_set([INF, CAV, ART, WLD])
    assert is_set(iter([INF, CAV, ART]))
    with pytest.raises(CardError, match="'infantry'"):
        is_set([INF, INF, "infantry"])


def test_find_sets_order_and_has_set():
    hand = [INF, CAV, INF, ART, WLD]
    expected = [t for t in itertools.combinations(range(5), 3) if rule_from_the_rulebook([hand[i] for i in t])]
    assert find_sets(hand) == expected
    assert find_sets(hand)[:3] == [(0, 1, 3), (0, 1, 4), (0, 2, 4)]
    assert find_sets([INF, INF, CAV, CAV]) == []
    assert not has_set([INF, INF, CAV, CAV])
    assert not has_set([INF, CAV])
    assert has_set([INF, INF, CAV, WLD])


@pytest.mark.parametrize("size", [5, 6])
def test_every_hand_of_five_or_more_symbols_has_a_set(size):
    for hand in itertools.product(Symbol, repeat=size):
        assert has_set(hand), hand


def test_four_cards_need_not_contain_a_set():
    assert [h for h in itertools.combinations_with_replacement((INF, CAV, ART), 4) if not has_set(h)] == [
        (INF, INF, CAV, CAV),
        (INF, INF, ART, ART),
        (CAV, CAV, ART, ART),
    ]


@given(st.permutations(classic_deck(TERRITORIES)), st.integers(5, 9))
def test_any_hand_of_five_or_more_cards_from_the_deck_has_a_set(deck, size):
    hand = deck[:size]
    assert has_set(hand)
    for i, j, k in find_sets(hand):
        assert rule_from_the_rulebook([hand[i].symbol, hand[j].symbol, hand[k].symbol])


@given(st.lists(st.sampled_from(list(Symbol)), min_size=5, max_size=12))
def test_any_multiset_of_five_or_more_symbols_has_a_set(hand):
    assert has_set(hand)


def test_set_types_reads_wilds_as_any_symbol_or_as_wilds():
    assert set_types([INF, INF, INF]) == ("three_infantry",)
    assert set_types([ART, CAV, INF]) == ("one_of_each",)
    assert set_types([CAV, WLD, CAV]) == ("three_cavalry", "pair_and_wild")
    assert set_types([ART, CAV, WLD]) == ("one_of_each",)
    assert set_types([WLD, ART, WLD]) == ("three_artillery", "one_of_each", "pair_and_wild")
    assert set_types([WLD, WLD, WLD]) == SET_TYPES
    with pytest.raises(CardError, match="not a set"):
        set_types([INF, INF, CAV])


# ----------------------------------------------------------------------------------------------- set values


@pytest.mark.parametrize(
    ("schedule", "first_ten"),
    [
        (PROGRESSIVE_1993, [4, 6, 8, 10, 12, 15, 20, 25, 30, 35]),
        (ARTICLE, [4, 6, 8, 10, 15, 20, 25, 30, 35, 40]),
        (EXPERTS_1993, [4, 5, 6, 7, 8, 9, 10, 11, 12, 13]),
    ],
)
def test_first_ten_values_of_each_progressive_schedule(schedule, first_ten):
    assert schedule.values(10) == first_ten
    assert [schedule.value(n) for n in range(1, 11)] == first_ten
    assert SetValues.preset(schedule.name) is schedule


def test_progressive_1993_formula_and_the_board_track():
    def fact_sheet(n):
        return [4, 6, 8, 10, 12, 15][n - 1] if n <= 6 else 15 + 5 * (n - 6)

    assert [PROGRESSIVE_1993.value(n) for n in range(1, 101)] == [fact_sheet(n) for n in range(1, 101)]
    assert PROGRESSIVE_1993.value(14) == 55  # the board's printed track runs "from four to 55"
    assert ARTICLE.value(5) == 15  # 以降15単位 -- the article's fifth set
    assert PROGRESSIVE_1993.value(5) == 12
    assert PROGRESSIVE_1993.values(0) == []


def test_presets():
    assert SetValues.presets() == ("progressive_1993", "article", "experts_1993", "fixed_F1", "fixed_F2", "fixed_F3")
    for name in SetValues.presets():
        assert SetValues.preset(name).name == name


def test_custom_schedules():
    assert SetValues.custom([4, 6, 8, 10]).values(7) == [4, 6, 8, 10, 12, 14, 16]  # repeats the last increment
    assert SetValues.custom([4, 6, 8, 10], then_add=5).values(7) == [4, 6, 8, 10, 15, 20, 25]
    assert SetValues.custom([4, 6, 8, 10], then_add=5) == ARTICLE
    assert SetValues.custom((4, 6, 8, 10, 12, 15), 5) == PROGRESSIVE_1993
    assert SetValues.custom([5], then_add=0).values(4) == [5, 5, 5, 5]
    assert SetValues.custom([3, 7, 2], then_add=1).values(5) == [3, 7, 2, 3, 4]
    assert SetValues.custom([10, 20]).value(4) == 40


@pytest.mark.parametrize(
    ("schedule", "symbols", "expected"),
    [
        # F1: 3 infantry 4, 3 cavalry 6, 3 artillery 8, one of each 10; no wild entries.
        (FIXED_F1, [INF, INF, INF], 4),
        (FIXED_F1, [CAV, CAV, CAV], 6),
        (FIXED_F1, [ART, ART, ART], 8),
        (FIXED_F1, [INF, CAV, ART], 10),
        (FIXED_F1, [INF, INF, WLD], 4),
        (FIXED_F1, [CAV, WLD, CAV], 6),
        (FIXED_F1, [WLD, ART, ART], 8),
        (FIXED_F1, [INF, CAV, WLD], 10),
        (FIXED_F1, [WLD, WLD, INF], 10),
        (FIXED_F1, [WLD, WLD, WLD], 10),
        # F2 (European/Italian): 3 artillery 4, 3 infantry 6, 3 cavalry 8, one of each 10, 2 of a kind + wild 12.
        (FIXED_F2, [ART, ART, ART], 4),
        (FIXED_F2, [INF, INF, INF], 6),
        (FIXED_F2, [CAV, CAV, CAV], 8),
        (FIXED_F2, [CAV, ART, INF], 10),
        (FIXED_F2, [ART, ART, WLD], 12),
        (FIXED_F2, [INF, WLD, INF], 12),
        (FIXED_F2, [ART, INF, WLD], 10),
        (FIXED_F2, [WLD, WLD, CAV], 12),
        (FIXED_F2, [WLD, WLD, WLD], 12),
        # F3: infantry 6, cavalry 8, artillery 10, one of each 12.
        (FIXED_F3, [INF, INF, INF], 6),
        (FIXED_F3, [CAV, CAV, CAV], 8),
        (FIXED_F3, [ART, ART, ART], 10),
        (FIXED_F3, [ART, INF, CAV], 12),
        (FIXED_F3, [INF, INF, WLD], 6),
        (FIXED_F3, [ART, WLD, ART], 10),
        (FIXED_F3, [CAV, ART, WLD], 12),
        (FIXED_F3, [WLD, WLD, ART], 12),
        (FIXED_F3, [WLD, WLD, WLD], 12),
        # F1 with Domination's "3 wilds = 12".
        (SetValues.fixed(4, 6, 8, 10, three_wilds=12), [WLD, WLD, WLD], 12),
        (SetValues.fixed(4, 6, 8, 10, three_wilds=12), [WLD, WLD, INF], 10),
    ],
)
def test_fixed_table_values_for_every_set_type(schedule, symbols, expected):
    assert schedule.value(1, symbols) == expected
    assert schedule.value(17, symbols) == expected  # fixed: independent of how many sets were traded
    cards = [wild() if s is WLD else Card(f"T{i}", s) for i, s in enumerate(symbols)]
    assert schedule.value(3, cards) == expected


def test_fixed_tables_columns():
    assert dict(FIXED_F1.table) == {"three_infantry": 4, "three_cavalry": 6, "three_artillery": 8, "one_of_each": 10}
    assert dict(FIXED_F2.table) == {
        "three_infantry": 6,
        "three_cavalry": 8,
        "three_artillery": 4,
        "one_of_each": 10,
        "pair_and_wild": 12,
    }
    assert dict(FIXED_F3.table) == {"three_infantry": 6, "three_cavalry": 8, "three_artillery": 10, "one_of_each": 12}


@pytest.mark.parametrize("schedule", [*map(SetValues.preset, SetValues.presets()), SetValues.custom([1, 2], 9)])
def test_schedules_are_immutable_picklable_and_their_repr_pastes_back(schedule):
    assert eval(repr(schedule)) == schedule
    assert eval(repr(schedule)).name == schedule.name
    assert pickle.loads(pickle.dumps(schedule)) == schedule
    assert hash(pickle.loads(pickle.dumps(schedule))) == hash(schedule)
    with pytest.raises(FrozenInstanceError):
        schedule.then_add = 3  # type: ignore[misc]


def test_name_is_a_label_not_part_of_equality():
    renamed = SetValues.custom([4, 6, 8, 10], then_add=5, name="house")
    assert renamed == ARTICLE
    assert renamed.name == "house"
    assert FIXED_F1 != FIXED_F3
    assert PROGRESSIVE_1993 != ARTICLE


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: SetValues.preset("progressive_2008"), "'progressive_2008'"),
        (lambda: SetValues.preset("custom"), "custom"),
        (lambda: PROGRESSIVE_1993.value(0), "0"),
        (lambda: PROGRESSIVE_1993.value(-3), "-3"),
        (lambda: PROGRESSIVE_1993.value(2.0), "2.0"),
        (lambda: PROGRESSIVE_1993.value(True), "True"),
        (lambda: FIXED_F1.value(0, [INF, INF, INF]), "0"),
        (lambda: PROGRESSIVE_1993.value(1, [INF, INF, CAV]), r"not a set: \[Symbol.INFANTRY, Symbol.INFANTRY"),
        (lambda: FIXED_F2.value(1, [Card("Peru", INF), Card("Japan", CAV)]), "not a set: .*'Peru'"),
        (lambda: FIXED_F1.value(1), "fixed_F1"),
        (lambda: FIXED_F1.values(3), "fixed_F1"),
        (lambda: ARTICLE.values(-1), "-1"),
        (lambda: SetValues.custom([4]), r"\[4\]"),
        (lambda: SetValues.custom([10, 8, 6]), r"\[10, 8, 6\]"),
        (lambda: SetValues.custom([4, 6], then_add=-1), "-1"),
        (lambda: SetValues.custom([4, 0]), "0"),
        (lambda: SetValues("bogus", start=(4,)), "'bogus'"),
        (lambda: SetValues("progressive"), r"\(\)"),
        (lambda: SetValues("progressive", start=[4, 6]), r"\[4, 6\]"),
        (lambda: SetValues("fixed", table=(("three_infantry", 4),)), "three_cavalry"),
        (lambda: SetValues("fixed", start=(4,), table=FIXED_F1.table), r"\(4,\)"),
        (lambda: SetValues("fixed", table=(*FIXED_F1.table, ("two_wilds", 9))), "'two_wilds'"),
        (lambda: SetValues("fixed", table=(*FIXED_F1.table, ("one_of_each", 9))), "'one_of_each'"),
        (lambda: SetValues.fixed(4, 6, 8, 0), "0"),
    ],
)
def test_set_value_errors_name_the_value(call, named):
    with pytest.raises(CardError, match=named):
        call()


# ---------------------------------------------------------------------------------------------- territory bonus

PERU, JAPAN, SIAM, EGYPT = Card("Peru", INF), Card("Japan", ART), Card("Siam", INF), Card("Egypt", INF)
FIRST_SET = [PERU, JAPAN, wild()]  # infantry + artillery + wild
SECOND_SET = [SIAM, EGYPT, Card("Congo", INF)]  # three infantry


def test_bonus_1993_is_two_armies_on_one_traded_territory_the_player_occupies():
    owned = {"Peru", "Japan", "Brazil"}
    assert bonus_candidates([FIRST_SET], owned) == ["Peru", "Japan"]
    assert territory_bonus([FIRST_SET], owned, "plus2_once_per_turn") == [("Peru", 2)]
    assert territory_bonus([FIRST_SET], owned, "plus2_once_per_turn", choose="Japan") == [("Japan", 2)]
    assert territory_bonus([FIRST_SET], owned, choose=lambda names: names[-1]) == [("Japan", 2)]
    assert territory_bonus([FIRST_SET], {"Brazil"}) == []
    assert territory_bonus([[wild(), wild(), Card("Ural", CAV)]], owned) == []


def test_bonus_1993_is_capped_at_two_armies_per_turn_even_across_two_sets():
    owned = {"Peru", "Siam", "Egypt"}
    assert territory_bonus([FIRST_SET, SECOND_SET], owned) == [("Peru", 2)]
    assert territory_bonus([FIRST_SET, SECOND_SET], owned, choose="Egypt") == [("Egypt", 2)]
    # The same turn, traded one set at a time: the second trade gets nothing.
    first = territory_bonus([FIRST_SET], owned)
    received = sum(armies for _, armies in first)
    assert received == 2
    assert territory_bonus([SECOND_SET], owned, "plus2_once_per_turn", received) == []
    assert territory_bonus([SECOND_SET], owned, "plus2_once_per_turn", 0) == [("Siam", 2)]


def test_bonus_1963_gives_two_armies_per_occupied_territory_shown():
    owned = {"Peru", "Japan", "Siam", "Egypt"}
    assert territory_bonus([FIRST_SET], owned, "plus2_per_matching_territory") == [("Peru", 2), ("Japan", 2)]
    assert territory_bonus([FIRST_SET, SECOND_SET], owned, "plus2_per_matching_territory", 2) == [
        ("Peru", 2),
        ("Japan", 2),
        ("Siam", 2),
        ("Egypt", 2),
    ]


def test_no_bonus_in_1959_and_2003():
    owned = {"Peru", "Japan", "Siam", "Egypt", "Congo"}
    assert territory_bonus([FIRST_SET, SECOND_SET], owned, "none") == []
    assert BONUS_KINDS == ("none", "plus2_once_per_turn", "plus2_per_matching_territory")


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: territory_bonus([FIRST_SET], {"Peru"}, "plus2_always"), "'plus2_always'"),
        (lambda: territory_bonus([[PERU, JAPAN, SIAM]], {"Peru"}), "not a set: .*'Peru'"),
        (lambda: territory_bonus([FIRST_SET], {"Peru"}, already_received=-2), "-2"),
        (lambda: territory_bonus([FIRST_SET], {"Peru"}, choose="Japan"), "'Japan'"),
        (lambda: territory_bonus([FIRST_SET], {"Peru"}, choose=lambda names: "Siam"), "'Siam'"),
        (lambda: bonus_candidates([FIRST_SET], "Peru"), "'Peru'"),
        (lambda: territory_bonus(FIRST_SET, {"Peru"}), r"Card\('Peru', Symbol.INFANTRY\)"),  # one set, not a list
    ],
)
def test_bonus_errors_name_the_value(call, named):
    with pytest.raises(CardError, match=named):
        call()


# -------------------------------------------------------------------------------------------------- hand limits


def test_trade_down_1993_six_or_more_cards_trade_until_four_or_fewer():
    assert TRADE_DOWN_1993 == (6, 4)
    assert [trade_down_needed(h) for h in range(0, 9)] == [False] * 6 + [True] * 3
    # 6 -> 3, 7 -> 4, 8 -> 5 -> 2, 9 -> 6 -> 3, 10 -> 7 -> 4, 11 -> 8 -> 5 -> 2
    assert [trades_required(h) for h in range(0, 12)] == [0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 3]


def test_trade_down_article_five_or_more_cards_trade_until_four_or_fewer():
    assert TRADE_DOWN_ARTICLE == (5, 4)
    assert not trade_down_needed(4, *TRADE_DOWN_ARTICLE)
    assert trade_down_needed(5, *TRADE_DOWN_ARTICLE)
    assert [trades_required(h, *TRADE_DOWN_ARTICLE) for h in range(3, 9)] == [0, 0, 1, 1, 1, 2]


@pytest.mark.parametrize("rule", [TRADE_DOWN_1993, TRADE_DOWN_ARTICLE])
def test_trading_down_stops_as_soon_as_the_hand_is_small_enough(rule):
    threshold, target = rule
    for hand in range(threshold, 40):
        k = trades_required(hand, threshold, target)
        assert hand - 3 * k <= target < hand - 3 * (k - 1)
        assert hand - 3 * (k - 1) >= 5  # each of the k trades starts from 5+ cards, so a set exists


@pytest.mark.parametrize(
    ("args", "named"),
    [((-1,), "-1"), ((7, 4, 4), "target=4"), ((7, 6, 9), "target=9"), ((5.0,), "5.0"), ((7, 6, -1), "-1")],
)
def test_trade_down_errors_name_the_value(args, named):
    with pytest.raises(CardError, match=named):
        trades_required(*args)
    with pytest.raises(CardError, match=named):
        trade_down_needed(*args)


def test_card_error_is_a_value_error_and_a_riskmath_error():
    assert issubclass(CardError, ValueError)
    assert issubclass(CardError, RiskmathError)
    with pytest.raises(ValueError, match="'nope'"):
        SetValues.preset("nope")
