"""What ``hazard`` loads before it knows which command runs: as little as the help needs.

Two costs used to double the start-up of ``hazard --help`` (against ``python -c 'import numpy'``, see
docs/benchmarks.md), and two more held ``hazard odds`` above 1.3 times it:

- The list of commands imported every command's module, and with them the table, the game record and the
  simulator, only to print each command's first line. :func:`listed_commands` registers for the list a
  stand-in per command that holds its first line alone (:data:`SUMMARIES`); a command named on the command
  line still loads its own module (:func:`hazard.cli.load_commands`), which replaces its stand-in.
- Typer's help (``typer.rich_utils``) imports Rich's markdown (markdown-it) and Rich's traceback (Pygments)
  at its top, though it renders neither unless asked for markdown or a pretty traceback.
  :func:`lighter_rich_help` lets it import stand-ins for the two, which load the real ones the first time
  either is used.
- Typer imports ``subprocess`` at its top, though it runs a program only to open a URL or to install shell
  completion; two more such modules come through ``pathlib`` and ``traceback``. :func:`defer_rarely_used`
  lets them load when first used.
- Typer turns every command registered on the app into a Click command before it runs the one named, and
  ``hazard.cli.exact`` registers three. :func:`named_command_alone` hides the others while one runs.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util  # Typer imports it anyway
import sys
import threading
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

__all__ = [
    "RARELY_USED",
    "SUMMARIES",
    "defer_rarely_used",
    "lighter_rich_help",
    "listed_commands",
    "named_command_alone",
]

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


@contextlib.contextmanager
def named_command_alone(app: typer.Typer, name: str) -> Iterator[None]:
    """Leave on ``app``, while the block runs, only the command called ``name`` of those registered (a
    group stays), so that Typer builds that one alone; the others come back at the end, in their places.

    Typer builds a Click command from each registered command's signature before it runs any: some 0.6 ms
    apiece, for commands the process never runs, which ``hazard odds`` paid twice (``rules`` and ``bet``).
    """
    from typer.main import get_command_name  # noqa: PLC0415 - loaded with typer already

    every = list(app.registered_commands)
    app.registered_commands[:] = [
        info
        for info in every
        if (info.name or get_command_name(getattr(info.callback, "__name__", ""))) == name
    ]
    try:
        yield
    finally:
        app.registered_commands[:] = every


# --- Modules imported at the top of others, used by few commands ---------------------------------------

RARELY_USED = ("subprocess", "ipaddress", "textwrap")
"""Modules that another module on every start-up's path imports at its top, for uses few commands have:

- ``subprocess`` (with the ``signal``, ``selectors`` and ``locale`` it brings): Typer, which runs a program
  only to open a URL (:func:`typer.launch`) or to install shell completion;
- ``ipaddress``: ``urllib.parse``, which ``pathlib`` imports, and which checks only a URL's bracketed host
  with it;
- ``textwrap``: ``traceback``, which Typer imports, and which wraps only an exception group's notes with it.

Together some 3.5 ms of every start-up (docs/benchmarks.md). ``platform`` would be another, but ``uuid``,
which Typer needs, asks it for the system as it is imported."""


class _Deferred(types.ModuleType):
    """A module whose code runs, in this very object, when a name it has not defined is first asked for.

    Unlike :class:`importlib.util.LazyLoader`'s, such a module is not run by the ``import`` statement
    itself (which reads the module's ``__spec__``): only a use of one of its names, as ``subprocess.run`` or
    ``from subprocess import run``, runs it. From then on it is an ordinary module.
    """

    def __getattr__(self, name: str) -> Any:  # only for a name not in the module's dictionary
        spec = self.__spec__
        assert spec is not None  # made so by defer_rarely_used
        assert spec.loader is not None
        with _LOCKS[spec.name]:  # a second thread waits for the module to be whole
            if type(self) is _Deferred and spec.name not in _RUNNING:
                _RUNNING.add(spec.name)  # the module's own code, asking for a name of its own, finds it unrun
                try:
                    spec.loader.exec_module(self)
                except BaseException:
                    # Gone from sys.modules, as a failed import leaves a module: the next import tries again.
                    sys.modules.pop(spec.name, None)
                    raise
                finally:
                    _RUNNING.discard(spec.name)
                object.__setattr__(self, "__class__", types.ModuleType)
        return object.__getattribute__(self, name)


_LOCKS: dict[str, threading.RLock] = {}
_RUNNING: set[str] = set()


def defer_rarely_used() -> None:
    """Leave each of :data:`RARELY_USED` not loaded yet as a :class:`_Deferred` module, to load when first
    used. Call it before anything imports them: before ``typer`` and ``pathlib``."""
    for name in RARELY_USED:
        if name in sys.modules:  # loaded already (by the tests' runner, say): it stays as it is
            continue
        spec = importlib.machinery.PathFinder.find_spec(name)
        if spec is None or spec.loader is None:  # pragma: no cover - all are in every CPython
            continue
        module = importlib.util.module_from_spec(spec)  # its __spec__, __file__, ... set, its code not run
        module.__class__ = _Deferred
        _LOCKS[name] = threading.RLock()
        sys.modules[name] = module


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
