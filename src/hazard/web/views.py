"""What each page shows, gathered from a live table into small frozen values for its template.

Nothing here is HTML: every value is plain text, a number or a throw, and the templates
(``hazard/web/templates``) escape each one where it is shown. A table's view is gathered for one viewer
and one mode (:func:`table_view`); its controls are those :func:`hazard.table.rules.choices` gives the seat
now, and nothing else: the built-in actions' own controls, and a button of its command for each action of
a type registered beside them.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from hazard.analysis import caster_chance
from hazard.core.dice import Roll
from hazard.core.numbers import readable_fraction
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import builtin_paytables, builtin_rulesets
from hazard.core.staking import Staking
from hazard.table import (
    ClaimState,
    Correction,
    DiceKind,
    FairNote,
    Hand,
    MoneyStyle,
    Table,
    action_text,
    choices,
    commitment,
    entry_text,
    event_text,
    format_money,
    throw_mismatch,
)
from hazard.web.bets import Offers, SideBet, offers, side_bets
from hazard.web.felt import Felt, felt_view
from hazard.web.hub import LiveTable
from hazard.web.result import ResultView, corrected_events, result_view
from hazard.web.turn import TurnLine, turn_line

__all__ = [
    "Button",
    "ClaimView",
    "Controls",
    "FairView",
    "LobbyView",
    "LogLine",
    "Odds",
    "OpenTable",
    "Option",
    "OwnSeed",
    "PlayerRow",
    "Referee",
    "RefereeKind",
    "Revealed",
    "RoundView",
    "SideBet",
    "TableView",
    "TurnLine",
    "Viewer",
    "claim_view",
    "lobby_players",
    "lobby_view",
    "table_view",
    "turn_of",
]

LOG = 40
"""Entries shown in a table's log (the whole record is at /api/tables/{id}/record)."""
SCREEN_LOG = 8
"""Entries shown in the big screen's log: read across a room."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who a page is rendered for: the player whose seat it holds (None: a spectator), and whether it holds
    the host's keys."""

    seat: str | None = None
    host: bool = False


# --- the lobby and a claim link -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of a select: what it sends, what it reads, and whether it is chosen to begin with."""

    value: str
    label: str
    selected: bool = False


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A table of the lobby's list: its number, name and ruleset, and how far its record has gone."""

    id: int
    label: str
    ruleset: str
    entries: str
    """How many entries its record holds, in words."""
    players: str = ""
    """Who sits at it ("" where the server does not hold it in memory, so does not know without a replay)."""
    state: str = ""
    """What it waits for: whose turn and the round, or players."""


@dataclass(frozen=True, slots=True)
class LobbyView:
    """The open tables, and the choices of the form that sets one up."""

    tables: tuple[OpenTable, ...]
    rulesets: tuple[Option, ...]
    paytables: tuple[Option, ...]
    stakes: tuple[Option, ...]
    money: tuple[Option, ...]
    stakings: tuple[Option, ...]


def lobby_players(names: list[str] | None) -> str:
    """Who sits at a table of the lobby, in words (``hazard.js`` says the same when it polls the list)."""
    if names is None:
        return ""
    return "players: " + ", ".join(names) if names else "no players yet"


def lobby_view(tables: Iterable[Mapping[str, Any]]) -> LobbyView:
    """The lobby of the open ``tables`` (as :meth:`~hazard.web.hub.Hub.open_tables` lists them)."""
    own = ("", "the ruleset's own")
    return LobbyView(
        tables=tuple(
            OpenTable(
                t["id"],
                t["label"],
                t["ruleset"],
                _count(t["entries"], "entry", "entries"),
                lobby_players(t.get("players")),
                t.get("state", ""),
            )
            for t in tables
        ),
        rulesets=_options(((r.id, f"{r.name} ({r.id})") for r in builtin_rulesets()), "wikipedia"),
        paytables=_options([own, *((p.id, p.name) for p in builtin_paytables())]),
        stakes=_options([own, *((s.value, s.text) for s in StakeArrangement)]),
        money=_options((m.value, m.value) for m in MoneyStyle),
        stakings=_options((s.value, s.value) for s in Staking),
    )


