"""Errors raised by the rules engine.

Every error is a :class:`ValueError`, split by cause as in python-chess: an :class:`InvalidError` is input
that is malformed whatever the state (a roll ``7-1``, a ruleset with a main of 13), an :class:`IllegalError`
is well-formed input that the current state does not allow (calling a main once the chance is set). Each
message names the input and, for illegal input, the state it was refused in.
"""

from __future__ import annotations

__all__ = ["HazardError", "IllegalError", "InvalidError"]


class HazardError(ValueError):
    """Base class of every error this package raises on bad input."""


class InvalidError(HazardError):
    """Malformed input: a roll, main, ruleset file, paytable or proposition that can never be valid."""


class IllegalError(HazardError):
    """Well-formed input that is not allowed in the current state of the round."""
