"""The one JSON form of every refusal the server answers, whichever layer refuses.

``error`` is the table service's own message (the input and the state, for a log or an API client);
``said`` is the same refusal as a person at the table would say it, which a page shows; an action's refusal
adds ``next``, what the seat can do now or whom the table waits for.
"""

from __future__ import annotations

from hazard.core.errors import HazardError, plain

__all__ = ["RefusedAction", "refusal_body"]


def refusal_body(message: str, *, said: str | None = None, next_step: str = "") -> dict[str, str]:
    """The body of a refusal with ``message``; ``said`` defaults to the message in a person's words.

    >>> refusal_body("illegal pass of the dice: finish the round first")["said"]
    'Finish the round first.'
    >>> refusal_body("illegal take: it is gone", next_step="Your turn: throw the dice.")["next"]
    'Your turn: throw the dice.'

    """
    body = {"error": message, "said": said if said is not None else plain(message)}
    if next_step:
        body["next"] = next_step
    return body


class RefusedAction(Exception):
    """A seat's action the table refused (``error``), with the seat's ``next_step``: answered as the error
    is, with ``next`` added."""

    def __init__(self, error: HazardError, next_step: str) -> None:
        super().__init__(str(error))
        self.error = error
        self.next_step = next_step
