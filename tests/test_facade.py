"""``hazard`` shows the core's public names, each loading its module when first asked for: ``import hazard``
alone loads none of the core (``hazard --help`` and ``hazard --version`` need none of it)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import import_module

import pytest

import hazard

_CORE = (
    "dice",
    "engine",
    "errors",
    "events",
    "passing",
    "paytable",
    "rules",
    "rulesets",
    "staking",
    "state",
)


def _fresh(script: str) -> list[str]:
    """What a fresh interpreter prints, line by line, after ``script``."""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("name", hazard.__all__)
def test_each_name_is_its_core_module_s_own(name: str) -> None:
    owners = [m for m in _CORE if name in import_module(f"hazard.core.{m}").__all__]
    assert len(owners) == 1, (name, owners)
    assert getattr(hazard, name) is getattr(import_module(f"hazard.core.{owners[0]}"), name)
    assert name in dir(hazard)


def test_import_hazard_loads_none_of_the_core_and_a_name_loads_what_it_needs() -> None:
    script = (
        "import sys, json, hazard\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('hazard.'))))\n"
        "hazard.HazardError\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('hazard.'))))\n"
        "state, events = hazard.apply(hazard.new_round(hazard.find_ruleset('craps')), hazard.Roll(3, 4))\n"
        "print(events[0])\n"
    )
    bare, errors, played = _fresh(script)
    assert json.loads(bare) == []
    assert json.loads(errors) == ["hazard.core", "hazard.core.errors"]
    assert played.startswith("7")


def test_a_name_the_facade_lacks_is_refused_and_loads_nothing() -> None:
    script = (
        "import sys, hazard\n"
        "try:\n    hazard.aply\nexcept AttributeError as error:\n    print(error)\n"
        "print(sorted(m for m in sys.modules if m.startswith('hazard.')))\n"
        "from hazard import *\n"
        "print(apply.__module__, 'hazard.core.staking' in sys.modules)\n"
    )
    refused, loaded, star = _fresh(script)
    assert refused == "module 'hazard' has no attribute 'aply'"
    assert loaded == "[]"
    assert star == "hazard.core.engine True"  # `import *` takes every name of __all__
