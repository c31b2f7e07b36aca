"""docs/strategy.rst, getting_started.rst and examples.rst against the library and the examples."""

from __future__ import annotations

import inspect

from docs_pages import DOCS, run_page_examples

from riskmath.agents import AGENTS
from riskmath.agents.odds import OddsAgent
from riskmath.agents.search import SearchAgent
from riskmath.evaluate import VALUE_WEIGHTS, _routes

PAGE = (DOCS / "strategy.rst").read_text(encoding="utf-8")


def test_page_examples():
    result = run_page_examples("strategy.rst")
    assert result.attempted >= 10
    assert result.failed == 0


def test_every_agent_is_in_the_table():
    for name in AGENTS:
        assert f"   * - ``{name}``" in PAGE


def test_stated_defaults():
    for name, weight in VALUE_WEIGHTS.items():
        assert f"``{name}`` {weight}" in PAGE
    odds = OddsAgent()
    for value in (odds.take_threshold, odds.hold_threshold, odds.continue_threshold, odds.attack_threshold):
        assert f"{value:.0%}".replace("%", " %") in PAGE
    assert odds.card_threshold == 0.5  # "takes even chances for a card"
    assert f"budget of {inspect.signature(SearchAgent).parameters['budget'].default} rollouts" in PAGE
    assert f"stops after {_routes.SEARCH_LIMIT:,} steps" in PAGE
    assert _routes.ROUTES_TRIED == 6
    assert "up to six paths" in PAGE


def test_getting_started_examples():
    result = run_page_examples("getting_started.rst")
    assert result.attempted >= 8
    assert result.failed == 0


def test_every_notebook_is_on_the_notebooks_page():
    page = (DOCS / "examples.rst").read_text(encoding="utf-8")
    for book in sorted((DOCS.parent / "examples").glob("*.ipynb")):
        assert f"   notebooks/{book.stem}\n" in page
