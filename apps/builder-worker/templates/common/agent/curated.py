"""Curated answers: the agent owner's own answers to questions, given word for word.

data/curated_answers.json holds them, as the agent's build captured them:

    [{"id": "...", "question": "How do I get a refund?", "answer": "Write to refunds@..."}]

Edit it to add, change or remove one (restart the app to read it again). A question close to
one of their questions is answered with that answer's text: no passage search, no query and no
model call. agent.json's `curated` section says how close, by the rules of Agentloom's hosted
agents: a RAG agent compares by meaning - the cosine similarity of the two questions' vectors
from the agent's own embedding model reaches `threshold` - and a SQL agent, which has no
embedding model, by the content words the two questions share: at least `threshold` of the
larger set of the two. The closest question wins; of equally close ones, the oldest.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, List, Mapping, Optional, Sequence, Union

from .answer import CURATED_CITATION, Agent, Answer, CuratedMatch
from .config import ConfigError
from .words import content_words

if TYPE_CHECKING:
    from .config import Settings

log = logging.getLogger(__name__)

DEFAULT_FILE = "data/curated_answers.json"
Vector = List[float]


@dataclass(frozen=True)
class CuratedEntry:
    id: str
    question: str
    answer: str


def load_curated(settings: "Settings") -> List[CuratedEntry]:
    """The curated answers agent.json points to, oldest first; none without the file."""
    section = settings.manifest.get("curated")
    relative = section.get("file", DEFAULT_FILE) if isinstance(section, Mapping) else DEFAULT_FILE
    path = settings.path(relative)
    if not path.is_file():
        return []
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ConfigError(f"{relative} is not valid JSON: {error}") from None
    if not isinstance(items, list):
        raise ConfigError(f"{relative} must hold a list of {{\"question\", \"answer\"}} objects.")
    entries = []
    for number, item in enumerate(items, start=1):
        if not (
            isinstance(item, Mapping)
            and isinstance(item.get("question"), str)
            and isinstance(item.get("answer"), str)
            and item["question"].strip()
            and item["answer"].strip()
        ):
            raise ConfigError(
                f"{relative}: answer {number} needs a \"question\" and an \"answer\", both text."
            )
        entries.append(
            CuratedEntry(
                id=str(item.get("id") or f"curated-{number}"),
                question=item["question"],
                answer=item["answer"],
            )
        )
    return entries


def unit(vector: Sequence[float]) -> Vector:
    norm = math.sqrt(sum(value * value for value in vector))
    return [value / norm for value in vector] if norm > 0 else [0.0 for _ in vector]


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b)) if len(a) == len(b) else 0.0


def words_overlap(a: str, b: str) -> float:
    """The share of content words two questions have in common, of the larger set."""
    left, right = set(content_words(a)), set(content_words(b))
    if not left or not right:
        return 0.0
    return len(left & right) / max(len(left), len(right))


class CuratedAnswers:
    """Compares a question with the curated ones. `embedder` (a RAG agent's model) compares by
    meaning; without one, by shared words. Each curated question is embedded once, as a query,
    the first time a question is compared."""

    def __init__(
        self,
        entries: Sequence[CuratedEntry],
        threshold: float,
        embedder: Optional[Any] = None,
    ) -> None:
        self.entries = list(entries)
        self.threshold = float(threshold)
        self.embedder = embedder
        self._vectors: Optional[List[Vector]] = None
        self._lock = threading.Lock()

    def _question_vectors(self) -> List[Vector]:
        with self._lock:
            if self._vectors is None:
                questions = [entry.question for entry in self.entries]
                many = getattr(self.embedder, "embed_queries", None)
                vectors = (
                    many(questions)
                    if callable(many)
                    else [self.embedder.embed_query(question) for question in questions]
                )
                self._vectors = [unit(vector) for vector in vectors]
            return self._vectors

    def match(self, question: str) -> Optional[CuratedMatch]:
        """The curated answer the question asks for, or None."""
        if not self.entries:
            return None
        if self.embedder is not None:
            asked = unit(self.embedder.embed_query(question))
            scores = [dot(asked, vector) for vector in self._question_vectors()]
        else:
            scores = [words_overlap(question, entry.question) for entry in self.entries]
        best: Optional[CuratedMatch] = None
        for entry, score in zip(self.entries, scores):
            if score >= self.threshold and (best is None or score > best.similarity):
                best = CuratedMatch(
                    id=entry.id, question=entry.question, answer=entry.answer, similarity=score
                )
        return best


class CuratedAgent(Agent):
    """The agent, answering a question close to a curated one with its answer, and any other
    question as before. Everything else (`index`, `retrieve`, ...) is the agent's own."""

    def __init__(self, agent: Agent, curated: CuratedAnswers) -> None:
        self.agent = agent
        self.curated = curated

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)

    def ask_stream(
        self, question: str, history: Sequence[Mapping[str, str]] = ()
    ) -> Iterator[Union[str, Answer]]:
        try:
            match = self.curated.match(question)
        except Exception as error:  # the answer goes on without: a failing model fails it next
            log.warning("Comparing with curated answers: %s", error)
            match = None
        if match is None:
            yield from self.agent.ask_stream(question, history)
            return
        yield match.answer
        yield Answer(text=match.answer, sources=[CURATED_CITATION], curated=match)


class RememberingQueries:
    """The embedder with its last `size` query vectors remembered: a question is embedded once
    for the curated answers and for the passage search that follows when none matches."""

    def __init__(self, embedder: Any, size: int = 64) -> None:
        self.embedder = embedder
        self.size = size
        self._remembered: "OrderedDict[str, Vector]" = OrderedDict()
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.embedder, name)

    def embed_query(self, text: str) -> Vector:
        with self._lock:
            known = self._remembered.get(text)
        if known is not None:
            return known
        vector = self.embedder.embed_query(text)
        with self._lock:
            self._remembered[text] = vector
            while len(self._remembered) > self.size:
                self._remembered.popitem(last=False)
        return vector


def with_curated(agent: Agent, settings: "Settings", embedder: Optional[Any] = None) -> Agent:
    """The agent answering from its curated answers first; the agent itself when it has none.
    A RAG agent passes its embedding model (agent.json's `curated.compare` is "meaning")."""
    entries = load_curated(settings)
    if not entries:
        return agent
    section = settings.manifest.get("curated")
    section = section if isinstance(section, Mapping) else {}
    by_meaning = section.get("compare", "words") == "meaning" and embedder is not None
    threshold = section.get("threshold", 0.6)
    return CuratedAgent(agent, CuratedAnswers(entries, threshold, embedder if by_meaning else None))
