"""The pages: server-rendered HTML, every shown text escaped, with one small script served from the package.

A table's page is its view (:meth:`Pages.view`) inside a frame; the script follows the table's live socket
and, on each update, fetches the view again and swaps it in, so what a page shows is always rendered here,
from the session, in the table's money style. The controls in a view are those
:func:`hazard.table.rules.choices` gives the seat now, and nothing else: the built-in actions' own controls,
and a button of its command for each action of a type registered beside them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
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
from hazard.web.hub import Hub, LiveTable

__all__ = ["Pages", "Viewer"]

_FACES = "⚀⚁⚂⚃⚄⚅"
_LOG = 40
"""Entries shown in a table's log (the whole record is at /api/tables/{id}/record)."""


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _page(title: str, body: str, *, data: dict[str, object] | None = None) -> str:
    attributes = "".join(f' data-{key}="{_e(value)}"' for key, value in (data or {}).items())
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title>"
        '<link rel="stylesheet" href="/static/hazard.css">'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        '<script src="/static/hazard.js" defer></script>'
        f"</head><body{attributes}>{body}</body></html>\n"
    )


def dice_html(roll: Roll, *, big: bool = False) -> str:
    """A throw drawn as two die faces, read aloud as its numbers."""
    size = " big" if big else ""
    return (
        f'<span class="dice{size}" role="img" aria-label="{roll.a} and {roll.b}">'
        f"{_FACES[roll.a - 1]}{_FACES[roll.b - 1]}</span>"
    )


def _options(pairs: Iterable[tuple[str, str]], chosen: str | None = None) -> str:
    return "".join(
        f'<option value="{_e(value)}"{" selected" if value == chosen else ""}>{_e(label)}</option>'
        for value, label in pairs
    )


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who a page is rendered for: the player whose seat it holds (None: a spectator), and whether it holds
    the host's keys."""

    seat: str | None = None
    host: bool = False


class Pages:
    """Renders the lobby and the tables of one hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    # --- the lobby ------------------------------------------------------------------------------------

    async def lobby(self) -> str:
        tables = await asyncio.to_thread(self.hub.open_tables)
        rulesets = _options(((r.id, f"{r.name} ({r.id})") for r in builtin_rulesets()), "wikipedia")
        paytables = _options([("", "the ruleset's own"), *((p.id, p.name) for p in builtin_paytables())])
        stakes = _options([("", "the ruleset's own"), *((s.value, s.text) for s in StakeArrangement)])
        rows = "".join(
            f'<li><a href="/tables/{t["id"]}">{_e(t["label"])}</a> '
            f'<span class="muted">table {t["id"]} · {_e(t["ruleset"])} · '
            f"{_count(t['entries'], 'entry', 'entries')}</span> "
            f'<a class="button" href="/tables/{t["id"]}">join or watch</a></li>'
            for t in tables
        )
        stakings = _options((s.value, s.value) for s in Staking)
        body = f"""
