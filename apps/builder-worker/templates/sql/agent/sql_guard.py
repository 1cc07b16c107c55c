"""The guard between a language model's SQL and the database: one read-only SELECT, limited.

`guard_select(sql, max_rows)` returns the statement to run or raises UnsafeQueryError. It
tokenizes the text (strings, quoted identifiers, comments, dollar quotes) instead of matching
patterns, so a keyword inside a string is data and a semicolon inside a comment cannot end a
statement. It allows:

- exactly one statement (a trailing semicolon is dropped), starting with SELECT or WITH;
- no keyword that changes data or writes files inside a SELECT (INSERT, UPDATE, DELETE, DROP,
  INTO, ...), no row lock, and no call to a function with side effects (pg_sleep, pg_read_file,
  load_extension, ...); other words (release, load, cluster, ...) are ordinary column names;
- a top-level LIMIT (or FETCH FIRST) no larger than `max_rows`; one is added when missing.

Strings are read as the database reads them (a backslash escapes in MySQL's strings and
PostgreSQL's E'...' strings only). Whenever the text could be read two ways ("--" glued to the
next character, MySQL's executable /*! comments, nested comments) it is refused rather than
guessed at. The database connection is read-only as well (db.py): the guard is the first line
of defence, not the only one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional

# Words that change data or write files even inside a SELECT (a data-modifying WITH, SELECT
# INTO, FOR UPDATE), refused anywhere outside quotes (compared upper-cased). Statements such as
# SET, LOAD, RELEASE or CLUSTER can only start a statement, and only one statement, starting
# with SELECT or WITH, is allowed: as words inside it they are ordinary column names.
FORBIDDEN_KEYWORDS = frozenset(
    """
    INSERT UPDATE DELETE MERGE UPSERT DROP CREATE ALTER TRUNCATE GRANT REVOKE
    ATTACH DETACH PRAGMA COPY EXEC EXECUTE INTO OUTFILE DUMPFILE
    """.split()
)
# Row locks a SELECT can take: FOR SHARE / FOR KEY SHARE / FOR NO KEY UPDATE (PostgreSQL),
# LOCK IN SHARE MODE (MySQL). FOR UPDATE is refused by UPDATE above.
LOCKING_CLAUSES = (("FOR", "SHARE"), ("FOR", "KEY"), ("FOR", "NO"), ("LOCK", "IN"))

# Functions with side effects or that reach outside the database (compared lower-cased).
FORBIDDEN_FUNCTIONS = frozenset(
    """
    pg_sleep pg_sleep_for pg_sleep_until pg_read_file pg_read_binary_file pg_ls_dir
    pg_stat_file pg_terminate_backend pg_cancel_backend pg_reload_conf pg_rotate_logfile
    pg_advisory_lock pg_advisory_xact_lock pg_try_advisory_lock set_config setval nextval
    lo_import lo_export lo_unlink lo_from_bytea lo_put dblink dblink_exec dblink_connect
    query_to_xml query_to_xml_and_xmlschema query_to_xmlschema
    sleep benchmark load_file get_lock release_lock release_all_locks master_pos_wait
    sys_exec sys_eval load_extension writefile readfile edit fts3_tokenizer
    """.split()
)

_NUMBER = re.compile(r"\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?")
_DOLLAR_TAG = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$")
_PARAMETER = re.compile(r"\$\d+")


class UnsafeQueryError(ValueError):
    """The query is not a single read-only SELECT; the message says why."""


@dataclass(frozen=True)
class Token:
    kind: str  # word, number, string, identifier, parameter, punct, space, comment
    text: str

    @property
    def significant(self) -> bool:
        return self.kind not in ("space", "comment")


def tokenize(sql: str, dialect: str = "sqlite") -> List[Token]:
    """Split `sql` into tokens, reading quoted text as `dialect`'s database does."""
    tokens: List[Token] = []
    i, length = 0, len(sql)
    while i < length:
        char = sql[i]
        if char.isspace():
            end = i
            while end < length and sql[end].isspace():
                end += 1
            tokens.append(Token("space", sql[i:end]))
        elif sql.startswith("--", i):
            # PostgreSQL and SQLite end a comment at the line's end; MySQL reads "--1" as two
            # minus signs. Only "-- " means the same to all of them.
            if i + 2 < length and not sql[i + 2].isspace():
                raise UnsafeQueryError('"--" must be followed by a space to start a comment.')
            end = sql.find("\n", i)
            end = length if end == -1 else end
            tokens.append(Token("comment", sql[i:end]))
        elif sql.startswith("/*", i):
            if sql.startswith("/*!", i):
                raise UnsafeQueryError("MySQL executable comments (/*! ... */) are not allowed.")
            close = sql.find("*/", i + 2)
            if close == -1:
                raise UnsafeQueryError("A /* comment is never closed.")
            if "/*" in sql[i + 2 : close]:
                raise UnsafeQueryError("Nested comments are not allowed.")
            end = close + 2
            tokens.append(Token("comment", sql[i:end]))
        elif char in "'\"`":
            end = _end_of_quoted(sql, i, _backslashes(sql, i, dialect))
            tokens.append(Token("string" if char == "'" else "identifier", sql[i:end]))
        elif char == "$":
            tag = _DOLLAR_TAG.match(sql, i)
            parameter = _PARAMETER.match(sql, i)
            if tag:
                close = sql.find(tag.group(0), tag.end())
                if close == -1:
                    raise UnsafeQueryError("A dollar-quoted string is never closed.")
                end = close + len(tag.group(0))
                tokens.append(Token("string", sql[i:end]))
            elif parameter:
                end = parameter.end()
                tokens.append(Token("parameter", sql[i:end]))
            else:
                end = i + 1
                tokens.append(Token("punct", char))
        elif char.isalpha() or char == "_":
            end = i + 1
            while end < length and (sql[end].isalnum() or sql[end] in "_$"):
                end += 1
            tokens.append(Token("word", sql[i:end]))
        elif char.isdigit() or (char == "." and i + 1 < length and sql[i + 1].isdigit()):
            match = _NUMBER.match(sql, i)
            end = match.end() if match else i + 1
            tokens.append(Token("number", sql[i:end]))
        else:
            end = i + 1
            tokens.append(Token("punct", char))
        i = end
    return tokens


