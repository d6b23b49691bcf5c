"""What the fair-dice verification tests share (here and in tests/cli): a fair game's export, built
hand by hand, and each way of tampering with it, with what its verification must name."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from hazard.table.fair.commit_reveal import commitment, fair_throw

SEEDS = (bytes(range(32)), bytes(range(32, 64)), bytes(range(64, 96)))
"""The server seeds of hands 1, 2 and 3."""
DRAWN = "0123456789abcdef"
"""Bob's seed, drawn for him by the dice."""
SCRIPT: tuple[tuple[Any, ...], ...] = (
    ("sit", "Ann"),
    ("sit", "Bob"),
    ("draw", "Bob", DRAWN),  # before the commitment, as the table draws them
    ("commit",),
    ("seed", "Ann", "ann-seed"),
    ("hand", 4),
    ("sit", "Cat"),  # at the caster Bob's right: between Ann and Bob
    ("seed", "Cat", "cat-seed"),
    ("seed", "Ann", "ann-2"),
    ("hand", 3),
    ("hand", 2),
)
"""Ann and Bob sit, the dice draw Bob's seed and commit to hand 1, Ann sets hers and they play it; Cat sits
and sets his seed and Ann changes hers before hand 2; hand 3 follows, no seed set after its commitment."""
SEAT_ORDER = ("Ann", "Cat", "Bob")
Export = dict[str, Any]


def _actor(name: str | None) -> dict[str, str]:
    return {"kind": "dice"} if name is None else {"kind": "player", "name": name}


def fair_export(
    script: tuple[tuple[Any, ...], ...] = SCRIPT,
    *,
    seat_order: tuple[str, ...] = SEAT_ORDER,
    last_open: bool = True,
    closed: bool = False,
) -> Export:
    """A game of fair dice in the JSON form of :func:`hazard.table.game_json`, as the table writes it.

    ``script`` holds ``("sit", name)``, ``("seed", name, seed)`` (a seed the player sets), ``("draw", name,
    seed)`` (one the dice draw for him), ``("commit",)`` (hand 1's commitment, else the first entry) and
    ``("hand", throws)``: hand ``n`` is played with ``SEEDS[n - 1]``, its client seed fixed just before its
    first throw (from the players seated who have a seed, in ``seat_order``), then a call, its throws, its
    reveal (unless it is the last and ``last_open``) and, after the draws that follow it in ``script``, the
    next hand's commitment. ``closed`` is the export's own ``closed``.
    """
    entries: list[dict[str, Any]] = []

    def add(entry: dict[str, Any], by: str | None = None) -> int:
        seq = len(entries) + 1
        entries.append(
            {
                "seq": seq,
                "at": "2026-12-01T12:00:00+00:00",
                "actor": _actor(by),
                "for": by,
                "entry": entry,
                "text": "",
                "standing": "stands",
                "events": [],
            }
        )
        return seq

    total = sum(1 for item in script if item[0] == "hand")
    hands: list[dict[str, Any]] = []
    seated: list[str] = []
    seeds: dict[str, str] = {}
    pending = 0  # the hand whose commitment is due, before the next item that is not a draw
    if ("commit",) not in script:
        add({"type": "commit", "hand": 1, "commitment": commitment(SEEDS[0])})
    for item in script:
        if item[0] == "commit":
            add({"type": "commit", "hand": 1, "commitment": commitment(SEEDS[0])})
            continue
        if pending and item[0] != "draw":
            add({"type": "commit", "hand": pending, "commitment": commitment(SEEDS[pending - 1])})
            pending = 0
        if item[0] == "sit":
            seated.append(item[1])
            add({"type": "sit", "name": item[1], "bankroll": "100/1", "bot": None}, item[1])
        elif item[0] in ("seed", "draw"):
            seeds[item[1]] = item[2]
            add(
                {"type": "client-seed", "player": item[1], "seed": item[2]},
                item[1] if item[0] == "seed" else None,
            )
        else:
            number = len(hands) + 1
            server_seed = SEEDS[number - 1]
            client_seed = None
            throws = []
            if item[1]:
                client_seed = ",".join(seeds[name] for name in seat_order if name in seated and name in seeds)
                add({"type": "hand-opened", "hand": number, "client_seed": client_seed})
                add({"type": "call", "main": 7}, seated[0])
                for nonce in range(item[1]):
                    roll = str(fair_throw(server_seed, client_seed, nonce))
                    seq = add({"type": "throw", "roll": roll}, seated[0])
                    throws.append({"entry": seq, "nonce": nonce, "roll": roll})
            revealed = number < total or not last_open
            if revealed:
                add({"type": "reveal", "hand": number, "server_seed": server_seed.hex()})
            if number < total:
                pending = number + 1
            hands.append(
                {
                    "hand": number,
                    "commitment": commitment(server_seed),
                    "server_seed": server_seed.hex() if revealed else None,
                    "client_seed": client_seed,
                    "throws": throws,
                }
            )
    players = [{"name": name, "bot": None} for name in seat_order if name in seated]
    return {
        "game": {"id": 1, "format": "hazard-game/2", "kind": "play", "dice": "fair", "seed": None},
        "entries": entries,
        "hands": hands,
        "state": {"caster": seated[0], "players": players},
        "closed": closed,
    }


