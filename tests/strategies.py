"""Hypothesis strategies for the core, and a writer that turns a ruleset back into TOML text.

``rulesets()`` builds random *valid* :class:`~hazard.core.rules.Ruleset` objects: any main method, any set of
mains (exactly one for a fixed main), and for each main a row that sorts every total into nick, out, chance or
"throw again", with the main never its own chance and at least one total that decides something.
``to_toml(ruleset)`` writes one back in the loader's format, so ``ruleset_from_toml(to_toml(r), ...) == r``.
"""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import strategies as st

from hazard.core.dice import ROLLS, TOTALS, Roll
from hazard.core.errors import InvalidError
from hazard.core.rules import DicePassing, LossCount, MainMethod, MainRow, Ruleset, Source, StakeArrangement
from hazard.core.rulesets import find_paytable, ruleset_to_toml
from hazard.table.actions import (
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Throw,
    Withdraw,
)

__all__ = [
    "dice_passings",
    "main_rows",
    "rolls",
    "ruleset_ids",
    "rulesets",
    "sources",
    "table_actions",
    "texts",
    "throw_of",
    "to_toml",
]

_NICK, _OUT, _CHANCE, _AGAIN = "nick", "out", "chance", "again"


def rolls() -> st.SearchStrategy[Roll]:
    """Any of the 36 ordered throws."""
    return st.sampled_from(ROLLS)


def texts(*, min_size: int = 1, max_size: int = 30) -> st.SearchStrategy[str]:
    """Unicode text that is not blank (the loader refuses an empty or all-space name or citation)."""
    return st.text(min_size=min_size, max_size=max_size).filter(lambda text: bool(text.strip()))


def ruleset_ids() -> st.SearchStrategy[str]:
    """Ids the loader accepts: lower-case letters and digits, in dash-separated words."""
    return st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}", fullmatch=True)


@st.composite
def main_rows(draw: st.DrawFn, main: int) -> MainRow:
    """A valid row for ``main``: each total is a nick, an out, a chance or thrown again."""
    kinds: dict[int, str] = {}
    for total in TOTALS:
        choices = [_NICK, _OUT, _AGAIN] if total == main else [_NICK, _OUT, _CHANCE, _AGAIN]
        kinds[total] = draw(st.sampled_from(choices))
    if all(kind == _AGAIN for kind in kinds.values()):
        # At least one total must decide something; make one total that is not the main a chance, or
        # the main a nick, whichever hypothesis picks.
        total = draw(st.sampled_from(TOTALS))
        kinds[total] = _NICK if total == main else draw(st.sampled_from([_NICK, _OUT, _CHANCE]))

    def of(kind: str) -> frozenset[int]:
        return frozenset(total for total, k in kinds.items() if k == kind)

    return MainRow(main, nicks=of(_NICK), outs=of(_OUT), chances=of(_CHANCE))


def dice_passings() -> st.SearchStrategy[DicePassing]:
    return st.builds(DicePassing, st.integers(0, 5), st.sampled_from(LossCount))


def sources() -> st.SearchStrategy[Source]:
    return st.builds(
        Source,
        citation=texts(),
        file=st.none() | texts(max_size=12),
        url=st.none() | texts(max_size=12),
    )


@st.composite
def rulesets(draw: st.DrawFn, *, methods: Iterable[MainMethod] = tuple(MainMethod)) -> Ruleset:
    """A random valid ruleset (``methods`` narrows the main methods drawn from)."""
    method = draw(st.sampled_from(tuple(methods)))
    if method is MainMethod.FIXED:
        mains = [draw(st.sampled_from(TOTALS))]
    else:
        mains = sorted(draw(st.sets(st.sampled_from(TOTALS), min_size=1, max_size=6)))
    rows = [draw(main_rows(main)) for main in mains]
    # Rows in any order: the ruleset sorts them by main.
    rows = draw(st.permutations(rows))
    ruleset = Ruleset(
        id=draw(ruleset_ids()),
        name=draw(texts()),
        source=draw(sources()),
        method=method,
        rows=tuple(rows),
        passing=draw(dice_passings()),
        paytable=None,
        stakes=draw(st.sampled_from(StakeArrangement)),
        notes=tuple(draw(st.lists(st.text(max_size=20), max_size=3))),
        aliases=tuple(draw(st.lists(ruleset_ids(), max_size=2))),
    )
    # A named default paytable must cover every chance the ruleset can set: the flat and true-odds ones
    # always do, the printed Wikipedia table only for mains 5 to 9 with chances 4 to 10.
    paytables: list[str | None] = [None, "even", "true-odds"]
    try:
        find_paytable("wikipedia").check(ruleset)
    except InvalidError:
        pass
    else:
        paytables.append("wikipedia")
    paytable = draw(st.sampled_from(paytables))
    if paytable is None:
        return ruleset
    return Ruleset(
        id=ruleset.id,
        name=ruleset.name,
        source=ruleset.source,
        method=ruleset.method,
        rows=ruleset.rows,
        passing=ruleset.passing,
        paytable=paytable,
        stakes=ruleset.stakes,
        notes=ruleset.notes,
        aliases=ruleset.aliases,
    )


# --- TOML writer: the core's own, re-exported for the tests that used it from here ---

to_toml = ruleset_to_toml


# --- table actions (hazard.table) ---


def table_actions() -> st.SearchStrategy[TableAction]:
    """Any table action with fields the game record can store (it need not be legal at any table)."""
    names = texts(max_size=12)
    money = st.fractions(min_value=0, max_value=10**6, max_denominator=1000)
    numbers = st.integers(-(2**31), 2**31)
    return st.one_of(
        st.builds(Sit, names, money, st.none() | texts(max_size=10)),
        st.builds(Stake, names, money, st.booleans()),
        st.builds(Withdraw, names),
        st.builds(Call, numbers),
        st.builds(Throw, rolls()),
        st.builds(OfferBet, names, texts(max_size=30), money, money),
        st.builds(TakeBet, numbers, names),
        st.builds(CancelBet, numbers),
        st.just(PassDice()),
    )


def throw_of(total: int) -> Throw:
    """A throw showing ``total``, for tests where the faces do not matter: 1-1 ... 1-6, then 2-6 ... 6-6."""
    return Throw(Roll(1, total - 1) if total <= 7 else Roll(total - 6, 6))
