"""The live socket's route: a client follows a table by its record's entry numbers, and is sent what it
missed, then every update as it comes (:meth:`~hazard.web.hub.Hub.follow`)."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from hazard.core.errors import HazardError
from hazard.web.hub import Hub, NoSuchTable

__all__ = ["router"]

router = APIRouter()


@router.websocket("/api/tables/{game}/live")
async def live(websocket: WebSocket, game: int, since: int = -1) -> None:
    await _follow(websocket.app.state.services.hub, websocket, game, since)


async def _follow(hub: Hub, websocket: WebSocket, game: int, since: int) -> None:
    """Send a client what it missed since entry ``since`` (everything, at -1), then every update as it comes.

    The client says nothing; a client that drops reconnects with the last entry number it saw.
    """
    try:
        live, queue, missed = await hub.follow(game, since)
        first = missed.text
    except HazardError as error:
        await websocket.close(code=4404 if isinstance(error, NoSuchTable) else 4422, reason=str(error)[:120])
        return
    try:
        await websocket.accept()
    except BaseException:
        hub.unsubscribe(live, queue)
        raise
    # The client sends nothing, but its going away must end this at once, not at the table's next update:
    # its reader then hands the queue the same None as a server that stops (one wait per update, no task).
    gone = asyncio.create_task(_closed(websocket))
    gone.add_done_callback(lambda _: hub.hang_up(queue))
    try:
        await websocket.send_text(first)
        while (update := await queue.get()) is not None:
            await websocket.send_text(update.text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        gone.cancel()
        hub.unsubscribe(live, queue)
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close()


async def _closed(websocket: WebSocket) -> None:
    """Wait until the client goes (whatever it sends meanwhile is read and dropped)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass
