"""Every notebook in examples/ is stored without outputs and runs from top to bottom.

The notebooks are executed with nbclient on the ``python3`` kernel of this environment (ipykernel installs it
into the venv), in a scratch directory so that they cannot write into the repository.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))


def test_there_are_notebooks():
    names = {path.stem for path in NOTEBOOKS}
    expected = {"quick_tour", "odds_and_theory", "continent_sweep", "evaluate_position", "tournament"}
    assert expected | {"who_wins_from_here", "learning_agents"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_stored_without_outputs(path):
    book = nbformat.read(path, as_version=4)
    for cell in book.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: outputs stored in git (strip them)"
            assert cell.execution_count is None


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_runs(path, tmp_path, monkeypatch):
    from nbclient import NotebookClient  # imported here: the fast tier, which skips this test, need not load it

    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel draws inline, as in Jupyter (make test sets Agg)
    book = nbformat.read(path, as_version=4)
    client = NotebookClient(book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError naming the cell on any error
    code = [cell for cell in book.cells if cell.cell_type == "code"]
    assert all(cell.execution_count for cell in code)
    kinds = {kind for cell in code for output in cell.outputs for kind in output.get("data", {})}
    assert "image/png" in kinds  # the plots were drawn
    assert not any(tmp_path.iterdir())  # and nothing was written
    if path.stem == "quick_tour":  # a Battle and a GameState display richly
        html = [
            output["data"]["text/html"]
            for cell in code
            for output in cell.outputs
            if "text/html" in output.get("data", {})
        ]
        assert any("win" in text.lower() for text in html)
        assert any("<svg" in text for text in html)
