"""Issue 11, class 7 for the rules model: player arguments, board files and territory names.

* Every public ``GameState`` method taking a player (or an owner) refuses an
  id out of range, a bool or a non-integer with InvalidArgumentError naming
  the value and the valid range (``state.cards(-1)`` used to return another
  player's hand, ``reinforcements(99)`` to return 3).
* ``Board.from_json`` turns unreadable, oversized, malformed or deeply nested
  input into BoardError naming the file and the problem.
* Territory names are compared after Unicode normalization (NFKC, invisible
  characters dropped); names containing invisible characters, and the
  reserved names (``"wild"``, the neutral owners' labels), are refused.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import unicodedata

import numpy as np
import pytest
from game_helpers import spread, tiered
from hypothesis import given
from hypothesis import strategies as st

import riskmath as rm
from riskmath.errors import BoardError, InvalidArgumentError
from riskmath.game.board import MAX_BOARD_DEPTH, MAX_BOARD_JSON, MAX_TERRITORIES
from riskmath.game.cards import WILD
from riskmath.game.game import NEUTRAL_NAMES
from riskmath.game.missions import mission_complete

PLAYERS = 3
GAMES = {
    "plain": rm.Game(PLAYERS),
    "missions": rm.Game(PLAYERS, rm.Rules.preset("us_1993_secret_mission")),
    "capital": rm.Game(PLAYERS, rm.Rules.preset("us_1993_capital")),
}
STATES = {name: game.new_initial_state(seed=5, auto_chance=True) for name, game in GAMES.items()}
PLAYER_METHODS = ("cards", "reinforcements", "mission", "capital", "alive", "mission_complete")


def _out_of_range(owners: int) -> st.SearchStrategy[object]:
    ints = st.integers(max_value=-1) | st.integers(min_value=owners)
    return st.one_of(
        ints,
        ints.filter(lambda v: -(2**63) <= v < 2**63).map(np.int64),
        st.integers(-128, -1).map(np.int8),
        st.integers(owners, 255).map(np.uint8),
    )


bad_types = st.one_of(
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.none(),
    st.just(np.bool_(True)),
    st.just([0]),
    st.just(1.0),
)


def _calls(state: rm.GameState, method: str, value: object) -> object:
    if method == "module mission_complete":
        return mission_complete(state, value)  # type: ignore[arg-type]
    return getattr(state, method)(value)


OUT_OF_RANGE = [(game, method) for game in STATES for method in (*PLAYER_METHODS, "module mission_complete")]


# The fast tier: every method, on one of the games in turn.
@pytest.mark.parametrize(("game", "method"), tiered(OUT_OF_RANGE, spread(OUT_OF_RANGE, at=1)))
@given(value=_out_of_range(PLAYERS))
def test_player_out_of_range_is_refused(game, method, value):
    with pytest.raises(InvalidArgumentError, match=rf"player.* 0\.\.{PLAYERS - 1}, got {re.escape(repr(value))}"):
        _calls(STATES[game], method, value)


@pytest.mark.parametrize("method", [*PLAYER_METHODS, "territories_of"])
@given(value=bad_types)
def test_player_of_the_wrong_type_is_refused(method, value):
    with pytest.raises(InvalidArgumentError, match="must be an integer"):
        getattr(STATES["plain"], method)(value)


@pytest.mark.parametrize("method", PLAYER_METHODS)
@pytest.mark.parametrize("convert", [int, np.int64, np.int32, np.uint8])
def test_numpy_player_ids_in_range_work(method, convert):
    state = STATES["missions"]
    for p in range(PLAYERS):
        assert getattr(state, method)(convert(p)) == getattr(state, method)(p)


def test_territories_of_takes_owners_including_neutrals():
    game = rm.Game(2)  # the 1993 neutral is owner 2
    state = game.new_initial_state(seed=1, auto_chance=True)
    while state.phase.name.startswith("SETUP"):
        state = state.apply(state.legal_actions()[0])
    assert len(state.territories_of(2)) == 14
    assert state.territories_of(np.int64(0)) == state.territories_of(0)
    for bad in (-1, 3, np.int64(-1), 99):
        with pytest.raises(InvalidArgumentError, match=rf"owner .* 0\.\.2 .*got {re.escape(repr(bad))}"):
            state.territories_of(bad)


def test_the_old_silent_answers_are_gone():
    state = STATES["plain"]
    with pytest.raises(InvalidArgumentError, match=r"player must be a player id in 0\.\.2, got -1"):
        state.cards(-1)
    with pytest.raises(InvalidArgumentError, match=r"got 7"):
        state.cards(7)
    with pytest.raises(InvalidArgumentError, match=r"got 99"):
        state.reinforcements(99)


# -- board files ---------------------------------------------------------------------------------------------------


def _toy(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "toy",
        "continents": [{"name": "East", "bonus": 2, "territories": ["Ayr", "Bute"]}],
        "borders": [["Ayr", "Bute"]],
    }
    return data | changes


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20,
)


@given(data=json_values)
def test_any_json_gives_a_board_or_board_error(data):
    text = json.dumps(data)
    try:
        rm.Board.from_json(text if text.lstrip()[:1] in "[{" else "[" + text + "]")
    except BoardError as error:
        message = str(error)
        assert message


@given(text=st.text(max_size=40))
def test_any_text_file_gives_a_board_or_board_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("boards") / "board.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardError, match=r"board\.json"):
        rm.Board.from_json(path)


@pytest.mark.parametrize("depth", [MAX_BOARD_DEPTH + 1, 5000, 200_000])
@pytest.mark.parametrize("kind", ["arrays", "objects"])
def test_deep_nesting_is_refused(depth, kind):
    text = "[" * depth + "]" * depth if kind == "arrays" else '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1)
    with pytest.raises(BoardError, match=rf"nested {depth} levels deep, over the limit of {MAX_BOARD_DEPTH}"):
        rm.Board.from_json(text)


def test_brackets_in_strings_do_not_count():
    board = rm.Board.from_json(json.dumps(_toy(description="[" * 200 + "{" * 200)))
    assert board.description.startswith("[[[")


def test_unreadable_files_name_the_file(tmp_path):
    with pytest.raises(BoardError, match=r"cannot read board file '.*missing\.json'"):
        rm.Board.from_json(tmp_path / "missing.json")
    with pytest.raises(BoardError, match=r"cannot read board file '.*'"):
        rm.Board.from_json(tmp_path)  # a directory
    binary = tmp_path / "latin1.json"
    binary.write_bytes(b'{"name": "caf\xe9"}')
    with pytest.raises(BoardError, match=r"cannot read board file '.*latin1\.json': .*utf-8"):
        rm.Board.from_json(binary)
    with pytest.raises(BoardError, match=r"cannot read board file"):
        rm.Board.from_json("nul\0byte.json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_toy(borders=[["Ayr", "Cork"]])), encoding="utf-8")
    with pytest.raises(BoardError, match=r"board file '.*bad\.json': border 0 .* unknown territory 'Cork'"):
        rm.Board.from_json(bad)


@pytest.mark.parametrize("source", [None, 3, b"{}", ["a"], 1.5])
def test_sources_that_are_neither_text_nor_path(source):
    with pytest.raises(BoardError, match="JSON text or the path of a file"):
        rm.Board.from_json(source)


def test_oversized_input_is_refused_before_parsing(tmp_path):
    text = json.dumps(_toy(description="x" * MAX_BOARD_JSON))
    with pytest.raises(BoardError, match=rf"over the limit of {MAX_BOARD_JSON}"):
        rm.Board.from_json(text)
    path = tmp_path / "big.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardError, match=r"board file '.*big\.json' has \d+ bytes, over the limit"):
        rm.Board.from_json(path)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_without_a_size_is_read_within_the_limit():
    # /dev/zero reports 0 bytes and never ends: read whole, it filled the memory before any check.
    with pytest.raises(BoardError, match=rf"'/dev/zero' goes on past {MAX_BOARD_JSON} characters"):
        rm.Board.from_json("/dev/zero")


@pytest.mark.parametrize("n", [MAX_TERRITORIES + 1, 20_000])
def test_too_many_territories_are_refused_before_the_adjacency_matrix(n):
    names = [f"T{i}" for i in range(n)]
    data = {"name": "big", "continents": [{"name": "C", "bonus": 1, "territories": names}], "borders": []}
    with pytest.raises(BoardError, match=rf"board has {n} territories, over the limit of {MAX_TERRITORIES}"):
        rm.Board.from_dict(data)


def test_huge_integers_are_board_errors():
    with pytest.raises(BoardError, match="invalid board JSON"):
        rm.Board.from_json('{"name": "x", "continents": [], "borders": [], "bonus": ' + "9" * 5000 + "}")


# -- names -----------------------------------------------------------------------------------------------------------

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u202e", "\x07"]
ACCENTED = ["Café", "Curaçao", "Ñandú", "Åland", "Göteborg", "Île"]


def _board(names: list[str], **extra: object) -> rm.Board:
    borders = [[a, b] for a, b in itertools.pairwise(names)]
    return rm.Board.from_dict(
        {"name": "u", "continents": [{"name": "C", "bonus": 1, "territories": names}], "borders": borders} | extra
    )


@given(name=st.sampled_from(ACCENTED), form=st.sampled_from(["NFC", "NFD", "NFKC", "NFKD"]))
def test_lookups_ignore_the_unicode_form(name, form):
    board = _board([unicodedata.normalize("NFD", name), "Other"])
    assert board.territories[0] == unicodedata.normalize("NFC", name)  # canonical names are NFC
    assert board.index(unicodedata.normalize(form, name)) == 0
    assert board.index(unicodedata.normalize(form, name).upper()) == 0


@given(name=st.sampled_from(ACCENTED), mark=st.sampled_from(INVISIBLE), at=st.integers(0, 4))
def test_invisible_characters_are_ignored_in_lookups_and_refused_in_names(name, mark, at):
    board = _board([name, "Other"])
    spoof = name[:at] + mark + name[at:]
    assert board.index(spoof) == 0
    with pytest.raises(BoardError, match=r"contains invisible characters \(U\+"):
        _board([spoof, "Other"])


@given(name=st.sampled_from(ACCENTED))
def test_look_alike_territories_are_refused(name):
    with pytest.raises(BoardError, match="listed twice"):  # one name once normalized
        _board([unicodedata.normalize("NFC", name), unicodedata.normalize("NFD", name)])
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name)
    with pytest.raises(BoardError, match="look alike in Unicode"):
        _board([name, fullwidth])


def test_borders_and_aliases_may_use_another_unicode_form():
    nfd = unicodedata.normalize("NFD", "Café")
    board = _board(
        ["Café", "Bar"], borders=[[nfd, "Bar"]], aliases={"Coffee": nfd}, positions={nfd: [0, 0], "Bar": [1, 1]}
    )
    assert board.is_adjacent("Café", "Bar")
    assert board.index("coffee") == 0


RESERVED = [WILD, *NEUTRAL_NAMES]


@given(
    name=st.sampled_from(RESERVED),
    case=st.sampled_from([str, str.upper, str.title, lambda s: s.swapcase()]),
    fullwidth=st.booleans(),
)
def test_reserved_names_are_refused_for_territories_and_aliases(name, case, fullwidth):
    spelled = case(name)
    if fullwidth:
        spelled = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in spelled)
    with pytest.raises(BoardError, match="reserved name"):
        _board([spelled, "Other"])
    with pytest.raises(BoardError, match="reserved name"):
        _board(["One", "Other"], aliases={spelled: "One"})


def test_reserved_names_stay_allowed_for_boards_and_continents():
    board = rm.Board.from_dict(
        {"name": "wild", "continents": [{"name": "Neutral", "bonus": 1, "territories": ["A"]}], "borders": []}
    )
    assert board.name == "wild"


def test_the_shipped_boards_and_their_aliases_still_work():
    for board in (rm.Board.classic(), rm.Board.anniversary_1999()):
        assert len(board) == 42
        assert board.index("  eastern   CANADA ") == board.index("Quebec")
        assert board.index("Venezuala") == board.index("Venezuela")
        assert board.index("Scandanavia") == board.index("Scandinavia")


# -- found by the hostile review of 2026-12-03 -------------------------------------------------------------------------
def test_a_long_sequence_of_set_values_is_refused_before_it_is_built():
    # values(10**9) built a list of a billion ints (9 GB after ten minutes) before anything failed.
    with pytest.raises(rm.ResourceLimitError, match=r"values\(k=1000000000\) of the set values 'progressive_1993'"):
        rm.SetValues.preset("progressive_1993").values(10**9)
    assert rm.SetValues.preset("progressive_1993").values(7) == [4, 6, 8, 10, 12, 15, 20]  # [1993 US rulebook]


def test_a_player_count_given_twice_in_starting_armies_is_refused():
    # The table was sorted into a dict: (3, 35) won over the user's (3, 20), in Rules and in a saved state.
    message = r"starting_armies gives 3 players more than one entry: \[\(3, 20\), \(3, 35\)\]"
    with pytest.raises(rm.RulesError, match=message):
        rm.Rules(starting_armies=(*rm.Rules().starting_armies, (3, 20)))
    data = rm.Rules().to_dict()
    data["starting_armies"] = [[3, 20], *data["starting_armies"]]
    with pytest.raises(rm.RulesError, match="more than one entry"):
        rm.Rules.from_dict(data)


def test_replace_names_an_unknown_option():
    with pytest.raises(rm.RulesError, match=r"unknown rules options \['foo'\]; the options are board, "):
        rm.Rules().replace(foo=1)
    assert rm.Rules().replace(wild_cards=0).wild_cards == 0


@pytest.mark.parametrize("edition", [None, 5, [1], {}])
def test_the_edition_label_is_a_string(edition):
    # A list made the Rules unhashable (and so every Game made from it); None or 5 showed up in reprs.
    with pytest.raises(rm.RulesError, match=r"Rules.edition must be a string"):
        rm.Rules(edition=edition)
    with pytest.raises(rm.RulesError, match=r"Rules.edition must be a string"):
        rm.Rules.from_dict({**rm.Rules().to_dict(), "edition": edition})


def test_a_key_given_twice_in_board_or_state_json_is_refused():
    # JSON keeps the last of two values silently: a pasted line changed a continent's bonus unseen.
    text = rm.Board.classic().to_json().replace('"bonus": 5,', '"bonus": 5, "bonus": 50,', 1)
    with pytest.raises(BoardError, match="the key 'bonus' is given twice"):
        rm.Board.from_json(text)
    state = rm.Game(2).new_initial_state(seed=1)
    with pytest.raises(rm.StateError, match="the key 'format' is given twice"):
        rm.GameState.from_json('{"format": "x", ' + state.to_json()[1:])
    assert rm.GameState.from_json(state.to_json()) == state