def _backslashes(sql: str, start: int, dialect: str) -> str:
    """How the database reads a backslash in the quoted text opened at `start`.

    "escape": it escapes the next character (MySQL strings; PostgreSQL's E'...' strings);
    "text": it is a plain character (SQLite; PostgreSQL's standard strings and identifiers);
    "refuse": it has a meaning of its own the guard does not follow (PostgreSQL's U&'...').
    Reading them as the database does lets a regular expression such as '^a\\d' through while a
    quote hidden behind a backslash still cannot end a string early.
    """
    quote = sql[start]
    if dialect == "mysql":
        return "escape" if quote in "'\"" else "text"
    if dialect == "postgresql" and quote == "'":
        prefix = re.search(r"(?<![A-Za-z0-9_$])(U&|E)$", sql[max(0, start - 3) : start], re.I)
        if prefix:
            return "refuse" if prefix.group(1).upper() == "U&" else "escape"
    return "text"


def _end_of_quoted(sql: str, start: int, backslashes: str) -> int:
    """Index just past the quoted text opened at `start` (a doubled quote is an escaped one)."""
    quote = sql[start]
    i = start + 1
    while i < len(sql):
        if sql[i] == "\\" and backslashes == "escape":
            i += 2
            continue
        if sql[i] == "\\" and backslashes == "refuse":
            raise UnsafeQueryError("Backslashes inside U&'...' strings are not allowed.")
        if sql[i] == quote:
            if i + 1 < len(sql) and sql[i + 1] == quote:
                i += 2
                continue
            return i + 1
        i += 1
    raise UnsafeQueryError("A quoted string or identifier is never closed.")


def _next_significant(tokens: List[Token], index: int) -> Optional[int]:
    for position in range(index + 1, len(tokens)):
        if tokens[position].significant:
            return position
    return None


