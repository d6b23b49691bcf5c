"""What a seed gives, pinned: a study of rounds, a study of sessions (short and long, whose blocks are cut
differently) and the table's seeded dice. CHANGELOG.md's "What changes a seed's results" names what may move
these figures; a change that moves them is such a change, and goes in the changelog with the new figures.
(The table's games on seeded dice are pinned whole, export byte for byte, by tests/test_golden_export.py.)
"""

from __future__ import annotations

from hazard.sim import SessionConfig
from hazard.study import study_rounds, study_sessions
from hazard.table import SeededDice


def test_a_seed_gives_the_pinned_study_of_rounds() -> None:
    study = study_rounds("wikipedia", 100_000, seed=0, workers=1).to_json_dict()
    figures = study["figures"]
    assert (study["throws"], study["wins"]) == (377_950, 49_218)
    assert (figures["nick_rate"]["value"], figures["out_rate"]["value"]) == (0.15509, 0.14597)


def test_a_seed_gives_the_pinned_study_of_sessions() -> None:
    study = study_sessions("wikipedia", SessionConfig(), seed=0, workers=1).to_json_dict()
    assert (study["throws"], study["rounds_played"]) == (753_374, 200_000)
    assert study["setters_take"] == -5672.549999999999
    assert study["rounds_kept"]["value"] == 12.725809709783853


def test_a_seed_gives_the_pinned_study_of_long_sessions() -> None:
    """Sessions of more than 4,096 rounds come fewer to a block (issue 12): pinned apart."""
    long = SessionConfig(sessions=3, rounds=5000)
    study = study_sessions("wikipedia", long, seed=7, workers=1).to_json_dict()
    assert study["throws"] == 57_270
    assert study["setters_take"] == 483.1
    assert study["rounds_kept"]["value"] == 12.835616438356164


def test_a_seed_gives_the_pinned_seeded_dice() -> None:
    throws = [str(SeededDice(42).throw(index)) for index in range(6)]
    assert throws == ["2-4", "6-2", "4-2", "4-2", "1-4", "3-3"]
