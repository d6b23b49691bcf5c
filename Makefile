# `make run` and `make test` each set everything up on a fresh machine: they create .venv and install into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck layers unit unit-fast shots docs bench clean

# One install serves all: hazard with its PostgreSQL driver (the record tests run against a server when
# HAZARD_TEST_DATABASE_URL names one; .ci/run starts one), the dev tools and the docs site's (make docs). The
# version is read from src/hazard/__init__.py into the installed metadata, so a change there reinstalls too;
# the install compiles the simulator's C kernels into src/hazard/sim (setup.py), so a change to them rebuilds
# them.
$(STAMP): pyproject.toml setup.py src/hazard/__init__.py src/hazard/sim/native.c src/hazard/sim/tally.c src/hazard/sim/session.c src/hazard/sim/seed.c src/hazard/sim/simd.c src/hazard/sim/simd256.c src/hazard/sim/simd512.c src/hazard/sim/simdneon.c src/hazard/sim/simd.h src/hazard/sim/kernels.h \
  src/hazard/sim/_module.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=25.1"
	$(BIN)/python -m pip install --quiet --editable '.[postgres,web,distributed,sessions,plot,card]' --group dev --group docs
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hazard serve

test: lint typecheck layers unit docs

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools setup.py
	$(BIN)/ruff format --check src tests bench tools setup.py

typecheck: $(STAMP)
	$(BIN)/mypy --strict src tools

layers: $(STAMP)
	$(BIN)/lint-imports

# The doctests in src and the tests, as pyproject.toml's testpaths name them (plain `pytest` runs the same),
# spread over every core (pytest-xdist; each worker has a PostgreSQL database of its own, tests/conftest.py).
# The workers' folders are kept as short as one process's (a refusal quotes a long path shortened, and the
# tests read the path back): a fresh folder, removed afterwards, in memory (/dev/shm) where the machine has
# it with 2 GiB free (a container's is often 64 MiB), else under /tmp. In memory a commit of the record does
# not wait for the disk: the record's tests take about a third less time, and test the same (a killed writer
# leaves what the disk would hold; no test cuts the power).
TMP_ROOT := $(shell test -w /dev/shm && test "$$(df -Pk /dev/shm | awk 'NR == 2 {print $$4}')" -ge 2097152 \
  2>/dev/null && echo /dev/shm || echo /tmp)
# --dist worksteal: a worker that runs out takes tests queued for the other, so the long browser tests at the
# end of one worker's share do not leave the other core idle.
# PYTHONDONTWRITEBYTECODE is emptied (which turns it off): where the environment sets it, as this machine's
# does, every `hazard` and server the tests start would compile hazard's sources again (0.28 s of CPU more
# for each server), and a second run would rewrite every test module's asserts again (collecting 19.7 s
# where 8.5 s). The bytecode goes to __pycache__, which git ignores.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/pytest
# pytest with the arguments given, its workers' folders under a fresh one that is removed afterwards; pytest's
# exit status is the target's.
PYTEST_IN_TMP = tmp=$$(mktemp -d $(TMP_ROOT)/hz.XXXXXX) && { $(PYTEST) --basetemp="$$tmp" $(1); status=$$?; \
  rm -rf "$$tmp"; exit $$status; }
unit: $(STAMP)
	@$(call PYTEST_IN_TMP,-n auto --dist worksteal)

# The inner loop: the same, without the tests marked slow (pyproject.toml's markers: some 40 tests that take
# about half the time of the whole, the browser tests among them). Not what CI runs: make test runs every test.
unit-fast: $(STAMP)
	@$(call PYTEST_IN_TMP,-n auto -m "not slow")

# The pages to look at: the web tests in Chromium, each saving the screenshots of the pages it opens, at a
# phone's size and a desktop's, into shots/ (tests/web/browser_helpers.py's Shots; no other run takes any).
shots: $(STAMP)
	@mkdir -p shots && echo "screenshots into shots/" && export HAZARD_SCREENSHOTS="$(CURDIR)/shots" && \
	  $(call PYTEST_IN_TMP,-n auto -m slow tests/web)

# The docs site (mkdocs.yml: MkDocs, the Material theme, the API reference from the docstrings) into site/,
# offline, in strict mode: a broken link, a cross-reference that names nothing, or a page that would load
# anything from outside the site fails it, and so fails make test (about 4 s). NO_MKDOCS_2_WARNING: Material's
# notice about its successor, printed on every build.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir site

# Benchmarks (docs/benchmarks.md): slow, and not part of `make test`.
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet --group bench
	$(BIN)/python bench/bench_simulate.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis site
