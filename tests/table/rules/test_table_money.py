"""Money at the table: the three written styles, the forms people type, and what is refused."""

from __future__ import annotations

from fractions import Fraction
from math import gcd

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hazard.core.errors import InvalidError
from hazard.core.rulesets import find_paytable
from hazard.table.rules.money import MoneyStyle, check_sum, format_money, money_text, parse_money

FORMS = "expected a sum such as 5, 2.50, 5/3, £1 10s or 7s 6d"
TOO_MUCH = "expected at most 1000000000000 units"
TOO_FINE = "expected a denominator of at most 1000000000 (in units, in lowest terms)"
DIVIDES_BY_0 = FORMS + ", with a denominator of 1 or more"  # as the one reader of numbers says it
NOT_POSITIVE = "expected more than 0"

# amount, DECIMAL, EXACT, LSD
STYLES = [
    (Fraction(0), "0.00", "0", "£0"),
    (Fraction(1), "1.00", "1", "£1"),
    (Fraction(5), "5.00", "5", "£5"),
    (Fraction(-5), "-5.00", "-5", "-£5"),
    (Fraction(5, 2), "2.50", "5/2", "£2 10s"),
    (Fraction(-5, 2), "-2.50", "-5/2", "-£2 10s"),
    (Fraction(201, 100), "2.01", "201/100", "£2 2 2/5d"),
    (Fraction(1, 20), "0.05", "1/20", "1s"),
    (Fraction(305, 3), "101.67", "305/3", "£101 13s 4d"),
    (Fraction(1, 3), "0.33", "1/3", "6s 8d"),
    (Fraction(2, 3), "0.67", "2/3", "13s 4d"),
    (Fraction(-1, 3), "-0.33", "-1/3", "-6s 8d"),
    (Fraction(3, 2), "1.50", "3/2", "£1 10s"),
    (Fraction(3, 8), "0.38", "3/8", "7s 6d"),
    (Fraction(1, 40), "0.03", "1/40", "6d"),
    (Fraction(241, 240), "1.00", "241/240", "£1 1d"),
    (Fraction(1, 960), "0.00", "1/960", "¼d"),
    (Fraction(1, 480), "0.00", "1/480", "½d"),
    (Fraction(31, 960), "0.03", "31/960", "7¾d"),
    (Fraction(-31, 960), "-0.03", "-31/960", "-7¾d"),
    (Fraction(481, 480), "1.00", "481/480", "£1 ½d"),
    (Fraction(1, 720), "0.00", "1/720", "1/3d"),
    (Fraction(13, 720), "0.02", "13/720", "4 1/3d"),
    (Fraction(-13, 720), "-0.02", "-13/720", "-4 1/3d"),
    (Fraction(1, 7), "0.14", "1/7", "2s 10 2/7d"),
    (Fraction(1, 1000), "0.00", "1/1000", "6/25d"),
    (Fraction(-1, 1000), "0.00", "-1/1000", "-6/25d"),  # rounds to nothing: never "-0.00"
    (Fraction(1, 200), "0.01", "1/200", "1 1/5d"),  # half a hundredth rounds up ...
    (Fraction(-1, 200), "-0.01", "-1/200", "-1 1/5d"),  # ... and away from zero when negative
    (Fraction(1, 10**9), "0.00", "1/1000000000", "3/12500000d"),
    (Fraction(10**12), "1000000000000.00", "1000000000000", "£1000000000000"),
    (Fraction(10**12 - 2, 3), "333333333332.67", "999999999998/3", "£333333333332 13s 4d"),
    (
        Fraction(10**12) - Fraction(1, 960),
        "1000000000000.00",
        "959999999999999/960",
        "£999999999999 19s 11¾d",
    ),
]


@pytest.mark.parametrize(("amount", "decimal", "exact", "lsd"), STYLES)
def test_format_money_in_every_style(amount: Fraction, decimal: str, exact: str, lsd: str) -> None:
    assert format_money(amount) == decimal
    assert format_money(amount, MoneyStyle.DECIMAL) == decimal
    assert format_money(amount, MoneyStyle.EXACT) == exact
    assert format_money(amount, MoneyStyle.LSD) == lsd


@pytest.mark.parametrize(("amount", "decimal", "exact", "lsd"), [row for row in STYLES if row[0] >= 0])
def test_every_style_reads_back(amount: Fraction, decimal: str, exact: str, lsd: str) -> None:
    assert parse_money(exact, allow_zero=True) == amount
    assert parse_money(lsd, allow_zero=True) == amount
    if (amount * 100).denominator == 1:
        assert parse_money(decimal, allow_zero=True) == amount


