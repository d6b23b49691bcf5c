"""The package as built and installed: its version written once (``src/hazard/__init__.py``), and a wheel
for its platform with the simulator's kernels compiled into it."""

import importlib.metadata
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from tests.paths import ROOT

import hazard


def test_the_installed_version_is_the_packages_own() -> None:
    assert hazard.__version__ == importlib.metadata.version("hazard")


def test_pyproject_reads_the_version_from_the_package() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in pyproject["project"]
    assert "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "hazard.__version__"}


def test_a_wheel_is_built_for_its_platform_with_the_kernels_and_the_data_files(tmp_path: Path) -> None:
    env = {**os.environ, "PIP_NO_INDEX": "1"}  # nothing from the network: the venv has the build backend
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=600,
    )
    if built.returncode != 0 and "No module named" in built.stderr:
        pytest.skip(f"no build backend here: {built.stderr.strip()[-200:]}")
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("hazard-*.whl")
    assert not wheel.name.endswith("-none-any.whl")  # tagged for its platform: it holds compiled code
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("hazard/sim/_native") and n.endswith((".so", ".pyd")) for n in names)
    for data in (
        "hazard/py.typed",
        "hazard/core/rulesets/data/craps.toml",
        "hazard/core/rulesets/paytables/even.toml",
        "hazard/web/static/hazard.js",
        "hazard/web/static/hazard.css",
        "hazard/web/static/favicon.svg",
    ):
        assert data in names, data
    templates = ROOT / "src" / "hazard" / "web" / "templates"
    shipped = [
        f"hazard/web/templates/{path.relative_to(templates).as_posix()}"
        for path in templates.rglob("*")
        if path.is_file()
    ]
    assert "hazard/web/templates/base.html" in shipped
    assert set(shipped) <= set(names), set(shipped) - set(names)  # every page's template, its parts too
    assert not any(n.startswith(("tests/", "bench/")) for n in names)
