"""The provably fair dice of :mod:`hazard.table.fair.commit_reveal`: known answers (those docs/fairness.md
writes down), no bias from the rejection of high bytes, the cursor's advance past a block of them, and the
bounds of a seed.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections import Counter
from types import SimpleNamespace

import pytest
from tests.paths import DOCS

from hazard.core.dice import ROLLS, Roll
from hazard.core.errors import InvalidError
from hazard.table.fair import commit_reveal as fair
from hazard.table.fair.commit_reveal import (
    MAX_CLIENT_SEED,
    check_client_seed,
    client_seed_of,
    commitment,
    fair_throw,
    new_client_seed,
    new_server_seed,
    server_seed_from_hex,
)

FAIRNESS = DOCS / "fairness.md"
SEED = bytes(range(32))
"""The known answers' server seed: the bytes 0, 1, ..., 31."""

KNOWN_COMMITMENTS = {
    SEED: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
    bytes(32): "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
}
KNOWN_THROWS = {
    "ann,bob": ["3-2", "4-2", "1-6", "3-1", "2-2", "2-4", "3-2", "3-2"],
    "ann-seed,bob-seed": ["4-2", "4-6", "4-2", "1-1", "2-3", "6-6", "2-3", "5-5"],
}
"""Throws 0 to 7 of :data:`SEED` with each client seed. Throw 1 of ``ann,bob`` skips a byte: its block begins
``fb 5b``, and 0xfb = 251 is 216 or more, so 0x5b = 91 gives k = 91 % 36 = 19, the throw 4-2."""

CHI_SQUARE_THROWS = 360_000
CHI_SQUARE_CRITICAL = 66.619
"""The chi-square value that 35 degrees of freedom exceed with probability 0.001 (66.6188: the regularized
upper incomplete gamma function Q(35/2, x/2) = 0.001, computed by its series)."""
CHI_SQUARE_SEEN = 29.2624
"""What the 360,000 throws of :data:`SEED` with client seed ``chi-square`` give: fixed, being seeded."""


# --- known answers ------------------------------------------------------------------------------------------


def test_commitments_are_the_known_answers() -> None:
    for seed, expected in KNOWN_COMMITMENTS.items():
        assert commitment(seed) == expected == hashlib.sha256(seed).hexdigest()


def test_throws_are_the_known_answers() -> None:
    for client_seed, expected in KNOWN_THROWS.items():
        assert [str(fair_throw(SEED, client_seed, nonce)) for nonce in range(8)] == expected


