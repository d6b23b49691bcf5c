"""What ``hazard`` loads to start: the help and the exact odds leave the table, the web, the simulator and
Rich's markdown unloaded (the time it takes is bench/bench_startup.py's, in docs/benchmarks.md)."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import typer
from tests.commandline import run
from tests.paths import ROOT

from hazard.cli import COMMANDS, app, load_commands
from hazard.cli.startup import SUMMARIES

# Loaded by no start-up that only lists the commands or works out odds.
_HEAVY = (
    "hazard.table",
    "hazard.web",
    "hazard.sim",
    "hazard.study",
    "numpy",
    "matplotlib",
    "sqlalchemy",
    "fastapi",
    "uvicorn",
    "cryptography",
    "markdown_it",
    "rich.markdown",
    "rich.traceback",
    "rich.syntax",
    "pygments",
)
# The rules engine and the rulesets' files: the help and the version need none of them (hazard's facade
# loads each name's module when first asked for).
_RULES = (
    "hazard.core.dice",
    "hazard.core.rules",
    "hazard.core.state",
    "hazard.core.events",
    "hazard.core.engine",
    "hazard.core.rulesets",
    "tomllib",
)
# What reading the built-in rulesets through importlib.resources, or an import hook built on importlib.abc,
# would load: about 10 ms of a start-up.
_PACKAGE_FILES = ("importlib.resources", "importlib.abc", "zipfile", "tempfile")


def _run(*args: str, first: str = "") -> tuple[str, set[str]]:
    """The output of a real ``hazard ARGS`` process, and the modules it had imported when it ended."""
    script = (
        "import sys\n"
        f"{first}\n"
        "from hazard.cli import main\n"
        f"try:\n    main({list(args)!r})\n"
        "finally:\n    names = sorted(sys.modules)\n    import json\n"  # the list taken before json loads
        "    sys.__stderr__.write('\\n' + json.dumps(names))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout, set(json.loads(done.stderr.strip().splitlines()[-1]))


def _probe(script: str) -> str:
    """The last line a fresh interpreter prints after ``script``, which must succeed."""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _loaded(modules: set[str], packages: tuple[str, ...]) -> set[str]:
    return {name for name in modules if name.startswith(tuple(f"{p}." for p in packages)) or name in packages}


def test_the_help_loads_no_command_and_no_markdown() -> None:
    out, modules = _run("--help")
    assert "simulate" in out
    assert "typer.rich_utils" in modules  # the help is Typer's own, drawn by Rich
    assert not _loaded(modules, (*_HEAVY, *_PACKAGE_FILES, *_RULES))
    assert not _loaded(modules, ("hazard.analysis", *(f"hazard.cli.{m}" for m in set(COMMANDS.values()))))


def test_the_version_loads_no_command() -> None:
    out, modules = _run("--version")
    assert out.startswith("hazard ")
    assert not _loaded(modules, (*_HEAVY, *_RULES, "hazard.analysis", "typer.rich_utils"))


def test_the_exact_odds_load_the_analysis_alone() -> None:
    out, modules = _run("odds", "-r", "wikipedia")
    assert "wikipedia" in out.lower()
    assert "hazard.analysis" in modules
    assert not _loaded(
        modules,
        (
            *_HEAVY,
            *_PACKAGE_FILES,
            "hazard.analysis.bets",
            "hazard.analysis.card",  # the odds print no card, and compare no rulesets
            "hazard.analysis.compare",
            "hazard.analysis.design",
            "hazard.core.propositions",
            "typer.rich_utils",
            "hazard.cli.play",
            "rich._emoji_codes",  # the console draws no emoji codes: a ruleset's name is shown as written
            "csv",  # the table, not --format csv or json
            "json",
        ),
    )


def test_the_odds_of_a_ruleset_named_by_id_read_its_file_and_its_paytable_s_alone() -> None:
    # Every file the process opens, as the interpreter's audit hook sees it.
    opened = (
        "opened = []\n"
        "sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == 'open' else None)\n"
        "import atexit\n"
        "atexit.register(lambda: sys.__stdout__.write('\\n' + json.dumps(opened)))\n"
    )
    out, _ = _run("odds", "-r", "wikipedia", first=opened)
    files = [Path(name) for name in json.loads(out.strip().splitlines()[-1]) if name.endswith(".toml")]
    assert [(path.parent.name, path.name) for path in files] == [
        ("data", "wikipedia.toml"),
        ("paytables", "wikipedia.toml"),
    ]


def test_a_command_s_help_loads_its_module_alone_and_no_markdown() -> None:
    out, modules = _run("odds", "--help")
    assert "--paytable" in out
    assert "typer.rich_utils" in modules
    assert not _loaded(modules, _HEAVY)


def test_the_list_of_commands_is_the_same_without_their_modules() -> None:
    everything = "from hazard.cli import load_commands\nload_commands()"
    listed, _ = _run("--help")  # a bare `hazard` is `hazard --help` (hazard.cli.main)
    loaded, modules = _run("--help", first=everything)
    assert "hazard.table" in modules
    assert listed == loaded


def test_each_command_s_summary_is_its_docstring_s_first_paragraph() -> None:
    load_commands()
    group = typer.main.get_command(app)
    assert set(SUMMARIES) == set(COMMANDS)
    for name, summary in SUMMARIES.items():
        command = group.commands[name]  # type: ignore[attr-defined]
        help_text = command.short_help or command.help or ""
        assert inspect.cleandoc(help_text).split("\n\n")[0].strip() == summary, name
        assert not command.hidden, name
        assert not command.deprecated, name


def test_the_stand_ins_become_rich_s_own_markdown_and_traceback_when_used() -> None:
    probe = (
        "import sys\n"
        "from hazard.cli.startup import lighter_rich_help\n"
        "lighter_rich_help()\n"
        "from typer import rich_utils\n"
        "assert 'rich.markdown' not in sys.modules and 'rich.traceback' not in sys.modules\n"
        "made = rich_utils._make_rich_text(text='*x*', style='', markup_mode='markdown')\n"
        "import rich.markdown, rich.traceback\n"
        "assert isinstance(made, rich.markdown.Markdown), type(made)\n"
        "try:\n    1 / 0\nexcept ZeroDivisionError as error:\n"
        "    shown = rich_utils.Traceback.from_exception(type(error), error, error.__traceback__)\n"
        "assert isinstance(shown, rich.traceback.Traceback), type(shown)\n"
        "assert rich.markdown.__file__ and rich.traceback.__file__\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr


def test_an_unknown_command_is_refused_as_before() -> None:
    for first in ("", "from hazard.cli import load_commands\nload_commands()"):
        script = f"{first}\nfrom hazard.cli import main\nmain(['oods'])"
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
        assert done.returncode == 2
        assert done.stderr.strip() == "error: No such command 'oods'. Did you mean 'odds'?"


# --- what every start-up imports but few commands use ------------------------------------------------------

_WAITING = ("subprocess", "ipaddress", "textwrap")
"""Each start-up's modules that wait for a use (hazard.cli.startup.RARELY_USED)."""
_UNRUN = (
    "import json\n"
    "print('\\n' + json.dumps({name: type(sys.modules[name]).__name__ for name in "
    f"{_WAITING!r}"
    "}))\n"
)