<header><h1>Hazard</h1><p class="muted">The old dice game, at one table from any browser.</p></header>
<main class="lobby">
<section class="card"><h2>Open tables</h2>
<ul class="tables">{rows or '<li class="muted">No table is open yet: set one up.</li>'}</ul></section>
<section class="card"><h2>Set up a table</h2>
<form id="new-table" class="stack">
<label>Ruleset <select name="ruleset">{rulesets}</select></label>
<label>…or your own ruleset file <input type="file" name="ruleset_file" accept=".toml,text/plain"></label>
<label>Paytable <select name="paytable">{paytables}</select></label>
<label>…or your own paytable file <input type="file" name="paytable_file" accept=".toml,text/plain"></label>
<label>Stakes <select name="stakes">{stakes}</select></label>
<fieldset><legend>Dice</legend>
<label><input type="radio" name="dice" value="fair" checked> the server's fair dice</label>
<label><input type="radio" name="dice" value="typed"> real dice, entered by a referee</label></fieldset>
<label>Money <select name="money">{_options((m.value, m.value) for m in MoneyStyle)}</select></label>
<label>Bots stake <input name="bot_unit" value="1" maxlength="64" inputmode="decimal"></label>
<label>…and set their stakes <select name="bot_staking">{stakings}</select></label>
<label>Name of the table <input name="label" maxlength="80" placeholder="e.g. The Groom Porter's"></label>
<button type="submit">Set up the table</button>
</form></section>
<p class="message" id="message" role="alert" aria-live="assertive"></p>
<p class="muted"><a href="/docs">The API</a> · the same actions as the terminal game.</p>
</main>"""
        return _page("Hazard: the lobby", body, data={"page": "lobby"})

    # --- a late arrival's claim link -----------------------------------------------------------------------

    def claim(self, game: int, code: str, state: ClaimState | None, refusal: str | None) -> str:
        """The page a claim link opens: whose seat it holds and a button that takes it (a POST: the GET that
        showed this spent nothing), or why it holds none."""
        if state is None:
            body = (
                '<main class="lobby"><section class="card"><h1>This link holds no seat</h1>'
                f'<p class="message error">{_e(refusal or "")}</p>'
                f'<p><a class="button" href="/tables/{game}">Watch table {game}</a></p></section></main>'
            )
            return _page("Hazard: a claim link", body, data={"page": "claim"})
        body = (
            f'<main class="lobby"><section class="card"><h1>A seat at table {game}</h1>'
            f"<p>The host has seated <strong>{_e(state.player)}</strong> and sent you this link to take the "
            f"seat. It works once, in one browser, until {_e(state.expires)}.</p>"
            f'<form method="post" action="/tables/{game}/claim?code={_e(quote(code))}">'
            f'<button type="submit">Take the seat of {_e(state.player)}</button></form>'
            "</section></main>"
        )
        return _page("Hazard: a claim link", body, data={"page": "claim"})

    # --- a table ----------------------------------------------------------------------------------------

    async def table(self, game: int, viewer: Viewer, *, mode: str) -> str:
        async with self.hub.current(game) as live:
            view = self._view(live, viewer, mode)
            seq = live.seq
        title = f"{live.session.info.label} · Hazard"
        links = (
            f'<nav class="muted"><a href="/">lobby</a> · <a href="/tables/{game}">table</a> · '
            f'<a href="/tables/{game}/screen">big screen</a>'
            + (f' · <a href="/tables/{game}/referee">referee</a>' if viewer.host else "")
            + f' · <a href="/api/tables/{game}/record">record</a></nav>'
        )
        if mode == "screen":
            links = ""
        body = (
            f'{links}<main id="table" class="{_e(mode)}">{view}</main>'
            '<p class="message" id="message" role="alert" aria-live="assertive"></p>'
        )
        data = {"page": "table", "game": game, "mode": mode, "seq": seq}
        return _page(title, body, data=data)

    async def view(self, game: int, viewer: Viewer, *, mode: str) -> str:
        async with self.hub.current(game) as live:
            return self._view(live, viewer, mode)

    def _view(self, live: LiveTable, viewer: Viewer, mode: str) -> str:
        session = live.session
        table = session.table
        money = live.money
        seat = viewer.seat if viewer.seat is not None and table.seated(viewer.seat) else None
        parts = [f'<div class="view" data-seq="{live.seq}">']
        parts.append(self._round(live, table, big=mode == "screen"))
        parts.append(self._players(table, money, seat))
        parts.append(self._bets(table, money))
        if session.info.dice is DiceKind.FAIR:
            parts.append(self._fair(live))
        if live.closed:
            parts.append('<section class="card"><p><strong>This table is closed.</strong></p></section>')
        elif mode == "table":
            parts.append(self._controls(live, table, viewer.host, seat))
        elif mode == "referee":
            parts.append(self._referee(live, viewer.host))
        parts.append(self._log(live, money, short=mode == "screen"))
        parts.append("</div>")
        return "".join(parts)

    def _round(self, live: LiveTable, table: Table, *, big: bool) -> str:
        info = live.session.info
        turn = table.turn
        r = table.round
        throws = _round_throws(live, table)
        if throws:
            shown = " ".join(dice_html(roll, big=big) for roll in throws)
            thrown = (
                f'<p class="throws">{"this round" if table.throws_this_round else "last throw"}: {shown}</p>'
            )
        else:
            thrown = '<p class="throws muted">no throw yet</p>'
        chance = caster_chance(r) if turn.caster is not None and not r.is_over else None
        if chance is not None:
            odds = (
                f'<p class="odds">The caster wins from here with probability '
                f"<strong>{_e(readable_fraction(chance))}</strong> ≈ {float(chance):.4f}</p>"
            )
        elif turn.caster is not None:
            odds = '<p class="odds muted">The caster has a main to call.</p>'
        else:
            odds = ""
        main = "—" if r.main is None else str(r.main)
        chance_point = "—" if r.chance is None else str(r.chance)
        return (
            f'<section class="card round"><h1>{_e(info.label)}</h1>'
            f'<p class="muted">{_e(info.ruleset.name)} · {_e(info.paytable.name)} · '
            f"{_e(info.dice.describe(info.seed))} · stakes: {_e(table.stakes.text)} · "
            f"table {live.game}, entry {live.seq}</p>"
            f'<dl class="point"><div><dt>caster</dt><dd>{_e(turn.caster or "—")}</dd></div>'
            f"<div><dt>main</dt><dd>{_e(main)}</dd></div>"
            f"<div><dt>chance</dt><dd>{_e(chance_point)}</dd></div>"
            f"<div><dt>round</dt><dd>{table.rounds_played + 1}</dd></div></dl>"
            f'<p class="turn">{_e(turn)}</p>{thrown}{odds}</section>'
        )

    def _players(self, table: Table, money: MoneyStyle, seat: str | None) -> str:
        rows = []
        for p in table.players:
            marks = []
            if p.name == table.caster:
                marks.append("caster")
            if p.bot is not None:
                marks.append(f"bot ({p.bot.value})")
            if p.name == seat:
                marks.append("you")
            mark = f' <span class="tag">{_e(", ".join(marks))}</span>' if marks else ""
            rows.append(
                f"<tr><th>{_e(p.name)}{mark}</th><td>{_e(format_money(p.bankroll, money))}</td>"
                f"<td>{_e(format_money(table.available(p.name), money))}</td></tr>"
            )
        body = "".join(rows) or '<tr><td colspan="3" class="muted">Nobody is seated yet.</td></tr>'
        stakes = "".join(
            f"<li>{_e(w.opponent)} stakes {_e(format_money(w.amount, money))} against the caster</li>"
            for w in table.wagers
        )
        return (
            '<section class="card"><h2>Players</h2><table class="players"><thead><tr><th>player</th>'
            f"<th>bankroll</th><th>free</th></tr></thead><tbody>{body}</tbody></table>"
            + (f'<h3>Stakes</h3><ul class="stakes">{stakes}</ul>' if stakes else "")
            + "</section>"
        )

    def _bets(self, table: Table, money: MoneyStyle) -> str:
        if not table.side_bets:
            return ""
        rows = "".join(
            f'<li data-bet="{b.number}">{_e(b.text(money))}'
            f" — {_e('laid by ' + b.layer if b.layer else 'open: nobody has taken it')}</li>"
            for b in table.side_bets
        )
        return f'<section class="card"><h2>Side bets</h2><ul class="bets">{rows}</ul></section>'

    def _fair(self, live: LiveTable) -> str:
        fair = live.session.fair
        if fair is None:
            return ""
        hand = fair.current
        parts = ['<section class="card fair"><h2>Fair dice</h2>']
        if hand is not None:
            seeded = (
                "" if hand.client_seed is None else f" · players' seed <code>{_e(hand.client_seed)}</code>"
            )
            parts.append(
                f"<p>Hand {hand.number}: the dice are committed to SHA-256 "
                f'<code class="hash">{_e(hand.commitment)}</code>{seeded}</p>'
            )
        revealed = fair.revealed
        if revealed is not None:
            parts.append(_verified(revealed))
        parts.append(
            f'<p class="muted">Check any game: <a href="/api/tables/{live.game}/record">its record</a>, then '
            "<code>hazard verify FILE.json</code>.</p></section>"
        )
        return "".join(parts)

    def _controls(self, live: LiveTable, table: Table, is_host: bool, seat: str | None) -> str:
        if seat is None:
            host = self._host(live) if is_host else ""
            return (
                '<section class="card controls"><h2>Join the table</h2>'
                '<form id="join" class="row"><label>Name <input name="name" maxlength="40" required></label>'
                '<label>Bankroll <input name="bankroll" value="100" maxlength="30" required></label>'
                '<button type="submit">Sit down</button></form>'
                '<p class="muted">Or just watch: this page follows the table as it plays.</p></section>'
                + host
            )
        can = choices(table, seat)
        buttons = []
        for main in can.mains:
            buttons.append(_button(f"call {main}", f"Call {main}"))
        if can.throw:
            buttons.append(_button("throw", "Throw the dice", primary=True))
        if can.throw_for is not None:
            buttons.append(_button("throw", f"Let {can.throw_for} throw", primary=True))
        if can.withdraw:
            buttons.append(_button("withdraw", "Withdraw my stakes"))
        if can.pass_dice:
            buttons.append(_button("pass", "Pass the dice"))
        if can.leave:
            buttons.append(_button("leave", "Leave the table"))
        for number in can.take:
            buttons.append(_button(f"take {number}", f"Take bet #{number}"))
        for number in can.cancel:
            buttons.append(_button(f"cancel {number}", f"Cancel bet #{number}"))
        for action in can.others:  # a type registered beside the built-in ones: its button is its command
            command = action_text(action, live.money)
            buttons.append(_button(command, command))
        parts = ['<section class="card controls"><h2>Your move, ' + _e(seat) + "</h2>"]
        parts.append(f'<div class="buttons">{"".join(buttons)}</div>' if buttons else "")
        if can.stake:
            whom = "the bank" if table.caster == seat else (table.caster or "the caster")
            parts.append(
                '<form class="row act" data-template="stake {amount}">'
                f'<label>Stake against {_e(whom)} <input name="amount" maxlength="30" required '
                'placeholder="e.g. 5"></label><button type="submit">Stake</button></form>'
            )
        if can.offer:
            parts.append(
                '<form class="offer act" data-template="offer {amount} on {proposition} at {odds}">'
                "<h3>Offer a side bet</h3>"
                '<label>Bet <input name="proposition" maxlength="200" required '
                'placeholder="e.g. 4 or 10 before 7"></label>'
                '<label>Amount <input name="amount" maxlength="30" value="1" required></label>'
                '<label>Odds <input name="odds" maxlength="30" value="evens" required></label>'
                '<output class="preview muted" aria-live="polite"></output>'
                '<button type="submit">Offer</button></form>'
            )
        if live.session.info.dice is DiceKind.FAIR:
            fair = live.session.fair
            hand = None if fair is None else fair.current
            if hand is not None and fair is not None:
                parts.append(_own_seed(hand, fair.fresh_entry(seat)))
        parts.append(
            '<form class="row act" data-template="{command}"><label>Command '
            '<input name="command" maxlength="500" placeholder="as in the terminal, e.g. stake 5"></label>'
            '<button type="submit">Send</button></form></section>'
        )
        if is_host:
            parts.append(self._host(live))
        return "".join(parts)

    def _host(self, live: LiveTable) -> str:
        return (
            '<section class="card host"><h2>Host</h2>'
            '<form id="bot" class="row"><label>Bot <input name="name" maxlength="40" required '
            'placeholder="e.g. Bob"></label><label>Bankroll '
            '<input name="bankroll" value="100" maxlength="30">'
            '</label><label>Plays as <select name="policy"><option value="setter">setter</option>'
            '<option value="bystander">bystander</option></select></label>'
            '<button type="submit">Seat the bot</button>'
            '</form><form id="late" class="row"><label>Late arrival '
            '<input name="name" maxlength="40" required></label><label>Bankroll <input name="bankroll" '
            'value="100" maxlength="30"></label><button type="submit">Seat</button></form>'
            '<p class="muted">A late arrival is given a link that takes his seat once, in one browser, '
            f"within {_minutes(self.hub.claim_ttl)}; the link is not a key of yours.</p>"
            '<form class="row act host" data-template="leave {name}"><label>Remove from the table '
            '<input name="name" maxlength="40" required></label>'
            '<button type="submit">Remove</button></form>'
            '<p><button type="button" class="danger" id="close">Close the table</button></p></section>'
        )

    def _referee(self, live: LiveTable, is_host: bool) -> str:
        if not is_host:
            return (
                '<section class="card"><p>Only the table\'s host referees: open this page in the browser '
                "that set the table up.</p></section>"
            )
        if live.session.info.dice is not DiceKind.TYPED:
            return (
                '<section class="card"><p>This table throws the server\'s fair dice: there are no real '
                "dice to "
                "enter.</p></section>" + self._host(live)
            )
        die = "".join(
            f'<button type="button" data-face="{face}" aria-label="{face}">{_FACES[face - 1]}</button>'
            for face in range(1, 7)
        )
        return (
            '<section class="card referee"><h2>The dice as they fell</h2>'
            f'<div class="die" data-die="a">{die}</div><div class="die" data-die="b">{die}</div>'
            '<p><button type="button" id="enter-roll" class="primary" disabled>Enter the throw</button> '
            f'<span id="roll-shown" class="muted">tap one face of each die</span></p>'
            '<div class="buttons">' + _button("undo", "Undo the last action", host=True) + "</div>"
            '<form class="row act host" data-template="{command}"><label>Command '
            '<input name="command" maxlength="500" placeholder="e.g. stake Bob 5, call 7, fix 7 3-4">'
            '</label><button type="submit">Enter</button></form></section>' + self._host(live)
        )

    def _log(self, live: LiveTable, money: MoneyStyle, *, short: bool) -> str:
        shown = list(live.recent)[-(8 if short else _LOG) :]
        corrected = _corrected(live)
        lines = []
        for done in reversed(shown):
            entry = done.entry
            mark = corrected.get(entry.seq)
            if isinstance(entry.item, FairNote) and short:
                continue
            events = "".join(f"<li>{_e(event_text(event, money))}</li>" for event in done.events)
            opening = '<li class="corrected">' if mark else "<li>"
            note = f' <span class="tag">{mark} by a correction</span>' if mark else ""
            lines.append(
                f'{opening}<span class="seq">[{entry.seq}]</span> {_e(entry.actor)}: '
                f"{_e(entry_text(entry, money))}{note}" + (f"<ul>{events}</ul>" if events else "") + "</li>"
            )
        return (
            '<section class="card log"><h2>What happened</h2>'
            f'<ol class="log" tabindex="0">{"".join(lines)}</ol></section>'
        )


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _minutes(seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    return f"{minutes} minute{'' if minutes == 1 else 's'}"


def _button(action: str, label: str, *, primary: bool = False, host: bool = False) -> str:
    kind = ' class="primary"' if primary else ""
    role = ' data-role="host"' if host else ""
    return f'<button type="button"{kind}{role} data-action="{_e(action)}">{_e(label)}</button>'


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
    rolls = [
        d.entry.item for d in live.recent if isinstance(d.entry.item, Roll) and d.entry.seq not in corrected
    ]
    wanted = table.throws_this_round or 1
    return rolls[-wanted:]


def _own_seed(hand: Hand, entry: int | None) -> str:
    """What the seat's page does for the hand's dice: once it sees the hand's commitment, it sets a fresh
    random seed of its own (``hazard.js`` answers ``data-seed-hand``), so the server, committed already,
    cannot know it. Said, not asked: nobody types anything."""
    if entry is not None:
        return (
            f'<p class="muted own-seed" data-seed-set="{hand.number}">Your seed for hand {hand.number} is '
            f"set (entry {entry}), after the dice committed to the hand.</p>"
        )
    if hand.client_seed is not None:
        return (
            f'<p class="muted own-seed">Hand {hand.number} was thrown before your page set a seed for it; it '
            "sets one for the next hand.</p>"
        )
    return (
        f'<p class="muted own-seed" data-seed-hand="{hand.number}">Your page is setting a seed of its own '
        f"for hand {hand.number}…</p>"
    )


def _verified(hand: Hand) -> str:
    """A revealed hand, checked here as ``hazard verify`` checks it: its seed against its commitment, and
    every throw recomputed from the seeds and its nonce."""
    assert hand.server_seed is not None
    matches = commitment(bytes.fromhex(hand.server_seed)) == hand.commitment
    thrown = throw_mismatch(hand) is None
    mark = "✔ verified" if matches and thrown else "✘ does not verify"
    count = len(hand.throws)
    return (
        f'<p class="verified">Hand {hand.number} is over: its seed '
        f'<code class="hash">{_e(hand.server_seed)}</code> '
        f"matches its commitment and all {count} throw{'s' if count != 1 else ''} follow from the seeds: "
        f"<strong>{_e(mark)}</strong></p>"
        if matches and thrown
        else f'<p class="verified bad">Hand {hand.number}: <strong>{_e(mark)}</strong></p>'
    )