def test_the_skipped_byte_of_the_known_answers() -> None:
    block = hmac.new(SEED, b"ann,bob:1:0", hashlib.sha256).digest()
    assert block[:2] == bytes([0xFB, 0x5B])
    assert fair_throw(SEED, "ann,bob", 1) == Roll(91 % 36 // 6 + 1, 91 % 6 + 1) == Roll(4, 2)


def test_the_docs_write_down_these_known_answers() -> None:
    text = FAIRNESS.read_text(encoding="utf-8")
    for seed, expected in KNOWN_COMMITMENTS.items():
        assert expected in text, seed.hex()
    for client_seed, throws in KNOWN_THROWS.items():
        assert f"`{client_seed}`" in text
        assert " ".join(throws) in text, client_seed


def test_the_module_docstring_example_is_these_answers() -> None:
    assert fair.__doc__ is not None
    assert KNOWN_COMMITMENTS[SEED] in fair.__doc__
    assert str(KNOWN_THROWS["ann,bob"][:4]) in fair.__doc__


# --- no bias ------------------------------------------------------------------------------------------------


def _outcome(byte: int) -> Roll | None:
    """What one byte of a block gives, as :func:`fair_throw` reads it: a throw, or None (skipped)."""
    if byte >= 216:
        return None
    k = byte % 36
    return Roll(k // 6 + 1, k % 6 + 1)


def test_every_outcome_has_exactly_six_of_the_accepted_bytes() -> None:
    counts = Counter(_outcome(byte) for byte in range(256))
    assert counts.pop(None) == 40  # 216 to 255: skipped
    assert set(counts) == set(ROLLS)
    assert set(counts.values()) == {6}


def test_the_helper_reads_bytes_as_fair_throw_does(monkeypatch: pytest.MonkeyPatch) -> None:
    for byte in range(216):
        _patch_blocks(monkeypatch, [bytes([byte]) * 32])
        assert fair_throw(SEED, "x", 0) == _outcome(byte)


def test_throws_pass_a_chi_square_test_at_a_fixed_seed() -> None:
    counts = Counter(fair_throw(SEED, "chi-square", nonce) for nonce in range(CHI_SQUARE_THROWS))
    expected = CHI_SQUARE_THROWS / 36
    statistic = sum((counts[roll] - expected) ** 2 / expected for roll in ROLLS)
    assert len(counts) == 36
    assert math.isclose(statistic, CHI_SQUARE_SEEN, abs_tol=1e-4)
    assert statistic < CHI_SQUARE_CRITICAL


def test_the_critical_value_is_the_one_for_p_one_in_a_thousand() -> None:
    def upper_tail(x: float, df: int) -> float:
        a, z = df / 2, x / 2
        term = total = 1 / a
        n = 0
        while term > 1e-17 * total:
            n += 1
            term *= z / (a + n)
            total += term
        return 1 - total * math.exp(-z + a * math.log(z) - math.lgamma(a))

    assert upper_tail(CHI_SQUARE_CRITICAL, 35) == pytest.approx(0.001, rel=1e-3)
    assert upper_tail(CHI_SQUARE_CRITICAL - 0.01, 35) > 0.001 > upper_tail(CHI_SQUARE_CRITICAL + 0.01, 35)


# --- the cursor -------------------------------------------------------------------------------------------


def _patch_blocks(monkeypatch: pytest.MonkeyPatch, blocks: list[bytes]) -> list[tuple[bytes, bytes]]:
    """Make fair's HMAC give ``blocks`` in turn (the last one again after them); the keys and messages it
    was asked for are returned, as they are asked."""
    asked: list[tuple[bytes, bytes]] = []

    def new(key: bytes, message: bytes, digestmod: object) -> SimpleNamespace:
        assert digestmod is hashlib.sha256
        asked.append((key, message))
        block = blocks[min(len(asked), len(blocks)) - 1]
        return SimpleNamespace(digest=lambda: block)

    monkeypatch.setattr(fair, "hmac", SimpleNamespace(new=new))
    return asked


def test_a_block_of_bytes_all_skipped_moves_the_cursor_on(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _patch_blocks(monkeypatch, [bytes([216]) * 32, bytes([255]) * 32, bytes([250, 7, 0])])
    assert fair_throw(SEED, "ann,bob", 5) == Roll(2, 2)  # 7: k = 7, so 7 // 6 + 1 = 2 and 7 % 6 + 1 = 2
    assert asked == [(SEED, b"ann,bob:5:0"), (SEED, b"ann,bob:5:1"), (SEED, b"ann,bob:5:2")]


def test_the_message_is_the_client_seed_nonce_and_cursor_in_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _patch_blocks(monkeypatch, [bytes([35])])
    assert fair_throw(SEED, "Zoë,ann", 12) == Roll(6, 6)
    assert asked == [(SEED, "Zoë,ann:12:0".encode())]


def test_a_block_is_read_from_its_first_byte(monkeypatch: pytest.MonkeyPatch) -> None:
    _patch_blocks(monkeypatch, [bytes([217, 215, 0])])
    assert fair_throw(SEED, "x", 0) == _outcome(215) == Roll(6, 6)


# --- bounds -------------------------------------------------------------------------------------------------


def test_fair_throw_refuses_a_bad_seed_or_nonce() -> None:
    with pytest.raises(InvalidError, match="server seed of 31 bytes: expected 32"):
        fair_throw(bytes(31), "x", 0)
    for nonce in (-1, True, 1.0, "0"):
        with pytest.raises(InvalidError, match="invalid nonce"):
            fair_throw(SEED, "x", nonce)  # type: ignore[arg-type]


def test_client_seeds_of_1_to_64_printable_characters() -> None:
    for seed in ("a", "x" * MAX_CLIENT_SEED, "my lucky seed", "Zoë", "a;b", new_client_seed()):
        assert check_client_seed(seed) == seed
    for bad in ("", "x" * (MAX_CLIENT_SEED + 1), " lead", "trail ", "tab\there", "new\nline", "\x1b[2J", 7):
        with pytest.raises(InvalidError, match="invalid client seed"):
            check_client_seed(bad)  # type: ignore[arg-type]


def test_a_seed_holding_the_comma_that_joins_the_seeds_is_refused() -> None:
    """Issue 19, finding 12: 'a,b' for Ann beside Bob's 'c' makes the client seed 'a,b,c', which reads as
    three players' seeds as well as two; the table refuses it, and says which characters a seed may have."""
    for bad in ("a,b", ",", "ann,", ",bob"):
        with pytest.raises(InvalidError, match="printable characters other than ','"):
            check_client_seed(bad)


def test_a_stored_seed_with_a_comma_still_reads_back() -> None:
    """An old record's seed that holds a comma (taken before the table refused them) still loads: only its
    verification fails (tests/table/fair/test_table_verify.py)."""
    from hazard.table.fair.commit_reveal import ClientSeeded, note_from_json

    assert note_from_json({"type": "client-seed", "player": "Ann", "seed": "a,b"}) == ClientSeeded(
        "Ann", "a,b"
    )
    with pytest.raises(InvalidError, match="invalid client seed"):
        note_from_json({"type": "client-seed", "player": "Ann", "seed": "new\nline"})


def test_new_seeds_are_of_their_shape() -> None:
    client = new_client_seed()
    assert len(client) == 16
    assert int(client, 16) >= 0
    server = new_server_seed()
    assert len(server) == 32
    assert new_server_seed() != server
    assert server_seed_from_hex(server.hex()) == server


def test_a_server_seed_as_shown_is_64_lowercase_hex_digits() -> None:
    assert server_seed_from_hex(SEED.hex()) == SEED
    for bad in (SEED.hex().upper(), SEED.hex()[:-1], SEED.hex() + "0", "g" * 64, "", None):
        with pytest.raises(InvalidError, match="expected 64 lowercase hex digits"):
            server_seed_from_hex(bad)  # type: ignore[arg-type]


def test_a_hands_client_seed_joins_the_seats_in_order() -> None:
    assert client_seed_of(["ann-seed", "bob-seed"]) == "ann-seed,bob-seed"
    assert client_seed_of(["solo"]) == "solo"


def test_a_revealed_hand_whose_throw_the_seeds_do_not_give_is_named() -> None:
    from hazard.core.dice import ROLLS
    from hazard.table.fair.commit_reveal import Hand, commitment, fair_throw, throw_mismatch

    seed = bytes(range(32))
    throws = tuple((5 + n, n, fair_throw(seed, "ann", n)) for n in range(3))
    assert throw_mismatch(Hand(1, commitment(seed), "ann", seed.hex(), throws)) is None
    given = throws[2][2]
    wrong = next(roll for roll in ROLLS if roll != given)
    bad = Hand(1, commitment(seed), "ann", seed.hex(), (*throws[:2], (7, 2, wrong)))
    assert throw_mismatch(bad) == (
        f"hand 1, throw entry 7 (nonce 2): the seeds give {given}, but the record shows {wrong}"
    )
