"""The package as installed: its version is written once, in ``src/hazard/__init__.py``."""

import importlib.metadata
import tomllib
from pathlib import Path

import hazard

ROOT = Path(__file__).resolve().parent.parent


def test_the_installed_version_is_the_packages_own() -> None:
    assert hazard.__version__ == importlib.metadata.version("hazard")


def test_pyproject_reads_the_version_from_the_package() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in pyproject["project"]
    assert "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["hatch"]["version"]["path"] == "src/hazard/__init__.py"