@pytest.mark.parametrize(
    ("args", "used"),
    [(("odds", "-r", "wikipedia"), ()), (("rules",), ()), (("--help",), ("textwrap",))],  # help wraps text
)
def test_what_few_commands_use_waits_for_a_use(args: tuple[str, ...], used: tuple[str, ...]) -> None:
    script = f"import sys\nfrom hazard.cli import main\nmain({list(args)!r})\n{_UNRUN}"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    kinds = json.loads(done.stdout.strip().splitlines()[-1])
    assert kinds == {name: "module" if name in used else "_Deferred" for name in _WAITING}


def test_a_module_that_waited_works_when_used_and_is_then_the_module_itself() -> None:
    probe = (
        "import sys\n"
        "import hazard.cli\n"
        f"waiting = {{name: sys.modules[name] for name in {_WAITING!r}}}\n"
        "assert all(type(module).__name__ == '_Deferred' for module in waiting.values()), waiting\n"
        "from subprocess import PIPE, run\n"  # a name taken from it runs it
        "done = run([sys.executable, '-c', 'print(6 * 7)'], stdout=PIPE, text=True, check=True)\n"
        "assert done.stdout == '42\\n', done.stdout\n"
        "import urllib.parse\n"
        "assert urllib.parse.urlsplit('http://[::1]:8000/').hostname == '::1'\n"  # ipaddress, through urllib
        "import ipaddress\n"
        "assert ipaddress.ip_address('::1').is_loopback\n"
        "import textwrap\n"
        "assert textwrap.dedent('  a\\n  b') == 'a\\nb'\n"
        "import types\n"
        "for name, module in waiting.items():\n"
        "    assert sys.modules[name] is module, name\n"
        "    assert type(module) is types.ModuleType, (name, type(module))\n"
        "    assert module.__name__ == name and module.__file__.endswith(name + '.py'), module\n"
        "print('ok')\n"
    )
    assert _probe(probe) == "ok"


