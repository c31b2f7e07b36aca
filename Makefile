# Every target sets itself up: it creates .venv if missing and installs the
# project with the extras it needs, then does its job.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_TEST := $(VENV)/.installed-test
STAMP_DOCS := $(VENV)/.installed-docs

.PHONY: demo test test-fast lint bench docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_TEST): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

$(STAMP_DOCS): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test,docs]"
	touch $@

demo: $(STAMP_TEST)
	MPLBACKEND=Agg $(BIN)/python examples/odds_table.py --output odds_heatmap.png

lint: $(STAMP_TEST)
	$(BIN)/ruff check riskmath tests examples bench docs
	$(BIN)/ruff format --check riskmath tests examples bench docs
	$(BIN)/mypy

# Everything, as CI runs it: the tests spread over up to four pytest-xdist processes, then those that start
# process pools, send signals or time hangs (marked serial in tests/conftest.py) in one process on their own.
test: lint
	MPLBACKEND=Agg $(BIN)/python -m pytest -m "not serial" -n auto --maxprocesses 4
	MPLBACKEND=Agg $(BIN)/python -m pytest -m serial

# The quick tier while working: no lint, none of the tests marked slow, hypothesis's "fast" profile (fewer
# examples; tests/conftest.py), spread over up to four processes by pytest-xdist: about 40 s on two idle cores.
test-fast: $(STAMP_TEST)
	HYPOTHESIS_PROFILE=fast MPLBACKEND=Agg $(BIN)/python -m pytest -m "not slow" -n auto --maxprocesses 4

bench: $(STAMP_TEST)
	$(BIN)/python bench/run.py

docs: $(STAMP_DOCS)
	MPLBACKEND=Agg $(BIN)/python -m sphinx -W --keep-going -n -b html docs docs/_build/html

clean:
	rm -rf $(VENV) docs/_build .pytest_cache .ruff_cache odds_heatmap.png
