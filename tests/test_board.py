"""The map: the classic board against public map data, the 1999 misprint, aliases, validation and JSON.

Reference data are written out from the map data of docs/sources.rst: the territory list in id order, the
neighbor lists and the 14 borders between continents of the 83 borders on which four independent implementations
agree exactly [M1]-[M4] (and which match the 1993 rules' examples [R1]); the 1999 misprint [R11a].
"""

from __future__ import annotations

import copy
import json
import pickle
import re
import string
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskmath.errors import BoardError, RiskmathError
from riskmath.game.board import BOARDS, RESERVED_NAMES, Board, Continent

# The 42 territories in id order, by continent ([M1]-[M4] in docs/sources.rst).
TERRITORIES = """
Alaska, Northwest Territory, Greenland, Alberta, Ontario, Quebec, Western United States, Eastern United States,
Central America | Venezuela, Peru, Brazil, Argentina | Iceland, Scandinavia, Great Britain, Northern Europe,
Western Europe, Southern Europe, Ukraine | North Africa, Egypt, East Africa, Congo, South Africa, Madagascar |
Ural, Siberia, Yakutsk, Kamchatka, Irkutsk, Mongolia, Japan, Afghanistan, China, Middle East, India, Siam |
Indonesia, New Guinea, Western Australia, Eastern Australia
"""
CONTINENT_NAMES = ["North America", "South America", "Europe", "Africa", "Asia", "Australia"]
BY_CONTINENT = [[t.strip() for t in part.split(",")] for part in TERRITORIES.split("|")]
ORDER = [t for part in BY_CONTINENT for t in part]

# The neighbor lists of the 83 borders of [M1]-[M4] (docs/sources.rst).
NEIGHBOURS = """
Alaska: 3 -> Northwest Territory, Alberta, Kamchatka
Northwest Territory: 4 -> Alaska, Greenland, Alberta, Ontario
Greenland: 4 -> Northwest Territory, Ontario, Quebec, Iceland
Alberta: 4 -> Alaska, Northwest Territory, Ontario, Western United States
Ontario: 6 -> Northwest Territory, Greenland, Alberta, Quebec, Western United States, Eastern United States
Quebec: 3 -> Greenland, Ontario, Eastern United States
Western United States: 4 -> Alberta, Ontario, Eastern United States, Central America
Eastern United States: 4 -> Ontario, Quebec, Western United States, Central America
Central America: 3 -> Western United States, Eastern United States, Venezuela
Venezuela: 3 -> Central America, Peru, Brazil
Peru: 3 -> Venezuela, Brazil, Argentina
Brazil: 4 -> Venezuela, Peru, Argentina, North Africa
Argentina: 2 -> Peru, Brazil
Iceland: 3 -> Greenland, Scandinavia, Great Britain
Scandinavia: 4 -> Iceland, Great Britain, Northern Europe, Ukraine
Great Britain: 4 -> Iceland, Scandinavia, Northern Europe, Western Europe
Northern Europe: 5 -> Scandinavia, Great Britain, Western Europe, Southern Europe, Ukraine
Western Europe: 4 -> Great Britain, Northern Europe, Southern Europe, North Africa
Southern Europe: 6 -> Northern Europe, Western Europe, Ukraine, North Africa, Egypt, Middle East
Ukraine: 6 -> Scandinavia, Northern Europe, Southern Europe, Ural, Afghanistan, Middle East
North Africa: 6 -> Brazil, Western Europe, Southern Europe, Egypt, East Africa, Congo
Egypt: 4 -> Southern Europe, North Africa, East Africa, Middle East
East Africa: 6 -> North Africa, Egypt, Congo, South Africa, Madagascar, Middle East
Congo: 3 -> North Africa, East Africa, South Africa
South Africa: 3 -> East Africa, Congo, Madagascar
Madagascar: 2 -> East Africa, South Africa
Ural: 4 -> Ukraine, Siberia, Afghanistan, China
Siberia: 5 -> Ural, Yakutsk, Irkutsk, Mongolia, China
Yakutsk: 3 -> Siberia, Kamchatka, Irkutsk
Kamchatka: 5 -> Alaska, Yakutsk, Irkutsk, Mongolia, Japan
Irkutsk: 4 -> Siberia, Yakutsk, Kamchatka, Mongolia
Mongolia: 5 -> Siberia, Kamchatka, Irkutsk, Japan, China
Japan: 2 -> Kamchatka, Mongolia
Afghanistan: 5 -> Ukraine, Ural, China, Middle East, India
China: 6 -> Ural, Siberia, Mongolia, Afghanistan, India, Siam
Middle East: 6 -> Southern Europe, Ukraine, Egypt, East Africa, Afghanistan, India
India: 4 -> Afghanistan, China, Middle East, Siam
Siam: 3 -> China, India, Indonesia
Indonesia: 3 -> Siam, New Guinea, Western Australia
New Guinea: 3 -> Indonesia, Western Australia, Eastern Australia
Western Australia: 3 -> Indonesia, New Guinea, Eastern Australia
Eastern Australia: 2 -> New Guinea, Western Australia
"""


