"""Money at the table: exact amounts in units, written and read the way people write them.

Every amount is an exact :class:`~fractions.Fraction` of a unit (odds such as 4/5 make fractions).
:func:`format_money` writes it in one of three styles; :func:`parse_money` reads all three back, and the
forms people type.

>>> amount = Fraction(305, 3)
>>> format_money(amount), format_money(amount, MoneyStyle.EXACT), format_money(amount, MoneyStyle.LSD)
('101.67', '305/3', '£101 13s 4d')
>>> [format_money(Fraction(n, d), MoneyStyle.LSD) for n, d in [(3, 2), (3, 8), (1, 960), (1, 720), (-3, 2)]]
['£1 10s', '7s 6d', '¼d', '1/3d', '-£1 10s']
>>> parse_money("£101 13s 4d"), parse_money("2.50"), parse_money("5/3"), parse_money("7s 6d")
(Fraction(305, 3), Fraction(5, 2), Fraction(5, 3), Fraction(3, 8))
"""

from __future__ import annotations

import enum
import re
from fractions import Fraction

from hazard.core.errors import InvalidError, quoted
from hazard.core.numbers import fraction_text, parse_fraction

__all__ = [
    "MAX_AMOUNT",
    "MAX_DENOMINATOR",
    "MAX_GRAIN",
    "MAX_ODDS",
    "MoneyStyle",
    "check_odds",
    "check_sum",
    "command_style",
    "format_money",
    "money_text",
    "parse_money",
]


class MoneyStyle(enum.Enum):
    """How :func:`format_money` writes an amount."""

    DECIMAL = "decimal"
    """Two decimal places, rounded half away from zero (for display only): ``101.67``, ``5.00``, ``-2.50``."""
    EXACT = "exact"
    """Whole amounts as ``5``, others as a fraction in lowest terms: ``305/3``, ``-5/2``."""
    LSD = "lsd"
    """Pounds, shillings and pence, one unit being £1 (£1 = 20s = 240d): ``£101 13s 4d``, ``7¾d``."""


_PENCE_PER_POUND = 240
_PENCE_PER_SHILLING = 12
_FARTHING_GLYPHS = {1: "¼", 2: "½", 3: "¾"}
_GLYPH_FARTHINGS = {glyph: farthings for farthings, glyph in _FARTHING_GLYPHS.items()}

# A table cannot mean more than these; bounding them also keeps every conversion small and fast.
_MAX_LENGTH = 64
MAX_AMOUNT = 10**12
"""The most units one sum at a table may be: a bankroll, a stake, a side bet."""
MAX_DENOMINATOR = 10**9
"""The finest part of a unit a sum may be given in (in lowest terms: ``1/3d`` is 1/720 of a pound)."""
MAX_ODDS = 10**9
"""The most either side of a side bet's odds may be (``a/b`` with ``a`` and ``b`` at most this)."""
MAX_GRAIN = 10**30
"""The finest part of a unit the money at a table may come to, all its sums, stakes and side bets together
(their denominators' least common multiple): a bet that would go finer is refused, so every sum a bankroll
can reach has a short exact form (Python refuses to write a number of more than 4,300 digits)."""

_FORMS = "a sum such as 5, 2.50, 5/3, £1 10s or 7s 6d"

# ASCII digits only ([0-9], not \d): int() would take other scripts' digits, which nobody means here.
# No pattern nests a repetition inside another, so a failed match backtracks polynomially, never
# exponentially, and the text is at most 64 characters when it is matched.
_NUMBER = r"[0-9]+(?:\.[0-9]+)?|[0-9]+\s*/\s*[0-9]+"
_UNITS = re.compile(rf"[£$€]?\s*(?P<number>{_NUMBER})")
_PENCE = r"[0-9]+\s+[0-9]+\s*/\s*[0-9]+|[0-9]+\s*/\s*[0-9]+|[0-9]*\s*[¼½¾]|[0-9]+"
# Pounds need a space before the next part ("£110s" could be £1 10s or £110); a letter already ends shillings.
# The letters in either case, spelled out: a case-blind match would also take the long s (ſ) and other
# letters that only fold to s or d.
_LSD = re.compile(
    rf"(?:£\s*(?P<pounds>[0-9]+)\s+)?(?:(?P<shillings>[0-9]+)\s*[sS]\s*)?(?:(?P<pence>{_PENCE})\s*[dD])?"
)
_MIXED = re.compile(r"(?P<whole>[0-9]+)\s+(?P<part>[0-9]+\s*/\s*[0-9]+)")


