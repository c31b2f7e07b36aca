"""Long exact computations say up front how long they will take (issue 11, class 1)."""

from __future__ import annotations

import logging

import pytest

import riskmath as rm
import riskmath._validation as validation
from riskmath.cli import main
from riskmath.odds.battles import clear_battle_cache


@pytest.fixture
def announce_everything(monkeypatch):
    monkeypatch.setattr(validation, "NOTE_SECONDS", 0.0)  # every estimated call is "long"
    clear_battle_cache()  # (a battle asked again is served from the cache, at once and without a note)


def test_a_long_computation_logs_its_estimate_and_still_answers(announce_everything, caplog):
    with caplog.at_level(logging.INFO, logger="riskmath"):
        result = rm.battle(30, 30, exact=True).win_probability
    assert result == rm.battle(30, 30, exact=True).win_probability
    notes = [r.getMessage() for r in caplog.records if r.name == "riskmath"]
    assert any(n.startswith("battle(attackers=30, defenders=30, exact=True) will take about ") for n in notes), notes


def test_short_computations_log_nothing(caplog):
    with caplog.at_level(logging.INFO, logger="riskmath"):
        rm.battle(30, 30, exact=True)
        rm.odds_table(40, 40)
    assert not [r for r in caplog.records if r.name == "riskmath"]


def test_the_cli_prints_the_estimate_as_a_note(announce_everything, capsys):
    assert main(["odds", "30", "30", "--exact"]) == 0
    captured = capsys.readouterr()
    assert "win_probability" in captured.out
    notes = captured.err.strip().splitlines()
    assert notes
    assert all(line.startswith("riskmath: note: ") for line in notes), notes
    assert "will take about" in notes[0]
    assert not logging.getLogger("riskmath").handlers  # removed again after the command
