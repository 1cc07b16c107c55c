"""The retrieval-augmented agent: index the source, retrieve passages, answer with citations."""

from __future__ import annotations

import logging
import re
import threading
from typing import TYPE_CHECKING, List, Sequence

from .answer import Answer
from .embeddings import Embedder
from .llm import ChatModel, Message
from .loaders import load_chunks
from .stores import Hit, VectorStore

if TYPE_CHECKING:
    from .config import Settings

log = logging.getLogger(__name__)

EMBED_BATCH_SIZE = 64
_PLACEHOLDER = re.compile(r"\{(context|question)\}")


def format_context(hits: Sequence[Hit]) -> str:
    """Number the passages ([1], [2], ...) and say where each comes from."""
    return "\n\n".join(
        f"[{number}] ({hit.chunk.citation()})\n{hit.chunk.text}"
        for number, hit in enumerate(hits, start=1)
    )


def fill_template(template: str, context: str, question: str) -> str:
    """Replace {context} and {question} in one pass, so neither value is itself expanded."""
    values = {"context": context, "question": question}
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], template)


def build_messages(
    system_prompt: str, template: str, question: str, hits: Sequence[Hit]
) -> List[Message]:
    """The chat to send: the system prompt exactly as written, then passages and question."""
    return [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": fill_template(template, format_context(hits), question)},
    ]


def citations(hits: Sequence[Hit]) -> List[str]:
    """Each passage's source once, in the order the passages were given."""
    return list(dict.fromkeys(hit.chunk.citation() for hit in hits))


class RagAgent:
    def __init__(
        self,
        settings: "Settings",
        embedder: Embedder,
        store: VectorStore,
        chat: ChatModel,
    ) -> None:
        rag = settings.section("rag")
        self.settings = settings
        self.embedder = embedder
        self.store = store
        self.chat = chat
        self.top_k = int(rag["top_k"])
        self.template: str = rag["question_template"]
        self._index_lock = threading.Lock()

    def index(self, rebuild: bool = False, from_source: bool = False) -> int:
        """Embed and store the source's chunks unless the store already holds all of them.

        A store holding only some of them (an index interrupted halfway) is completed: chunks
        are stored under their ids, so storing one again replaces it. Returns how many chunks
        were indexed (0 when the store was already filled).
        """
        with self._index_lock:
            if rebuild:
                self.store.reset()
            chunks = load_chunks(self.settings, from_source=from_source)
            if not rebuild and self.store.count() >= len({chunk.id for chunk in chunks}):
                return 0
            for start in range(0, len(chunks), EMBED_BATCH_SIZE):
                batch = chunks[start : start + EMBED_BATCH_SIZE]
                self.store.add(batch, self.embedder.embed_documents([c.text for c in batch]))
            log.info("Indexed %d chunks", len(chunks))
            return len(chunks)

    def retrieve(self, question: str) -> List[Hit]:
        return self.store.search(self.embedder.embed_query(question), self.top_k)

    def ask(self, question: str) -> Answer:
        hits = self.retrieve(question)
        if not hits:
            return Answer(text="The knowledge base is empty, so I cannot answer yet.")
        messages = build_messages(self.settings.system_prompt, self.template, question, hits)
        return Answer(text=self.chat.complete(messages), sources=citations(hits))
