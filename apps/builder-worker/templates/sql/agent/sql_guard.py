"""The guard between a language model's SQL and the database: one read-only SELECT, limited.

`guard_select(sql, max_rows)` returns the statement to run or raises UnsafeQueryError. It
tokenizes the text (strings, quoted identifiers, comments, dollar quotes) instead of matching
patterns, so a keyword inside a string is data and a semicolon inside a comment cannot end a
statement. It allows:

- exactly one statement (a trailing semicolon is dropped), starting with SELECT or WITH;
- no keyword that changes data or writes files inside a SELECT (INSERT, UPDATE, DELETE, DROP,
  INTO, ...), no row lock, and only calls to the dialect's allowed functions (ALLOWED_FUNCTIONS:
  aggregates, text, date, math...; never pg_sleep, pg_read_file, dblink, load_extension,
  zeroblob, ...), no server variable (@@version); other words (release, load, cluster, ...)
  are ordinary column names;
- a top-level LIMIT (or FETCH FIRST) no larger than `max_rows`; one is added when missing.

Strings are read as the database reads them (a backslash escapes in MySQL's strings and
PostgreSQL's E'...' strings only). Whenever the text could be read two ways ("--" glued to the
next character, MySQL's executable /*! comments, nested comments) it is refused rather than
guessed at. The database connection is read-only as well (db.py): the guard is the first line
of defence, not the only one.

Why not a SQL parser such as sqlglot: the text that runs must be read exactly as the server reads
it, and a parser's reading differs where it matters (sqlglot 30 takes MySQL's executable
/*! ... */ comments for plain comments, so code in them would run unchecked); its function names
are its own (strftime and DATE_FORMAT become TIME_TO_STR, date_trunc TIMESTAMP_TRUNC), so the
allowlist shared with the preview's guard could not be checked by name; and re-rendering the
query from its tree would change what runs.
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

# The functions a query may call, per dialect (compared lower-cased): aggregates, window
# functions, string, date, math, conditional, JSON and cast helpers that only compute a value.
# Any other call is refused: a list of forbidden functions cannot keep up with what each server
# ships (dblink, file readers, large objects, locks, sleeps, notifications...), a list of
# allowed ones can. Left out on purpose: functions that build values of a size the caller picks
# (zeroblob, randomblob, printf/format with a width, repeat, lpad, rpad, space), that reveal
# server settings or identity (version, current_setting, user, database), or generate rows
# (generate_series). Agentloom's preview guard allows exactly the same functions.
_TYPES = """
    char character varchar nchar nvarchar binary varbinary decimal numeric dec float real double
    int integer bigint smallint tinyint bit timestamp time datetime interval
"""
_COMMON = """
    count sum avg min max abs round ceil ceiling floor sign mod power sqrt exp ln log coalesce
    nullif cast lower upper length trim ltrim rtrim replace substr substring concat concat_ws
    instr reverse greatest least date row_number rank dense_rank percent_rank cume_dist ntile
    lag lead first_value last_value nth_value