def test_styles_are_named_by_their_values() -> None:
    assert [style.value for style in MoneyStyle] == ["decimal", "exact", "lsd"]
    assert MoneyStyle("lsd") is MoneyStyle.LSD


def lsd_of_pence(numerator: int, denominator: int) -> str:
    """``numerator/denominator`` pence (at least 0) as pounds, shillings and pence, by integer arithmetic."""
    whole, rest = divmod(numerator, denominator)
    pounds, shillings, pence = whole // 240, whole // 12 % 20, whole % 12
    if rest == 0:
        penny_part = f"{pence}d" if pence else ""
    elif 4 * rest % denominator == 0:
        penny_part = f"{pence or ''}{'¼½¾'[4 * rest // denominator - 1]}d"
    else:
        common = gcd(rest, denominator)
        penny_part = (f"{pence} " if pence else "") + f"{rest // common}/{denominator // common}d"
    written = [f"£{pounds}" * (pounds > 0), f"{shillings}s" * (shillings > 0), penny_part]
    return " ".join(part for part in written if part) or "£0"


def test_the_reference_agrees_on_every_kind_of_penny() -> None:
    # The payouts below are all whole pence; this covers farthings and other fractions of a penny too.
    for per_penny in (1, 2, 3, 4, 7, 8, 12, 25):
        for numerator in range(600):
            amount = Fraction(numerator, 240 * per_penny)
            assert format_money(amount, MoneyStyle.LSD) == lsd_of_pence(numerator, per_penny), amount


WIKIPEDIA = find_paytable("wikipedia")
WIKIPEDIA_ODDS = [
    *(
        pytest.param(odds, id=f"main {main} chance {chance}")
        for (main, chance), odds in WIKIPEDIA.table.items()
    ),
    pytest.param(WIKIPEDIA.nick, id="nick"),
]


@pytest.mark.parametrize("odds", WIKIPEDIA_ODDS)
def test_wikipedia_payouts_in_lsd(odds: Fraction) -> None:
    for stake in range(1, 21):
        winnings = stake * odds
        written = lsd_of_pence(240 * stake * odds.numerator, odds.denominator)
        assert format_money(winnings, MoneyStyle.LSD) == written, (stake, odds)
        assert parse_money(written) == winnings
        returned = winnings + stake  # what the caster takes up: the winnings and the stake back
        assert format_money(returned, MoneyStyle.LSD) == lsd_of_pence(
            240 * returned.numerator, returned.denominator
        )


def test_wikipedia_odds_on_a_stake_of_one_pinned() -> None:
    pinned = {
        Fraction(2, 3): "13s 4d",
        Fraction(4, 5): "16s",
        Fraction(5, 6): "16s 8d",
        Fraction(1): "£1",
        Fraction(6, 5): "£1 4s",
        Fraction(5, 4): "£1 5s",
        Fraction(4, 3): "£1 6s 8d",
        Fraction(3, 2): "£1 10s",
        Fraction(5, 3): "£1 13s 4d",
        Fraction(2): "£2",
    }
    assert set(pinned) == {*WIKIPEDIA.table.values(), WIKIPEDIA.nick}
    assert {odds: format_money(odds, MoneyStyle.LSD) for odds in pinned} == pinned
    assert format_money(20 * Fraction(5, 6), MoneyStyle.LSD) == "£16 13s 4d"
    assert format_money(7 * Fraction(4, 5), MoneyStyle.LSD) == "£5 12s"


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("5", Fraction(5)),
        ("2.50", Fraction(5, 2)),
        ("2.5", Fraction(5, 2)),
        ("0.05", Fraction(1, 20)),
        ("5/3", Fraction(5, 3)),
        (" 25 / 3 ", Fraction(25, 3)),
        ("4/2", Fraction(2)),
        ("007", Fraction(7)),
        ("£10", Fraction(10)),
        ("£2.50", Fraction(5, 2)),
        ("$5", Fraction(5)),
        ("€5", Fraction(5)),
        ("$ 3", Fraction(3)),
        ("£1 10s", Fraction(3, 2)),
        ("7s 6d", Fraction(3, 8)),
        ("7s6d", Fraction(3, 8)),
        ("7 s 6 d", Fraction(3, 8)),
        ("7S 6D", Fraction(3, 8)),
        ("£101 13s 4d", Fraction(305, 3)),
        ("£ 101 13 s 4 d", Fraction(305, 3)),
        ("  £1 10s  ", Fraction(3, 2)),
        ("£5 6d", Fraction(201, 40)),
        ("£1 0s 0d", Fraction(1)),
        ("6d", Fraction(1, 40)),
        ("1¾d", Fraction(7, 960)),
        ("1 ¾d", Fraction(7, 960)),
        ("¼d", Fraction(1, 960)),
        ("£1 ½d", Fraction(481, 480)),
        ("1/3d", Fraction(1, 720)),
        ("4 1/3d", Fraction(13, 720)),
        ("4 1/3 d", Fraction(13, 720)),
        ("41/3d", Fraction(41, 720)),  # no space: a fraction, 13 2/3 pence
        ("2s 10 2/7d", Fraction(1, 7)),
        # Parts past their next unit are taken as written, as in period accounts.
        ("25s", Fraction(5, 4)),
        ("15d", Fraction(1, 16)),
        ("£1 25s 15d", Fraction(37, 16)),
        ("4 5/3d", Fraction(17, 720)),
        # The bounds themselves are allowed.
        ("1000000000000", Fraction(10**12)),
        ("1/1000000000", Fraction(1, 10**9)),
        ("1/4166666d", Fraction(1, 999_999_840)),
        (" " * 63 + "5", Fraction(5)),
    ],
)
def test_parse_money_reads_what_people_type(text: str, amount: Fraction) -> None:
    assert parse_money(text) == amount


