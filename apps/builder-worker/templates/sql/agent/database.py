"""The data the SQL agent queries, behind one small interface.

- CSV and Excel sources are loaded into an in-memory SQLite database (table "data"), which is
  then switched to read-only (`PRAGMA query_only`).
- SQLite sources are opened read-only from the file DATABASE_URL names.
- PostgreSQL and MySQL sources go through SQLAlchemy with read-only sessions (see db.py).

Every query first passes sql_guard.guard_select, then runs with a row limit and a timeout.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, List, Mapping, Optional, Tuple

from .config import ConfigError
from .db import (
    backend_of,
    connect_sqlite_readonly,
    connection_to,
    create_readonly_engine,
    normalize_database_url,
    reflect_table,
    sqlite_path,
)
from .sql_guard import guard_select

if TYPE_CHECKING:
    import pandas as pd

    from .config import Settings

FILE_TABLE = "data"
DIALECT_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL", "mysql": "MySQL"}


class QueryError(RuntimeError):
    """The database refused or interrupted a query (syntax error, timeout, ...)."""


@dataclass
class Column:
    name: str
    type: str


@dataclass
class TableSchema:
    name: str
    columns: List[Column]

    def ddl(self, quote: str = '"') -> str:
        """A CREATE TABLE statement describing the table (for prompts, never executed)."""

        def q(name: str) -> str:
            return quote + name.replace(quote, quote * 2) + quote

        lines = ",\n".join(f"  {q(column.name)} {column.type or 'TEXT'}" for column in self.columns)
        return f"CREATE TABLE {q(self.name)} (\n{lines}\n);"


@dataclass
class QueryResult:
    columns: List[str]
    rows: List[Tuple[Any, ...]] = field(default_factory=list)
    # The result reached the row limit, so there may be more rows than shown.
    truncated: bool = False
    sql: str = ""  # the statement that ran, as the guard returned it


class Database:
    """What the engines need from a database."""

    dialect: str = "sqlite"  # "sqlite", "postgresql" or "mysql"

    @property
    def dialect_name(self) -> str:
        return DIALECT_NAMES.get(self.dialect, self.dialect)

    @property
    def identifier_quote(self) -> str:
        return "`" if self.dialect == "mysql" else '"'

    def schema(self, table: str) -> TableSchema:
        raise NotImplementedError

    def sample(self, table: str, rows: int = 3) -> QueryResult:
        """The first `rows` rows of `table`; the LIMIT keeps the database from sending them all."""
        quote = self.identifier_quote
        name = quote + table.replace(quote, quote * 2) + quote
        return self._execute(f"SELECT * FROM {name} LIMIT {int(rows)}", rows)

    def run(self, sql: str, max_rows: int) -> QueryResult:
        """Check `sql` with the guard, then run it. Raises UnsafeQueryError or QueryError."""
        checked = guard_select(sql, max_rows, self.dialect)
        # One row more than shown runs, so that a result of exactly max_rows rows is not taken
        # for a cut one; the SQL shown is the one with the user's limit.
        probe = guard_select(sql, max_rows + 1, self.dialect)
        result = self._execute(probe, max_rows + 1)
        result.truncated = len(result.rows) > max_rows
        result.rows = result.rows[:max_rows]
        result.sql = checked
        return result

    def _execute(self, sql: str, max_rows: int) -> QueryResult:
        raise NotImplementedError

    def close(self) -> None:
        pass


class SqliteDatabase(Database):
    """SQLite through the standard library: CSV/Excel loaded in memory, or a read-only file."""

    dialect = "sqlite"

    def __init__(self, connection: sqlite3.Connection, timeout_seconds: float) -> None:
        self._connection = connection
        self._timeout = timeout_seconds
        self._lock = threading.Lock()  # one connection, shared by the UI's threads

    @classmethod
    def from_frame(
        cls, frame: "pd.DataFrame", table: str = FILE_TABLE, timeout_seconds: float = 15
    ) -> "SqliteDatabase":
        connection = sqlite3.connect(":memory:", check_same_thread=False)
        frame.to_sql(table, connection, index=False)
        connection.commit()
        connection.execute("PRAGMA query_only = ON")  # from here on, nothing can write
        return cls(connection, timeout_seconds)

    @classmethod
    def open_file(cls, path: str, timeout_seconds: float = 15) -> "SqliteDatabase":
        if not Path(path).is_file():
            raise ConfigError(f"The SQLite database {path} does not exist.")
        return cls(connect_sqlite_readonly(path), timeout_seconds)

    def schema(self, table: str) -> TableSchema:
        with self._lock:
            rows = self._connection.execute(
                "SELECT name, type FROM pragma_table_info(?)", (table,)
            ).fetchall()
        if not rows:
            raise ConfigError(f"The table {table!r} does not exist in the database.")
        return TableSchema(table, [Column(name, type) for name, type in rows])

    def _execute(self, sql: str, max_rows: int) -> QueryResult:
        deadline = time.monotonic() + self._timeout
        with self._lock:
            # SQLite calls the handler every N virtual machine steps; a true result aborts
            # the statement with "interrupted".
            self._connection.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
            try:
                cursor = self._connection.execute(sql)
                rows = cursor.fetchmany(max_rows)
                columns = [d[0] for d in cursor.description or []]
                cursor.close()
            except sqlite3.Error as error:
                if "interrupted" in str(error):
                    raise QueryError(f"The query took longer than {self._timeout:g} s.") from None
                raise QueryError(str(error)) from None
            finally:
                self._connection.set_progress_handler(None, 0)
        return QueryResult(columns, [tuple(r) for r in rows], len(rows) >= max_rows)

    def close(self) -> None:
        self._connection.close()


class SqlAlchemyDatabase(Database):
    """PostgreSQL or MySQL (or any SQLAlchemy URL) through a read-only engine."""

    def __init__(self, url: str, timeout_seconds: float = 15) -> None:
        url = normalize_database_url(url)
        self.dialect = backend_of(url)
        self._engine = create_readonly_engine(url, int(timeout_seconds))
        self._timeout = timeout_seconds

    def schema(self, table: str) -> TableSchema:
        with connection_to(self._engine) as connection:
            reflected = reflect_table(connection, table)
        columns = [Column(c.name, _type_name(c.type)) for c in reflected.columns]
        return TableSchema(table, columns)

    def sample(self, table: str, rows: int = 3) -> QueryResult:
        # Built from the reflected table, so "schema.table" names are quoted as two parts.
        import sqlalchemy as sa

        return self._fetch(
            lambda connection: connection.execute(
                sa.select(reflect_table(connection, table)).limit(rows)
            ),
            rows,
        )

    def _execute(self, sql: str, max_rows: int) -> QueryResult:
        import sqlalchemy as sa

        return self._fetch(
            lambda connection: connection.execute(sa.text(_literal_colons(sql))), max_rows
        )

    def _fetch(self, query: Callable[[Any], Any], max_rows: int) -> QueryResult:
        import sqlalchemy as sa

        try:
            with connection_to(self._engine) as connection:
                result = query(connection)
                columns = list(result.keys())
                rows = result.fetchmany(max_rows)
                result.close()
        except sa.exc.DBAPIError as error:
            raise QueryError(str(error.orig)) from None
        except sa.exc.SQLAlchemyError as error:
            raise QueryError(str(error)) from None
        return QueryResult(columns, [tuple(r) for r in rows], len(rows) >= max_rows)

    def close(self) -> None:
        self._engine.dispose()


# What SQLAlchemy's text() takes for a bind parameter: ":name" not preceded by a word
# character, a colon or a backslash, and not followed by a colon.
_BIND_PARAMETER = re.compile(r"(?<![:\w\\]):(\w+)(?!:)")


def _literal_colons(sql: str) -> str:
    """`sql` for text(), with every ":name" escaped so it reaches the database as written.

    The statement comes from the model and has no parameters: a colon inside a string literal
    (`WHERE note = 'see :b'`) is text, not a value SQLAlchemy should ask for. text() is still
    used rather than the driver directly, because it doubles the `%` of LIKE patterns for
    drivers that read `%s` as a placeholder (psycopg2, PyMySQL).
    """
    return _BIND_PARAMETER.sub(r"\\:\1", sql)


def _type_name(column_type: Any) -> str:
    try:
        return str(column_type)
    except Exception:  # some dialect types cannot render without a dialect
        return type(column_type).__name__.upper()


def read_frame(path: Path, kind: str, sheet: Optional[str] = None) -> "pd.DataFrame":
    """A CSV or Excel file as a DataFrame (for Excel, the sheet chosen in the builder)."""
    import pandas as pd

    if kind == "csv":
        return pd.read_csv(path, encoding_errors="replace")
    if kind == "excel":
        return pd.read_excel(path, sheet_name=sheet or 0, engine="openpyxl")
    raise ConfigError(f"{kind!r} is not a file source.")


def source_table(settings: "Settings") -> str:
    """The table questions are about: "data" for files, else the table chosen in the builder."""
    source: Mapping[str, Any] = settings.source
    return FILE_TABLE if source.get("file") else str(source["table"])


def open_database(settings: "Settings") -> Database:
    source = settings.source
    timeout = float(settings.section("sql").get("timeout_seconds", 15))
    if source.get("file"):
        frame = read_frame(settings.path(source["file"]), source["type"], source.get("sheet"))
        return SqliteDatabase.from_frame(frame, FILE_TABLE, timeout)
    url = normalize_database_url(settings.database_url)
    if backend_of(url) == "sqlite":
        return SqliteDatabase.open_file(sqlite_path(url), timeout)
    database = SqlAlchemyDatabase(url, timeout)
    # Connected to once now: a wrong password, host or table stops the start, in plain words
    # naming DATABASE_URL (db.connection_to), rather than the first question.
    database.schema(source_table(settings))
    return database


def result_rows_text(result: QueryResult, limit: int = 50) -> str:
    """A plain-text rendering of a result for prompts: a header, then one line per row."""
    if not result.columns:
        return "(no columns)"
    lines = [" | ".join(result.columns)]
    lines += [
        " | ".join("NULL" if v is None else str(v) for v in row) for row in result.rows[:limit]
    ]
    if len(result.rows) > limit or result.truncated:
        lines.append("(more rows not shown)")
    return "\n".join(lines)
