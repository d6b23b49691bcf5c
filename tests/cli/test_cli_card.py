"""``hazard card``: for every built-in ruleset a one-page PDF carrying the analyser's figures (its text read
back with pypdf), drawn to an image (pypdfium2) that is one page of the paper's size and not blank; and the
command's refusals, each one ``error:`` line, with no half-written file left behind.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.commandline import fails, run

from hazard.analysis import analyse
from hazard.analysis.bets import analyse_bet
from hazard.analysis.card import table_card
from hazard.cli.card import write_atomically
from hazard.cli.cardpdf import Paper, card_pdf, latin
from hazard.core.numbers import fraction_text
from hazard.core.propositions import SOURCE_BETS
from hazard.core.rulesets import builtin_rulesets, find_ruleset, paytable_for, settling_paytable

pypdf = pytest.importorskip("pypdf")
pdfium = pytest.importorskip("pypdfium2")

IDS = [ruleset.id for ruleset in builtin_rulesets()]
POINTS = {Paper.A4: (595.28, 841.89), Paper.LETTER: (612.0, 792.0)}
"""Each paper's size in PDF points (1/72 inch)."""


def _text(path: Path) -> str:
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == 1
    # pypdf's lines keep the card's words; its spacing between cells varies, so compare with runs of
    # spaces made one
    return " ".join(reader.pages[0].extract_text().split())


def _flat(text: str) -> str:
    return " ".join(latin(text).split())


def _drawn(path: Path, paper: Paper) -> None:
    """The PDF is one page of ``paper``'s size whose image has ink on it, not a blank sheet."""
    document = pdfium.PdfDocument(path)
    assert len(document) == 1
    width, height = document[0].get_size()
    assert (width, height) == pytest.approx(POINTS[paper], abs=0.5)
    image = document[0].render(scale=0.5).to_pil().convert("L")
    assert image.size == (round(width / 2), round(height / 2))
    histogram = image.histogram()
    dark = sum(histogram[:128]) / (image.size[0] * image.size[1])
    assert 0.01 < dark < 0.5, f"{dark:.3f} of the page is ink"
    document.close()


@pytest.mark.parametrize("ident", IDS)
def test_every_ruleset_s_card_carries_its_rules_odds_paytable_and_the_source_bets(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, ident: str
) -> None:
    out = tmp_path / f"{ident}.pdf"
    code, said, err = run(capsys, "card", "-r", ident, "-o", str(out))
    assert (code, err) == (0, "")
    assert said == f"wrote {out}\n"
    text = _text(out)
    ruleset = find_ruleset(ident)
    assert _flat(ruleset.name) in text
    assert _flat(ruleset.source.citation) in text
    if ruleset.source.file:
        assert ruleset.source.file in text
    report = analyse(ruleset, settling_paytable(paytable_for(ruleset)))
    card = table_card(ruleset, paytable_for(ruleset))
    rows = [*report.mains, *([report.overall] if report.overall is not None else [])]
    assert len(card.odds) == len(rows)
    for odds, shown in zip(rows, card.odds, strict=True):
        assert odds.edge is not None
        # the card's figures are the analyser's, written as the card prints them
        assert shown.p_win == f"{fraction_text(odds.p_win)} = {float(odds.p_win):.4f}"
        assert shown.edge == f"{float(odds.edge):+.4f} ({fraction_text(odds.edge)})"
        assert shown.p_win in text
        assert shown.edge in text
    assert _flat(card.paytable) in text
    for line in card.paytable_grid:
        assert " ".join(line).replace("—", "-") in text
    for bet in SOURCE_BETS:
        analysis = analyse_bet(bet)
        assert f"{bet} {analysis.fair_odds} p = {fraction_text(analysis.probability)}" in text
    for total, cells in card.grid:
        assert f"{total} {' '.join(cells)}" in text
    _drawn(out, Paper.A4)


def test_a_letter_card_with_a_paytable_that_varies_fits_its_page(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "card.pdf"
    code, _, err = run(
        capsys, "card", "-r", "britannica", "--paytable", "wikipedia", "--paper", "LETTER", "-o", str(out)
    )
    assert (code, err) == (0, "")
    text = _text(out)
    assert "main \\ chance 4 5 6 7 8 9 10" in text
    assert "5 4/3 - 4/5 2/3 4/5 1/1 4/3" in text
    assert "+0.0556 (1/18)" in text  # main 5 under the Wikipedia odds: the house's
    _drawn(out, Paper.LETTER)


def test_a_ruleset_file_makes_a_card(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(
        'id = "mine"\nname = "Mine"\n[source]\ncitation = "house rules"\n'
        '[main]\nmethod = "fixed"\nmains = [7]\n[opening]\nchances = [4, 5, 6, 8, 9, 10]\n'
        "[opening.7]\nnicks = [7, 11]\nouts = [2, 3, 12]\n",
        encoding="utf-8",
    )
    out = tmp_path / "mine.pdf"
    code, _, err = run(capsys, "card", "-r", str(mine), "-o", str(out))
    assert (code, err) == (0, "")
    text = _text(out)
    assert "Mine (mine)" in text
    assert "Source: house rules" in text
    assert "244/495 = 0.4929" in text


def test_bad_input_is_one_error_line_and_leaves_no_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "card.pdf"
    assert "unknown ruleset 'nope'" in fails(capsys, "card", "-r", "nope", "-o", str(out))
    assert "unknown paytable 'nope'" in fails(capsys, "card", "-p", "nope", "-o", str(out))
    assert "invalid --paper 'a5': expected a4 or letter" in fails(
        capsys, "card", "--paper", "a5", "-o", str(out)
    )
    (tmp_path / "folder.pdf").mkdir()
    assert "it is a folder" in fails(capsys, "card", "-o", str(tmp_path / "folder.pdf"))
    assert "expected a file name ending in .pdf" in fails(capsys, "card", "-o", str(tmp_path / "card.png"))
    assert "no folder" in fails(capsys, "card", "-o", str(tmp_path / "missing" / "card.pdf"))
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert "is not writable" in fails(capsys, "card", "-o", str(locked / "card.pdf"))
    assert "missing option '--output'" in fails(capsys, "card").lower()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.pdf", *(["locked"] if os.geteuid() else [])]


def test_a_failed_write_leaves_the_old_card_and_no_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "card.pdf"
    out.write_bytes(b"old")

    def full(descriptor: int) -> None:
        raise OSError("disk full")

    with monkeypatch.context() as patched:
        patched.setattr(os, "fsync", full)
        with pytest.raises(OSError, match="disk full"):
            write_atomically(out, b"new")
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["card.pdf"]
    write_atomically(out, card_pdf(table_card(find_ruleset("craps"), None)))
    assert out.read_bytes().startswith(b"%PDF")
    assert [p.name for p in tmp_path.iterdir()] == ["card.pdf"]
