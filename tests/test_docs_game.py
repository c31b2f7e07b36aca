"""The rules-model pages (docs/rules.rst, docs/game.rst) against the library.

The pages' examples run as doctests; the table of options must name every
option of ``Rules()`` with its default and allowed values, and the table of
presets must show exactly how each preset differs from ``Rules()``.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from docs_pages import DOCS, cli_page_shows, run_page_examples

import riskmath as rm
from riskmath.game import actions
from riskmath.game.rules import CHOICES

RULES_PAGE = (DOCS / "rules.rst").read_text(encoding="utf-8")


def fmt(value: object) -> str:
    """An option's value as the rules page writes it (valid Python for ``Rules(...)``)."""
    if isinstance(value, rm.CombatRules):
        default = rm.CombatRules()
        changed = [
            f"{f.name}={getattr(value, f.name)!r}"
            for f in dataclasses.fields(value)
            if getattr(value, f.name) != getattr(default, f.name)
        ]
        return f"CombatRules({', '.join(changed)})"
    if isinstance(value, rm.SetValues):
        if value.name in rm.SetValues.presets() and value == rm.SetValues.preset(value.name):
            return f'SetValues.preset("{value.name}")'
        return repr(value)
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return repr(dict(value))
    return repr(value)


def differences(name: str) -> list[str]:
    """``option=value`` for every option in which a preset differs from ``Rules()``."""
    default = rm.Rules().options()
    return [f"{k}={fmt(v)}" for k, v in rm.Rules.preset(name).options().items() if k != "edition" and v != default[k]]


def table_row(page: str, first_cell: str) -> str:
    """The text of the list-table row whose first cell is ``first_cell``."""
    match = re.search(rf"^   \* - {re.escape(first_cell)}\n((?:     .*\n)+)", page, re.MULTILINE)
    assert match, f"no table row for {first_cell}"
    return match.group(1)


@pytest.mark.parametrize("page", ["rules.rst", "game.rst"])
def test_page_examples(page):
    result = run_page_examples(page)
    assert result.attempted > 10
    assert result.failed == 0


@pytest.mark.parametrize(("name", "default"), list(rm.Rules().options().items()))
def test_options_table_lists_every_option(name, default):
    row = table_row(RULES_PAGE, f"``{name}``")
    cells = [cell.strip() for cell in re.split(r"^     - ", row, flags=re.MULTILINE) if cell.strip()]
    assert cells[0] == f"``{fmt(default)}``"
    for value in CHOICES.get(name, ()):
        assert f'``"{value}"``' in cells[1], f"{name}: allowed value {value!r} missing"
        assert f'``"{value}"``' in cells[2] or f"``{value}``" in cells[2], f"{name}: no source for {value!r}"


def test_options_table_has_no_stale_rows():
    rows = re.findall(r"^   \* - ``(\w+)``\n     - ``", RULES_PAGE, re.MULTILINE)
    options = [row for row in rows if row not in rm.Rules.presets()]
    assert options == list(rm.Rules().options())


@pytest.mark.parametrize("name", rm.Rules.presets())
def test_presets_table(name):
    row = table_row(RULES_PAGE, f"``{name}``")
    cells = [" ".join(cell.split()) for cell in re.split(r"^     - ", row, flags=re.MULTILINE) if cell.strip()]
    assert cells[0] == rm.Rules.describe_preset(name)
    expected = ", ".join(f"``{d}``" for d in differences(name)) or "(nothing)"
    assert cells[1] == expected
    # The pasted differences rebuild the preset.
    namespace = {"Rules": rm.Rules, "CombatRules": rm.CombatRules, "SetValues": rm.SetValues}
    rebuilt = eval(f"Rules(edition={name!r}, {', '.join(differences(name))})", namespace)
    assert rebuilt == rm.Rules.preset(name)


def test_index_links_the_pages():
    index = (DOCS / "index.rst").read_text(encoding="utf-8")
    assert "\n   rules\n" in index
    assert "\n   game\n" in index


def test_api_page_documents_the_rules_model():
    api = (DOCS / "api.rst").read_text(encoding="utf-8")
    names = [name for name in actions.__all__ if name not in ("Action", "Outcome")]
    names += ["Board", "Rules", "SetValues", "Card", "Symbol", "Game", "GameState", "Phase"]
    names += ["BoardError", "CardError", "IllegalActionError", "StateError"]
    for name in names:
        assert re.search(rf"^\.\. auto(class|exception):: {name}$", api, re.MULTILINE), name
    for qualified in (
        "riskmath.game.board.Continent",
        "riskmath.game.rules.CHOICES",
        "riskmath.game.state.LegalActions",
    ):
        assert qualified in api
    assert "riskmath.game.missions" in api


def test_cli_page_shows_real_simulate_output(capsys):
    argv = ["simulate", "--players", "3", "--agents", "aggressive,random,random", "--games", "10", "--max-turns", "100"]
    assert cli_page_shows(argv, capsys)