@dataclass(frozen=True, slots=True)
class ClaimView:
    """A late arrival's claim link: whose seat it holds and until when (``player`` None: it holds none, for
    ``refusal``); ``code`` is quoted for the form's URL."""

    game: int
    code: str
    player: str | None
    expires: str
    refusal: str


def claim_view(game: int, code: str, state: ClaimState | None, refusal: str | None) -> ClaimView:
    """What the page of claim link ``code`` of table ``game`` shows: the seat ``state`` holds, or none."""
    if state is None:
        return ClaimView(game, quote(code), None, "", refusal or "")
    return ClaimView(game, quote(code), state.player, state.expires, "")


def _options(pairs: Iterable[tuple[str, str]], chosen: str | None = None) -> tuple[Option, ...]:
    return tuple(Option(value, label, value == chosen) for value, label in pairs)


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


# --- a table -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Odds:
    """The caster's chance of winning the round from where it stands: exact, and to four places."""

    exact: str
    approx: str


@dataclass(frozen=True, slots=True)
class RoundView:
    """The round card: the table's settings, who casts, the main and the chance, the throws, the odds."""

    label: str
    ruleset: str
    paytable: str
    dice: str
    stakes: str
    game: int
    seq: int
    caster: str
    main: str
    chance: str
    number: int
    turn: str
    throws: tuple[Roll, ...]
    throws_label: str
    odds: Odds | None
    """None where no round is under way, or the caster has a main to call (:attr:`calling`)."""
    calling: bool
    big: bool
    """The dice drawn large, for the big screen."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player at the table, with his bankroll and what of it no stake holds, in the table's money."""

    name: str
    marks: str
    """What sets him apart, in words (caster, a bot, you), or empty."""
    bankroll: str
    free: str


@dataclass(frozen=True, slots=True)
class Revealed:
    """A hand over, its seed shown, checked here as ``hazard verify`` checks it: its seed against its
    commitment, and every throw recomputed from the seeds and its nonce."""

    number: int
    server_seed: str
    throws: int
    verified: bool


@dataclass(frozen=True, slots=True)
class FairView:
    """The fair dice's card: the hand committed now, and the last hand revealed."""

    game: int
    current: Hand | None
    revealed: Revealed | None


@dataclass(frozen=True, slots=True)
class Button:
    """A button that sends ``action``, the terminal's text form of it, labelled ``label``."""

    action: str
    label: str
    primary: bool = False
    host: bool = False
    """Sent with the host's keys (the referee's buttons)."""


@dataclass(frozen=True, slots=True)
class OwnSeed:
    """What the seat's page does for the hand's dice: once it sees the hand's commitment, it sets a fresh
    random seed of its own (``hazard.js`` answers ``data-seed-hand``), so the server, committed already,
    cannot know it. Said, not asked: nobody types anything."""

    hand: int
    entry: int | None
    """The entry of the seat's seed for the hand, once set."""
    missed: bool
    """The hand was thrown before the page set a seed for it."""


@dataclass(frozen=True, slots=True)
class Controls:
    """A table page's controls: the join form for a viewer with no seat, or what the seat may do now."""

    seat: str | None
    buttons: tuple[Button, ...] = ()
    stake_against: str | None = None
    """Whom a stake is laid against, where the seat may stake now."""
    offer: bool = False
    offers: Offers | None = None
    """The offer form's figures (the sources' bets in one tap), where the seat may offer a side bet."""
    own_seed: OwnSeed | None = None
    host: str | None = None
    """The host's panel (how long a claim link works, in words), where the viewer holds the host's keys."""


class RefereeKind(enum.Enum):
    """What the referee's view holds: a word to a viewer who is not the host, a word that the table throws
    fair dice, or the dice to enter."""

    NOT_HOST = "not the host"
    FAIR_DICE = "fair dice"
    TYPED = "typed dice"


@dataclass(frozen=True, slots=True)
class Referee:
    """The referee's panel: the dice as they fell, for the host of a table of real dice."""

    kind: RefereeKind
    host: str | None = None
    """The host's panel after it (how long a claim link works), as on the table page."""


