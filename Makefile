# `make run` and `make test` each set everything up on a fresh machine: they create .venv and install into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck layers unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=25.1"
	$(BIN)/python -m pip install --quiet --editable . --group dev
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hazard play

test: lint typecheck layers unit

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

layers: $(STAMP)
	$(BIN)/lint-imports

unit: $(STAMP)
	$(BIN)/pytest src tests

# Benchmarks (docs/benchmarks.md): slow, and not part of `make test`.
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet --group bench
	$(BIN)/python bench/bench_simulate.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
