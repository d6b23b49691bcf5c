"""The side-bet drill on the web: ``/drill``, and the API its script asks.

The server holds each drill under way (:class:`hazard.analysis.drill.Drill`, by a random id, at most
:data:`MAX_DRILLS`, each forgotten an hour after its last answer) and decides everything: the offers, the
clock (an answer that comes more than :data:`GRACE_S` after an offer's time is a refusal, whatever it says)
and the value of each decision. The page (``/static/drill.js``) shows the offer and a countdown, sends
``take``, ``refuse``, or ``none`` when its clock runs out, and shows the judgement. A drill played under a
name keeps its score in the record when it ends (:func:`hazard.table.keep_drill_score`).
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment
from pydantic import BaseModel, ConfigDict, Field

from hazard.analysis.drill import MAX_ROUNDS, MAX_SECONDS, MAX_SEED, MIN_SECONDS, Answer, Drill, Judged, Offer
from hazard.core.errors import IllegalError
from hazard.core.numbers import fraction_text
from hazard.table import DrillScore, best_drill_scores, check_name, keep_drill_score
from hazard.web.bodies import REFUSALS
from hazard.web.deps import services_of
from hazard.web.hub import NoSuchTable
from hazard.web.pages import templates

__all__ = ["GRACE_S", "MAX_DRILLS", "router"]

MAX_DRILLS = 1000
"""The most drills the server holds at once; a new one forgets the one answered longest ago."""
GRACE_S = 1.5
"""How long after an offer's time its answer may still come (the way there and back, the page's clock)."""
IDLE_S = 3600.0
"""How long a drill is held after its last answer."""

router = APIRouter()


class NewDrill(BaseModel):
    """A drill to start: its length, the time the first level gives, an optional seed and player's name."""

    model_config = ConfigDict(extra="forbid", strict=True)

    rounds: int = Field(10, ge=1, le=MAX_ROUNDS)
    seconds: float = Field(10.0, ge=MIN_SECONDS, le=MAX_SECONDS)
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="the same seed, the same offers")
    name: str | None = Field(None, max_length=160, description="a player's name: the score is kept under it")


class DrillAnswer(BaseModel):
    """The answer to a drill's offer: ``none`` where the page's clock ran out."""

    model_config = ConfigDict(extra="forbid", strict=True)

    drill: str = Field(min_length=1, max_length=64)
    round: int = Field(ge=1, le=MAX_ROUNDS)
    answer: Literal["take", "refuse", "none"]


@dataclass(slots=True)
class _Held:
    drill: Drill
    name: str | None
    offered: float
    """When the current offer was sent (the server's monotonic clock)."""


class Drills:
    """The drills under way, bounded in number and time."""

    def __init__(self) -> None:
        self._held: OrderedDict[str, _Held] = OrderedDict()
        self._lock = threading.Lock()

    def start(self, drill: Drill, name: str | None) -> str:
        with self._lock:
            self._forget(time.monotonic())
            while len(self._held) >= MAX_DRILLS:
                self._held.popitem(last=False)
            ident = secrets.token_urlsafe(16)
            self._held[ident] = _Held(drill, name, time.monotonic())
            return ident

    def answer(self, ident: str, number: int, given: str) -> tuple[_Held, Judged]:
        """The drill ``ident`` once its offer ``number`` is answered, and the judgement."""
        with self._lock:
            now = time.monotonic()
            self._forget(now)
            held = self._held.get(ident)
            if held is None:
                raise NoSuchTable("no such drill: it has ended, or was forgotten after an hour")
            if held.drill.round != number:
                raise IllegalError(
                    f"illegal answer to round {number}: the drill is at round {held.drill.round}",
                    said=f"That offer has been answered: the drill is at round {held.drill.round}.",
                )
            late = given == "none" or now - held.offered > held.drill.offer().seconds + GRACE_S
            answer = Answer.TAKE if given == "take" else Answer.REFUSE
            held.drill, judged = held.drill.answer(answer, timed_out=late)
            held.offered = now
            if held.drill.over:
                del self._held[ident]
            else:
                self._held.move_to_end(ident)
            return held, judged

    def _forget(self, now: float) -> None:
        while self._held:
            ident, oldest = next(iter(self._held.items()))
            if now - oldest.offered <= IDLE_S:
                return
            del self._held[ident]