class _Refusal(Exception):
    """Why a text that has the shape of a sum is still not one (the caller adds what and the text)."""


def format_money(amount: Fraction, style: MoneyStyle = MoneyStyle.DECIMAL) -> str:
    """Write ``amount`` (in units) in ``style``.

    - ``DECIMAL``: two places, rounded half away from zero: ``101.67``, ``5.00``, ``0.33``, ``-2.50``. A
      negative amount that rounds to nothing is ``0.00``, not ``-0.00``. Lossy: for display, not for records.
    - ``EXACT``: ``5``, ``-5``, ``0`` for whole amounts, else ``305/3``, ``-5/2`` in lowest terms.
    - ``LSD``: ``£101 13s 4d``. Parts that are 0 are left out (``£1 10s``, ``7s 6d``, ``6d``, ``£5``,
      ``£1 ½d``), and nothing at all is ``£0``; a negative amount is ``-`` before the rest (``-£1 10s``).
      Below a penny: whole farthings as ``¼ ½ ¾`` (``7¾d``, ``¼d``), anything else as the exact fraction of
      a penny in lowest terms, after the whole pence and a space (``1/3d``, ``4 1/3d``, ``3/8d``).

    >>> [format_money(Fraction(x), style) for x in ("5", "-5/2") for style in MoneyStyle]
    ['5.00', '5', '£5', '-2.50', '-5/2', '-£2 10s']
    >>> format_money(Fraction(1, 3)), format_money(Fraction(-1, 1000)), format_money(Fraction(1, 200))
    ('0.33', '0.00', '0.01')
    >>> format_money(Fraction(1, 240) + 1, MoneyStyle.LSD), format_money(Fraction(31, 960), MoneyStyle.LSD)
    ('£1 1d', '7¾d')
    >>> format_money(Fraction(13, 720), MoneyStyle.LSD), format_money(Fraction(0), MoneyStyle.LSD)
    ('4 1/3d', '£0')
    """
    if style is MoneyStyle.EXACT:
        # Whole sums as people write them (5, not 5/1); the rest in the project's one form of a fraction.
        return str(amount.numerator) if amount.denominator == 1 else fraction_text(amount)
    sign = "-" if amount < 0 else ""
    if style is MoneyStyle.DECIMAL:
        # floor(x + 1/2) on the size rounds half away from zero once the sign is put back.
        cents = int(abs(amount) * 100 + Fraction(1, 2))
        if cents == 0:
            sign = ""
        whole, part = divmod(cents, 100)
        return f"{sign}{whole}.{part:02d}"
    return sign + _lsd(abs(amount))


def money_text(amount: Fraction, style: MoneyStyle = MoneyStyle.EXACT) -> str:
    """``amount`` as a message shows it: in the table's ``style`` where that is exact (it reads back to the
    same amount), else exactly, so that a refusal never rounds: ``7s 6d``, not ``3/8``, at a table in £ s d.

    >>> money_text(Fraction(1, 1680), MoneyStyle.LSD), money_text(Fraction(1, 3)), money_text(Fraction(5, 2))
    ('1/7d', '1/3', '5/2')
    >>> money_text(Fraction(1, 3), MoneyStyle.DECIMAL), money_text(Fraction(5, 2), MoneyStyle.DECIMAL)
    ('1/3', '2.50')
    """
    if abs(amount.numerator) > MAX_AMOUNT * MAX_DENOMINATOR or amount.denominator > MAX_DENOMINATOR:
        return quoted(amount)  # no sum a table may hold: shown cut short, never converted whole
    text = format_money(amount, style)
    if style is MoneyStyle.EXACT:
        return text
    try:
        unsigned = text.removeprefix("-")
        exact = parse_money(unsigned, allow_zero=True) * (-1 if amount < 0 else 1) == amount
    except InvalidError:  # beyond what a sum may be: written exactly
        exact = False
    return text if exact else format_money(amount, MoneyStyle.EXACT)


def command_style(style: MoneyStyle) -> MoneyStyle:
    """The style a command's sums are written in at a table showing ``style``: as shown, but whole and
    exact rather than in decimals (``stake Bob 5``, not ``stake Bob 5.00``)."""
    return MoneyStyle.EXACT if style is MoneyStyle.DECIMAL else style


