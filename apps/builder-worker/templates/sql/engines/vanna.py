"""The Vanna engine: Vanna writes the SQL with the agent's LLM, trained on the table's schema.

Vanna usually keeps its training data (DDL, documentation, example question/SQL pairs) in a
vector database and calls OpenAI. Here its LLM calls go through the agent's chat model, so every provider
works, and its training data lives in a small in-process store that ranks entries by the
words they share with the question - plenty for one table, and nothing else to run.

Vanna only writes the SQL. The agent checks it with sql_guard and runs it on the read-only
connection itself (Vanna's own run_sql is never used), then the model answers from the result,
streamed as it writes (`ask_stream`). The conversation's recent turns go into both prompts (for
Vanna, just before the question), so follow-up questions keep their context.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Union

from .answer import Agent, Answer
from .database import Database, QueryError, open_database, result_rows_text, source_table
from .llm import ChatModel, Message, recent_turns, reply_pieces
from .sql_guard import UnsafeQueryError
from .sql_prompts import answer_messages

if TYPE_CHECKING:
    from .config import Settings

log = logging.getLogger(__name__)

VANNA_INSTRUCTIONS = (
    "You are a {dialect} expert. Write one read-only SELECT statement that answers the "
    "question, using only the tables described below. Never modify data. "
)


def _words(text: str) -> set:
    return set(re.findall(r"\w+", text.lower()))


class TrainingStore:
    """Vanna's training data, in memory, ranked by the words an entry shares with a question."""

    def __init__(self) -> None:
        self.entries: Dict[str, Dict[str, Any]] = {}

    def add(self, kind: str, content: str, question: Optional[str] = None) -> str:
        entry_id = f"{len(self.entries) + 1}-{kind}"
        self.entries[entry_id] = {"kind": kind, "content": content, "question": question}
        return entry_id

    def related(self, kind: str, question: str, limit: int = 10) -> List[Dict[str, Any]]:
        words = _words(question)
        matching = [entry for entry in self.entries.values() if entry["kind"] == kind]

        def overlap(entry: Dict[str, Any]) -> int:
            return len(words & _words((entry["question"] or "") + " " + entry["content"]))

        # sorted() is stable: ties keep the order entries were added in.
        return sorted(matching, key=overlap, reverse=True)[:limit]

    def remove(self, entry_id: str) -> bool:
        return self.entries.pop(entry_id, None) is not None

    def records(self) -> List[Dict[str, Any]]:
        return [
            {
                "id": entry_id,
                "training_data_type": e["kind"],
                "question": e["question"],
                "content": e["content"],
            }
            for entry_id, e in self.entries.items()
        ]


def make_vanna(chat: ChatModel, store: TrainingStore, config: Dict[str, Any]) -> Any:
    """A Vanna instance whose LLM is `chat` and whose training data lives in `store`."""
    from vanna.legacy.base import VannaBase

    class AgentVanna(VannaBase):
        def __init__(self) -> None:
            VannaBase.__init__(self, config=config)

        # ---- training data ----
        def generate_embedding(self, data: str, **kwargs: Any) -> List[float]:
            # Required by VannaBase; the store ranks by shared words, not by embeddings.
            return [float(len(_words(data)))]

        def add_ddl(self, ddl: str, **kwargs: Any) -> str:
            return store.add("ddl", ddl)

        def add_documentation(self, documentation: str, **kwargs: Any) -> str:
            return store.add("documentation", documentation)

        def add_question_sql(self, question: str, sql: str, **kwargs: Any) -> str:
            return store.add("sql", sql, question=question)

        def get_related_ddl(self, question: str, **kwargs: Any) -> list:
            return [entry["content"] for entry in store.related("ddl", question)]

        def get_related_documentation(self, question: str, **kwargs: Any) -> list:
            return [entry["content"] for entry in store.related("documentation", question)]

        def get_similar_question_sql(self, question: str, **kwargs: Any) -> list:
            return [
                {"question": entry["question"], "sql": entry["content"]}
                for entry in store.related("sql", question)
            ]

        def get_training_data(self, **kwargs: Any) -> Any:
            import pandas as pd

            return pd.DataFrame(store.records())

        def remove_training_data(self, id: str, **kwargs: Any) -> bool:
            return store.remove(id)

        # ---- the LLM ----
        def system_message(self, message: str) -> Any:
            return {"role": "system", "content": message}

        def user_message(self, message: str) -> Any:
            return {"role": "user", "content": message}

        def assistant_message(self, message: str) -> Any:
            return {"role": "assistant", "content": message}

        def submit_prompt(
            self, prompt: Any, history: Sequence[Message] = (), **kwargs: Any
        ) -> str:
            # generate_sql passes its keyword arguments on: the conversation goes in just
            # before the question, after Vanna's own instructions and examples.
            return chat.complete([*prompt[:-1], *recent_turns(history), prompt[-1]])

        def log(self, message: str, title: str = "Info") -> None:
            log.debug("%s: %s", title, message)  # Vanna prints every prompt otherwise

    return AgentVanna()


class VannaEngine(Agent):
    def __init__(self, settings: "Settings", database: Database, chat: ChatModel) -> None:
        self.settings = settings
        self.database = database
        self.chat = chat
        self.table = source_table(settings)
        self.max_rows = int(settings.section("sql")["max_rows"])
        self.store = TrainingStore()
        self._vanna: Optional[Any] = None

    def train(self) -> None:
        """Teach Vanna the table: its DDL and a few sample rows."""
        schema = self.database.schema(self.table)
        self.store.add("ddl", schema.ddl(self.database.identifier_quote))
        sample = result_rows_text(self.database.sample(self.table))
        self.store.add("documentation", f"The first rows of {self.table}:\n{sample}")

    @property
    def vanna(self) -> Any:
        if self._vanna is None:
            self.train()
            dialect = self.database.dialect_name
            config = {
                "dialect": dialect,
                "initial_prompt": self.settings.system_prompt
                + "\n\n"
                + VANNA_INSTRUCTIONS.format(dialect=dialect),
            }
            self._vanna = make_vanna(self.chat, self.store, config)
        return self._vanna

    def ask_stream(
        self, question: str, history: Sequence[Message] = ()
    ) -> Iterator[Union[str, Answer]]:
        """Vanna writes the SQL, the agent runs it and the model answers from the result."""
        sql = self.vanna.generate_sql(question, history=history)
        try:
            result = self.database.run(sql, self.max_rows)
        except (UnsafeQueryError, QueryError) as error:
            # One more try, with the reason the query was refused or failed.
            sql = self.vanna.generate_sql(
                f"{question}\n\nThis query could not be used: {sql}\nReason: {error}\n"
                "Write a corrected read-only SELECT.",
                history=history,
            )
            try:
                result = self.database.run(sql, self.max_rows)
            except UnsafeQueryError as second:
                yield Answer(text=f"Vanna did not write a query I can run: {second}", sql=sql)
                return
            except QueryError as second:
                yield Answer(text=f"The query failed: {second}", sql=sql)
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


def build_engine(settings: "Settings", chat: ChatModel) -> VannaEngine:
    return VannaEngine(settings, open_database(settings), chat)
