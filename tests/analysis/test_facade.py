"""``hazard.analysis`` shows every public name of the analyser, the comparison, the designer's figures and the
position loaded only when first asked for (see tests/cli/test_cli_startup.py for what ``hazard odds``
loads)."""

from __future__ import annotations

import subprocess
import sys
from importlib import import_module

import pytest

import hazard.analysis

_MODULES = ("compare", "design", "markov", "odds", "passing", "position")


@pytest.mark.parametrize("name", hazard.analysis.__all__)
def test_each_name_of_the_facade_is_its_module_s_own(name: str) -> None:
    owners = [m for m in _MODULES if name in import_module(f"hazard.analysis.{m}").__all__]
    assert len(owners) == 1, (name, owners)
    assert getattr(hazard.analysis, name) is getattr(import_module(f"hazard.analysis.{owners[0]}"), name)


def test_a_name_the_facade_lacks_is_refused_and_loads_nothing() -> None:
    script = (
        "import sys, hazard.analysis as analysis\n"
        "try:\n    analysis.compare_ruleset\nexcept AttributeError as error:\n    print(error)\n"
        "print(sorted(m for m in sys.modules if m.startswith('hazard.analysis.')))\n"
        "analysis.caster_chance\n"
        "print('hazard.analysis.position' in sys.modules, 'hazard.analysis.compare' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    refused, loaded, after = done.stdout.splitlines()
    assert refused == "module 'hazard.analysis' has no attribute 'compare_ruleset'"
    assert "hazard.analysis.compare" not in loaded
    assert "hazard.analysis.design" not in loaded
    assert after == "True False"
