"""The folders the tests read: written once, so that a test moved to a sub-folder of tests/ reads the same."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
"""tests/: the suite's helpers (conftest.py, strategies.py, ...) beside the test modules."""
ROOT = TESTS.parent
"""The repository's root: README.md, pyproject.toml, the Makefile."""
SRC = ROOT / "src"
"""The package's source, hazard under it (the PYTHONPATH a child process is given)."""
DOCS = ROOT / "docs"
"""The documentation the tests hold to the code."""
FIXTURES = TESTS / "fixtures"
"""Pinned files: old records, the golden export, the fuzzer's configuration."""
LEGACY = FIXTURES / "legacy-record"
"""A record written before seats had keys and seeds were sealed: it must replay and resume unchanged."""
