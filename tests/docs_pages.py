"""Checks that the documentation pages stay true, shared by the claims tests."""

from __future__ import annotations

import doctest
from pathlib import Path

from riskmath.cli import main as cli_main

DOCS = Path(__file__).resolve().parents[1] / "docs"


def run_page_examples(page: str) -> doctest.TestResults:
    """Run the ``>>>`` examples of ``docs/<page>`` as doctests."""
    return doctest.testfile(
        str(DOCS / page),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
        verbose=False,
    )


def cli_page_shows(argv: list[str], capsys) -> bool:
    """Whether docs/cli.rst shows ``riskmath <argv>`` with exactly the output it prints now."""
    assert cli_main(argv) == 0
    output = capsys.readouterr().out
    page = (DOCS / "cli.rst").read_text(encoding="utf-8")
    shown = "\n".join("   " + line for line in [f"$ riskmath {' '.join(argv)}", *output.rstrip("\n").split("\n")])
    return shown in page


def outlook_position():
    """The position built by hand on docs/outlook.rst (three players, two continents each; player 0 to move)."""
    import riskmath as rm

    game = rm.Game(3)
    continents = game.board.continents
    owners = {}
    for player, held in enumerate([("South America", "Africa"), ("North America", "Europe"), ("Asia", "Australia")]):
        for name in held:
            owners |= dict.fromkeys(continents[name].territories, player)
    armies = dict.fromkeys(game.board.territories, 2)
    armies |= {"Venezuela": 4, "North Africa": 8, "Egypt": 6, "East Africa": 5}
    armies |= {"Central America": 4, "Southern Europe": 6, "Western Europe": 5, "Ukraine": 6, "Alaska": 4}
    armies |= {"Middle East": 7, "Ural": 5, "Afghanistan": 5, "Kamchatka": 4, "Siam": 4, "Indonesia": 3}
    return game.position(owners, armies, cards={0: ["Peru", "Brazil", "wild"]}, sets_traded=4, seed=7)
