"""The Vanna engine against a stand-in for vanna.legacy.base.VannaBase (same hooks, no network)."""

import re

import pytest

from agent.engine import TrainingStore, VannaEngine
from tests.fakes import FakeChat, StreamingChat, install_module
from tests.sql_fakes import quoted_table, sales_database


class FakeVannaBase:
    """What VannaBase.generate_sql does, in short: gather training data, prompt, extract SQL
    (passing its keyword arguments on to each hook, as Vanna does)."""

    def __init__(self, config=None):
        self.config = config or {}

    def generate_sql(self, question, **kwargs):
        context = self.get_related_ddl(question, **kwargs) + self.get_related_documentation(
            question, **kwargs
        )
        prompt = [self.system_message(self.config["initial_prompt"] + "\n" + "\n".join(context))]
        for example in self.get_similar_question_sql(question, **kwargs):
            prompt += [
                self.user_message(example["question"]),
                self.assistant_message(example["sql"]),
            ]
        prompt.append(self.user_message(question))
        response = self.submit_prompt(prompt, **kwargs)
        match = re.search(r"```sql\n(.*)```", response, re.DOTALL)
        return match.group(1) if match else response


@pytest.fixture(autouse=True)
def fake_vanna(monkeypatch):
    install_module(monkeypatch, "vanna.legacy.base", VannaBase=FakeVannaBase)


def test_vanna_writes_the_query_and_the_agent_runs_it(settings):
    table = quoted_table(settings)
    chat = FakeChat(
        f"```sql\nSELECT region FROM {table} WHERE amount > 15\n```", "South is the only one."
    )
    engine = VannaEngine(settings, sales_database(settings), chat)

    answer = engine.ask("Which regions sold more than 15?")

    assert answer.rows == [("South",)]
    assert answer.text == "South is the only one."
    system = chat.calls[0][0]
    assert system["role"] == "system"
    assert system["content"].startswith(settings.system_prompt)
    assert "CREATE TABLE" in system["content"] and "North" in system["content"]
    assert chat.calls[0][-1] == {"role": "user", "content": "Which regions sold more than 15?"}


def test_unsafe_sql_from_vanna_is_refused(settings):
    drop = f"```sql\nDROP TABLE {quoted_table(settings)}\n```"
    chat = FakeChat(drop, drop)
    engine = VannaEngine(settings, sales_database(settings), chat)

    answer = engine.ask("Drop it")

    assert answer.text.startswith("Vanna did not write a query I can run")
    assert len(chat.calls) == 2


def test_a_refused_query_from_vanna_is_written_again_with_the_reason(settings):
    table = quoted_table(settings)
    chat = FakeChat(
        f"```sql\nDROP TABLE {table}\n```",
        f"```sql\nSELECT count(*) AS n FROM {table}\n```",
        "There are 3 sales.",
    )
    engine = VannaEngine(settings, sales_database(settings), chat)

    answer = engine.ask("How many sales?")

    assert answer.text == "There are 3 sales."
    assert "Only SELECT queries are allowed" in chat.calls[1][-1]["content"]


def test_training_data_is_ranked_by_shared_words():
    store = TrainingStore()
    store.add("sql", "SELECT 1", question="total sales per region")
    store.add("sql", "SELECT 2", question="number of customers")
    first = store.add("ddl", "CREATE TABLE a (x INT)")

    assert [e["content"] for e in store.related("sql", "customers count")] == [
        "SELECT 2",
        "SELECT 1",
    ]
    assert store.remove(first) is True
    assert [record["training_data_type"] for record in store.records()] == ["sql", "sql"]


def test_the_answer_streams_and_follow_ups_keep_the_conversation(settings):
    table = quoted_table(settings)
    chat = StreamingChat(
        "South ", "sold ", "20.", replies=[f"```sql\nSELECT region FROM {table} LIMIT 1\n```"]
    )
    engine = VannaEngine(settings, sales_database(settings), chat)
    earlier = [
        {"role": "user", "content": "Which region sold the most?"},
        {"role": "assistant", "content": "South."},
    ]

    pieces = list(engine.ask_stream("And how much?", earlier))

    assert pieces[:3] == ["South ", "sold ", "20."]
    assert pieces[-1].text == "South sold 20." and pieces[-1].rows == [("North",)]
    write_sql, summarize = chat.calls
    # Vanna's prompt: its instructions, then the conversation, then the question.
    assert write_sql[0]["role"] == "system"
    assert write_sql[-3:] == [*earlier, {"role": "user", "content": "And how much?"}]
    assert summarize[1:3] == earlier