@dataclass(frozen=True, slots=True)
class LogLine:
    """An entry of the log: its number, who made it, its text and the events it caused."""

    seq: int
    actor: str
    text: str
    corrected: str | None
    """``void`` or ``replaced`` where a correction kept in the log has undone the entry."""
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything a table's view shows one viewer in one mode (table, referee or screen)."""

    seq: int
    round: RoundView
    turn: TurnLine
    """Whose turn it is, for this viewer, with the buttons that play it (:mod:`hazard.web.turn`)."""
    players: tuple[PlayerRow, ...]
    stakes: tuple[tuple[str, str], ...]
    """Each stake against the caster: who lays it, and how much."""
    bets: tuple[SideBet, ...]
    fair: FairView | None
    closed: bool
    controls: Controls | None
    referee: Referee | None
    log: tuple[LogLine, ...]
    result: ResultView | None = None
    """The last round settled, for the result banner (None before any has)."""
    felt: Felt | None = None
    """The players' places around the felt and its circle, with what each has at stake (:mod:`.felt`)."""


def turn_of(live: LiveTable, seat: str | None, mode: str = "table") -> TurnLine:
    """The turn line of the player seated at ``seat`` (None, or one not seated: a spectator) in ``mode``:
    with his buttons where he plays (the table's page), without them elsewhere."""
    table = live.session.table
    seat = seat if seat is not None and table.seated(seat) else None
    playing = mode == "table" and not live.closed and seat is not None
    can = choices(table, seat) if playing and seat is not None else None
    return turn_line(table, seat, can, closed=live.closed)


def table_view(live: LiveTable, viewer: Viewer, mode: str, claim_minutes: str) -> TableView:
    """The view of ``live`` for ``viewer`` in ``mode``; ``claim_minutes`` says, in the host's panel, how long
    a late arrival's link works."""
    session = live.session
    table = session.table
    money = live.money
    seat = viewer.seat if viewer.seat is not None and table.seated(viewer.seat) else None
    host = claim_minutes if viewer.host else None
    fair = _fair(live) if session.info.dice is DiceKind.FAIR else None
    return TableView(
        seq=live.seq,
        round=_round(live, table, big=mode == "screen"),
        turn=turn_of(live, seat, mode),
        players=_players(table, money, seat),
        stakes=tuple((w.opponent, format_money(w.amount, money)) for w in table.wagers),
        bets=side_bets(table, money, seat if mode == "table" and not live.closed else None),
        fair=fair,
        closed=live.closed,
        controls=_controls(live, table, seat, host) if mode == "table" and not live.closed else None,
        referee=_referee(live, viewer.host, host) if mode == "referee" and not live.closed else None,
        log=_log(live, money, short=mode == "screen"),
        result=result_view(live),
        felt=felt_view(table, money, seat),
    )


def _round(live: LiveTable, table: Table, *, big: bool) -> RoundView:
    info = live.session.info
    turn = table.turn
    r = table.round
    chance = caster_chance(r) if turn.caster is not None and not r.is_over else None
    return RoundView(
        label=info.label,
        ruleset=info.ruleset.name,
        paytable=info.paytable.name,
        dice=info.dice.describe(info.seed),
        stakes=table.stakes.text,
        game=live.game,
        seq=live.seq,
        caster=turn.caster or "—",
        main="—" if r.main is None else str(r.main),
        chance="—" if r.chance is None else str(r.chance),
        number=table.rounds_played + 1,
        turn=str(turn),
        throws=tuple(_round_throws(live, table)),
        throws_label="this round" if table.throws_this_round else "last throw",
        odds=None if chance is None else Odds(readable_fraction(chance), f"{float(chance):.4f}"),
        calling=chance is None and turn.caster is not None,
        big=big,
    )


def _players(table: Table, money: MoneyStyle, seat: str | None) -> tuple[PlayerRow, ...]:
    rows = []
    for p in table.players:
        marks = []
        if p.name == table.caster:
            marks.append("caster")
        if p.bot is not None:
            marks.append(f"bot ({p.bot.value})")
        if p.name == seat:
            marks.append("you")
        rows.append(
            PlayerRow(
                p.name,
                ", ".join(marks),
                format_money(p.bankroll, money),
                format_money(table.available(p.name), money),
            )
        )
    return tuple(rows)


def _fair(live: LiveTable) -> FairView | None:
    fair = live.session.fair
    if fair is None:
        return None
    revealed = fair.revealed
    return FairView(live.game, fair.current, None if revealed is None else _revealed(revealed))


