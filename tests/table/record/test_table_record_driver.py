"""The append's statements through the driver's cursor: the same rows and the same errors as SQLAlchemy's own
execution, and SQLAlchemy's where a type converts the parameters."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from hazard.table.record.driver import compiled, fetch_one, run

METADATA = sa.MetaData()
LINES = sa.Table(
    "lines",
    METADATA,
    sa.Column("game", sa.Integer, primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("text", sa.Text, nullable=False),
)
DATED = sa.Table("dated", METADATA, sa.Column("id", sa.Integer, primary_key=True), sa.Column("on", sa.Date))
ADD, ADD_DATED = LINES.insert(), DATED.insert()
MOVE = LINES.update().where(LINES.c.game == sa.bindparam("g"), LINES.c.seq == sa.bindparam("s"))
MOVE = MOVE.values(text=sa.bindparam("new"))
READ = sa.select(LINES.c.seq, LINES.c.text).where(LINES.c.game == sa.bindparam("g"))
READ_DATED = sa.select(DATED.c.on).where(DATED.c.id == sa.bindparam("i"))


@pytest.fixture
def connection() -> Iterator[sa.Connection]:
    engine = sa.create_engine("sqlite://")
    METADATA.create_all(engine)
    with engine.connect() as opened, opened.begin():
        yield opened
    engine.dispose()


def test_rows_written_and_read_through_the_cursor_are_sqlalchemys(connection: sa.Connection) -> None:
    assert run(connection, ADD, {"game": 1, "seq": 1, "text": "stake Ann 5"}) == 1
    assert run(connection, MOVE, {"g": 1, "s": 1, "new": "stake Ann 6"}) == 1
    assert run(connection, MOVE, {"g": 1, "s": 2, "new": "nothing"}) == 0  # a compare-and-set that misses
    assert fetch_one(connection, READ, {"g": 1}) == (1, "stake Ann 6")
    assert fetch_one(connection, READ, {"g": 2}) is None
    assert connection.execute(sa.select(LINES.c.text)).scalars().all() == ["stake Ann 6"]


def test_a_row_the_driver_refuses_is_refused_as_sqlalchemy_refuses_it(connection: sa.Connection) -> None:
    run(connection, ADD, {"game": 1, "seq": 1, "text": "a"})
    with pytest.raises(IntegrityError, match="UNIQUE constraint failed"):
        run(connection, ADD, {"game": 1, "seq": 1, "text": "b"})


def test_a_statement_whose_types_convert_their_parameters_is_left_to_sqlalchemy(
    connection: sa.Connection,
) -> None:
    day = datetime.date(2026, 12, 2)
    assert not compiled(ADD_DATED, connection.dialect, ("id", "on")).direct  # SQLite keeps a date as text
    assert compiled(ADD, connection.dialect, ("game", "seq", "text")).direct
    assert run(connection, ADD_DATED, {"id": 1, "on": day}) == 1
    assert fetch_one(connection, READ_DATED, {"i": 1}) == (day,)