def seq_of(data: Export, kind: str, nth: int = 0, **fields: object) -> int:
    """The sequence number of the ``nth`` entry of type ``kind`` (with these fields)."""
    found = [
        line["seq"]
        for line in data["entries"]
        if line["entry"]["type"] == kind and all(line["entry"].get(k) == v for k, v in fields.items())
    ]
    return int(found[nth])


def entry(data: Export, seq: int) -> dict[str, Any]:
    found: dict[str, Any] = data["entries"][seq - 1]["entry"]
    return found


def other_roll(roll: str) -> str:
    return "6-6" if roll != "6-6" else "1-1"


# --- tampering: each names what does not match ----------------------------------------------------------


def _throw_in_hand(data: Export) -> None:
    throw = data["hands"][0]["throws"][1]
    throw["roll"] = other_roll(throw["roll"])


def _throw_in_entry(data: Export) -> None:
    throw = data["hands"][0]["throws"][1]
    entry(data, throw["entry"])["roll"] = other_roll(throw["roll"])


def _throw_everywhere(data: Export) -> None:
    throw = data["hands"][1]["throws"][2]
    throw["roll"] = entry(data, throw["entry"])["roll"] = other_roll(throw["roll"])


def _server_seed_in_hand(data: Export) -> None:
    data["hands"][0]["server_seed"] = SEEDS[2].hex()


def _server_seed_everywhere(data: Export) -> None:
    data["hands"][1]["server_seed"] = entry(data, seq_of(data, "reveal", hand=2))["server_seed"] = "ab" * 32


def _commitment_in_hand(data: Export) -> None:
    data["hands"][0]["commitment"] = commitment(b"another")


def _commitment_everywhere(data: Export) -> None:
    data["hands"][0]["commitment"] = entry(data, seq_of(data, "commit"))["commitment"] = commitment(
        b"another"
    )


def _client_seed_in_hand(data: Export) -> None:
    data["hands"][0]["client_seed"] = "ann-seed,mine"


def _client_seed_and_its_entry(data: Export) -> None:
    data["hands"][0]["client_seed"] = "ann-seed,mine"
    entry(data, seq_of(data, "hand-opened", hand=1))["client_seed"] = "ann-seed,mine"


def _client_seed_and_the_players_seed(data: Export) -> None:
    data["hands"][0]["client_seed"] = "ann-seed,mine"
    entry(data, seq_of(data, "hand-opened", hand=1))["client_seed"] = "ann-seed,mine"
    entry(data, seq_of(data, "client-seed", player="Bob"))["seed"] = "mine"


def _seat_order(data: Export) -> None:
    data["state"]["players"].reverse()


def _seeds_in_another_order(data: Export) -> None:
    """Hand 1's client seed made of Bob's seed and then Ann's: not the seat order, Ann first."""
    swapped = f"{DRAWN},ann-seed"
    opened = entry(data, seq_of(data, "hand-opened", hand=1))
    data["hands"][0]["client_seed"] = opened["client_seed"] = swapped


def _nonce(data: Export) -> None:
    data["hands"][0]["throws"][1]["nonce"] = 2


def _nonce_and_throw(data: Export) -> None:
    """Throws 0 and 1 swapped in the hand's list, each with its nonce: the order of the entries says no."""
    throws = data["hands"][0]["throws"]
    throws[0], throws[1] = throws[1], throws[0]


def _throw_left_out(data: Export) -> None:
    del data["hands"][0]["throws"][-1]


def _throw_added(data: Export) -> None:
    entry(data, seq_of(data, "call", 1))["type"] = "throw"
    entry(data, seq_of(data, "throw", 4))["roll"] = "1-1"


def _throw_before_any_hand(data: Export) -> None:
    data["entries"][1]["entry"] = {"type": "throw", "roll": "2-2"}


def _throw_not_a_throw(data: Export) -> None:
    data["hands"][0]["throws"][0]["entry"] = seq_of(data, "call")


def _throw_after_reveal(data: Export) -> None:
    last = data["hands"][0]["throws"][-1]
    reveal = seq_of(data, "reveal", hand=1)
    assert reveal == last["entry"] + 1
    data["entries"][last["entry"] - 1]["entry"], data["entries"][reveal - 1]["entry"] = (
        entry(data, reveal),
        entry(data, last["entry"]),
    )
    last["entry"] = reveal