def _drills(request: Request) -> Drills:
    state = request.app.state
    if getattr(state, "drills", None) is None:
        state.drills = Drills()
    drills: Drills = state.drills
    return drills


def _value(value: Fraction) -> dict[str, str]:
    shown = "0" if value == 0 else f"{float(value):+.4f}".replace("-", "\N{MINUS SIGN}")
    return {"exact": fraction_text(value), "shown": shown}


def _offer(offer: Offer, drill: Drill) -> dict[str, Any]:
    return {
        "round": offer.round,
        "rounds": drill.rounds,
        "level": offer.level,
        "proposition": offer.proposition,
        "stated": offer.stated,
        "pays": f"staking {offer.odds.denominator} wins {offer.odds.numerator}",
        "source": offer.source,
        "seconds": offer.seconds,
    }


def _judged(judged: Judged) -> dict[str, Any]:
    offer = judged.offer
    return {
        "round": offer.round,
        "proposition": offer.proposition,
        "stated": offer.stated,
        "answer": judged.answer.value,
        "timed_out": judged.timed_out,
        "best_answer": offer.right.value,
        "right": judged.right,
        "fair_odds": offer.fair_odds,
        "probability": fraction_text(offer.analysis.probability),
        "value": _value(offer.value),
        "points": _value(judged.points),
        "missed": _value(judged.missed),
    }


def _score(score: DrillScore) -> dict[str, Any]:
    return {"name": score.name, "score": _value(score.score), "rounds": score.rounds, "at": score.at}


def _state(drill: Drill) -> dict[str, Any]:
    return {
        "score": _value(drill.score),
        "best": _value(drill.best),
        "right": sum(j.right for j in drill.judged),
        "offer": None if drill.over else _offer(drill.offer(), drill),
    }


@router.post("/api/drill/start", summary="Start a side-bet drill", responses=REFUSALS)
async def start(request: Request, body: NewDrill) -> dict[str, Any]:
    """A new drill and its first offer (what it pays, not what it is worth: that comes with the answer)."""
    name = None if body.name is None or not body.name.strip() else check_name(body.name)
    seed = secrets.randbelow(10**9) if body.seed is None else body.seed
    drill = Drill(seed, body.rounds, body.seconds)
    ident = _drills(request).start(drill, name)
    return {"drill": ident, "seed": seed, "name": name, **_state(drill)}


@router.post("/api/drill/answer", summary="Answer a drill's offer", responses=REFUSALS)
async def answer(request: Request, body: DrillAnswer) -> dict[str, Any]:
    """The offer judged by its exact value (an answer after its time is a refusal), the score so far, and
    the next offer; at the end, the score kept under the player's name and his best."""
    held, judged = _drills(request).answer(body.drill, body.round, body.answer)
    answered: dict[str, Any] = {"judged": _judged(judged), **_state(held.drill)}
    if held.drill.over and held.name is not None:
        store = services_of(request).hub.store
        drill = held.drill
        await asyncio.to_thread(keep_drill_score, store, held.name, drill.score, drill.rounds, drill.seed)
        answered["kept"] = [_score(s) for s in await asyncio.to_thread(best_drill_scores, store, held.name)]
    return answered


@router.get("/api/drill/best", summary="The drill's best scores", responses=REFUSALS)
async def best(request: Request, name: Annotated[str | None, Query(max_length=160)] = None) -> dict[str, Any]:
    """The best scores kept, of the player ``name`` or of everyone, best first."""
    player = None if name is None or not name.strip() else check_name(name)
    scores = await asyncio.to_thread(best_drill_scores, services_of(request).hub.store, player, limit=10)
    return {"name": player, "best": [_score(s) for s in scores]}


@cache
def _templates() -> Environment:
    return templates()


@router.get("/drill", response_class=HTMLResponse, include_in_schema=False)
async def drill_page(request: Request) -> HTMLResponse:
    """The drill's page: a form to start, the offer and its clock, the judgement, the best scores."""
    scores = await asyncio.to_thread(best_drill_scores, services_of(request).hub.store, None, limit=10)
    page = _templates().get_template("drill.html")
    return HTMLResponse(
        page.render(
            title="The side-bet drill · Hazard",
            data={"page": "drill"},
            best=[_score(s) for s in scores],
            rounds=10,
            seconds=10,
            max_rounds=MAX_ROUNDS,
            limits=(MIN_SECONDS, MAX_SECONDS),
        )
    )
