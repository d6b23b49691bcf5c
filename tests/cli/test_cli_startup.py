"""What ``hazard`` loads to start: the help and the exact odds leave the table, the web, the simulator and
Rich's markdown unloaded (the time it takes is bench/bench_startup.py's, in docs/benchmarks.md)."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import typer

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


def _loaded(modules: set[str], packages: tuple[str, ...]) -> set[str]:
    return {name for name in modules if name.startswith(tuple(f"{p}." for p in packages)) or name in packages}


def test_the_help_loads_no_command_and_no_markdown() -> None:
    out, modules = _run("--help")
    assert "simulate" in out
    assert "typer.rich_utils" in modules  # the help is Typer's own, drawn by Rich
    assert not _loaded(modules, (*_HEAVY, *_PACKAGE_FILES))
    assert not _loaded(modules, ("hazard.analysis", *(f"hazard.cli.{m}" for m in set(COMMANDS.values()))))


def test_the_version_loads_no_command() -> None:
    out, modules = _run("--version")
    assert out.startswith("hazard ")
    assert not _loaded(modules, (*_HEAVY, "hazard.analysis", "typer.rich_utils"))


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
