# The two README commands: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench fixtures clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"

$(STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev,client,bench]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck
	$(BIN)/pytest -q

unit: $(STAMP)
	$(BIN)/pytest -q -m "not slow"

demo: $(STAMP)
	$(BIN)/python -m vac.demo

bench: $(STAMP)
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev,bench]'
	$(BIN)/vac bench --out docs/bench

fixtures: $(STAMP)
	$(BIN)/python fixtures/generate.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