def guard_select(sql: str, max_rows: int, dialect: str = "sqlite") -> str:
    """Return `sql` as one read-only SELECT limited to `max_rows` rows, or raise.

    `dialect` ("sqlite", "postgresql" or "mysql") decides how backslashes in strings are read.
    """
    if max_rows < 1:
        raise ValueError("max_rows must be at least 1")
    tokens = tokenize(sql, dialect)

    # Drop trailing semicolons; any other semicolon means a second statement.
    significant = [i for i, token in enumerate(tokens) if token.significant]
    while significant and tokens[significant[-1]].text == ";":
        del tokens[significant.pop()]
    if not significant:
        raise UnsafeQueryError("The query is empty.")
    if any(token.text == ";" for token in tokens if token.kind == "punct"):
        raise UnsafeQueryError("Only one statement is allowed.")

    first_word = next((t for t in tokens if t.kind == "word"), None)
    opening = [t for t in tokens if t.significant][0]
    if (
        first_word is None
        or first_word.text.upper() not in ("SELECT", "WITH")
        or opening.text not in (first_word.text, "(")
    ):
        raise UnsafeQueryError("Only SELECT queries are allowed.")

    depth = 0
    limit_at: Optional[int] = None
    fetch_at: Optional[int] = None
    for index, token in enumerate(tokens):
        if token.kind == "punct" and token.text == "(":
            depth += 1
        elif token.kind == "punct" and token.text == ")":
            depth -= 1
            if depth < 0:
                raise UnsafeQueryError("Unbalanced parentheses.")
        elif token.kind == "word":
            upper = token.text.upper()
            if upper in FORBIDDEN_KEYWORDS:
                raise UnsafeQueryError(f"{upper} is not allowed in a read-only query.")
            following = _next_significant(tokens, index)
            pair = (upper, tokens[following].text.upper() if following is not None else "")
            if pair in LOCKING_CLAUSES:
                raise UnsafeQueryError(f"{' '.join(pair)} would lock rows.")
            if (
                token.text.lower() in FORBIDDEN_FUNCTIONS
                and following is not None
                and tokens[following].text == "("
            ):
                raise UnsafeQueryError(f"The function {token.text.lower()}() is not allowed.")
            if depth == 0 and upper == "LIMIT":
                limit_at = index
            elif depth == 0 and upper == "FETCH":
                fetch_at = index
    if depth != 0:
        raise UnsafeQueryError("Unbalanced parentheses.")

    if limit_at is not None:
        _cap_limit(tokens, limit_at, max_rows)
    elif fetch_at is not None:
        _cap_fetch(tokens, fetch_at, max_rows)

    # Comments are dropped: what runs is exactly what was checked.
    checked = "".join(" " if t.kind == "comment" else t.text for t in tokens).strip()
    if limit_at is None and fetch_at is None:
        checked += f"\nLIMIT {max_rows}"
    return checked


def _cap_limit(tokens: List[Token], limit_at: int, max_rows: int) -> None:
    """LIMIT n, LIMIT n OFFSET m, or MySQL's LIMIT offset, n: cap the row count at max_rows."""
    count_at = _next_significant(tokens, limit_at)
    if count_at is None or tokens[count_at].kind != "number":
        raise UnsafeQueryError("LIMIT must be followed by a number.")
    after = _next_significant(tokens, count_at)
    if after is not None and tokens[after].text == ",":
        count_at = _next_significant(tokens, after)
        if count_at is None or tokens[count_at].kind != "number":
            raise UnsafeQueryError("LIMIT must be followed by numbers.")
    _cap_number(tokens, count_at, max_rows)


def _cap_fetch(tokens: List[Token], fetch_at: int, max_rows: int) -> None:
    """FETCH FIRST|NEXT [n] ROW|ROWS ONLY: cap n at max_rows (no n means one row)."""
    direction = _next_significant(tokens, fetch_at)
    count_at = _next_significant(tokens, direction) if direction is not None else None
    if count_at is not None and tokens[count_at].kind == "number":
        _cap_number(tokens, count_at, max_rows)
    elif count_at is None or tokens[count_at].text.upper() not in ("ROW", "ROWS"):
        raise UnsafeQueryError("FETCH must give its row count as a number.")


def _cap_number(tokens: List[Token], at: int, max_rows: int) -> None:
    text = tokens[at].text
    if not text.isdigit():
        raise UnsafeQueryError("The row limit must be a whole number.")
    if int(text) > max_rows:
        tokens[at] = Token("number", str(max_rows))