def parse_neighbors(text: str) -> dict[str, tuple[int, tuple[str, ...]]]:
    result = {}
    for line in text.strip().splitlines():
        name, rest = line.split(": ")
        degree, names = rest.split(" -> ")
        result[name] = (int(degree), tuple(names.split(", ")))
    return result


EXPECTED = parse_neighbors(NEIGHBOURS)
EXPECTED_EDGES = {frozenset((a, b)) for a, (_, ns) in EXPECTED.items() for b in ns}

# The 14 borders between continents, from the same 83 borders ([M1]-[M4]).
BETWEEN_CONTINENTS = """Alaska-Kamchatka, Greenland-Iceland, Central America-Venezuela, Brazil-North Africa,
Western Europe-North Africa, Southern Europe-North Africa, Southern Europe-Egypt, Southern Europe-Middle East,
Ukraine-Ural, Ukraine-Afghanistan, Ukraine-Middle East, Egypt-Middle East, East Africa-Middle East, Siam-Indonesia"""
CROSSING = {frozenset(pair.strip().split("-")) for pair in BETWEEN_CONTINENTS.split(",")}


@pytest.fixture(scope="module")
def classic() -> Board:
    return Board.classic()


@pytest.fixture(scope="module")
def anniversary() -> Board:
    return Board.anniversary_1999()