def _lsd(amount: Fraction) -> str:
    """A non-negative ``amount`` of pounds as ``£a bs cd``, leaving out the parts that are 0."""
    pence = amount * _PENCE_PER_POUND
    whole = pence.numerator // pence.denominator
    below = pence - whole
    pounds, rest = divmod(whole, _PENCE_PER_POUND)
    shillings, pennies = divmod(rest, _PENCE_PER_SHILLING)
    parts: list[str] = []
    if pounds:
        parts.append(f"£{pounds}")
    if shillings:
        parts.append(f"{shillings}s")
    farthings = below * 4
    if below and farthings.denominator == 1:
        parts.append(f"{pennies or ''}{_FARTHING_GLYPHS[farthings.numerator]}d")
    elif below:
        # A space keeps "4 1/3d" apart from "41/3d" (thirteen and two thirds pence, read as written).
        whole_pence = f"{pennies} " if pennies else ""
        parts.append(f"{whole_pence}{fraction_text(below)}d")
    elif pennies:
        parts.append(f"{pennies}d")
    return " ".join(parts) or "£0"


def parse_money(text: str, *, what: str = "amount", allow_zero: bool = False) -> Fraction:
    """Read a sum in units, as :func:`format_money` writes it in any style or as people type it.

    The forms, with spaces allowed at either end:

    - units: ``5``, ``2.50``, ``5/3`` (spaces around ``/`` allowed), each optionally after one of ``£ $ €``,
      which all mean units (``£10``, ``£2.50``, ``$5``, ``€ 5``);
    - pounds, shillings and pence: ``£101 13s 4d``, ``£1 10s``, ``7s 6d``, ``6d``, ``£1 ½d``, any part
      left out but at least shillings or pence present (``£5`` alone is units, which is the same). Pounds are
      whole and must have a space before what follows (``£110s`` is refused: £1 10s or £110?). Between a
      number and its letter a space is allowed (``7 s 6 d``), and the letters may be capitals (``7S 6D``).
      Shillings are whole; pence are whole (``6d``), with a farthing glyph (``7¾d``, ``¼d``), a fraction
      (``1/3d``) or whole pence, a space and a fraction (``4 1/3d``).
      Every part is taken as written, as period accounts did: ``25s`` is £1 5s, ``15d`` is 1s 3d, and
      ``4 5/3d`` is 5⅔d.

    ``format_money`` output reads back exactly: ``parse_money(format_money(x, style)) == x`` for every
    ``x`` in the bounds below in the ``EXACT`` and ``LSD`` styles, and in ``DECIMAL`` where ``x`` is a whole
    number of hundredths; negative amounts are printed but never read.

    Refused, each with one :class:`~hazard.core.errors.InvalidError` that names ``what`` and ``text``: text
    longer than 64 characters (checked first, so no long number is ever converted), any other form, a
    fraction dividing by 0, an amount above 1000000000000 units or with a denominator above 1000000000
    (in units, in lowest terms: ``1/3d`` is 1/720), a negative amount, and 0 unless ``allow_zero``.

    >>> parse_money("£1 10s"), parse_money("25s"), parse_money("4 1/3d"), parse_money("$5")
    (Fraction(3, 2), Fraction(5, 4), Fraction(13, 720), Fraction(5, 1))
    >>> parse_money("abc", what="stake")
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid stake 'abc': expected a sum such as 5, 2.50, 5/3, £1 10s or 7s 6d
    """
    if len(text) > _MAX_LENGTH:
        shown = text[:16] + "…"
        raise InvalidError(
            f"invalid {what} {shown!r} ({len(text)} characters): expected at most {_MAX_LENGTH} characters"
        )
    body = text.strip()
    negative = body[:1] in ("-", "−")
    if negative:
        body = body[1:].lstrip()
    try:
        amount = _read(body)
    except _Refusal as refusal:
        raise InvalidError(f"invalid {what} {text!r}: {refusal}") from None
    if negative:
        amount = -amount
    if amount < 0 or (amount == 0 and not allow_zero):
        expected = "0 or more" if allow_zero else "more than 0"
        raise InvalidError(
            f"invalid {what} {text!r}: expected {expected}",
            said=f"{text!r} isn't {'an' if what[:1] in 'aeiou' else 'a'} {what}: type a sum "
            f"{'of 0 or more' if allow_zero else 'more than 0'}, such as 5 or 2.50.",
        )
    return amount


