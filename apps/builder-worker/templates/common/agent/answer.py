"""What the agent answers, and how that answer is shown as Markdown."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")
# How a curated answer names its source, as Agentloom's hosted agents do.
CURATED_CITATION = "Curated answer"


@dataclass(frozen=True)
class CuratedMatch:
    """The owner's curated answer a question was given (agent/curated.py): its id, the question
    it was written for, its text, and how close the asked question was (a cosine similarity, or
    the share of content words the two have in common)."""

    id: str
    question: str
    answer: str
    similarity: float


@dataclass
class Answer:
    """One reply: the text, plus whatever backs it up.

    RAG agents fill `sources` (citations such as "handbook.pdf, page 3"); SQL agents fill `sql`
    and the result table (`columns`, `rows`; `truncated` when it reached the row limit). A
    curated answer names its source "Curated answer" and says which one it is in `curated`.
    """

    text: str
    sources: List[str] = field(default_factory=list)
    sql: Optional[str] = None
    columns: List[str] = field(default_factory=list)
    rows: List[Tuple[Any, ...]] = field(default_factory=list)
    truncated: bool = False
    image: Optional[str] = None
    curated: Optional[CuratedMatch] = None


class Agent:
    """What every agent offers the chat apps and the command line.

    `ask_stream(question, history)` yields the answer's text as the model writes it, piece by
    piece, then the whole Answer as its last item; `ask` returns that Answer alone. `history`
    is the conversation's earlier turns ({"role": "user" | "assistant", "content": ...}),
    oldest first.
    """

    def ask_stream(
        self, question: str, history: Sequence[Mapping[str, str]] = ()
    ) -> Iterator[Union[str, Answer]]:
        raise NotImplementedError

    def ask(self, question: str, history: Sequence[Mapping[str, str]] = ()) -> Answer:
        answer = Answer(text="")
        for piece in self.ask_stream(question, history):
            if isinstance(piece, Answer):
                answer = piece
        return answer


def conversation_text(answer: Answer) -> str:
    """What an answer adds to the conversation the model sees with the next question: its text
    and, for a SQL agent, the query behind it (so "and in March?" can adapt that query)."""
    return f"{answer.text}\n\nThe query:\n{answer.sql}" if answer.sql else answer.text


def escape_markdown(text: str) -> str:
    """Show `text` literally in Markdown (names and values are data, not formatting)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return escape_markdown(" ".join(text.split()))


def markdown_table(
    columns: Sequence[str], rows: Sequence[Sequence[Any]], max_rows: int = 50
) -> str:
    if not columns:
        return ""
    lines = [
        "| " + " | ".join(_cell(column) for column in columns) + " |",
        "| " + " | ".join("---" for _ in columns) + " |",
    ]
    for row in rows[:max_rows]:
        lines.append("| " + " | ".join(_cell(value) for value in row) + " |")
    if len(rows) > max_rows:
        lines.append(f"\n_{len(rows) - max_rows} more rows not shown._")
    return "\n".join(lines)


def to_markdown(answer: Answer) -> str:
    """The whole answer as one Markdown message (used by the Gradio chat)."""
    parts = [answer.text] if answer.text else []
    if answer.sql:
        parts.append("```sql\n" + answer.sql.replace("```", "` ` `") + "\n```")
    if answer.columns:
        parts.append(markdown_table(answer.columns, answer.rows))
        if answer.truncated:
            parts.append("_The result reached the row limit; there may be more rows._")
    if answer.image:
        parts.append(f"_Chart saved to {escape_markdown(answer.image)}_")
    if answer.sources:
        parts.append("**Sources**\n" + "\n".join(f"- {escape_markdown(s)}" for s in answer.sources))
    return "\n\n".join(parts)


def to_text(answer: Answer, max_rows: int = 50) -> str:
    """The whole answer as plain text, for a terminal (no Markdown escapes)."""
    parts = [answer.text] if answer.text else []
    if answer.sql:
        parts.append(answer.sql)
    if answer.columns:
        lines = [" | ".join(str(column) for column in answer.columns)]
        for row in answer.rows[:max_rows]:
            lines.append(" | ".join("" if value is None else " ".join(str(value).split()) for value in row))
        if len(answer.rows) > max_rows:
            lines.append(f"({len(answer.rows) - max_rows} more rows not shown)")
        parts.append("\n".join(lines))
        if answer.truncated:
            parts.append("The result reached the row limit; there may be more rows.")
    if answer.image:
        parts.append(f"Chart saved to {answer.image}")
    if answer.sources:
        parts.append("Sources:\n" + "\n".join(f"- {source}" for source in answer.sources))
    return "\n\n".join(parts)
