"""The terminal of ``hazard play`` and ``hazard referee``: Rich for what is shown, ``input()`` for the
prompts, and what a game says as it starts or resumes."""

from __future__ import annotations

import contextlib
import sys

from rich.console import RenderableType
from rich.text import Text

from hazard.cli.app import console, one_line
from hazard.cli.tableview import info_text, rules_text
from hazard.table import MoneyStyle, Session, best_main

__all__ = ["Screen", "announce_main", "intro"]


class Screen:
    """Rich for what is shown, ``input()`` for the prompts.

    A line read from a pipe is echoed after its prompt, so that a transcript reads like the session.
    """

    def __init__(self) -> None:
        self.console = console()
        self.echo = not sys.stdin.isatty()
        if not self.echo:
            with contextlib.suppress(ImportError):  # not every platform has it
                import readline  # noqa: F401, PLC0415 - line editing at a real terminal only

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    def show(self, renderable: RenderableType, *, soft_wrap: bool = False) -> None:
        self.console.print(renderable, soft_wrap=soft_wrap)

    def error(self, message: str) -> None:
        self.say("error: " + one_line(message), style="red")

    def ask(self, prompt: str) -> str | None:
        """A line from the keyboard, or None at the end of input."""
        self.console.file.flush()
        try:
            line = input(prompt)
        except EOFError:
            self.say("")
            return None
        if self.echo:
            self.say(line)
        return line


def intro(screen: Screen, session: Session, money: MoneyStyle, *, resumed: bool) -> None:
    """The game's heading and rules, as it starts or resumes."""
    info = session.info
    verb = "Resuming" if resumed else "Starting"
    screen.say(f"{verb} {info_text(info, money)}", style="bold")
    screen.say(rules_text(info))
    if resumed:
        screen.say(f"{len(session.entries)} entries replayed from the record")


def announce_main(screen: Screen, session: Session) -> None:
    """The main a bot holding the dice calls, and why."""
    choice = best_main(session.info.ruleset, session.info.paytable)
    if choice is not None:
        screen.say(f"Bots holding the dice call {choice.main}, {choice.reason()}")
