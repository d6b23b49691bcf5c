"""What ``hazard`` loads before it knows which command runs: as little as the help needs.

Two costs used to double the start-up of ``hazard --help`` (against ``python -c 'import numpy'``, see
docs/benchmarks.md):

- The list of commands imported every command's module, and with them the table, the game record and the
  simulator, only to print each command's first line. :func:`listed_commands` registers for the list a
  stand-in per command that holds its first line alone (:data:`SUMMARIES`); a command named on the command
  line still loads its own module (:func:`hazard.cli.load_commands`), which replaces its stand-in.
- Typer's help (``typer.rich_utils``) imports Rich's markdown (markdown-it) and Rich's traceback (Pygments)
  at its top, though it renders neither unless asked for markdown or a pretty traceback.
  :func:`lighter_rich_help` lets it import stand-ins for the two, which load the real ones the first time
  either is used.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import sys
import types
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import importlib.abc

    import typer

    _Loader = importlib.abc.Loader
    _Finder = importlib.abc.MetaPathFinder
else:  # the import system needs only the methods; importlib.abc would cost every start-up about 8 ms
    _Loader = _Finder = object

__all__ = ["SUMMARIES", "lighter_rich_help", "listed_commands"]

SUMMARIES = {
    "rules": "List the built-in rulesets, or show one as its source prints it: the table by main, citation, "
    "notes.",
    "odds": "Exact odds of a round: per main and overall, with expected values under a paytable.",
    "bet": "Exact probability, fair odds and even-money value of a bystander's side bet.",
    "compare": "Two rulesets rule by rule: each rule that differs, and the odds of the first with that rule "
    "changed.",
    "card": "A printable table card: the rules, the opening throw's table, exact odds, paytable and side "
    "bets.",
    "drill": "The side-bet drill: take or refuse propositions at stated odds against the clock, scored "
    "exactly.",
    "play": "Play Hazard in the terminal against bots; the dice are provably fair, or seeded with --seed.",
    "referee": "Referee a game played with real dice: type in the stakes, calls and throws; correct any "
    "mistake.",
    "simulate": "Simulate rounds throw by throw, or whole sessions at a table, beside the exact odds.",
    "verify": "Check a game of fair dice: each hand's seed against its commitment, each throw recomputed, "
    "the\nrecord's hash chain recomputed and each reveal's signature checked.",
    "serve": "Serve the web table: a lobby, tables with fair dice or a referee's real dice, and the JSON "
    "API.",
    "record": "The game records: list the games, show one, export one as JSON or CSV.",
}
"""Each command's first paragraph of help, in the order the list of commands shows them (Typer lists the
group ``record`` after the commands); a test holds each to the command's own docstring."""


def _not_loaded() -> None:
    # Never run: a stand-in is registered only when no command is named (hazard.cli.main).
    raise AssertionError("a command's stand-in ran in place of its module")


@contextlib.contextmanager
def listed_commands(app: typer.Typer, modules: dict[str, str]) -> Iterator[None]:
    """Register on ``app``, while the block runs, a stand-in for each command whose module (of ``modules``,
    command → module of :mod:`hazard.cli`) is not loaded: its name and first line of help, no options.

    The stand-ins come off again at the end, so a later command in the same process (the tests) meets
    only the real ones; a real command registered meanwhile replaces its stand-in (Typer keeps the last
    command of a name, in the place of the first).
    """
    before = len(app.registered_commands)
    for name, summary in SUMMARIES.items():
        if f"hazard.cli.{modules[name]}" not in sys.modules:
            app.command(name, help=summary)(_not_loaded)
    added = app.registered_commands[before:]
    try:
        yield
    finally:
        for info in added:
            app.registered_commands.remove(info)


# --- Typer's help without Rich's markdown and traceback -----------------------------------------------------

_HELP = "typer.rich_utils"


class _Markdown:
    """Stand-in for :class:`rich.markdown.Markdown`: the real one, imported when first made."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        from rich.markdown import Markdown  # noqa: PLC0415 - the point of the stand-in

        return Markdown(*args, **kwargs)


class _Traceback:
    """Stand-in for :class:`rich.traceback.Traceback`: the real one, imported when first used."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        from rich.traceback import Traceback  # noqa: PLC0415

        return Traceback(*args, **kwargs)

    @classmethod
    def from_exception(cls, *args: Any, **kwargs: Any) -> Any:
        from rich.traceback import Traceback  # noqa: PLC0415

        return Traceback.from_exception(*args, **kwargs)


_STAND_INS = {"rich.markdown": ("Markdown", _Markdown), "rich.traceback": ("Traceback", _Traceback)}


def _place_stand_ins() -> list[str]:
    placed = []
    for name, (attribute, stand_in) in _STAND_INS.items():
        if name not in sys.modules:
            module = types.ModuleType(name, "A stand-in while typer.rich_utils is imported.")
            setattr(module, attribute, stand_in)
            sys.modules[name] = module
            placed.append(name)
    return placed


def _remove(placed: Sequence[str]) -> None:
    for name in placed:
        sys.modules.pop(name, None)


class _HelpLoader(_Loader):
    """Typer's own loader for ``typer.rich_utils``, run with the stand-ins in place; they go at once after."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        placed = _place_stand_ins()
        try:
            self._loader.exec_module(module)
        except ImportError:
            # A Typer that takes more from these modules than the stand-ins hold: give it the real ones.
            _remove(placed)
            placed = []
            self._loader.exec_module(module)
        finally:
            _remove(placed)

    def __getattr__(self, name: str) -> Any:  # get_source, get_resource_reader, ...
        return getattr(self._loader, name)


class _HelpFinder(_Finder):
    """Finds ``typer.rich_utils`` once, as the path would, and hands it :class:`_HelpLoader`."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _HELP:
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _HelpLoader(spec.loader)
        return spec


def lighter_rich_help() -> None:
    """Let Typer's help, when it is first imported, do without Rich's markdown and traceback until used."""
    if _HELP in sys.modules or any(isinstance(finder, _HelpFinder) for finder in sys.meta_path):
        return
    sys.meta_path.insert(0, _HelpFinder())