def test_threads_that_first_use_a_waiting_module_together_run_it_once_and_see_it_whole() -> None:
    probe = (
        "import sys, threading\n"
        "import hazard.cli\n"
        "module = sys.modules['textwrap']\n"
        "loader = module.__spec__.loader\n"
        "runs = []\n"
        "real = loader.exec_module\n"
        "def counted(target):\n"
        "    runs.append(threading.get_ident())\n"
        "    real(target)\n"
        "loader.exec_module = counted\n"
        "start = threading.Barrier(8)\n"
        "seen = []\n"
        "def use():\n"
        "    start.wait(timeout=10)\n"
        "    seen.append(module.shorten('a b c d e f g', width=9))\n"
        "threads = [threading.Thread(target=use) for _ in range(8)]\n"
        "for thread in threads:\n    thread.start()\n"
        "for thread in threads:\n    thread.join(timeout=10)\n"
        "print(len(runs), sorted(set(seen)), len(seen))\n"
    )
    assert _probe(probe) == "1 ['a b [...]'] 8"


def test_a_named_command_runs_alone_and_all_are_back_after(capsys: pytest.CaptureFixture[str]) -> None:
    load_commands()
    before = list(app.registered_commands)
    code, out, _ = run(capsys, "odds", "-r", "wikipedia")
    assert code == 0
    assert "Caster's chances" in out
    code, _, err = run(capsys, "odds", "-r", "no-such-ruleset")
    assert code == 2
    assert err.startswith("error: ")
    assert app.registered_commands == before


# --- the cyclic collector, paused while the program starts ----------------------------------------------


def test_the_program_imports_with_the_collector_paused() -> None:
    # A finder that only looks: it notes the collector's state as Typer and the command's module are imported.
    script = (
        "import gc, sys\n"
        "class Look:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name in ('typer', 'hazard.cli.exact'):\n"
        "            print(name, gc.isenabled(), end='; ', flush=True)\n"
        "sys.meta_path.insert(0, Look())\n"
        "sys.argv = ['hazard', 'rules']\n"
        "from hazard.__main__ import program\n"
        "print(gc.isenabled(), end='; ', flush=True)\n"
        "program()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("True; typer False; hazard.cli.exact False; "), done.stdout[:200]
    assert "britannica-1911" in done.stdout


def test_the_command_runs_with_the_collector_on_and_the_start_up_frozen() -> None:
    script = (
        "import gc, sys\n"
        "gc.disable()\n"
        "from hazard.cli import main\n"
        "main(['rules'], collector_paused=True)\n"
        "print(gc.isenabled(), gc.get_freeze_count() > 10_000)\n"
    )
    assert _probe(script) == "True True"


def test_a_collector_the_caller_turned_off_is_left_off() -> None:
    script = "import gc\ngc.disable()\nfrom hazard.cli import main\nmain(['rules'])\nprint(gc.isenabled())\n"
    assert _probe(script) == "False"


def test_the_console_script_is_the_program_that_pauses_the_collector() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"hazard": "hazard.__main__:program"}