def _revealed(hand: Hand) -> Revealed:
    assert hand.server_seed is not None
    matches = commitment(bytes.fromhex(hand.server_seed)) == hand.commitment
    return Revealed(hand.number, hand.server_seed, len(hand.throws), matches and throw_mismatch(hand) is None)


def _controls(live: LiveTable, table: Table, seat: str | None, host: str | None) -> Controls:
    if seat is None:
        return Controls(seat=None, host=host)
    can = choices(table, seat)
    buttons: list[Button] = []  # calling a main and throwing are the turn line's buttons (hazard.web.turn)
    if can.withdraw:
        buttons.append(Button("withdraw", "Withdraw my stakes"))
    if can.pass_dice:
        buttons.append(Button("pass", "Pass the dice"))
    if can.leave:
        buttons.append(Button("leave", "Leave the table"))
    # Taking and withdrawing a side bet are offered beside the bet, in its card (parts/bets.html).
    for action in can.others:  # a type registered beside the built-in ones: its button is its command
        command = action_text(action, live.money)
        buttons.append(Button(command, command))
    against = None
    if can.stake:
        against = "the bank" if table.caster == seat else (table.caster or "the caster")
    return Controls(
        seat=seat,
        buttons=tuple(buttons),
        stake_against=against,
        offer=can.offer,
        offers=offers(live.money) if can.offer else None,
        own_seed=_own_seed(live, seat),
        host=host,
    )


def _own_seed(live: LiveTable, seat: str) -> OwnSeed | None:
    fair = live.session.fair
    hand = None if fair is None else fair.current
    if live.session.info.dice is not DiceKind.FAIR or fair is None or hand is None:
        return None
    entry = fair.fresh_entry(seat)
    return OwnSeed(hand.number, entry, missed=entry is None and hand.client_seed is not None)


def _referee(live: LiveTable, is_host: bool, host: str | None) -> Referee:
    if not is_host:
        return Referee(RefereeKind.NOT_HOST)
    if live.session.info.dice is not DiceKind.TYPED:
        return Referee(RefereeKind.FAIR_DICE, host)
    return Referee(RefereeKind.TYPED, host)


def _log(live: LiveTable, money: MoneyStyle, *, short: bool) -> tuple[LogLine, ...]:
    shown = list(live.recent)[-(SCREEN_LOG if short else LOG) :]
    corrected = _corrected(live)
    lines = []
    for done in reversed(shown):
        entry = done.entry
        if isinstance(entry.item, FairNote) and short:
            continue
        lines.append(
            LogLine(
                entry.seq,
                str(entry.actor),
                entry_text(entry, money),
                corrected.get(entry.seq),
                _events(live, done.entry.item, tuple(event_text(event, money) for event in done.events)),
            )
        )
    return tuple(lines)


def _events(live: LiveTable, item: object, events: tuple[str, ...]) -> tuple[str, ...]:
    """An entry's events in the log; a correction, which has none of its own, shows what the entry it
    corrected does now (the outcome and settlement the replay gave)."""
    if isinstance(item, Correction) and not events:
        return corrected_events(live, item.target)
    return events


def _corrected(live: LiveTable) -> dict[int, str]:
    """The kept entries a correction among them has voided or replaced, each with which."""
    return {
        d.entry.item.target: "void" if d.entry.item.replacement is None else "replaced"
        for d in live.recent
        if isinstance(d.entry.item, Correction)
    }


def _round_throws(live: LiveTable, table: Table) -> list[Roll]:
    """The throws of the round in play (or the last throw, between rounds), from the entries kept."""
    corrected = _corrected(live)
    fixed = {  # a throw a referee's fix replaced: shown as it now stands, where it stood
        d.entry.item.target: d.entry.item.replacement
        for d in live.recent
        if isinstance(d.entry.item, Correction) and isinstance(d.entry.item.replacement, Roll)
    }
    rolls = [
        fixed.get(d.entry.seq, d.entry.item)
        for d in live.recent
        if isinstance(d.entry.item, Roll) and (d.entry.seq not in corrected or d.entry.seq in fixed)
    ]
    wanted = table.throws_this_round or 1
    return rolls[-wanted:]
