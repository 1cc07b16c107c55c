"""The sql_query engine: the LLM writes SQL from the table's schema; the agent checks and runs it.

For each question:
1. the model gets the system prompt, the table's schema and a few sample rows, and writes
   one SELECT;
2. sql_guard refuses anything but a single read-only SELECT and caps its row count;
3. the query runs on the read-only connection, with a timeout; if the database rejects it,
   the model gets the error once and may correct the query;
4. the model answers the question from the result, which is shown along with the SQL; the
   answer streams as the model writes it (`ask_stream`).

The conversation's recent turns go with steps 1 and 4, so follow-up questions keep their context.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional, Sequence, Tuple, Union

from .answer import Agent, Answer
from .database import (
    Database,
    QueryError,
    QueryResult,
    TableSchema,
    open_database,
    source_table,
)
from .llm import ChatModel, Message, reply_pieces
from .sql_guard import UnsafeQueryError
from .sql_prompts import answer_messages, extract_sql, retry_messages, sql_messages

if TYPE_CHECKING:
    from .config import Settings


class SqlQueryEngine(Agent):
    def __init__(self, settings: "Settings", database: Database, chat: ChatModel) -> None:
        self.settings = settings
        self.database = database
        self.chat = chat
        self.table = source_table(settings)
        self.max_rows = int(settings.section("sql")["max_rows"])
        self._context: Optional[Tuple[TableSchema, QueryResult]] = None

    def context(self) -> Tuple[TableSchema, QueryResult]:
        """The table's schema and first rows, read once."""
        if self._context is None:
            self._context = (self.database.schema(self.table), self.database.sample(self.table))
        return self._context

    def ask_stream(
        self, question: str, history: Sequence[Message] = ()
    ) -> Iterator[Union[str, Answer]]:
        """Steps 1 to 4 above; the last item carries the SQL that ran and its result."""
        schema, sample = self.context()
        messages = sql_messages(
            self.settings.system_prompt,
            self.database.dialect_name,
            schema,
            self.database.identifier_quote,
            sample,
            question,
            self.max_rows,
            history,
        )
        reply = self.chat.complete(messages)
        sql = extract_sql(reply)
        try:
            result = self.database.run(sql, self.max_rows)
        except (UnsafeQueryError, QueryError) as error:
            # One correction round: the model sees why the guard refused the query, or the
            # database's error message.
            messages = retry_messages(messages, reply, str(error))
            sql = extract_sql(self.chat.complete(messages))
            try:
                result = self.database.run(sql, self.max_rows)
            except (UnsafeQueryError, QueryError) as second_error:
                yield Answer(text=f"I could not answer with a valid query: {second_error}", sql=sql)
                return

        text = yield from reply_pieces(
            self.chat, answer_messages(self.settings.system_prompt, question, result, history)
        )
        yield Answer(
            text=text,
            sql=result.sql,
            columns=result.columns,
            rows=result.rows,
            truncated=result.truncated,
        )


def build_engine(settings: "Settings", chat: ChatModel) -> SqlQueryEngine:
    return SqlQueryEngine(settings, open_database(settings), chat)
