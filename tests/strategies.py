"""Hypothesis strategies for the core, and a writer that turns a ruleset back into TOML text.

``rulesets()`` builds random *valid* :class:`~hazard.core.rules.Ruleset` objects: any main method, any set of
mains (exactly one for a fixed main), and for each main a row that sorts every total into nick, out, chance or
"throw again", with the main never its own chance and at least one total that decides something.
``to_toml(ruleset)`` writes one back in the loader's format, so ``ruleset_from_toml(to_toml(r), ...) == r``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from hazard.core.dice import ROLLS, TOTALS, Roll
from hazard.core.errors import HazardError, InvalidError
from hazard.core.rules import DicePassing, LossCount, MainMethod, MainRow, Ruleset, Source, StakeArrangement
from hazard.core.rulesets import builtin_paytables, builtin_rulesets, find_paytable, ruleset_to_toml
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    BotPolicy,
    Call,
    CancelBet,
    Leave,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Withdraw,
)
from hazard.table.rules.state import Table, new_table
from hazard.table.rules.transitions import apply_action

__all__ = [
    "actors",
    "dice_passings",
    "main_rows",
    "played_tables",
    "rolls",
    "ruleset_ids",
    "rulesets",
    "sources",
    "table_actions",
    "table_actions_among",
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
        st.builds(Sit, names, money, st.none() | st.sampled_from(BotPolicy)),
        st.builds(Stake, names, money, st.booleans()),
        st.builds(Withdraw, names),
        st.builds(Leave, names),
        st.builds(Call, numbers),
        rolls(),
        st.builds(OfferBet, names, texts(max_size=30), money, money),
        st.builds(TakeBet, numbers, names),
        st.builds(CancelBet, numbers),
        st.just(PassDice()),
    )


def actors() -> st.SearchStrategy[Actor]:
    """The referee, or a player with any name the record can store."""
    return st.just(REFEREE) | st.builds(Actor.player, texts(max_size=12))


def throw_of(total: int) -> Roll:
    """A throw showing ``total``, for tests where the faces do not matter: 1-1 ... 1-6, then 2-6 ... 6-6."""
    return Roll(1, total - 1) if total <= 7 else Roll(total - 6, 6)


# Side bets for tables in play: the source's own, one the parser normalises, and ones it refuses.
_PROPOSITIONS = ("next odd", "4 or 10 before 7", "2, 3, 11 or 12 within 3 throws", "next 7", "7 before 7", "")


def table_actions_among(names: Sequence[str]) -> st.SearchStrategy[TableAction]:
    """Actions a table in play may or may not allow, weighted towards those it often does: players from
    ``names``, small sums (0 and fractions included), mains 5 to 9 and sometimes 2 to 12, bets 1 to 3 and
    sometimes 0 or 4, and propositions valid and not."""
    who = st.sampled_from(tuple(names))
    small = st.sampled_from([Fraction(1), Fraction(2), Fraction(5, 2), Fraction(1, 3)])
    money = small | small | st.fractions(min_value=0, max_value=30, max_denominator=4)
    odds = st.sampled_from([Fraction(1), Fraction(1), Fraction(2), Fraction(5, 6), Fraction(0)])
    bets = st.integers(1, 3) | st.sampled_from([0, 4])
    stakes = st.builds(Stake, who, money, st.booleans())
    offers = st.builds(OfferBet, who, st.sampled_from(_PROPOSITIONS), money, odds)
    takes = st.builds(TakeBet, bets, who)
    return st.one_of(
        stakes,
        rolls(),
        offers,
        takes,
        stakes,
        st.builds(Call, st.integers(5, 9) | st.integers(2, 12)),
        rolls(),
        st.builds(Withdraw, who),
        offers,
        st.builds(CancelBet, bets),
        takes,
        rolls(),
        st.just(PassDice()),
        st.builds(Sit, who, money, st.none() | st.sampled_from(BotPolicy)),
    )


@st.composite
def played_tables(draw: st.DrawFn, names: Sequence[str] = ("Ann", "Bob", "Cat")) -> Table:
    """A table of any built-in ruleset, paytable and stake arrangement, with one to all of ``names`` seated
    (bankrolls 0 to 60), after 2 to 20 random actions entered by the referee (those refused left out)."""
    ruleset = draw(st.sampled_from(builtin_rulesets()))
    paytables = []
    for paytable in builtin_paytables():
        try:
            paytable.check(ruleset)
        except InvalidError:
            continue
        paytables.append(paytable)
    stakes = draw(st.none() | st.sampled_from(StakeArrangement))
    table = new_table(ruleset, draw(st.sampled_from(paytables)), stakes)
    for name in names[: draw(st.integers(1, len(names)))]:
        bankroll = Fraction(draw(st.integers(20, 60) | st.integers(0, 5)))
        table, _ = apply_action(table, Sit(name, bankroll), by=REFEREE)
    for action in draw(st.lists(table_actions_among(names), min_size=2, max_size=20)):
        try:
            table, _ = apply_action(table, action, by=REFEREE)
        except HazardError:
            continue
    return table