def _read(body: str) -> Fraction:
    """The amount that ``body`` (no sign, no outer spaces) writes, or :class:`_Refusal` saying why not."""
    if "ſ" in body:  # the long s: a case-blind match would take it for s; no source writes money with it
        raise _Refusal("'ſ' (the long s) looks like s but is not one: write shillings with s, e.g. 7s 6d")
    units = _UNITS.fullmatch(body)
    if units is not None:
        amount = _number(units["number"])
    else:
        lsd = _LSD.fullmatch(body)
        if lsd is None or (lsd["shillings"] is None and lsd["pence"] is None):
            raise _Refusal(f"expected {_FORMS}")
        pence = _pence(lsd["pence"]) if lsd["pence"] is not None else Fraction(0)
        pence += int(lsd["pounds"] or 0) * _PENCE_PER_POUND + int(lsd["shillings"] or 0) * _PENCE_PER_SHILLING
        amount = pence / _PENCE_PER_POUND
    if amount > MAX_AMOUNT:
        raise _Refusal(f"expected at most {MAX_AMOUNT} units")
    if amount.denominator > MAX_DENOMINATOR:
        raise _Refusal(f"expected a denominator of at most {MAX_DENOMINATOR} (in units, in lowest terms)")
    return amount


def check_sum(
    amount: Fraction,
    *,
    what: str = "amount",
    allow_zero: bool = False,
    money: MoneyStyle = MoneyStyle.EXACT,
) -> Fraction:
    """``amount`` if a table can hold it: above 0 (or 0 with ``allow_zero``), at most :data:`MAX_AMOUNT`
    units, in parts of at most :data:`MAX_DENOMINATOR`; else an :class:`InvalidError` naming ``what``, and
    the sum as ``money`` shows it (:func:`money_text`).

    Every sum that comes to a table passes here, typed or read back from a record, so none is too large to
    show or too fine to settle.

    >>> check_sum(Fraction(5, 2), what="stake")
    Fraction(5, 2)
    >>> check_sum(Fraction(10**13), what="stake")
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid stake: 10000000000000, expected at most 1000000000000 units
    """
    if amount < 0 or (amount == 0 and not allow_zero):
        expected = "expected 0 or more" if allow_zero else "expected an amount above 0"
        return _refuse_sum(amount, what, expected, money)
    if amount.denominator > MAX_DENOMINATOR:
        fine = f"expected a denominator of at most {MAX_DENOMINATOR} (in units, in lowest terms)"
        return _refuse_sum(amount, what, fine, money)
    if amount > MAX_AMOUNT:
        return _refuse_sum(amount, what, f"expected at most {MAX_AMOUNT} units", money)
    return amount


def check_odds(odds: Fraction, *, what: str = "odds", text: str | None = None) -> Fraction:
    """``odds`` if a side bet may be laid at them: above 0, ``a/b`` with ``a`` and ``b`` at most
    :data:`MAX_ODDS`; else an :class:`InvalidError` naming ``what``, and ``text`` where they were typed."""
    if odds <= 0 or odds.numerator > MAX_ODDS or odds.denominator > MAX_ODDS:
        expected = f"expected odds above 0, a/b with a and b at most {MAX_ODDS}, such as 2/1 or evens"
        if text is not None:
            raise InvalidError(f"invalid {what} {quoted(text)}: {expected}")
        raise InvalidError(f"invalid {what}: {quoted(odds)}, {expected}")
    return odds


def _refuse_sum(amount: Fraction, what: str, expected: str, money: MoneyStyle) -> Fraction:
    shown = money_text(amount, money) if amount.denominator <= MAX_DENOMINATOR else None
    raise InvalidError(f"invalid {what}: {shown or quoted(amount)}, {expected}")


def _number(text: str) -> Fraction:
    """``5``, ``2.50`` or ``5 / 3`` as the one reader of numbers reads it; the sum's bounds are checked in
    units once its parts are added up, so none are given here."""
    try:
        return parse_fraction(text, what="sum", expected=_FORMS, most=None, finest=None)
    except InvalidError:  # the forms matched already: only a fraction dividing by 0 is left to refuse
        raise _Refusal(f"expected {_FORMS}, with a denominator of 1 or more") from None


def _pence(text: str) -> Fraction:
    """Pence as the pattern ``_PENCE`` matched them: ``6``, ``7¾``, ``¼``, ``1/3``, ``4 1/3``."""
    glyph = text[-1:]
    if glyph in _GLYPH_FARTHINGS:
        return int(text[:-1].strip() or 0) + Fraction(_GLYPH_FARTHINGS[glyph], 4)
    mixed = _MIXED.fullmatch(text)
    if mixed is not None:
        return int(mixed["whole"]) + _number(mixed["part"])
    return _number(text)
