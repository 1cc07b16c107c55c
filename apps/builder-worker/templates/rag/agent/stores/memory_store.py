"""A vector store in process memory: used by the tests, and when VECTOR_STORE=memory.

It keeps nothing across restarts, so the agent re-indexes its source at every start.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, List, Sequence, Tuple

from ..chunking import Chunk
from .base import METRICS, Hit, VectorStore, check_batch

if TYPE_CHECKING:
    from ..config import Settings


def similarity(metric: str, a: Sequence[float], b: Sequence[float]) -> float:
    """Higher is more similar: cosine similarity, dot product, or minus the L2 distance."""
    if len(a) != len(b):
        raise ValueError(f"vectors of different sizes ({len(a)} and {len(b)})")
    if metric == "euclidean":
        return -math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))
    dot = sum(x * y for x, y in zip(a, b))
    if metric == "dot":
        return dot
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norms if norms else 0.0


class MemoryStore(VectorStore):
    def __init__(self, metric: str = "cosine") -> None:
        if metric not in METRICS:
            raise ValueError(f"unknown distance metric {metric!r}")
        self.metric = metric
        self._items: dict[str, Tuple[Chunk, List[float]]] = {}

    def count(self) -> int:
        return len(self._items)

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        check_batch(chunks, vectors)
        for chunk, vector in zip(chunks, vectors):
            self._items[chunk.id] = (chunk, [float(x) for x in vector])

    def search(self, vector: Sequence[float], top_k: int) -> List[Hit]:
        scored = [
            Hit(chunk=chunk, score=similarity(self.metric, stored, vector))
            for chunk, stored in self._items.values()
        ]
        # sorted() is stable: equal scores keep insertion order, so results are deterministic.
        scored.sort(key=lambda hit: hit.score, reverse=True)
        return scored[:top_k]

    def reset(self) -> None:
        self._items.clear()


def create_store(settings: "Settings", dimensions: int) -> MemoryStore:
    return MemoryStore(settings.section("vector_store").get("distance_metric", "cosine"))