"""
ALLOWED_FUNCTIONS = {
    "sqlite": frozenset((_TYPES + _COMMON + """
    total group_concat string_agg ifnull iif typeof hex quote unicode char glob like strftime
    julianday datetime time unixepoch random round trunc acos asin atan atan2 cos sin tan
    degrees radians pi log10 log2 json json_extract json_array json_object json_type json_valid
    json_array_length json_group_array json_group_object
    """).split()),
    "postgresql": frozenset((_TYPES + _COMMON + """
    string_agg array_agg bool_and bool_or every stddev stddev_pop stddev_samp variance var_pop
    var_samp corr covar_pop covar_samp regr_slope regr_intercept percentile_cont percentile_disc
    mode grouping date_trunc date_part extract age now to_char to_date to_timestamp to_number
    make_date make_time make_timestamp make_interval justify_days justify_hours isfinite
    timezone char_length character_length octet_length position strpos split_part left right
    initcap btrim starts_with translate md5 regexp_replace regexp_match regexp_matches
    regexp_split_to_array string_to_array array_to_string array_length cardinality unnest array
    row trunc div cbrt width_bucket random degrees radians pi log10 to_json to_jsonb
    json_build_object jsonb_build_object json_build_array jsonb_build_array json_agg jsonb_agg
    json_object_agg jsonb_object_agg json_extract_path_text jsonb_extract_path_text
    json_array_length jsonb_array_length
    """).split()),
    "mysql": frozenset((_TYPES + _COMMON + """
    group_concat ifnull if isnull char_length character_length octet_length locate position left
    right lcase ucase substring_index format field strcmp md5 sha1 sha2 hex date_format
    str_to_date datediff date_add date_sub adddate subdate timestampdiff timestampadd year month
    monthname day dayname dayofmonth dayofweek dayofyear week weekday quarter hour minute second
    last_day curdate now current_date current_timestamp unix_timestamp from_unixtime makedate
    extract convert truncate rand std stddev stddev_pop stddev_samp variance var_pop var_samp
    bit_and bit_or bit_xor any_value grouping json_extract json_unquote json_object json_array
    json_arrayagg json_objectagg json_length regexp_like regexp_replace regexp_substr
    regexp_instr match against
    """).split()),
}
# Words a "(" may follow that are not calls: subqueries, lists, window and grouping clauses. A
# name right after AS is an alias's column list or a sized type (CAST(x AS varchar(10))).
NOT_CALLS = frozenset(
    """
    in exists as from join on using values over filter within select where and or not union all
    any some intersect except by when then else having case limit offset is like ilike between
    distinct lateral with recursive rows range groups partition order group sets rollup cube
    escape materialized
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
        elif char == "[" and dialect == "sqlite":
            close = sql.find("]", i + 1)
            if close == -1:
                raise UnsafeQueryError("A [quoted] identifier is never closed.")
            end = close + 1
            tokens.append(Token("identifier", sql[i:end]))
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

    `dialect` ("sqlite", "postgresql" or "mysql") decides how backslashes in strings are read
    and which functions the query may call.
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

    # @@version, @@hostname, @@datadir...: the server's settings and identity, like version().
    for index, token in enumerate(tokens[:-1]):
        if token.kind == "punct" and token.text == "@" and tokens[index + 1].text == "@":
            raise UnsafeQueryError("Server variables (@@...) are not allowed in a query.")

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
            if depth == 0 and upper == "LIMIT":
                limit_at = index
            elif depth == 0 and upper == "FETCH":
                fetch_at = index
    if depth != 0:
        raise UnsafeQueryError("Unbalanced parentheses.")
    call = _forbidden_call(tokens, dialect)
    if call is not None:
        raise UnsafeQueryError(
            f"The function {call}() is not allowed: only aggregate, text, date, math and"
            " conditional functions are."
        )

    if limit_at is not None:
        _cap_limit(tokens, limit_at, max_rows)
    elif fetch_at is not None:
        _cap_fetch(tokens, fetch_at, max_rows)

    # Comments are dropped: what runs is exactly what was checked.
    checked = "".join(" " if t.kind == "comment" else t.text for t in tokens).strip()
    if limit_at is None and fetch_at is None:
        checked += f"\nLIMIT {max_rows}"
    return checked


def _forbidden_call(tokens: List[Token], dialect: str) -> Optional[str]:
    """The first function called that is not in ALLOWED_FUNCTIONS[dialect], if any.

    A call is a name followed by "(": a plain word or a quoted identifier ("pg_sleep"(1) is a
    call in PostgreSQL and SQLite); a schema in front (pg_catalog.pg_sleep) keeps the name. Not
    calls: keywords such as IN ( or OVER (, a name after AS, a CTE's column list (t(a) AS (...)).
    """
    allowed = ALLOWED_FUNCTIONS.get(dialect, ALLOWED_FUNCTIONS["sqlite"])
    code = [token for token in tokens if token.significant]
    for index, token in enumerate(code[:-1]):
        if code[index + 1].text != "(" or code[index + 1].kind != "punct":
            continue
        name = _called_name(token)
        if name is None or name in allowed:
            continue
        if token.kind == "word" and name in NOT_CALLS:
            continue
        if index > 0 and code[index - 1].kind == "word" and code[index - 1].text.upper() == "AS":
            continue
        if _is_cte_columns(code, index + 1):
            continue
        return name
    return None


def _called_name(token: Token) -> Optional[str]:
    if token.kind == "word":
        return token.text.lower()
    if token.kind == "identifier":
        closing = "]" if token.text[0] == "[" else token.text[0]
        return token.text[1:-1].replace(closing * 2, closing).lower()
    return None


def _is_cte_columns(code: List[Token], open_at: int) -> bool:
    """Whether the "(" at `open_at` closes into `) AS (` or `) AS [NOT] MATERIALIZED`."""
    depth = 0
    for index in range(open_at, len(code)):
        if code[index].text == "(" and code[index].kind == "punct":
            depth += 1
        elif code[index].text == ")" and code[index].kind == "punct":
            depth -= 1
            if depth == 0:
                after = [t.text.upper() for t in code[index + 1 : index + 3]]
                return after[:1] == ["AS"] and after[1:] in (["("], ["MATERIALIZED"], ["NOT"])
    return False


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
