"""The database layer: read-only connections, row limits, timeouts and URL handling."""

import dataclasses
import sqlite3

import pytest

from agent.config import ConfigError
from agent.database import (
    FILE_TABLE,
    QueryError,
    SqlAlchemyDatabase,
    SqliteDatabase,
    open_database,
    read_frame,
    source_table,
)
from agent.db import connect_args, normalize_database_url, sqlite_path
from agent.sql_guard import UnsafeQueryError


@pytest.fixture
def sample_db(tmp_path):
    """A small SQLite file with the configured table's name."""

    def make(table):
        path = tmp_path / "sample.db"
        quoted = '"' + table.replace('"', '""') + '"'
        with sqlite3.connect(path) as connection:
            connection.execute(
                f"CREATE TABLE {quoted} (id INTEGER PRIMARY KEY, region TEXT, amount REAL)"
            )
            connection.executemany(
                f"INSERT INTO {quoted} (region, amount) VALUES (?, ?)",
                [("North", 10.5), ("South", 20.0), ("North", 4.5)],
            )
        return path

    return make


def test_the_source_opens_and_its_schema_is_read(settings, sample_db, tmp_path):
    table = source_table(settings)
    if settings.source.get("file"):
        database = open_database(settings)
        frame = read_frame(settings.path(settings.source["file"]), settings.source["type"])
        expected = [str(column) for column in frame.columns]
    elif settings.source["type"] == "sqlite":
        url = f"sqlite:///{sample_db(table)}"
        database = open_database(dataclasses.replace(settings, environ={"DATABASE_URL": url}))
        expected = ["id", "region", "amount"]
    else:
        pytest.skip("PostgreSQL and MySQL are exercised through SQLite below")

    schema = database.schema(table)

    assert [column.name for column in schema.columns] == expected
    assert len(database.sample(table, rows=2).rows) <= 2


def test_files_load_into_a_read_only_table(settings):
    if not settings.source.get("file"):
        pytest.skip("not a file source")
    database = open_database(settings)
    assert source_table(settings) == FILE_TABLE

    with pytest.raises(QueryError, match="readonly|read-only|query_only"):
        database._execute(f"DELETE FROM {FILE_TABLE}", 10)  # bypassing the guard on purpose
    with pytest.raises(UnsafeQueryError):
        database.run(f"DROP TABLE {FILE_TABLE}", 10)


def test_results_are_limited_and_marked_as_cut():
    import pandas as pd

    database = SqliteDatabase.from_frame(pd.DataFrame({"n": range(30)}), "numbers")

    result = database.run("SELECT n FROM numbers ORDER BY n", max_rows=5)

    assert result.rows == [(0,), (1,), (2,), (3,), (4,)]
    assert result.truncated is True
    assert result.sql.endswith("LIMIT 5")


def test_a_result_of_exactly_the_row_limit_is_not_marked_as_cut():
    import pandas as pd

    database = SqliteDatabase.from_frame(pd.DataFrame({"n": range(5)}), "numbers")

    result = database.run("SELECT n FROM numbers ORDER BY n", max_rows=5)

    assert len(result.rows) == 5
    assert result.truncated is False


def test_slow_queries_are_interrupted():
    import pandas as pd

    database = SqliteDatabase.from_frame(pd.DataFrame({"n": [1]}), "one", timeout_seconds=0.2)
    endless = (
        "WITH RECURSIVE counter(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM counter) "
        "SELECT count(*) FROM counter"
    )

    with pytest.raises(QueryError, match="longer than"):
        database.run(endless, max_rows=1)


def test_sqlite_files_open_read_only(sample_db):
    path = sample_db("sales")
    database = SqliteDatabase.open_file(str(path))

    assert database.run("SELECT count(*) FROM sales", 10).rows == [(3,)]
    with pytest.raises(QueryError):
        database._execute("DELETE FROM sales", 10)
    with pytest.raises(ConfigError):
        SqliteDatabase.open_file(str(path) + ".missing")


def test_the_sqlalchemy_path_reads_and_never_writes(settings, sample_db):
    pytest.importorskip("sqlalchemy")
    table = "sales"
    database = SqlAlchemyDatabase(f"sqlite:///{sample_db(table)}")

    schema = database.schema(table)
    result = database.run(
        f"SELECT region, sum(amount) AS total FROM {table} GROUP BY region ORDER BY region", 10
    )

    assert [column.name for column in schema.columns] == ["id", "region", "amount"]
    assert result.columns == ["region", "total"]
    assert result.rows == [("North", 15.0), ("South", 20.0)]
    with pytest.raises(QueryError):
        database._execute(f"DELETE FROM {table}", 10)
    database.close()