def refused(text: str, problem: str) -> object:
    return pytest.param(text, f"invalid amount {text!r}: {problem}", id=repr(text)[:40])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        *(
            refused(text, FORMS)
            for text in [
                "abc",
                "",
                "   ",
                "1e3",
                "1.",
                ".5",
                "1,000",
                "10 pounds",
                "£-1",
                "£110s",  # £1 10s or £110? Pounds need a space before what follows.
                "1 10s",  # pounds without the pound sign
                "£1.5 10s",
                "7.5s",
                "2.5d",
                "1/2s",
                "4 1/3",  # whole and fraction together only in pence
                "s",
                "d",
                "£",
                "£ s d",
                "7d 6s",
                "£1 10s £2",
                "1/3d 2s",
                "--5",
                "5 d s",
                "٥",  # a digit, but not an ASCII one
                "1 " * 32,
                "1s" * 32,
                "£1 " * 21,
                "1" * 63 + "x",
            ]
        ),
        refused("5/0", DIVIDES_BY_0),
        refused("0/0", DIVIDES_BY_0),
        refused("1/0d", DIVIDES_BY_0),
        refused("4 1/0d", DIVIDES_BY_0),
        *(refused(text, NOT_POSITIVE) for text in ["0", "0.00", "0/7", "£0", "0d", "£0 0s 0d", "-0"]),
        *(refused(text, NOT_POSITIVE) for text in ["-5", "-2.50", "-5/3", "- 5/3", "-£1 10s", "−£1", "-¼d"]),
        *(
            refused(text, TOO_MUCH)
            for text in ["1000000000000.01", "£1000000000000 1d", "1" * 60, "99999999999999s"]
        ),
        *(
            refused(text, TOO_FINE)
            for text in ["1/1000000001", "0.0000000001", "1/4166667d", "1/" + "3" * 50]
        ),
        pytest.param(
            "1" * 5000,
            "invalid amount '1111111111111111…' (5000 characters): expected at most 64 characters",
            id="5000 digits",
        ),
        pytest.param(
            "1/" + "7" * 4998,
            "invalid amount '1/77777777777777…' (5000 characters): expected at most 64 characters",
            id="5000-digit fraction",
        ),
        pytest.param(
            " " * 64 + "5",
            f"invalid amount {' ' * 16 + '…'!r} (65 characters): expected at most 64 characters",
            id="65 characters",
        ),
    ],
)
def test_parse_money_refuses(text: str, message: str) -> None:
    with pytest.raises(InvalidError) as caught:
        parse_money(text)
    assert str(caught.value) == message


def test_parse_money_names_what_is_read_and_can_allow_zero() -> None:
    with pytest.raises(InvalidError) as caught:
        parse_money("abc", what="stake")
    assert str(caught.value) == "invalid stake 'abc': expected a sum such as 5, 2.50, 5/3, £1 10s or 7s 6d"
    for text in ["0", "0.00", "£0", "0d", "-0"]:
        assert parse_money(text, allow_zero=True) == 0
    with pytest.raises(InvalidError) as caught:
        parse_money("-£1", what="bankroll", allow_zero=True)
    assert str(caught.value) == "invalid bankroll '-£1': expected 0 or more"


