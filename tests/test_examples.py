"""Every script in examples/ runs (small sizes) and does what it says."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_odds_table_example(tmp_path, monkeypatch, capsys):
    output = tmp_path / "heatmap.png"
    monkeypatch.setattr(sys, "argv", ["odds_table.py", "--size", "6", "--big", "50", "--output", str(output)])
    runpy.run_path(str(EXAMPLES / "odds_table.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "0.417" in out  # 1 v 1
    assert "Battle(50, 50)" in out
    assert output.stat().st_size > 10_000
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_conquest_planning_example(tmp_path, monkeypatch, capsys):
    output = tmp_path / "curves.png"
    monkeypatch.setattr(sys, "argv", ["conquest_planning.py", "--max-attackers", "25", "--output", str(output)])
    runpy.run_path(str(EXAMPLES / "conquest_planning.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "armies able to attack for 90%:" in out
    assert "split" in out
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