def _seed_hidden(data: Export) -> None:
    data["hands"][0]["server_seed"] = None


def _reveal_dropped(data: Export) -> None:
    data["hands"][0]["server_seed"] = None
    data["entries"][seq_of(data, "reveal", hand=1) - 1]["entry"] = {"type": "pass-dice"}


def _committed_late(data: Export) -> None:
    data["entries"][seq_of(data, "commit", hand=2) - 1]["entry"] = {"type": "pass-dice"}
    data["entries"][seq_of(data, "call", 1) - 1]["entry"] = {
        "type": "commit",
        "hand": 2,
        "commitment": commitment(SEEDS[1]),
    }


def _corrected(data: Export) -> None:
    target = seq_of(data, "throw")
    data["entries"][seq_of(data, "call", 1) - 1]["entry"] = {"type": "correction", "target": target}


def _committed_twice(data: Export) -> None:
    data["entries"][seq_of(data, "call", 1) - 1]["entry"] = {
        "type": "commit",
        "hand": 1,
        "commitment": commitment(SEEDS[0]),
    }


def _unknown_hand(data: Export) -> None:
    data["entries"][seq_of(data, "call", 1) - 1]["entry"] = {
        "type": "reveal",
        "hand": 9,
        "server_seed": "00" * 32,
    }


def _hands_misnumbered(data: Export) -> None:
    data["hands"][1]["hand"] = 5


def _seed_missing(data: Export) -> None:
    data["entries"][seq_of(data, "client-seed", player="Cat") - 1]["entry"] = {"type": "pass-dice"}


def _player_not_in_state(data: Export) -> None:
    data["state"]["players"] = data["state"]["players"][1:]


def _drawn_after_the_commitment(data: Export) -> None:
    """The dice draw Bob's seed after hand 1's commitment, as they did at a hand's first throw before issue 19
    (finding 8): the server, knowing its seed, could have tried seeds for Bob until the throws suited it."""
    draw, commit = data["entries"][2], data["entries"][3]
    assert (draw["entry"]["type"], commit["entry"]["type"]) == ("client-seed", "commit")
    for key in ("actor", "entry"):
        draw[key], commit[key] = commit[key], draw[key]


def _seed_after_the_first_throw(data: Export) -> None:
    """Ann sets a seed after hand 1's first throw, which the table refuses (finding 12)."""
    line = data["entries"][seq_of(data, "throw") + 1 - 1]
    line["actor"] = {"kind": "player", "name": "Ann"}
    line["entry"] = {"type": "client-seed", "player": "Ann", "seed": "late"}
    for hand in data["hands"]:  # the throw it was is gone from its hand: renumber what follows it
        hand["throws"] = [t for t in hand["throws"] if t["entry"] != line["seq"]]
        for nonce, throw in enumerate(hand["throws"]):
            throw["nonce"] = nonce


def _seed_with_a_comma(data: Export) -> None:
    """Cat's seed holds the comma that joins the seeds (finding 12)."""
    entry(data, seq_of(data, "client-seed", player="Cat"))["seed"] = "cat,seed"


def _closed_unrevealed(data: Export) -> None:
    """The game is closed with its last hand's seed never shown (finding 9)."""
    data["closed"] = True


def _no_commit(data: Export) -> None:
    data["entries"][seq_of(data, "commit") - 1]["entry"] = {"type": "pass-dice"}


