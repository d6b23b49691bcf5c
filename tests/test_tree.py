"""The tracked tree: no binaries outside tests/fixtures, no large files, build outputs and caches ignored, and
README's Layout true to the folders it describes (issue 20: eleven wheel files had been committed unused)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.paths import DOCS, FIXTURES, ROOT, SRC, TESTS

BENCH = ROOT / "bench"
LARGEST = 1 << 20
"""No tracked file is larger (the largest today, a record fixture, is 64 KiB)."""
BINARIES_ALLOWED = ("tests/fixtures/", "docs/img/")
"""Pinned records (SQLite files) are binary, and the docs' pictures (PNG, the README's screenshots); only
they may be."""
LONGEST_SOURCE = 600
"""No source file under src/, tests/ or bench/ has more lines (issue 20: a longer one is split by concern)."""
SOURCE_SUFFIXES = frozenset({".py", ".pyi", ".c", ".h", ".js", ".css", ".html"})
"""What counts as a source file: the package's code, its C kernel and the web table's page assets; the
tests' and the benchmarks' code."""


def _git(*args: str) -> str:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an sdist or an installed copy): no tracked tree to check")
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):  # check-ignore answers 1 for "not ignored"
        pytest.fail(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def _tracked() -> list[str]:
    return [name for name in _git("ls-files", "-z").split("\0") if name and (ROOT / name).is_file()]


def _is_binary(data: bytes) -> bool:
    """Git's own test (a NUL in the first 8,000 bytes), and text that is not UTF-8."""
    if b"\0" in data[:8000]:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def test_the_tracked_tree_holds_no_binary_outside_the_fixtures_and_no_large_file() -> None:
    binaries = [
        name
        for name in _tracked()
        if not name.startswith(BINARIES_ALLOWED) and _is_binary((ROOT / name).read_bytes())
    ]
    assert binaries == [], f"binary files tracked outside {BINARIES_ALLOWED}: {binaries}"
    pictures = [name for name in _tracked() if name.startswith("docs/img/")]
    odd = [name for name in pictures if not (ROOT / name).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")]
    assert odd == [], f"docs/img holds only PNG pictures: {odd}"
    large = [name for name in _tracked() if (ROOT / name).stat().st_size > LARGEST]
    assert large == [], f"files over {LARGEST} bytes tracked: {large}"


@pytest.mark.parametrize(
    "path",
    [
        "hazard-0.1.0-py3-none-any.whl",
        "wheels/numpy-2.0.0-cp311-cp311-manylinux_2_17_x86_64.whl",
        "src/hazard/sim/_native.cpython-311-x86_64-linux-gnu.so",
        "src/hazard/sim/_native.cp311-win_amd64.pyd",
        "build/lib/hazard/__init__.py",
        "dist/hazard-0.1.0.tar.gz",
        "src/hazard.egg-info/PKG-INFO",
        ".venv",  # itself, not a file in it: it may be a link, which git does not look through
        "src/hazard/__pycache__/__init__.cpython-311.pyc",
        "tests/__pycache__/conftest.cpython-311-pytest-8.0.0.pyc",
        ".mypy_cache/3.11/hazard/__init__.meta.json",
        ".pytest_cache/v/cache/lastfailed",
        ".ruff_cache/CACHEDIR.TAG",
        ".hypothesis/examples/0a/1b",
        ".import_linter_cache/hazard.meta.json",
    ],
)
def test_build_outputs_and_caches_are_ignored(path: str) -> None:
    assert _git("check-ignore", "--no-index", path).strip() == path, f"{path} is not ignored by .gitignore"


def _layout() -> list[tuple[str, str]]:
    """README's Layout: each entry's path and its description (continuation lines joined on)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^## Layout\n+```\n(.*?)^```", readme, flags=re.MULTILINE | re.DOTALL)
    assert found is not None, "README.md has no ## Layout section with a code block"
    entries: list[tuple[str, str]] = []
    for line in found.group(1).splitlines():
        if line.startswith(" "):
            path, text = entries[-1]
            entries[-1] = (path, f"{text} {line.strip()}")
        elif line.strip():
            path, _, text = line.partition(" ")
            entries.append((path, text.strip()))
    return entries


def test_every_folder_the_layout_lists_exists() -> None:
    """The Layout is the repository's: an sdist, which ships the tests but not bench/ or .ci/, skips it."""
    _git("rev-parse", "--git-dir")
    missing = [path for path, _ in _layout() if not (ROOT / path).is_dir()]
    assert missing == [], f"README's Layout lists folders that do not exist: {missing}"


def test_the_layout_lists_every_package_of_hazard_and_every_top_level_folder() -> None:
    listed = {path.rstrip("/") for path, _ in _layout()}
    packages = {
        f"src/hazard/{folder.name}"
        for folder in (ROOT / "src" / "hazard").iterdir()
        if (folder / "__init__.py").is_file()
    }
    top = {name.split("/")[0] for name in _tracked() if "/" in name} - {"src"}
    unlisted = sorted((packages | top) - listed)
    assert unlisted == [], f"README's Layout omits: {unlisted}"


def test_the_layout_names_every_doc_and_only_docs_that_exist() -> None:
    (text,) = [text for path, text in _layout() if path.rstrip("/") == "docs"]
    named = set(re.findall(r"[\w-]+\.md", text))
    there = {path.name for path in DOCS.glob("*.md")}
    assert sorted(there - named) == [], "README's Layout omits these docs"
    assert sorted(named - there) == [], "README's Layout names docs that do not exist"


def test_the_layout_names_every_sub_layer_of_the_table() -> None:
    (text,) = [text for path, text in _layout() if path.rstrip("/") == "src/hazard/table"]
    named = set(re.findall(r"(?:^| )([a-z_]+)/ ", text))
    there = {
        folder.name for folder in (ROOT / "src/hazard/table").iterdir() if (folder / "__init__.py").is_file()
    }
    assert sorted(there - named) == [], "README's Layout omits these sub-layers of the table"
    assert sorted(named - there) == [], "README's Layout names sub-layers of the table that do not exist"


def _sources(folder: Path) -> list[Path]:
    """The source files under ``folder``, walked on disk; build outputs and pinned fixtures are not source."""
    return [
        path
        for path in folder.rglob("*")
        if path.suffix in SOURCE_SUFFIXES
        and path.is_file()
        and not any(part == "__pycache__" or part.endswith(".egg-info") for part in path.parts)
        and not path.is_relative_to(FIXTURES)
    ]


def _longer_than_allowed(sources: list[Path]) -> dict[str, int]:
    return {
        str(path.relative_to(ROOT)): lines
        for path in sources
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST_SOURCE
    }


def test_no_source_file_under_src_is_over_600_lines() -> None:
    """Walked on disk, not through git, so that it holds in an sdist too; build outputs are not source."""
    sources = _sources(SRC)
    assert any(path.name == "session.py" for path in sources), f"no source found under {SRC}"
    long = _longer_than_allowed(sources)
    assert long == {}, f"source files over {LONGEST_SOURCE} lines (split each by concern): {long}"


def test_no_test_or_benchmark_file_is_over_600_lines() -> None:
    """The same rule for tests/ and bench/ (issue 20: a dozen test modules had grown past it, one to 1,679
    lines); a folder an sdist leaves out is not walked."""
    sources = _sources(TESTS) + (_sources(BENCH) if BENCH.is_dir() else [])
    assert any(path.name == "test_tree.py" for path in sources), f"no test found under {TESTS}"
    long = _longer_than_allowed(sources)
    assert long == {}, f"test and benchmark files over {LONGEST_SOURCE} lines (split each by concern): {long}"
