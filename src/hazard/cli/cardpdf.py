"""The table card drawn as one PDF page (fpdf2, the card extra): :class:`hazard.analysis.card.TableCard`'s
text laid out, nothing added but headings.

fpdf2's built-in fonts (Helvetica) need no font file, and so the card prints the same everywhere; they hold
Latin-1 alone, so the few other characters of the card's text (dashes, curly quotes, a minus sign) are
written as their nearest Latin-1 (:func:`latin`). The page is laid out at a type size that fits it on one
page: from 9 points down, until it does.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from hazard.analysis.card import BETS_SOURCE, TableCard

if TYPE_CHECKING:
    from fpdf import FPDF

__all__ = ["Paper", "card_pdf", "latin"]


class Paper(enum.Enum):
    """The sheet the card is printed on."""

    A4 = "a4"
    LETTER = "letter"


_FORMATS = {Paper.A4: "A4", Paper.LETTER: "Letter"}
_MARGIN = 12.0  # mm
_SIZES = (9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0, 5.5, 5.0)
"""The type sizes tried, largest first: the first that fits the card on one page is used."""

_LATIN = str.maketrans(
    {
        "“": '"',
        "”": '"',
        "‘": "'",
        "’": "'",
        "—": "-",
        "–": "-",
        "−": "-",
        "≈": "~",
        "→": "->",
        "…": "...",
        "Δ": "change in ",
    }
)


def latin(text: str) -> str:
    """``text`` in the Latin-1 the card's built-in fonts hold: the card's few other characters as their
    nearest, any one left over as ``?``.

    >>> latin("Paytable “even” — 1/1 − 2")
    'Paytable "even" - 1/1 - 2'
    """
    return text.translate(_LATIN).encode("latin-1", "replace").decode("latin-1")


def card_pdf(card: TableCard, paper: Paper = Paper.A4) -> bytes:
    """The card as a one-page PDF on ``paper``, at the largest type size that fits it there."""
    from fpdf import FPDF  # noqa: PLC0415 - the card extra, imported by hazard card alone

    for size in _SIZES:
        pdf = FPDF(orientation="portrait", unit="mm", format=_FORMATS[paper])
        pdf.set_margins(_MARGIN, _MARGIN, _MARGIN)
        pdf.set_auto_page_break(auto=True, margin=_MARGIN)
        pdf.set_title(latin(f"Table card: {card.title}"))
        pdf.set_creator("hazard card")
        pdf.add_page()
        fits = _draw(pdf, card, size)
        if (fits and pdf.page_no() == 1) or size == _SIZES[-1]:
            return bytes(pdf.output())
    raise AssertionError("unreachable: the last size is returned")  # pragma: no cover


def _heading(pdf: FPDF, text: str, size: float) -> None:
    pdf.ln(size * 0.25)
    pdf.set_font("Helvetica", "B", size + 1.5)
    pdf.cell(0, size * 0.5, latin(text), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(size * 0.08)


def _para(pdf: FPDF, text: str, size: float, style: str = "") -> None:
    pdf.set_font("Helvetica", style, size)
    pdf.multi_cell(0, size * 0.42, latin(text), align="L", new_x="LMARGIN", new_y="NEXT")


def _row(
    pdf: FPDF, x: float, cells: list[str], widths: list[float], height: float, *, bold: bool = False
) -> None:
    """One line of a table from ``x``, each cell framed; a cell saying ``nick`` or ``out`` stands out."""
    pdf.set_x(x)
    for text, width in zip(cells, widths, strict=True):
        fill = text in ("nick", "out")
        pdf.set_fill_color(*((225, 225, 225) if text == "out" else (255, 255, 255)))
        style = "B" if bold or text == "nick" else ""
        pdf.set_font("Helvetica", style, pdf.font_size_pt)
        pdf.cell(width, height, latin(text), border=1, align="C", fill=fill)
    pdf.ln(height)


def _draw(pdf: FPDF, card: TableCard, size: float) -> bool:
    """Lay the card out at ``size`` points; False where its tables side by side are wider than the page."""
    _rules(pdf, card, size)
    fits = _tables(pdf, card, size)
    _paytable(pdf, card, size)
    _bets(pdf, card, size)
    if card.notes:
        _heading(pdf, "Notes on reading the source", size)
        for number, note in enumerate(card.notes, start=1):
            _para(pdf, f"{number}. {note}", size * 0.9)
    pdf.ln(size * 0.2)
    made = "Made by hazard card: every figure is exact, from hazard's analyser."
    _para(pdf, made, size * 0.8, "I")
    return fits


def _rules(pdf: FPDF, card: TableCard, size: float) -> None:
    pdf.set_font("Helvetica", "B", size + 6)
    pdf.multi_cell(0, (size + 6) * 0.45, latin(card.title), align="L", new_x="LMARGIN", new_y="NEXT")
    _para(pdf, f"Source: {card.citation}", size, "I")
    if card.source_file:
        _para(pdf, f"Source file: {card.source_file} (among hazard's sources)", size, "I")
    _heading(pdf, "The rules", size)
    for text in (
        card.main,
        "The opening throw (the throw for a chance) on each main is in the table below.",
        card.chance,
        card.passing,
    ):
        _para(pdf, text, size)


def _tables(pdf: FPDF, card: TableCard, size: float) -> bool:
    """The opening throw's table (mains across, throws down) and the exact odds beside it; False where the
    two are wider than the page."""
    line = size * 0.5
    top = pdf.get_y()
    _heading(pdf, "The opening throw", size)
    pdf.set_font("Helvetica", "", size)
    cell = pdf.get_string_width("chance") + 2
    grid_widths = [cell, *([cell] * len(card.mains))]
    column = max(sum(grid_widths), cell * 4)  # a ruleset of one main keeps room for its heading and key
    _row(pdf, _MARGIN, ["thrown", *(f"main {m}" for m in card.mains)], grid_widths, line, bold=True)
    for total, cells in card.grid:
        _row(pdf, _MARGIN, [str(total), *cells], grid_widths, line)
    pdf.set_font("Helvetica", "", size * 0.85)
    pdf.multi_cell(
        column,
        size * 0.38,
        latin("nick: the caster wins; out: he loses; chance: it is his chance; again: he throws again."),
        new_x="LMARGIN",
        new_y="NEXT",
    )
    below_grid = pdf.get_y()

    left = _MARGIN + column + 4
    pdf.set_xy(left, top)
    pdf.set_font("Helvetica", "B", size + 1.5)
    pdf.ln(size * 0.25)
    pdf.set_x(left)
    pdf.cell(0, size * 0.5, latin("Exact odds (the analyser's)"), new_x="LEFT", new_y="NEXT")
    pdf.ln(size * 0.08)
    thrown = any(odds.p_main for odds in card.odds)
    heads = ["main", *(["P(main)"] if thrown else []), "caster wins", "house edge"]
    pdf.set_font("Helvetica", "", size)
    texts = [[o.main, *([o.p_main] if thrown else []), o.p_win, o.edge] for o in card.odds]
    widths = [
        max(pdf.get_string_width(latin(t)) for t in column) + 2 for column in zip(heads, *texts, strict=True)
    ]
    fits = left + sum(widths) <= pdf.w - _MARGIN
    for row_cells, bold in [(heads, True), *((t, False) for t in texts)]:
        _row(pdf, left, row_cells, widths, line, bold=bold)
    pdf.set_font("Helvetica", "", size * 0.85)
    pdf.set_x(left)
    pdf.multi_cell(pdf.w - _MARGIN - left, size * 0.38, latin(card.odds_note), new_x="LEFT", new_y="NEXT")
    pdf.set_y(max(pdf.get_y(), below_grid))
    return fits


def _paytable(pdf: FPDF, card: TableCard, size: float) -> None:
    _heading(pdf, "The paytable", size)
    _para(pdf, card.paytable, size)
    if card.paytable_grid:
        pdf.set_font("Helvetica", "", size)
        head, *rows = card.paytable_grid
        first = pdf.get_string_width(head[0]) + 3
        cell = max(pdf.get_string_width(latin(text)) for line in rows for text in line) + 4
        widths = [first, *([max(cell, size * 1.3)] * (len(head) - 1))]
        _row(pdf, _MARGIN, list(head), widths, size * 0.5, bold=True)
        for paid in rows:
            _row(pdf, _MARGIN, list(paid), widths, size * 0.5)


def _bets(pdf: FPDF, card: TableCard, size: float) -> None:
    width = pdf.w - 2 * _MARGIN
    line = size * 0.5
    _heading(pdf, f"Side bets: the good even-money bets of source {BETS_SOURCE}", size)
    _para(pdf, "Each is a fair bet at evens: its true odds against, and its chance.", size)
    pdf.set_font("Helvetica", "", size)
    columns = 2
    column = (width - 6) / columns
    per = -(-len(card.bets) // columns)
    start = pdf.get_y()
    for number, bet in enumerate(card.bets):
        pdf.set_xy(_MARGIN + (number // per) * (column + 6), start + (number % per) * line)
        pdf.set_font("Helvetica", "", size)
        pdf.cell(column * 0.62, line, latin(bet.proposition), border="B")
        pdf.set_font("Helvetica", "B", size)
        pdf.cell(column * 0.2, line, latin(bet.fair_odds), border="B", align="R")
        pdf.set_font("Helvetica", "", size)
        pdf.cell(column * 0.18, line, latin(f"p = {bet.probability}"), border="B", align="R")
    pdf.set_xy(_MARGIN, start + per * line)