def toy(**changes):
    """A valid 3-territory board as a dict, with top-level keys replaced (None deletes a key)."""
    data = {
        "name": "toy",
        "continents": [
            {"name": "East", "bonus": 2, "territories": ["Ayr", "Bute"]},
            {"name": "West", "bonus": 1, "territories": ["Cork"]},
        ],
        "borders": [["Ayr", "Bute"], ["Bute", "Cork"]],
        "aliases": {"Eire": "Cork"},
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def continents(*specs):
    """Continents from (name, bonus, territories) triples."""
    return [{"name": name, "bonus": bonus, "territories": list(ts)} for name, bonus, ts in specs]


class TestClassicInvariants:
    def test_territories_in_fact_sheet_order(self, classic):
        assert len(ORDER) == 42
        assert classic.territories == tuple(ORDER)
        assert len(classic) == 42
        assert list(classic) == ORDER
        assert [classic.index(t) for t in ORDER] == list(range(42))
        assert [classic.name_of(i) for i in range(42)] == ORDER

    def test_continents_sizes_and_bonuses(self, classic):
        assert list(classic.continents) == CONTINENT_NAMES
        sizes = [len(c.territories) for c in classic.continents.values()]
        assert sizes == [9, 4, 7, 6, 12, 4]
        assert [c.bonus for c in classic.continents.values()] == [5, 2, 5, 3, 7, 2]
        for name, members in zip(CONTINENT_NAMES, BY_CONTINENT, strict=True):
            continent = classic.continents[name]
            assert isinstance(continent, Continent)
            assert continent.name == name
            assert continent.territories == tuple(members)
            assert continent.ids == tuple(ORDER.index(t) for t in members)
            assert all(classic.continent_of(t) == name for t in members)

    def test_83_borders_degree_sum_166(self, classic):
        assert len(classic.borders) == 83
        assert len({frozenset(pair) for pair in classic.borders}) == 83
        assert sum(len(classic.neighbors(t)) for t in classic) == 166
        assert int(classic.adjacency.sum()) == 166

    def test_every_neighbor_list_as_in_the_fact_sheet(self, classic):
        assert set(EXPECTED) == set(ORDER)
        for territory, (degree, neighbors) in EXPECTED.items():
            assert classic.neighbors(territory) == neighbors, territory
            assert len(classic.neighbors(territory)) == degree, territory

    def test_border_set_matches_the_neighbor_lists(self, classic):
        assert {frozenset(pair) for pair in classic.borders} == EXPECTED_EDGES
        assert len(EXPECTED_EDGES) == 83

    @pytest.mark.parametrize(
        ("territory", "neighbors"),
        [
            ("Greenland", ("Northwest Territory", "Ontario", "Quebec", "Iceland")),
            ("Alaska", ("Northwest Territory", "Alberta", "Kamchatka")),
            ("North Africa", ("Brazil", "Western Europe", "Southern Europe", "Egypt", "East Africa", "Congo")),
            ("Madagascar", ("East Africa", "South Africa")),
        ],
    )
    def test_rulebook_examples(self, classic, territory, neighbors):
        # 1993 rules: Greenland attacks exactly these four; Alaska-Kamchatka across the board edge.
        assert classic.neighbors(territory) == neighbors

    def test_borders_listed_once_in_id_order(self, classic):
        ids = [(classic.index(a), classic.index(b)) for a, b in classic.borders]
        assert all(a < b for a, b in ids)
        assert ids == sorted(ids)

    def test_no_self_loops_and_symmetric(self, classic):
        assert all(a != b for a, b in classic.borders)
        assert not classic.adjacency.diagonal().any()
        assert np.array_equal(classic.adjacency, classic.adjacency.T)
        for t in classic:
            assert t not in classic.neighbors(t)
            for u in classic.neighbors(t):
                assert t in classic.neighbors(u)
                assert classic.is_adjacent(t, u)
                assert classic.is_adjacent(u, t)

    def test_adjacency_matches_neighbor_ids(self, classic):
        assert classic.adjacency.shape == (42, 42)
        assert classic.adjacency.dtype == np.bool_
        for i in range(42):
            assert classic.neighbor_ids(i) == tuple(np.flatnonzero(classic.adjacency[i]))
            assert classic.neighbor_ids(i) == tuple(classic.index(t) for t in classic.neighbors(i))

    def test_connected(self, classic):
        assert classic.reachable("Alaska") == tuple(ORDER)
        assert classic.connected_within(ORDER)

    def test_14_borders_between_continents(self, classic):
        crossing = {frozenset(p) for p in classic.borders if classic.continent_of(p[0]) != classic.continent_of(p[1])}
        assert len(CROSSING) == 14
        assert crossing == CROSSING

    def test_borders_inside_each_continent(self, classic):
        inside = {name: 0 for name in CONTINENT_NAMES}
        for a, b in classic.borders:
            if classic.continent_of(a) == classic.continent_of(b):
                inside[classic.continent_of(a)] += 1
        assert inside == {
            "North America": 16,
            "South America": 5,
            "Europe": 12,
            "Africa": 9,
            "Asia": 22,
            "Australia": 5,
        }

    @pytest.mark.parametrize(
        ("continent", "expected"),
        [
            ("Australia", ("Indonesia",)),
            ("South America", ("Venezuela", "Brazil")),
            ("North America", ("Alaska", "Greenland", "Central America")),
            ("Africa", ("North Africa", "Egypt", "East Africa")),
            ("Europe", ("Iceland", "Western Europe", "Southern Europe", "Ukraine")),
            ("Asia", ("Ural", "Kamchatka", "Afghanistan", "Middle East", "Siam")),
        ],
    )
    def test_border_territories_1_2_3_3_4_5(self, classic, continent, expected):
        assert classic.border_territories(continent) == expected

    def test_continent_ids_give_bonuses(self, classic):
        assert [bonus for bonus, _ in classic.continent_ids] == [5, 2, 5, 3, 7, 2]
        assert [ids for _, ids in classic.continent_ids] == [frozenset(c.ids) for c in classic.continents.values()]
        held = {classic.index(t) for t in BY_CONTINENT[5] + BY_CONTINENT[1] + ["Ural"]}
        assert sum(bonus for bonus, ids in classic.continent_ids if ids <= held) == 4
        assert sum(bonus for bonus, ids in classic.continent_ids if ids <= set(range(42))) == 24

    def test_repr(self, classic):
        assert repr(classic) == "Board('classic', 42 territories, 83 borders)"
        assert classic.name == "classic"
        assert "83 borders" in classic.description
        assert classic.source


class TestAnniversary1999:
    def test_82_borders_lacking_exactly_east_africa_middle_east(self, classic, anniversary):
        assert len(anniversary.borders) == 82
        missing = {frozenset(p) for p in classic.borders} - {frozenset(p) for p in anniversary.borders}
        assert missing == {frozenset(("East Africa", "Middle East"))}
        assert {frozenset(p) for p in anniversary.borders} < {frozenset(p) for p in classic.borders}
        assert not anniversary.is_adjacent("East Africa", "Middle East")
        assert classic.is_adjacent("East Africa", "Middle East")

    def test_same_territories_continents_and_aliases(self, classic, anniversary):
        assert anniversary.territories == classic.territories
        assert anniversary.continents == classic.continents
        assert anniversary.aliases == classic.aliases
        assert anniversary.name == "anniversary_1999"
        assert anniversary != classic

    def test_still_connected_with_13_crossings(self, anniversary):
        assert anniversary.connected_within(anniversary.territories)
        crossing = [p for p in anniversary.borders if anniversary.continent_of(p[0]) != anniversary.continent_of(p[1])]
        assert len(crossing) == 13
        assert len(anniversary.neighbors("Middle East")) == 5
        assert len(anniversary.neighbors("East Africa")) == 5
        assert int(anniversary.adjacency.sum()) == 164


class TestLoading:
    def test_load_by_name_is_cached(self, classic, anniversary):
        assert BOARDS == ("classic", "anniversary_1999")
        assert Board.load("classic") is classic is Board.classic()
        assert Board.load("anniversary_1999") is anniversary

    def test_load_unknown(self):
        with pytest.raises(BoardError, match=r"unknown board 'classic_83'; expected one of 'classic', "):
            Board.load("classic_83")

    @pytest.mark.parametrize("name", BOARDS)
    def test_data_files_are_exactly_to_dict(self, name):
        text = resources.files("riskmath.game").joinpath("data", f"{name}.json").read_text(encoding="utf-8")
        assert json.loads(text) == Board.load(name).to_dict()

    @pytest.mark.parametrize("name", BOARDS)
    def test_round_trips(self, name):
        board = Board.load(name)
        assert Board.from_dict(board.to_dict()) == board
        assert Board.from_json(board.to_json()) == board
        assert Board.from_json(board.to_json(indent=None)) == board
        assert hash(Board.from_dict(board.to_dict())) == hash(board)
        assert pickle.loads(pickle.dumps(board)) == board
        assert copy.deepcopy(board) == board

    def test_from_json_file(self, tmp_path, classic):
        path = tmp_path / "map.json"
        path.write_text(classic.to_json(), encoding="utf-8")
        assert Board.from_json(path) == classic
        assert Board.from_json(str(path)) == classic

    def test_from_json_errors(self, tmp_path):
        with pytest.raises(BoardError, match=r"invalid board JSON in JSON text"):
            Board.from_json('{"name": ')
        path = tmp_path / "bad.json"
        path.write_text("[1, 2", encoding="utf-8")
        with pytest.raises(BoardError, match=r"invalid board JSON in '.*bad\.json'"):
            Board.from_json(path)
        with pytest.raises(BoardError, match=r"board data must be a mapping, got \[1, 2\]"):
            Board.from_json(" [1, 2]")
        with pytest.raises(BoardError, match=r"cannot read board file '.*missing\.json': .*No such file"):
            Board.from_json(tmp_path / "missing.json")

    def test_tiny_custom_board(self):
        board = Board.from_dict(toy(description="three islands", source="made up"))
        assert repr(board) == "Board('toy', 3 territories, 2 borders)"
        assert board.territories == ("Ayr", "Bute", "Cork")
        assert board.neighbors("Bute") == ("Ayr", "Cork")
        assert board.neighbors("eire") == ("Bute",)
        assert board.border_territories("East") == ("Bute",)
        assert board.border_territories("West") == ("Cork",)
        assert board.continent_ids == ((2, frozenset({0, 1})), (1, frozenset({2})))
        assert board.description == "three islands"
        assert board.source == "made up"
        assert Board.from_dict(board.to_dict()) == board

    def test_single_territory_board(self):
        board = Board.from_dict({"name": "one", "continents": continents(("Only", 0, ["Here"])), "borders": []})
        assert len(board) == 1
        assert board.borders == ()
        assert board.neighbors(0) == ()
        assert board.border_territories("Only") == ()
        assert board.reachable("Here") == ("Here",)
        assert board.to_dict()["aliases"] == {}
        assert Board.from_dict(board.to_dict()) == board

    def test_territories_key_sets_the_id_order(self):
        board = Board.from_dict(toy(territories=["Cork", "Ayr", "Bute"]))
        assert board.territories == ("Cork", "Ayr", "Bute")
        assert board.continents["East"].ids == (1, 2)
        assert board.continents["West"].ids == (0,)
        assert board.borders == (("Cork", "Bute"), ("Ayr", "Bute"))
        assert Board.from_dict(board.to_dict()) == board

    def test_equality(self):
        board = Board.from_dict(toy())
        reordered = Board.from_dict(toy(borders=[["Cork", "Bute"], ["Bute", "Ayr"]]))
        assert reordered == board
        assert hash(reordered) == hash(board)
        assert Board.from_dict(toy(aliases={})) != board
        assert Board.from_dict(toy(name="toy2")) != board
        assert Board.from_dict(toy(borders=[["Ayr", "Bute"], ["Ayr", "Cork"]])) != board
        assert board != board.to_dict()


class TestAliasesAndLookup:
    @pytest.mark.parametrize(
        ("alias", "canonical"),
        [
            ("Mexico", "Central America"),
            ("eastern canada", "Quebec"),
            ("Eastern Canada", "Quebec"),
            ("Western Canada", "Alberta"),
            ("Central Canada", "Ontario"),
            ("Russia", "Ukraine"),
            ("Eastern Europe", "Ukraine"),
            ("Urals", "Ural"),
            ("Southeast Asia", "Siam"),
            ("South East Asia", "Siam"),
            ("Central Africa", "Congo"),
            ("Manchuria", "Mongolia"),
            ("North West Territory", "Northwest Territory"),
            ("Northwest Territories", "Northwest Territory"),
            ("N.W. Territory", "Northwest Territory"),
            ("Venezuala", "Venezuela"),
            ("Scandanavia", "Scandinavia"),
            ("  SCANDANAVIA ", "Scandinavia"),
            ("great   britain", "Great Britain"),
            ("GREENLAND", "Greenland"),
            ("middle\teast", "Middle East"),
        ],
    )
    def test_alias(self, classic, anniversary, alias, canonical):
        assert classic.name_of(alias) == canonical
        assert classic.index(alias) == ORDER.index(canonical)
        assert anniversary.name_of(alias) == canonical
        assert alias in classic

    def test_aliases_mapping_is_read_only(self, classic):
        assert classic.aliases["Mexico"] == "Central America"
        assert all(target in classic.territories for target in classic.aliases.values())
        with pytest.raises(TypeError):
            classic.aliases["Atlantis"] = "Alaska"  # type: ignore[index]

    def test_continent_aliases(self, classic):
        assert classic.continent_aliases == {"Oceania": "Australia"}
        assert classic.border_territories("oceania") == ("Indonesia",)
        assert classic.border_territories("  south   AMERICA") == ("Venezuela", "Brazil")

    def test_aliases_in_methods(self, classic):
        assert classic.neighbors("Russia") == classic.neighbors("Ukraine")
        assert classic.is_adjacent("mexico", "VENEZUALA")
        assert classic.continent_of("Southeast Asia") == "Asia"
        assert classic.neighbor_ids("Eastern Canada") == (2, 4, 7)
        assert classic.neighbors(np.int64(0)) == EXPECTED["Alaska"][1]
        assert classic.neighbor_ids(np.int32(0)) == (1, 3, 29)
        assert classic.index(np.int16(41)) == 41
        assert isinstance(classic.index(np.int16(41)), int)

    def test_unknown_territory(self, classic):
        with pytest.raises(BoardError, match=r"^unknown territory 'Atlantis'$"):
            classic.index("Atlantis")
        with pytest.raises(BoardError, match=r"^unknown territory 'Kamchatk'; did you mean 'Kamchatka'\?$"):
            classic.neighbors("Kamchatk")
        with pytest.raises(BoardError, match=r"did you mean 'Eastern Canada'\?"):
            classic.continent_of("eastern canad")
        assert "Atlantis" not in classic

    @pytest.mark.parametrize(
        ("key", "message"),
        [
            (42, "territory id 42 is out of range 0..41"),
            (-1, "territory id -1 is out of range 0..41"),
            (True, "a territory is a name or an integer id, got True"),
            (3.0, "a territory is a name or an integer id, got 3.0"),
            (None, "a territory is a name or an integer id, got None"),
        ],
    )
    def test_bad_ids(self, classic, key, message):
        with pytest.raises(BoardError, match=re.escape(message)):
            classic.index(key)
        with pytest.raises(BoardError, match=re.escape(message)):
            classic.neighbor_ids(key)
        assert key not in classic

    def test_unknown_continent(self, classic):
        with pytest.raises(BoardError, match=r"^unknown continent 'Antarctica'$"):
            classic.border_territories("Antarctica")
        with pytest.raises(BoardError, match=r"unknown continent 'Asai'; did you mean 'Asia'\?"):
            classic.border_territories("Asai")
        with pytest.raises(BoardError, match=r"unknown continent 3"):
            classic.border_territories(3)  # type: ignore[arg-type]


class TestPaths:
    def test_reachable_within(self, classic):
        owned = ["Peru", "Brazil", "Argentina", "North Africa", "Egypt", "Japan"]
        assert classic.reachable("Peru", within=owned) == ("Peru", "Brazil", "Argentina", "North Africa", "Egypt")
        assert classic.reachable("Japan", within=owned) == ("Japan",)
        assert classic.reachable("Siam", within=owned) == ()
        assert classic.reachable("Siam", within=[]) == ()

    def test_path_exists(self, classic):
        assert classic.path_exists("Alaska", "Argentina")
        assert classic.path_exists("Alaska", "Alberta", allowed={"Alaska", "Kamchatka", "Alberta"})
        assert not classic.path_exists("Kamchatka", "Alberta", allowed={"Kamchatka", "Alberta"})
        assert not classic.path_exists("Alaska", "Alberta", allowed={"Alberta"})  # the start must be allowed
        assert not classic.path_exists("Alaska", "Alberta", allowed={"Alaska"})  # and the end
        assert classic.path_exists("Alaska", "alaska", allowed={"Alaska"})
        assert classic.path_exists(0, 41, allowed=range(42))

    def test_misprint_cuts_a_path(self, classic, anniversary):
        route = {"Madagascar", "East Africa", "Middle East", "India"}
        assert classic.path_exists("Madagascar", "India", allowed=route)
        assert not anniversary.path_exists("Madagascar", "India", allowed=route)

    def test_connected_within(self, classic):
        assert classic.connected_within([])
        assert classic.connected_within(["Japan"])
        assert classic.connected_within(BY_CONTINENT[4])
        assert not classic.connected_within(["Japan", "Siam"])
        assert classic.connected_within(["Japan", "Siam", "China", "Mongolia"])
        for members in BY_CONTINENT:
            assert classic.connected_within(members)

    def test_unknown_territory_in_allowed(self, classic):
        with pytest.raises(BoardError, match="unknown territory 'Atlantis'"):
            classic.reachable("Alaska", within=["Alaska", "Atlantis"])


class TestImmutability:
    def test_attributes_cannot_be_set(self, classic):
        with pytest.raises(AttributeError):
            classic.name = "other"  # type: ignore[misc]
        with pytest.raises(AttributeError):
            classic.extra = 1  # type: ignore[attr-defined]
        with pytest.raises(AttributeError):
            del classic.territories  # type: ignore[misc]

    def test_adjacency_and_mappings_read_only(self, classic):
        with pytest.raises(ValueError, match="read-only"):
            classic.adjacency[0, 1] = False
        with pytest.raises(TypeError):
            classic.continents["Atlantis"] = classic.continents["Asia"]  # type: ignore[index]
        with pytest.raises(AttributeError):
            classic.continents["Asia"].bonus = 9  # type: ignore[misc]
        assert classic.continents["Asia"].bonus == 7

    def test_to_dict_is_a_copy(self, classic):
        data = classic.to_dict()
        data["borders"].clear()
        data["continents"][0]["bonus"] = 99
        assert len(classic.borders) == 83
        assert classic.continents["North America"].bonus == 5


ERRORS = [
    ("not a mapping", ["toy"], "board data must be a mapping, got ['toy']"),
    ("unknown key", toy(border=[]), "unknown board key(s) 'border'"),
    ("missing borders", toy(borders=None), "board data lacks the required key 'borders'"),
    ("missing continents", toy(continents=None), "board data lacks the required key 'continents'"),
    ("missing name", toy(name=None), "board data lacks the required key 'name'"),
    ("empty name", toy(name=""), "board name must be a non-empty string, got ''"),
    ("name not a string", toy(name=7), "board name must be a non-empty string, got 7"),
    ("name with spaces", toy(name=" toy"), "board name ' toy' has leading, trailing or repeated whitespace"),
    ("bad description", toy(description=3), "board description must be a string, got 3"),
    ("bad source", toy(source=["x"]), "board source must be a string, got ['x']"),
    ("no continents", toy(continents=[]), "a board needs at least one continent"),
    ("continents not a list", toy(continents={"East": 1}), "continents must be a list, got {'East': 1}"),
    ("continent not a mapping", toy(continents=["East"]), "continent 0 must be a mapping, got 'East'"),
    (
        "continent key missing",
        toy(continents=[{"name": "East", "territories": ["Ayr"]}]),
        "continent 0 needs exactly the keys 'bonus', 'name', 'territories', got ['name', 'territories']",
    ),
    (
        "continent key extra",
        toy(continents=[{"name": "East", "bonus": 1, "territories": ["Ayr"], "colour": "red"}]),
        "continent 0 needs exactly the keys",
    ),
    (
        "duplicate continent",
        toy(continents=continents(("East", 2, ["Ayr", "Bute"]), ("east", 1, ["Cork"]))),
        "duplicate continent name 'east'",
    ),
    (
        "empty continent",
        toy(continents=continents(("East", 2, ["Ayr", "Bute", "Cork"]), ("West", 1, []))),
        "continent 'West' has no territories",
    ),
    (
        "negative bonus",
        toy(continents=continents(("East", -1, ["Ayr", "Bute"]), ("West", 1, ["Cork"]))),
        "continent 'East' bonus must be a non-negative integer, got -1",
    ),
    (
        "float bonus",
        toy(continents=continents(("East", 2.0, ["Ayr", "Bute"]), ("West", 1, ["Cork"]))),
        "continent 'East' bonus must be a non-negative integer, got 2.0",
    ),
    (
        "bool bonus",
        toy(continents=continents(("East", True, ["Ayr", "Bute"]), ("West", 1, ["Cork"]))),
        "continent 'East' bonus must be a non-negative integer, got True",
    ),
    (
        "string bonus",
        toy(continents=continents(("East", "2", ["Ayr", "Bute"]), ("West", 1, ["Cork"]))),
        "continent 'East' bonus must be a non-negative integer, got '2'",
    ),
    (
        "territory in two continents",
        toy(continents=continents(("East", 2, ["Ayr", "Bute"]), ("West", 1, ["Cork", "Ayr"]))),
        "territory 'Ayr' is listed in both 'East' and 'West'",
    ),
    (
        "territory twice in one continent",
        toy(continents=continents(("East", 2, ["Ayr", "Bute", "Ayr"]), ("West", 1, ["Cork"]))),
        "territory 'Ayr' is listed twice in 'East'",
    ),
    (
        "duplicate territory up to case",
        toy(continents=continents(("East", 2, ["Ayr", "Bute"]), ("West", 1, ["Cork", "AYR"]))),
        "territory names 'Ayr' and 'AYR' differ only in case or spacing",
    ),
    (
        "territory not a string",
        toy(continents=continents(("East", 2, ["Ayr", 5]), ("West", 1, ["Cork"]))),
        "territory of 'East' must be a non-empty string, got 5",
    ),
    (
        "territory with stray spaces",
        toy(continents=continents(("East", 2, ["Ayr", "Bute  Isle"]), ("West", 1, ["Cork"]))),
        "territory of 'East' 'Bute  Isle' has leading, trailing or repeated whitespace",
    ),
    (
        "territory in no continent",
        toy(territories=["Ayr", "Bute", "Cork", "Dover"]),
        "territory 'Dover' belongs to no continent",
    ),
    (
        "territory missing from territories",
        toy(territories=["Ayr", "Cork"]),
        "territory 'Bute' of continent 'East' is missing from 'territories'",
    ),
    (
        "territory twice in territories",
        toy(territories=["Ayr", "Bute", "Cork", "Bute"]),
        "territory 'Bute' is listed twice in 'territories'",
    ),
    ("borders not a list", toy(borders="Ayr-Bute"), "borders must be a list, got 'Ayr-Bute'"),
    (
        "border not a pair",
        toy(borders=[["Ayr", "Bute"], ["Bute", "Cork", "Ayr"]]),
        "border 1 must be a pair of territory names, got ['Bute', 'Cork', 'Ayr']",
    ),
    (
        "border a string",
        toy(borders=[["Ayr", "Bute"], "BC"]),
        "border 1 must be a pair of territory names, got 'BC'",
    ),
    (
        "border not names",
        toy(borders=[["Ayr", "Bute"], ["Bute", 2]]),
        "border 1 must be a pair of territory names, got ['Bute', 2]",
    ),
    (
        "unknown territory in border",
        toy(borders=[["Ayr", "Bute"], ["Bute", "Atlantis"]]),
        "border 1 ['Bute', 'Atlantis'] names unknown territory 'Atlantis'",
    ),
    (
        "misspelt territory in border",
        toy(borders=[["Ayr", "Bute"], ["Bute", "Corkk"]]),
        "border 1 ['Bute', 'Corkk'] names unknown territory 'Corkk'; did you mean 'Cork'?",
    ),
    (
        "alias in border",
        toy(borders=[["Ayr", "Bute"], ["Bute", "Eire"]]),
        "border 1 ['Bute', 'Eire'] names unknown territory 'Eire'",
    ),
    (
        "self-loop",
        toy(borders=[["Ayr", "Bute"], ["Bute", "Cork"], ["Ayr", "Ayr"]]),
        "border 2 joins 'Ayr' to itself",
    ),
    (
        "exact duplicate border",
        toy(borders=[["Ayr", "Bute"], ["Bute", "Cork"], ["Ayr", "Bute"]]),
        "border 2 ['Ayr', 'Bute'] repeats border 0 (borders are undirected)",
    ),
    (
        "reversed duplicate border",
        toy(borders=[["Ayr", "Bute"], ["Bute", "Cork"], ["Bute", "Ayr"]]),
        "border 2 ['Bute', 'Ayr'] repeats border 0 (borders are undirected)",
    ),
    (
        "not connected",
        toy(borders=[["Ayr", "Bute"]]),
        "board is not connected: 'Cork' cannot be reached from 'Ayr'",
    ),
    (
        "not connected, several",
        toy(borders=[["Bute", "Cork"]]),
        "board is not connected: 'Bute', 'Cork' cannot be reached from 'Ayr'",
    ),
    ("aliases not a mapping", toy(aliases=["Eire"]), "aliases must be a mapping, got ['Eire']"),
    ("alias to unknown", toy(aliases={"Eire": "Ireland"}), "alias 'Eire' points to unknown territory 'Ireland'"),
    (
        "alias to misspelt",
        toy(aliases={"Eire": "Corke"}),
        "alias 'Eire' points to unknown territory 'Corke'; did you mean 'Cork'?",
    ),
    ("alias to non-string", toy(aliases={"Eire": 2}), "alias 'Eire' points to unknown territory 2"),
    (
        "alias to alias",
        toy(aliases={"Eire": "Cork", "Hibernia": "Eire"}),
        "alias 'Hibernia' points to unknown territory 'Eire'",
    ),
    ("alias clashes with name", toy(aliases={"cork": "Ayr"}), "alias 'cork' clashes with territory name 'Cork'"),
    (
        "alias clashes with alias",
        toy(aliases={"Eire": "Cork", "EIRE": "Cork"}),
        "alias 'EIRE' clashes with alias 'Eire'",
    ),
    ("empty alias", toy(aliases={"": "Cork"}), "alias must be a non-empty string, got ''"),
    (
        "continent alias to unknown",
        toy(continent_aliases={"Orient": "Asia"}),
        "continent alias 'Orient' points to unknown continent 'Asia'",
    ),
    (
        "continent alias clash",
        toy(continent_aliases={"WEST": "East"}),
        "continent alias 'WEST' clashes with continent name 'West'",
    ),
]


class TestValidation:
    def test_toy_is_valid(self):
        assert len(Board.from_dict(toy())) == 3

    @pytest.mark.parametrize(("data", "message"), [case[1:] for case in ERRORS], ids=[case[0] for case in ERRORS])
    def test_error(self, data, message):
        with pytest.raises(BoardError, match=re.escape(message)):
            Board.from_dict(data)

    def test_errors_are_value_errors(self):
        assert issubclass(BoardError, ValueError)
        assert issubclass(BoardError, RiskmathError)
        with pytest.raises(ValueError, match="joins 'Ayr' to itself"):
            Board.from_dict(toy(borders=[["Ayr", "Ayr"]]))
        with pytest.raises(RiskmathError):
            Board.classic().index("Atlantis")

    def test_errors_through_json(self):
        with pytest.raises(BoardError, match=re.escape("board is not connected: 'Cork'")):
            Board.from_json(json.dumps(toy(borders=[["Ayr", "Bute"]])))

    def test_classic_with_one_border_removed_per_continent_edge(self, classic):
        # Alaska-Kamchatka and Greenland-Iceland are not bridges; Siam-Indonesia is.
        data = classic.to_dict()
        data["borders"] = [b for b in data["borders"] if b != ["Siam", "Indonesia"]]
        with pytest.raises(BoardError, match="'Indonesia', 'New Guinea', 'Western Australia', 'Eastern Australia'"):
            Board.from_dict(data)
        data = classic.to_dict()
        data["borders"] = [b for b in data["borders"] if b != ["Alaska", "Kamchatka"]]
        assert len(Board.from_dict(data).borders) == 82


NAME = (
    st.text(alphabet=string.ascii_letters + " éßΣ", min_size=1, max_size=8)
    .map(lambda s: " ".join(s.split()))
    .filter(lambda s: s.casefold() not in RESERVED_NAMES)  # "wild" and the neutrals' labels are refused
)


@st.composite
def board_dicts(draw, min_size=1):
    """Random valid board data: a random spanning tree plus extra edges, random continents."""
    n = draw(st.integers(min_size, 9))
    names = draw(st.lists(NAME.filter(bool), min_size=n, max_size=n, unique_by=lambda s: s.casefold()))
    edges = {(draw(st.integers(0, i - 1)), i) for i in range(1, n)}
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    if pairs:
        edges |= set(draw(st.lists(st.sampled_from(pairs), max_size=10)))
    listed = [[names[b], names[a]] if draw(st.booleans()) else [names[a], names[b]] for a, b in edges]
    listed = draw(st.permutations(listed))
    k = draw(st.integers(1, n))
    labels = [draw(st.integers(0, k - 1)) for _ in range(n)]
    used = sorted(set(labels))
    data = {
        "name": "random",
        "continents": [
            {
                "name": f"C{c}",
                "bonus": draw(st.integers(0, 10)),
                "territories": [t for t, x in zip(names, labels, strict=True) if x == c],
            }
            for c in used
        ],
        "borders": listed,
        "aliases": {f"#{i}": names[i] for i in range(n) if draw(st.booleans())},
    }
    if draw(st.booleans()):
        data["territories"] = names
    return data, names, edges


@given(board_dicts())
def test_random_connected_boards_load_and_round_trip(case):
    data, names, edges = case
    board = Board.from_dict(data)
    assert len(board) == len(names)
    if "territories" in data:
        assert board.territories == tuple(names)
    else:
        assert board.territories == tuple(t for c in data["continents"] for t in c["territories"])
    assert {frozenset(p) for p in board.borders} == {frozenset((names[a], names[b])) for a, b in edges}
    assert len(board.borders) == len(edges)
    assert int(board.adjacency.sum()) == 2 * len(edges)
    assert np.array_equal(board.adjacency, board.adjacency.T)
    assert board.connected_within(board.territories)
    for c in data["continents"]:
        assert all(board.continent_of(t.upper()) == c["name"] for t in c["territories"])
        inside = set(c["territories"])
        expected = [t for t in board.territories if t in inside and set(board.neighbors(t)) - inside]
        assert board.border_territories(c["name"]) == tuple(expected)
    for alias, target in data["aliases"].items():
        assert board.name_of(alias) == target
    assert Board.from_dict(board.to_dict()) == board
    assert Board.from_json(board.to_json()) == board
    assert Board.from_dict(json.loads(json.dumps(board.to_dict()))).to_dict() == board.to_dict()


@given(board_dicts(min_size=2), st.data())
def test_isolating_a_territory_is_rejected(case, data):
    board_data, names, _ = case
    victim = data.draw(st.sampled_from(names))
    board_data["borders"] = [pair for pair in board_data["borders"] if victim not in pair]
    with pytest.raises(BoardError, match="board is not connected: "):
        Board.from_dict(board_data)


@given(board_dicts(), st.data())
def test_duplicating_a_border_is_rejected(case, data):
    board_data, _, _ = case
    if board_data["borders"]:
        a, b = data.draw(st.sampled_from(board_data["borders"]))
        board_data["borders"] = [*board_data["borders"], data.draw(st.sampled_from([[a, b], [b, a]]))]
        with pytest.raises(BoardError, match="repeats border"):
            Board.from_dict(board_data)


def test_module_has_no_heavy_imports():
    source = Path(resources.files("riskmath.game").joinpath("board.py")).read_text(encoding="utf-8")
    imports = set(re.findall(r"^(?:from|import) (\S+)", source, re.MULTILINE))
    assert {name for name in imports if name.startswith("riskmath")} <= {
        "riskmath.errors",
        "riskmath._validation",
        "riskmath.game._board_data",
    }
    assert not {"pandas", "scipy", "matplotlib", "networkx"} & {name.split(".")[0] for name in imports}


def test_component_takes_a_name_as_the_other_graph_methods_do():
    board = Board.classic()
    allowed = {board.index(t) for t in ("Peru", "Brazil", "Egypt")}
    assert board.component("peru", allowed) == board.component(board.index("Peru"), allowed) == {10, 11}
    with pytest.raises(BoardError):
        board.component("Atlantis")
