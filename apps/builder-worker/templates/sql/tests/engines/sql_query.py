"""The sql_query engine with a scripted model: prompt, guard, execution, answer."""

from agent.engine import SqlQueryEngine
from tests.fakes import FakeChat, StreamingChat
from tests.sql_fakes import quoted_table, sales_database


def sql_reply(sql):
    return f"Here you go:\n```sql\n{sql}\n```"


def test_a_question_becomes_a_checked_query_and_an_answer(settings):
    table = quoted_table(settings)
    chat = FakeChat(
        sql_reply(
            f"SELECT region, SUM(amount) AS total FROM {table} GROUP BY region ORDER BY region;"
        ),
        "North sold 15, South 20.",
    )
    engine = SqlQueryEngine(settings, sales_database(settings), chat)

    answer = engine.ask("Sales by region?")

    assert answer.text == "North sold 15, South 20."
    assert answer.columns == ["region", "total"]
    assert answer.rows == [("North", 15.0), ("South", 20.0)]
    assert answer.sql.endswith(f"LIMIT {settings.section('sql')['max_rows']}")
    write_sql, summarize = chat.calls
    assert write_sql[0] == {"role": "system", "content": settings.system_prompt}
    assert "CREATE TABLE" in write_sql[1]["content"] and '"amount" REAL' in write_sql[1]["content"]
    assert write_sql[1]["content"].endswith("Question: Sales by region?")
    assert summarize[0] == {"role": "system", "content": settings.system_prompt}
    assert "North | 15.0" in summarize[1]["content"]


def test_unsafe_sql_is_refused_and_the_data_is_untouched(settings):
    database = sales_database(settings)
    delete = sql_reply(f"DELETE FROM {quoted_table(settings)}")
    chat = FakeChat(delete, delete)
    engine = SqlQueryEngine(settings, database, chat)

    answer = engine.ask("Please clean up the table")

    assert answer.text.startswith("I could not answer with a valid query")
    assert answer.rows == []
    assert len(chat.calls) == 2
    assert database.run(f"SELECT count(*) FROM {quoted_table(settings)}", 10).rows == [(3,)]


def test_a_refused_query_is_written_again_with_the_guards_reason(settings):
    table = quoted_table(settings)
    chat = FakeChat(
        sql_reply(f"DELETE FROM {table}"),
        sql_reply(f"SELECT count(*) AS n FROM {table}"),
        "There are 3 sales.",
    )
    engine = SqlQueryEngine(settings, sales_database(settings), chat)

    answer = engine.ask("How many sales?")

    assert answer.text == "There are 3 sales."
    assert "Only SELECT queries are allowed" in chat.calls[1][-1]["content"]


def test_a_failing_query_is_corrected_once(settings):
    table = quoted_table(settings)
    chat = FakeChat(
        sql_reply(f"SELECT no_such_column FROM {table}"),
        sql_reply(f"SELECT count(*) AS n FROM {table}"),
        "There are 3 sales.",
    )
    engine = SqlQueryEngine(settings, sales_database(settings), chat)

    answer = engine.ask("How many sales?")

    assert answer.text == "There are 3 sales."
    assert answer.rows == [(3,)]
    retry = chat.calls[1]
    assert retry[-2] == {
        "role": "assistant",
        "content": sql_reply(f"SELECT no_such_column FROM {table}"),
    }
    assert "no_such_column" in retry[-1]["content"]


def test_a_second_failure_is_reported(settings):
    table = quoted_table(settings)
    chat = FakeChat(sql_reply(f"SELECT nope FROM {table}"), sql_reply(f"SELECT nope2 FROM {table}"))
    engine = SqlQueryEngine(settings, sales_database(settings), chat)

    answer = engine.ask("?")

    assert answer.text.startswith("I could not answer")
    assert len(chat.calls) == 2


def test_the_answer_streams_and_follow_ups_keep_the_conversation(settings):
    from agent.llm import HISTORY_MESSAGES

    table = quoted_table(settings)
    chat = StreamingChat(
        "There are ", "3 ", "sales.", replies=[sql_reply(f"SELECT count(*) AS n FROM {table}")]
    )
    engine = SqlQueryEngine(settings, sales_database(settings), chat)
    earlier = [{"role": "user", "content": f"question {n}"} for n in range(10)]

    pieces = list(engine.ask_stream("And how many sales?", earlier))

    assert pieces[:3] == ["There are ", "3 ", "sales."]
    final = pieces[-1]
    assert final.text == "There are 3 sales." and final.rows == [(3,)]
    write_sql, summarize = chat.calls
    for messages in (write_sql, summarize):
        assert messages[0] == {"role": "system", "content": settings.system_prompt}
        assert messages[1:-1] == earlier[-HISTORY_MESSAGES:]
        assert "And how many sales?" in messages[-1]["content"]
