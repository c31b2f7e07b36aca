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
