"""The SQL guard lets one read-only SELECT through, with a row limit, and nothing else."""

import pytest

from agent.sql_guard import UnsafeQueryError, guard_select, tokenize

MAX = 100


@pytest.mark.parametrize(
    "sql, expected",
    [
        ("SELECT * FROM data", "SELECT * FROM data\nLIMIT 100"),
        ("select region, sum(amount) from data group by region;", None),
        ("SELECT * FROM data LIMIT 5", "SELECT * FROM data LIMIT 5"),
        ("SELECT * FROM data LIMIT 5000", "SELECT * FROM data LIMIT 100"),
        ("SELECT * FROM data LIMIT 10 OFFSET 20", "SELECT * FROM data LIMIT 10 OFFSET 20"),
        ("SELECT * FROM data LIMIT 20, 5000", "SELECT * FROM data LIMIT 20, 100"),
        ("SELECT * FROM t FETCH FIRST 500 ROWS ONLY", "SELECT * FROM t FETCH FIRST 100 ROWS ONLY"),
        (
            "WITH top AS (SELECT * FROM data LIMIT 3) SELECT * FROM top",
            "WITH top AS (SELECT * FROM data LIMIT 3) SELECT * FROM top\nLIMIT 100",
        ),
        ("(SELECT 1) UNION (SELECT 2)", "(SELECT 1) UNION (SELECT 2)\nLIMIT 100"),
        ("SELECT 'DROP TABLE x; --' AS text", "SELECT 'DROP TABLE x; --' AS text\nLIMIT 100"),
        ('SELECT "delete" FROM "update log"', 'SELECT "delete" FROM "update log"\nLIMIT 100'),
        ("SELECT 'it''s' -- a comment; DROP\n", "SELECT 'it''s'\nLIMIT 100"),
        ("SELECT /* note; */ 1", "SELECT   1\nLIMIT 100"),
        ("SELECT $$a;b$$, $1", "SELECT $$a;b$$, $1\nLIMIT 100"),
        ("SELECT replace(name, 'a', 'b') FROM data", None),
    ],
)
def test_read_only_selects_pass(sql, expected):
    checked = guard_select(sql, MAX)
    if expected is not None:
        assert checked == expected
    assert "LIMIT" in checked.upper() or "FETCH" in checked.upper()


@pytest.mark.parametrize(
    "sql, reason",
    [
        ("", "empty"),
        ("  ;  ", "empty"),
        ("DROP TABLE data", "Only SELECT"),
        ("UPDATE data SET amount = 0", "Only SELECT"),
        ("DELETE FROM data", "Only SELECT"),
        ("INSERT INTO data VALUES (1)", "Only SELECT"),
        ("PRAGMA writable_schema = 1", "Only SELECT"),
        ("EXPLAIN SELECT 1", "Only SELECT"),
        ("SELECT 1; DROP TABLE data", "one statement"),
        ("SELECT 1; SELECT 2", "one statement"),
        ("WITH gone AS (DELETE FROM data RETURNING *) SELECT * FROM gone", "DELETE"),
        ("SELECT * INTO backup FROM data", "INTO"),
        ("SELECT * FROM data INTO OUTFILE '/tmp/x'", "INTO"),
        ("SELECT pg_sleep(100)", "pg_sleep"),
        ("SELECT pg_read_file('/etc/passwd')", "pg_read_file"),
        ("SELECT load_extension('evil')", "load_extension"),
        ("SELECT set_config('default_transaction_read_only', 'off', false)", "set_config"),
        ("SELECT * FROM data FOR UPDATE", "UPDATE"),
        ("SELECT 1 --1; DROP TABLE data", "followed by a space"),
        ("SELECT /*!50000 1 */", "executable"),
        ("SELECT /* outer /* inner */ 1 */", "Nested"),
        ("SELECT 'never closed", "never closed"),
        ("SELECT /* never closed", "never closed"),
        ("SELECT (1", "parentheses"),
        ("SELECT 1)", "parentheses"),
        ("SELECT * FROM data LIMIT ALL", "LIMIT"),
        ("SELECT * FROM data LIMIT (SELECT 5)", "LIMIT"),
        ("ATTACH DATABASE 'x.db' AS x", "Only SELECT"),
    ],
)
def test_anything_else_is_refused(sql, reason):
    with pytest.raises(UnsafeQueryError, match=reason):
        guard_select(sql, MAX)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT release, load, cluster, status FROM data",
        "SELECT d.release FROM data AS d WHERE d.set = 1 ORDER BY d.lock",
        "SELECT name FROM data WHERE name ~ '^a\\d+$'",
        "SELECT count(*) FROM data WHERE note LIKE '%\\_%'",
    ],
)
def test_ordinary_columns_and_regular_expressions_pass(sql):
    assert guard_select(sql, MAX, "postgresql").startswith(sql)


@pytest.mark.parametrize(
    "sql, dialect",
    [
        # MySQL reads \' as a quote inside the string: the DROP stays inside it.
        ("SELECT 'abc\\'; DROP TABLE data; --'", "mysql"),
        ('SELECT "a\\" b" FROM data', "mysql"),
        # PostgreSQL's E'' strings escape too.
        ("SELECT E'it\\'s', 1", "postgresql"),
    ],
)
def test_backslashes_are_read_as_the_database_reads_them(sql, dialect):
    assert guard_select(sql, MAX, dialect).startswith(sql)


@pytest.mark.parametrize(
    "sql, dialect, reason",
    [
        # In PostgreSQL a backslash is text: the string ends and a second statement follows.
        ("SELECT 'abc\\'; DROP TABLE data; --'", "postgresql", "statement|space"),
        # E'\'' is one quote: what follows is code, and pg_sleep is refused.
        ("SELECT E'\\'', pg_sleep(10), ''''", "postgresql", "pg_sleep"),
        ("SELECT U&'\\0041'", "postgresql", "U&"),
        ("SELECT * FROM data FOR SHARE", "postgresql", "FOR SHARE"),
        ("SELECT * FROM data FOR NO KEY UPDATE", "postgresql", "FOR NO|UPDATE"),
        ("SELECT * FROM data LOCK IN SHARE MODE", "mysql", "LOCK IN"),
    ],
)
def test_dialect_specific_tricks_are_refused(sql, dialect, reason):
    with pytest.raises(UnsafeQueryError, match=reason):
        guard_select(sql, MAX, dialect)


def test_keywords_inside_strings_and_identifiers_are_data():
    kinds = [
        (t.kind, t.text)
        for t in tokenize("SELECT 'drop', \"insert\", `set` FROM x")
        if t.significant
    ]
    assert kinds == [
        ("word", "SELECT"),
        ("string", "'drop'"),
        ("punct", ","),
        ("identifier", '"insert"'),
        ("punct", ","),
        ("identifier", "`set`"),
        ("word", "FROM"),
        ("word", "x"),
    ]


def test_what_runs_is_what_was_checked():
    # Comments are removed, so nothing hidden in them reaches the database.
    assert guard_select("SELECT 1 /* ; DROP TABLE data */", 10) == "SELECT 1\nLIMIT 10"
