"""Prompts of the SQL agent: writing a query from the schema, and answering from its result.

The system prompt written in the builder is always the first message, exactly as written. The
conversation's recent turns follow it, so a follow-up ("and in March?") is read, and its query
written, in the context of the questions before it.
"""

from __future__ import annotations

import re
from typing import List, Sequence

from .database import QueryResult, TableSchema, result_rows_text
from .llm import Message, recent_turns

SQL_REQUEST = """Write one {dialect} SELECT statement that answers the question.

The table:
{ddl}

Its first rows:
{sample}

Rules:
- Use only this table and its columns; quote names that contain spaces or capitals.
- Never modify data. Return at most {max_rows} rows.
- Reply with the SQL in a ```sql code block and nothing else.

Question: {question}"""

SQL_RETRY = """That query failed with this error:
{error}

Reply with a corrected query in a ```sql code block and nothing else."""

ANSWER_REQUEST = """Question: {question}

The query that ran:
{sql}

Its result ({count}{cut}):
{rows}

Answer the question from this result in a few sentences. If the result is empty, say so."""

_CODE_BLOCK = re.compile(r"```[ \t]*(?:sql)?[ \t]*\n?(.*?)```", re.IGNORECASE | re.DOTALL)


def sql_messages(
    system_prompt: str,
    dialect: str,
    schema: TableSchema,
    ddl_quote: str,
    sample: QueryResult,
    question: str,
    max_rows: int,
    history: Sequence[Message] = (),
) -> List[Message]:
    request = SQL_REQUEST.format(
        dialect=dialect,
        ddl=schema.ddl(ddl_quote),
        sample=result_rows_text(sample),
        max_rows=max_rows,
        question=question,
    )
    return [
        {"role": "system", "content": system_prompt},
        *recent_turns(history),
        {"role": "user", "content": request},
    ]


def retry_messages(messages: List[Message], reply: str, error: str) -> List[Message]:
    return [
        *messages,
        {"role": "assistant", "content": reply},
        {"role": "user", "content": SQL_RETRY.format(error=error)},
    ]


def answer_messages(
    system_prompt: str, question: str, result: QueryResult, history: Sequence[Message] = ()
) -> List[Message]:
    request = ANSWER_REQUEST.format(
        question=question,
        sql=result.sql,
        count="1 row" if len(result.rows) == 1 else f"{len(result.rows)} rows",
        cut=", the row limit: there may be more" if result.truncated else "",
        rows=result_rows_text(result),
    )
    return [
        {"role": "system", "content": system_prompt},
        *recent_turns(history),
        {"role": "user", "content": request},
    ]


def extract_sql(reply: str) -> str:
    """The SQL in a model's reply: the first code block, else the whole reply."""
    match = _CODE_BLOCK.search(reply)
    return (match.group(1) if match else reply).strip()
