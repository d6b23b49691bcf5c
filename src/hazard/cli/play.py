"""``hazard play`` and ``hazard referee``: a table in the terminal, on a game record that survives a crash.

``hazard play`` seats you with bots and throws the dice for you (secure, or seeded with ``--seed``);
``hazard referee`` records a game played with real dice, the referee typing in every stake, call and throw.
Both read one command a line. A bad line is answered with one ``error:`` line and the prompt again: nothing
already recorded is lost, and every action is committed to the record before the table moves on, so
``--resume`` carries on exactly where a game stopped, however it stopped.

This module holds the two commands; their set-up is :mod:`hazard.cli.tablesetup`'s, their prompt loops
:mod:`hazard.cli.loops`' and the terminal :mod:`hazard.cli.screen`'s. They parse and render; the rules, the
money, who may act and the bots' choices are :mod:`hazard.table`'s.
"""

from __future__ import annotations

from typing import Annotated

import typer

from hazard.cli.app import PaytableOption, app, refuse_with, whole_number
from hazard.cli.loops import PlayLoop, RefereeLoop
from hazard.cli.record import DbOption, MoneyOption
from hazard.cli.screen import Screen, announce_main, intro
from hazard.cli.tablesetup import (
    DEFAULT_BANKROLL,
    DEFAULT_BOTS,
    DEFAULT_NAME,
    SEEDS,
    PlayDice,
    dice_kind,
    game_to_resume,
    parse_bots,
    parse_player,
    refuse_setup_with_resume,
    resumable,
    table_rules,
)
from hazard.core.errors import InvalidError
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import DEFAULT_RULESET
from hazard.core.staking import Staking, StakingPlan
from hazard.table import (
    REFEREE,
    Access,
    BotBrains,
    BotPolicy,
    DiceKind,
    GameKind,
    GameStore,
    LiveGame,
    MoneyStyle,
    SeededDice,
    Session,
    Sit,
    TableSpec,
    check_name,
    parse_money,
)

__all__ = ["parse_bots", "play", "referee"]

StakesOption = Annotated[
    StakeArrangement | None,
    typer.Option("--stakes", help="The stake arrangement, if not the ruleset's own."),
]
RulesetChoice = Annotated[
    str | None,
    typer.Option(
        "--ruleset", "-r", help=f"A ruleset id or alias, or a .toml file (default {DEFAULT_RULESET})."
    ),
]
ResumeOption = Annotated[
    bool,
    typer.Option("--resume", help="Carry on a recorded game: the one numbered, else the latest."),
]
GameArgument = Annotated[
    str | None,
    typer.Argument(metavar="[GAME]", help="With --resume: the game to carry on (default: the latest)."),
]


@app.command()
def play(
    game: GameArgument = None,
    *,
    ruleset: RulesetChoice = None,
    paytable: PaytableOption = None,
    stakes: StakesOption = None,
    name: Annotated[str | None, typer.Option("--name", help=f"Your name (default {DEFAULT_NAME}).")] = None,
    bankroll: Annotated[
        str | None,
        typer.Option("--bankroll", help=f"Your bankroll, and each bot's (default {DEFAULT_BANKROLL})."),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="How many bots (default 2: a setter and a bystander), or NAME[:POLICY[:BANKROLL]],... "
            f"with POLICY {' or '.join(p.value for p in BotPolicy)}, e.g. Bob:setter,Cat:bystander.",
        ),
    ] = None,
    unit: Annotated[
        str | None, typer.Option("--unit", help="What a setter bot stakes, a bystander bets (default 1).")
    ] = None,
    bot_staking: Annotated[
        Staking | None,
        typer.Option(
            "--bot-staking",
            help="How a setter bot sets its stake from the unit: flat (the default), martingale (doubled "
            "after each stake it lost, at most 6 times) or paroli (doubled after each it won, 3 at most).",
        ),
    ] = None,
    dice: Annotated[
        PlayDice | None,
        typer.Option(
            "--dice",
            help="fair (the default): each hand's seed committed before it and shown after it, to check with "
            "hazard verify; secure: the system's generator; seeded: with --seed, the same game again.",
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option("--seed", help="Seeded dice: the same seed and choices replay the same game."),
    ] = None,
    money: MoneyOption = MoneyStyle.DECIMAL,
    db: DbOption = None,
    resume: ResumeOption = False,
) -> None:
    """Play Hazard in the terminal against bots; the dice are provably fair, or seeded with --seed."""
    setup = {
        "--ruleset": ruleset,
        "--paytable": paytable,
        "--stakes": stakes,
        "--name": name,
        "--bankroll": bankroll,
        "--bots": bots,
        "--unit": unit,
        "--bot-staking": bot_staking,
        "--dice": dice,
        "--seed": seed,
    }
    number = game_to_resume(game, resume)
    screen = Screen()
    if resume:
        refuse_setup_with_resume(setup)
        store = GameStore.open(db, access=Access.WRITE)
        try:
            _resume_play(store, number, screen, db, money).run()
        finally:
            store.close()
        return
    # Everything is checked before the record is opened: a bad option leaves no trace in it.
    found, chosen = table_rules(screen, ruleset, paytable)
    you = check_name(name if name is not None else DEFAULT_NAME)
    # An option given empty is refused by its parser, never taken for the default.
    stake = parse_money(DEFAULT_BANKROLL if bankroll is None else bankroll, what="bankroll")
    robots = parse_bots(DEFAULT_BOTS if bots is None else bots, you, stake)
    if not robots:
        refuse_with(
            "--bots 0",
            {"--unit": unit, "--bot-staking": bot_staking},
            "it is what the bots stake and bet, and there are none",
        )
    sits = [Sit(you, stake), *robots]
    brains = BotBrains(
        parse_money("1" if unit is None else unit, what="bot stake unit"),
        StakingPlan(bot_staking or Staking.FLAT),
    )
    seed_number = None if seed is None else whole_number(seed, what="--seed", expected=SEEDS)
    if seed_number is not None:
        SeededDice(seed_number)  # the table's own refusal of a seed its dice cannot take
    spec = TableSpec(
        found, chosen, stakes, dice_kind(dice, seed_number), seed_number, GameKind.PLAY, bots=brains
    )
    spec.check_seats(sits)
    store = GameStore.open(db, access=Access.CREATE)
    try:
        session = Session.start(store, spec, settings=brains.settings(), seats=sits)
        intro(screen, session, money, resumed=False)
        loop = PlayLoop(LiveGame(session), screen, db, money, you)
        loop.tell()  # the players seated with it
        announce_main(screen, session)
        loop.run()
    finally:
        store.close()


