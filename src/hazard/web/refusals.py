"""The one JSON form of every refusal the server answers, whichever layer refuses.

``error`` is the table service's own message (the input and the state, for a log or an API client);
``said`` is the same refusal as a person at the table would say it, which a page shows; an action's refusal
adds ``next``, what the seat can do now or whom the table waits for.

The answers to the table's own refusals (:func:`refusal_answer`) are built here once, for the application's
exception handlers and for the action route's direct path (:mod:`hazard.web.direct`), which refuses without
them.
"""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from hazard.core.errors import HazardError, IllegalError, plain
from hazard.table import ActorError, RecordUnavailable, StaleError
from hazard.web.hub import NoSuchTable

__all__ = ["RefusedAction", "http_answer", "refusal", "refusal_answer", "refusal_body", "status_of"]


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


def refusal(status: int, message: str, *, said: str | None = None, next_step: str = "") -> JSONResponse:
    """The answer refusing with ``status`` and ``message`` (:func:`refusal_body`)."""
    return JSONResponse(refusal_body(message, said=said, next_step=next_step), status_code=status)


def status_of(error: HazardError) -> int:
    """The status of a refusal of the table's: 404 no such table, 503 the record unreachable, 403 acting
    for someone else, 409 not allowed now (or based on a state since moved on), 422 malformed."""
    if isinstance(error, NoSuchTable):
        return 404
    if isinstance(error, RecordUnavailable):
        return 503
    if isinstance(error, ActorError):
        return 403
    if isinstance(error, IllegalError | StaleError):
        return 409
    return 422


def refusal_answer(error: HazardError | RefusedAction) -> JSONResponse:
    """The answer to a refusal of the table's (a :class:`RefusedAction` with its next step)."""
    if isinstance(error, RefusedAction):
        refused = error.error
        return refusal(status_of(refused), str(refused), said=refused.said, next_step=error.next_step)
    return refusal(status_of(error), str(error), said=error.said)


def http_answer(error: HTTPException) -> JSONResponse:
    """The answer to an HTTP error of Starlette's or of a limit's (its status, its detail as the message, its
    headers)."""
    answer = refusal(error.status_code, str(error.detail))
    answer.headers.update(error.headers or {})
    return answer