def test_model_sql_reaches_the_database_as_written(sample_db):
    # A colon in a string literal is text, not a bind parameter; LIKE's % is not a placeholder.
    pytest.importorskip("sqlalchemy")
    database = SqlAlchemyDatabase(f"sqlite:///{sample_db('sales')}")

    result = database.run(
        "SELECT 'see :region, 50%' AS note, region FROM sales WHERE region LIKE 'N%' ORDER BY id",
        10,
    )

    assert result.rows == [("see :region, 50%", "North"), ("see :region, 50%", "North")]
    database.close()


def test_samples_ask_the_database_for_a_few_rows_only(sample_db):
    sa = pytest.importorskip("sqlalchemy")

    path = sample_db("sales")
    sqlite_statements = []
    file_database = SqliteDatabase.open_file(str(path))
    file_database._connection.set_trace_callback(sqlite_statements.append)
    engine_statements = []
    engine_database = SqlAlchemyDatabase(f"sqlite:///{path}")
    sa.event.listen(
        engine_database._engine,
        "before_cursor_execute",
        lambda _conn, _cursor, statement, *_: engine_statements.append(statement),
    )

    assert len(file_database.sample("sales", rows=2).rows) == 2
    # "schema.table" names work as they do for the schema: here SQLite's "main" schema.
    assert len(engine_database.sample("main.sales", rows=2).rows) == 2

    assert [s for s in sqlite_statements if "LIMIT 2" in s]
    assert [s for s in engine_statements if s.startswith("SELECT") and "LIMIT" in s]
    engine_database.close()


def test_urls_point_at_the_installed_drivers():
    assert normalize_database_url("postgres://u:p@h/db") == "postgresql+psycopg2://u:p@h/db"
    assert normalize_database_url("mysql://u:p@h/db") == "mysql+pymysql://u:p@h/db"
    assert normalize_database_url("mysql+pymysql://h/db") == "mysql+pymysql://h/db"
    assert sqlite_path("sqlite:///data/app.db") == "data/app.db"
    assert sqlite_path("sqlite:////var/app.db") == "/var/app.db"
    with pytest.raises(ConfigError):
        normalize_database_url("not a url")


def test_postgres_and_mysql_sessions_are_read_only_with_a_timeout():
    postgres = connect_args("postgresql+psycopg2://h/db", timeout_seconds=15)
    assert "default_transaction_read_only=on" in postgres["options"]
    assert "statement_timeout=15000" in postgres["options"]
    assert connect_args("mysql+pymysql://h/db", timeout_seconds=15)["read_timeout"] == 20


def test_a_database_that_is_down_is_a_plain_message_naming_database_url():
    pytest.importorskip("psycopg2")

    # Port 9 (discard): nothing answers there on a test machine.
    database = SqlAlchemyDatabase("postgresql://reader:secret@127.0.0.1:9/shop", timeout_seconds=2)

    with pytest.raises(ConfigError, match="DATABASE_URL") as raised:
        database.schema("sales")
    assert "secret" not in str(raised.value)


def unreachable_database_url(settings):
    """The source's own kind of server at an address nothing answers at (port 9, discard)."""
    backend = {"postgres": "postgresql", "mysql": "mysql"}.get(settings.source["type"])
    if settings.source.get("file") or backend is None:
        pytest.skip("a file or SQLite source: no server to connect to")
    pytest.importorskip("psycopg2" if backend == "postgresql" else "pymysql")
    return f"{backend}://reader:secret@127.0.0.1:9/shop"


def test_a_database_server_is_connected_to_as_it_opens(settings):
    """The start check: a wrong password or address stops the start, not the first question."""
    url = unreachable_database_url(settings)

    with pytest.raises(ConfigError, match="DATABASE_URL") as raised:
        open_database(dataclasses.replace(settings, environ={"DATABASE_URL": url}))
    assert "secret" not in str(raised.value)


def test_in_a_container_127_0_0_1_is_said_to_be_the_container_itself(settings, monkeypatch):
    url = unreachable_database_url(settings)
    configured = dataclasses.replace(settings, environ={"DATABASE_URL": url})

    monkeypatch.setattr("agent.db.in_container", lambda: True)
    with pytest.raises(ConfigError, match="write host.docker.internal instead of 127.0.0.1"):
        open_database(configured)

    monkeypatch.setattr("agent.db.in_container", lambda: False)
    with pytest.raises(ConfigError) as raised:
        open_database(configured)
    assert "host.docker.internal" not in str(raised.value)