def _resume_play(
    store: GameStore, game: int | None, screen: Screen, db: str | None, money: MoneyStyle
) -> PlayLoop:
    session = resumable(Session.resume(store, game, kind=GameKind.PLAY))
    people = session.people
    if len(people) != 1:
        raise InvalidError(
            f"invalid resume of game {session.game} with hazard play: it needs exactly one person "
            f"at the table, and it has {len(people)}"
        )
    session.brains = BotBrains.from_settings(session.info.settings)
    intro(screen, session, money, resumed=True)
    announce_main(screen, session)
    return PlayLoop(LiveGame.resume(session), screen, db, money, people[0])


@app.command()
def referee(
    game: GameArgument = None,
    *,
    player: Annotated[
        list[str] | None,
        typer.Option("--player", help="A player and bankroll, NAME:BANKROLL, e.g. Ann:100; repeat for each."),
    ] = None,
    ruleset: RulesetChoice = None,
    paytable: PaytableOption = None,
    stakes: StakesOption = None,
    money: MoneyOption = MoneyStyle.DECIMAL,
    db: DbOption = None,
    resume: ResumeOption = False,
) -> None:
    """Referee a game played with real dice: type in the stakes, calls and throws; correct any mistake."""
    number = game_to_resume(game, resume)
    screen = Screen()
    if resume:
        refuse_setup_with_resume(
            {"--player": player, "--ruleset": ruleset, "--paytable": paytable, "--stakes": stakes}
        )
        store = GameStore.open(db, access=Access.WRITE)
        try:
            session = resumable(Session.resume(store, number, kind=GameKind.REFEREE))
            intro(screen, session, money, resumed=True)
            screen.say(_REFEREE_START, style="italic")
            RefereeLoop(LiveGame.resume(session), screen, db, money).run()
        finally:
            store.close()
        return
    if not player:
        raise InvalidError("invalid table: name the players, e.g. --player Ann:100 --player Bob:100")
    sits = [parse_player(spec) for spec in player]
    found, chosen = table_rules(screen, ruleset, paytable)
    spec = TableSpec(found, chosen, stakes, DiceKind.TYPED, kind=GameKind.REFEREE)
    spec.check_seats(sits)
    store = GameStore.open(db, access=Access.CREATE)
    try:
        session = Session.start(store, spec, seats=sits, seated_by=REFEREE)
        intro(screen, session, money, resumed=False)
        loop = RefereeLoop(LiveGame(session), screen, db, money)
        loop.tell()  # the players seated with it
        screen.say(_REFEREE_START, style="italic")
        loop.run()
    finally:
        store.close()


_REFEREE_START = "Type the dice as they fell (3-4 or 3 4); help lists every command."
