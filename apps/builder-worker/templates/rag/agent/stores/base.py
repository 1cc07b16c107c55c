"""The one small interface every vector store implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Sequence

from ..chunking import Chunk
from ..config import ConfigError

if TYPE_CHECKING:
    from ..config import Settings

METRICS = ("cosine", "euclidean", "dot")


@dataclass(frozen=True)
class Hit:
    """A retrieved chunk; a higher score means more similar, whatever the metric."""

    chunk: Chunk
    score: float


class VectorStore(ABC):
    @abstractmethod
    def count(self) -> int:
        """How many chunks are stored (0 when the collection does not exist yet)."""

    @abstractmethod
    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        """Store chunks with their vectors; a chunk id already stored is replaced."""

    @abstractmethod
    def search(self, vector: Sequence[float], top_k: int) -> List[Hit]:
        """The `top_k` chunks nearest to `vector`, best first."""

    @abstractmethod
    def reset(self) -> None:
        """Delete every stored chunk."""


def check_batch(chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
    if len(chunks) != len(vectors):
        raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors")


def store_url(settings: "Settings") -> str:
    """VECTOR_STORE_URL from the environment, else the URL chosen in the builder."""
    url = settings.env("VECTOR_STORE_URL") or settings.section("vector_store").get("url")
    if not url:
        raise ConfigError("Set VECTOR_STORE_URL to the vector database's address.")
    return url