AMOUNTS = st.builds(Fraction, st.integers(0, 10**12), st.integers(1, 10**9)) | st.builds(
    Fraction, st.integers(0, 10**5), st.sampled_from([1, 2, 3, 4, 7, 240, 480, 720, 960, 1680])
)


@settings(derandomize=True, max_examples=400)
@given(AMOUNTS, st.sampled_from([MoneyStyle.EXACT, MoneyStyle.LSD]))
def test_exact_and_lsd_read_back_exactly(amount: Fraction, style: MoneyStyle) -> None:
    assert parse_money(format_money(amount, style), allow_zero=True) == amount


@settings(derandomize=True, max_examples=400)
@given(st.integers(0, 10**14))
def test_decimal_reads_back_hundredths_exactly(cents: int) -> None:
    amount = Fraction(cents, 100)
    assert parse_money(format_money(amount), allow_zero=True) == amount


@settings(derandomize=True)
@given(AMOUNTS.filter(bool), st.sampled_from(MoneyStyle))
def test_negative_amounts_are_printed_but_never_read(amount: Fraction, style: MoneyStyle) -> None:
    with pytest.raises(InvalidError, match=NOT_POSITIVE):
        parse_money(format_money(-amount, style))


@settings(derandomize=True, max_examples=1000)
@given(st.text(max_size=80) | st.text(alphabet="0123456789 ./£$€sSdD¼½¾-−", max_size=70))
def test_parser_raises_nothing_but_invalid_error(text: str) -> None:
    # Anything but InvalidError escapes and fails the test; a refusal must still read like one.
    result: Fraction | InvalidError
    try:
        result = parse_money(text, allow_zero=True)
    except InvalidError as error:
        result = error
    if isinstance(result, InvalidError):
        assert str(result).startswith("invalid amount ")
    else:
        assert 0 <= result <= 10**12
        assert result.denominator <= 10**9
        assert parse_money(format_money(result, MoneyStyle.EXACT), allow_zero=True) == result


# --- look-alikes, and sums in refusals (issue 19) -----------------------------------------------------------


@pytest.mark.parametrize("text", ["7ſ 6d", "7 ſ", "£1 10ſ", "ſ"])
def test_the_long_s_is_refused_as_a_look_alike(text: str) -> None:
    # The sources (002_e25665f301869517.txt and the others) never write money with ſ; a case-blind match
    # read "7ſ 6d" as 7s 6d.
    with pytest.raises(InvalidError, match="'ſ' \\(the long s\\) looks like s but is not one"):
        parse_money(text, what="stake")


@pytest.mark.parametrize(("text", "amount"), [("7S 6D", Fraction(3, 8)), ("7 s 6 d", Fraction(3, 8))])
def test_capital_letters_still_read(text: str, amount: Fraction) -> None:
    assert parse_money(text) == amount


def test_other_letters_that_fold_to_s_or_d_are_refused() -> None:
    for text in ("7\u017f", "7\uff53 6d", "6\u0256"):  # long s, fullwidth s, d with tail
        with pytest.raises(InvalidError):
            parse_money(text)


@pytest.mark.parametrize(
    ("amount", "style", "shown"),
    [
        (Fraction(1, 1680), MoneyStyle.LSD, "1/7d"),
        (Fraction(3, 8), MoneyStyle.LSD, "7s 6d"),
        (Fraction(3, 8), MoneyStyle.EXACT, "3/8"),
        (Fraction(5, 2), MoneyStyle.DECIMAL, "2.50"),
        (Fraction(1, 3), MoneyStyle.DECIMAL, "1/3"),  # 0.33 would round: a refusal shows it exactly
        (Fraction(-3, 2), MoneyStyle.LSD, "-£1 10s"),
    ],
)
def test_a_sum_in_a_message_is_in_the_tables_style_where_that_is_exact(
    amount: Fraction, style: MoneyStyle, shown: str
) -> None:
    assert money_text(amount, style) == shown


def test_a_sum_refused_is_shown_in_the_tables_style() -> None:
    with pytest.raises(InvalidError) as caught:
        check_sum(Fraction(0), what="stake", money=MoneyStyle.LSD)
    assert str(caught.value) == "invalid stake: £0, expected an amount above 0"
    with pytest.raises(InvalidError) as caught:
        check_sum(Fraction(-3, 8), what="stake", money=MoneyStyle.LSD)
    assert str(caught.value) == "invalid stake: -7s 6d, expected an amount above 0"
