"""Read-only database connections for DATABASE_URL (PostgreSQL, MySQL/MariaDB, SQLite).

The agent only ever reads. Besides checking queries (see sql_guard.py where present), every
connection is opened read-only where the driver allows, with a statement timeout:

- PostgreSQL: `default_transaction_read_only` and `statement_timeout` for the session;
- MySQL/MariaDB: `SET SESSION TRANSACTION READ ONLY` and the server's execution time limit;
- SQLite: the file is opened with `mode=ro`, and `PRAGMA query_only` is set.

Give the agent a database account that can only SELECT, too.
SQLAlchemy is imported inside the functions, so projects that never use a database do not
need it installed.
"""

from __future__ import annotations

import re
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, Optional
from urllib.parse import quote

from .config import ConfigError

DEFAULT_TIMEOUT_SECONDS = 15


def normalize_database_url(url: str) -> str:
    """Point common URL spellings at the drivers this project installs.

    SQLAlchemy no longer accepts `postgres://`, and plain `mysql://` would need the
    mysqlclient C library; PyMySQL (pure Python) is used instead.
    """
    scheme, separator, rest = url.strip().partition("://")
    if not separator:
        raise ConfigError("DATABASE_URL must look like scheme://user:password@host/database.")
    backend = scheme.lower()
    if backend in ("postgres", "postgresql"):
        scheme = "postgresql+psycopg2"
    elif backend in ("mysql", "mariadb"):
        scheme = "mysql+pymysql"
    return f"{scheme}://{rest}"


def backend_of(url: str) -> str:
    """'postgresql', 'mysql', 'sqlite', ... from a (normalized) URL."""
    return url.split("://", 1)[0].split("+", 1)[0].lower()


def connect_args(url: str, timeout_seconds: int) -> Dict[str, Any]:
    """Driver options that make a session read-only and bound its statements in time."""
    backend = backend_of(url)
    if backend == "postgresql":
        options = (
            "-c default_transaction_read_only=on "
            f"-c statement_timeout={int(timeout_seconds * 1000)}"
        )
        return {"options": options, "connect_timeout": 10}
    if backend == "mysql":
        return {"connect_timeout": 10, "read_timeout": int(timeout_seconds) + 5}
    return {}


def sqlite_path(url: str) -> str:
    """The file of a sqlite:/// URL ("sqlite:///data/app.db" is relative to the project)."""
    prefix = url.split("://", 1)[1] if "://" in url else ""
    path = prefix[1:] if prefix.startswith("/") else prefix
    path = path.split("?", 1)[0]
    if not path or path == ":memory:":
        raise ConfigError("DATABASE_URL must name a SQLite file, e.g. sqlite:///data/database.db")
    return path


def connect_sqlite_readonly(path: str) -> sqlite3.Connection:
    # A URI with mode=ro: the file is never created, and writes fail at the database level.
    uri = "file:" + quote(path) + "?mode=ro"
    connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
    connection.execute("PRAGMA query_only = ON")
    return connection


def create_readonly_engine(url: str, timeout_seconds: int = DEFAULT_TIMEOUT_SECONDS):
    """A SQLAlchemy engine whose connections are read-only (see the module docstring)."""
    import sqlalchemy as sa

    url = normalize_database_url(url)
    backend = backend_of(url)
    if backend == "sqlite":
        path = sqlite_path(url)
        return sa.create_engine("sqlite://", creator=lambda: connect_sqlite_readonly(path))

    engine = sa.create_engine(
        url, connect_args=connect_args(url, timeout_seconds), pool_pre_ping=True
    )
    if backend == "mysql":

        @sa.event.listens_for(engine, "connect")
        def _read_only_session(dbapi_connection, _record):
            cursor = dbapi_connection.cursor()
            try:
                cursor.execute("SET SESSION TRANSACTION READ ONLY")
                # MySQL counts milliseconds, MariaDB seconds; each ignores the other's variable.
                for statement in (
                    f"SET SESSION max_execution_time = {int(timeout_seconds * 1000)}",
                    f"SET SESSION max_statement_time = {int(timeout_seconds)}",
                ):
                    try:
                        cursor.execute(statement)
                    except Exception:
                        pass
            finally:
                cursor.close()

    return engine


@contextmanager
def connection_to(engine) -> Iterator[Any]:
    """A connection from `engine`; a database that cannot be reached is a plain ConfigError
    naming DATABASE_URL (its password hidden), not a driver's traceback."""
    import sqlalchemy as sa

    try:
        connection = engine.connect()
    except sa.exc.DBAPIError as error:
        detail = (str(error.orig).strip().splitlines() or [""])[0][:200]
        where = engine.url.render_as_string(hide_password=True)
        raise ConfigError(
            f"Cannot connect to the database in DATABASE_URL ({where}): {detail}. Check that "
            "it is running and reachable from here, and that DATABASE_URL is right."
            + docker_host_hint(engine.url.host, detail)
        ) from None
    with connection:
        yield connection


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# How the drivers say nothing answered (psycopg2: "Connection refused", "timeout expired";
# PyMySQL: "Can't connect to MySQL server"), as opposed to a refused password or database.
NOTHING_ANSWERED = re.compile(r"refused|can't connect|could not connect|timed? ?out|timeout", re.I)


def in_container() -> bool:
    """Whether this process runs in a container (Docker writes /.dockerenv, Podman
    /run/.containerenv)."""
    return Path("/.dockerenv").exists() or Path("/run/.containerenv").exists()


def docker_host_hint(host: Optional[str], detail: str) -> str:
    """In a container, 127.0.0.1 is the container itself: how to reach the machine's database,
    when nothing answered there."""
    if host not in LOOPBACK_HOSTS or not NOTHING_ANSWERED.search(detail) or not in_container():
        return ""
    return (
        f" Inside a container, {host} is the container itself: write host.docker.internal "
        f"instead of {host} in DATABASE_URL to reach a database on the machine that runs "
        "Docker (docker-compose.yml maps that name to it)."
    )


def reflect_table(connection, name: str):
    """The table `name` as SQLAlchemy metadata; "schema.table" works too."""
    import sqlalchemy as sa

    try:
        return sa.Table(name, sa.MetaData(), autoload_with=connection)
    except sa.exc.NoSuchTableError:
        if "." not in name:
            raise ConfigError(f"The table {name!r} does not exist in the database.") from None
    schema, _, table = name.partition(".")
    try:
        return sa.Table(table, sa.MetaData(), schema=schema, autoload_with=connection)
    except sa.exc.NoSuchTableError:
        raise ConfigError(f"The table {name!r} does not exist in the database.") from None
