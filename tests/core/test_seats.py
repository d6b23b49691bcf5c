"""The seat order's rules (:mod:`hazard.core.seats`): a newcomer at the caster's right, the dice to his left;
the table's list form and the verifier's ring agree on every order of sitting, leaving and passing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hazard.core.seats import SeatRing, newcomer_place, next_in_turn


def test_a_newcomer_sits_at_the_casters_right() -> None:
    assert newcomer_place([], None) == 0
    assert newcomer_place(["Ann", "Bob"], "Ann") == 2  # the caster first: last from him is the end
    assert newcomer_place(["Ann", "Bob", "Cat"], "Cat") == 2
    assert next_in_turn(["Ann", "Bob"], "Bob") == "Ann"
    assert next_in_turn(["Ann"], "Ann") == "Ann"


MOVES = st.lists(st.tuples(st.sampled_from(("sit", "leave", "pass")), st.integers(0, 7)), max_size=60)


@given(MOVES)
def test_the_list_and_the_ring_agree(moves: list[tuple[str, int]]) -> None:
    """Played as the table plays them (a leaving caster hands the dice on), both give one order and caster."""
    names: list[str] = []
    ring = SeatRing()
    caster: str | None = None
    for move, pick in moves:
        if move == "sit":
            name = f"p{pick}"
            if name in names:
                continue
            names.insert(newcomer_place(names, caster), name)
            ring.sit(name, caster)
            caster = caster or name
        elif names and move == "leave":
            name = names[pick % len(names)]
            if name == caster:
                after = next_in_turn(names, name)
                assert ring.next_in_turn(name) == after
                caster = None if after == name else after
            names.remove(name)
            ring.leave(name)
        elif caster is not None:
            assert ring.next_in_turn(caster) == next_in_turn(names, caster)
            caster = next_in_turn(names, caster)
        assert ring.names() == names
        assert all(name in ring for name in names)
        assert ring.first == (names[0] if names else None)