TAMPERINGS: dict[str, tuple[Callable[[Export], None], str]] = {
    "a throw in the hand": (
        _throw_in_hand,
        r"^hand 1, throw entry 9 \(nonce 1\): the hand has .-., but the entry",
    ),
    "a throw in its entry": (_throw_in_entry, r"^hand 1, throw entry 9 \(nonce 1\): the hand has"),
    "a throw everywhere": (
        _throw_everywhere,
        r"^hand 2, throw entry \d+ \(nonce 2\): the seeds give .-., but the",
    ),
    "the server seed": (
        _server_seed_in_hand,
        r"^hand 1: its server seed [0-9a-f]{64} is not the one revealed at",
    ),
    "the server seed everywhere": (
        _server_seed_everywhere,
        r"^hand 2: its server seed does not match its commit",
    ),
    "the commitment": (
        _commitment_in_hand,
        r"^hand 1: its commitment [0-9a-f]{64} is not the one recorded at entry 4",
    ),
    "the commitment everywhere": (
        _commitment_everywhere,
        r"^hand 1: its server seed does not match its commitment$",
    ),
    "the client seed": (
        _client_seed_in_hand,
        r"^hand 1: its client seed 'ann-seed,mine' is not the one fixed at",
    ),
    "the client seed and its entry": (
        _client_seed_and_its_entry,
        r"^hand 1: its client seed 'ann-seed,mine' \(entry 6\) is not what the seated players' seeds make in "
        r"seat order \(Ann, Bob\): 'ann-seed,0123456789abcdef'$",
    ),
    "the client seed and a player's": (
        _client_seed_and_the_players_seed,
        r"^hand 1, throw entry 8 \(nonce 0\): the seeds",
    ),
    "the seat order": (
        _seat_order,
        r"^the game's state seats Bob, Cat, Ann in seat order, but its entries leave Ann, Cat, Bob seated, "
        r"in that order$",
    ),
    "the seeds in another order": (
        _seeds_in_another_order,
        r"^hand 1: its client seed '0123456789abcdef,ann-seed' \(entry 6\) is not what the seated players' "
        r"seeds make in seat order \(Ann, Bob\): 'ann-seed,0123456789abcdef'$",
    ),
    "a nonce": (
        _nonce,
        r"^hand 1, throw entry 9: its nonce is 2, expected 1 \(a hand's throws are numbered from 0",
    ),
    "two throws swapped": (_nonce_and_throw, r"^hand 1, throw entry 9: its nonce is 1, expected 0"),
    "a throw left out": (_throw_left_out, r"^hand 1: throw entry 11 is not among the hand's throws$"),
    "a throw added": (_throw_added, r"^hand 2: throw entry \d+ is not among the hand's throws$"),
    "a throw before any hand": (_throw_before_any_hand, r"^throw entry 2 comes before any hand began"),
    "a throw that is no throw": (
        _throw_not_a_throw,
        r"^hand 1: its throw 0 \(nonce 0\) is entry 7, a call entry$",
    ),
    "a throw after the reveal": (
        _throw_after_reveal,
        r"^hand 1, throw entry 12 \(nonce 3\): it comes after the hand's",
    ),
    "a seed hidden": (
        _seed_hidden,
        r"^hand 1: entry 12 reveals its server seed, but the hands give it none$",
    ),
    "a reveal dropped": (
        _reveal_dropped,
        r"^hand 1: it has ended \(hand 2 follows\) but its server seed was never",
    ),
    "a late commitment": (
        _committed_late,
        r"^hand 2: its commitment \(entry \d+\) comes after its client seed was",
    ),
    "a correction of a throw": (
        _corrected,
        r"^entry \d+ corrects entry 8, a throw entry: a fair game's throws",
    ),
    "a second commitment": (_committed_twice, r"^hand 1: entries 4 and \d+ are both its commit entry$"),
    "a note of no hand": (
        _unknown_hand,
        r"^entry \d+ \(reveal\) names hand 9, which is not among the game's 3 hands",
    ),
    "hands misnumbered": (
        _hands_misnumbered,
        r"^the hands are not numbered 1, 2, ... in order: hand 5 is listed at",
    ),
    "a player's seed missing": (
        _seed_missing,
        r"^hand 2: its client seed 'ann-2,cat-seed,0123456789abcdef' \(entry 17\) is not what the seated "
        r"players' seeds make in seat order \(Ann, Bob\): 'ann-2,0123456789abcdef'$",
    ),
    "a player not in the state": (
        _player_not_in_state,
        r"^the game's state seats Cat, Bob in seat order, but Ann, seated at entry 1 and never gone, is not "
        r"among them$",
    ),
    "no commitment": (_no_commit, r"^hand 1: no commit entry records its commitment$"),
    "a seed drawn after the commitment": (
        _drawn_after_the_commitment,
        r"^hand 1: entry 4 is a seed the dice drew for Bob after the hand's commitment \(entry 3\): the "
        r"server could have chosen it",
    ),
    "a seed after the first throw": (
        _seed_after_the_first_throw,
        r"^hand 1: entry 9 sets Ann's seed after the hand's first throw \(its client seed was fixed at entry "
        r"6\): the table refuses",
    ),
    "a seed with a comma": (
        _seed_with_a_comma,
        r"^entry 15 sets Cat's seed to 'cat,seed', which the table refuses: it holds a ',', which joins",
    ),
    "a closed game's hand unrevealed": (
        _closed_unrevealed,
        r"^hand 3: the game is closed, but the hand's server seed was never revealed, so its 2 throws cannot "
        r"be checked$",
    ),
}


def tampered() -> Iterator[tuple[str, Export, str]]:
    """Each tampering: its name, the export it makes, and the pattern of the problem it must be named by."""
    for name, (change, pattern) in TAMPERINGS.items():
        data = fair_export()
        change(data)
        yield name, data, pattern
