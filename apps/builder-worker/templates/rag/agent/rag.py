"""The retrieval-augmented agent: index the source, retrieve passages, answer with citations."""

from __future__ import annotations

import logging
import re
import threading
import time
from dataclasses import replace
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, List, Optional, Sequence, Union

from .answer import Agent, Answer
from .chunking import Chunk
from .embeddings import Embedder
from .llm import ChatModel, Message, recent_turns, reply_pieces
from .indexing import IndexReport, Records, index_sources, passages_path, records_path
from .search import WordIndex, fused, is_relevant, load_passages
from .sources import source_chunks
from .stores import Hit, VectorStore

if TYPE_CHECKING:
    from .config import Settings

log = logging.getLogger(__name__)

# With answer_only_from_sources, what the model is told when no passage answers the question.
DONT_KNOW = (
    "None of your sources answers the question below. Reply in one short sentence, in the "
    "language of the question, that you do not know this from the sources you were given. Do "
    "not answer it from your own knowledge and do not guess."
)
_PLACEHOLDER = re.compile(r"\{(context|question)\}")
_CITED = re.compile(r"\[(\d+)\]")
# Progress is logged about this often while the source is embedded.
PROGRESS_SECONDS = 5.0


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
    system_prompt: str,
    template: str,
    question: str,
    hits: Sequence[Hit],
    history: Sequence[Message] = (),
) -> List[Message]:
    """The chat to send: the system prompt exactly as written, the conversation's recent turns
    (so a follow-up question keeps its context), then passages and question."""
    return [
        {"role": "system", "content": system_prompt},
        *recent_turns(history),
        {"role": "user", "content": fill_template(template, format_context(hits), question)},
    ]


def citations(hits: Sequence[Hit], answer: str = "") -> List[str]:
    """The sources of the passages the answer cites ([1], [2], ...), each once, in the order
    the answer first cites them. An answer that cites none of them (a model that ignores the
    numbering) lists every passage it was given, labelled as retrieved rather than cited.
    """
    cited = [int(number) for number in _CITED.findall(answer)]
    used = [hits[number - 1] for number in cited if 1 <= number <= len(hits)]
    if used:
        return list(dict.fromkeys(hit.chunk.citation() for hit in used))
    return [f"{source} (retrieved)" for source in dict.fromkeys(h.chunk.citation() for h in hits)]


class RagAgent(Agent):
    def __init__(
        self,
        settings: "Settings",
        embedder: Embedder,
        store: VectorStore,
        chat: ChatModel,
        records_file: Optional[Path] = None,
    ) -> None:
        rag = settings.section("rag")
        self.settings = settings
        self.embedder = embedder
        self.store = store
        self.chat = chat
        self.top_k = int(rag["top_k"])
        self.template: str = rag["question_template"]
        self._index_lock = threading.Lock()
        # What the store holds, passage by passage: which model embedded which text.
        embedding = settings.section("embedding")
        self.records = Records(
            records_file or records_path(settings),
            f"{embedding['model_id']}/{getattr(embedder, 'dimensions', embedding['dimensions'])}",
        )
        # The owner's retrieval settings: how to search, and whether to answer only from the
        # sources. Projects made before them searched by meaning and always answered.
        self.search_mode: str = rag.get("search", "meaning")
        self.answer_only_from_sources = bool(rag.get("answer_only_from_sources", False))
        metric = settings.section("vector_store").get("distance_metric", "cosine")
        # A similarity is only judged where the store measures one (cosine).
        self.threshold: Optional[float] = (
            rag.get("relevance_threshold") if metric == "cosine" else None
        )
        self.passages_file = passages_path(self.records.path)
        self._words: Optional[WordIndex] = None

    def index(self, rebuild: bool = False, from_source: bool = False) -> IndexReport:
        """Bring the vector store in line with the sources: embed only passages it has no
        vector for yet, delete those whose source no longer has them (indexing.py).

        With `rebuild`, everything is embedded again; with `from_source`, every source is read
        itself rather than from data/chunks.jsonl.
        """
        with self._index_lock:
            sources = source_chunks(self.settings, from_source=from_source)
            report = index_sources(
                self.store,
                self.records,
                sources,
                self._embed_and_store,
                rebuild=rebuild,
                passages=self.passages_file,
            )
            self._words = None
            log.info("%s", report)
            return report

    def _embed_and_store(
        self, chunks: Sequence[Chunk], stored: Callable[[Sequence[Chunk]], None] = lambda _: None
    ) -> None:
        """Embed in the embedder's batches, up to its `concurrency` at once, storing each batch
        in order as it arrives and logging progress."""
        size = int(getattr(self.embedder, "batch_size", 64))
        workers = max(1, int(getattr(self.embedder, "concurrency", 1)))
        batches = [chunks[start : start + size] for start in range(0, len(chunks), size)]
        started = last_report = time.monotonic()
        done = 0
        with ThreadPoolExecutor(max_workers=workers) as pool:
            vectors = pool.map(lambda batch: self.embedder.embed_documents([c.text for c in batch]), batches)
            for batch, batch_vectors in zip(batches, vectors):
                self.store.add(batch, batch_vectors)
                stored(batch)
                done += len(batch)
                now = time.monotonic()
                if now - last_report >= PROGRESS_SECONDS or done == len(chunks):
                    last_report = now
                    log.info(
                        "Embedded %s of %s chunks (%d%%) in %.0f s",
                        f"{done:,}", f"{len(chunks):,}", 100 * done // len(chunks), now - started,
                    )
        flush = getattr(self.store, "flush", None)
        if callable(flush):
            flush()

    def retrieve(self, question: str) -> List[Hit]:
        """The `top_k` passages for the question, by meaning, by words or both (search.py)."""
        by_meaning: List[Hit] = []
        if self.search_mode != "words":
            found = self.store.search(self.embedder.embed_query(question), self.top_k)
            by_meaning = [
                replace(
                    hit,
                    found="meaning",
                    similarity=hit.score if self.threshold is not None else None,
                )
                for hit in found
            ]
        if self.search_mode not in ("words", "both"):
            return by_meaning
        by_words = self.word_index().search(question, self.top_k)
        return by_words if self.search_mode == "words" else fused(by_meaning, by_words, self.top_k)

    def word_index(self) -> WordIndex:
        if self._words is None:
            self._words = WordIndex(load_passages(self.passages_file))
        return self._words

    def ask_stream(
        self, question: str, history: Sequence[Message] = ()
    ) -> Iterator[Union[str, Answer]]:
        """Retrieves passages for the question; the last item lists the sources it cites."""
        hits = self.retrieve(question)
        if not hits:
            yield Answer(text="The knowledge base is empty, so I cannot answer yet.")
            return
        if self.answer_only_from_sources and not any(
            is_relevant(hit, question, self.threshold) for hit in hits
        ):
            # No passage answers it: the model says so, in the question's language.
            messages = [
                {"role": "system", "content": f"{self.settings.system_prompt}\n\n{DONT_KNOW}"},
                *recent_turns(history),
                {"role": "user", "content": f"Question: {question}"},
            ]
            text = yield from reply_pieces(self.chat, messages)
            yield Answer(text=text, sources=[])
            return
        messages = build_messages(
            self.settings.system_prompt, self.template, question, hits, history
        )
        text = yield from reply_pieces(self.chat, messages)
        yield Answer(text=text, sources=citations(hits, text))
