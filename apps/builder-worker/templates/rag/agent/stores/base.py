"""The one small interface every vector store implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
import socket
from typing import TYPE_CHECKING, List, Optional, Sequence
from urllib.parse import urlparse

from ..chunking import Chunk
from ..config import ConfigError

if TYPE_CHECKING:
    from ..config import Settings

METRICS = ("cosine", "euclidean", "dot")
# Up to this many passages, the self-hosted stores search exactly, every vector compared with
# the question's: their approximate (HNSW) search can miss the one passage that answers (a
# needle among 2,000 rows, with Chroma's top 4). Above it, the approximate search is kept.
EXACT_SEARCH_MAX = 10_000


@dataclass(frozen=True)
class Hit:
    """A retrieved chunk; a higher score means more similar, whatever the metric."""

    chunk: Chunk
    score: float
    # Which search found it (meaning, words or both), its cosine similarity to the question
    # when the store measures one, and its BM25 score when found by words (search.py).
    found: Optional[str] = None
    similarity: Optional[float] = None
    word_score: Optional[float] = None


class VectorStore(ABC):
    # Whether count() is exact as soon as add() and delete() return (Pinecone's catches up later).
    exact_count = True

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
    def delete(self, ids: Sequence[str]) -> None:
        """Delete the chunks with these ids (ids not stored are ignored)."""

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


def check_host(url: str) -> None:
    """Raise a ConfigError at once if the URL's host name does not resolve.

    Waiting cannot help an unknown name (such as `chromadb`, which exists only inside docker
    compose's network), while a known host that refuses connections may be starting.
    """
    host = urlparse(url).hostname if "://" in url else None
    if not host:
        return
    try:
        socket.getaddrinfo(host, None)
    except socket.gaierror:
        raise ConfigError(
            f"The vector store's address {url} names a host that cannot be found ({host!r}). "
            'Set VECTOR_STORE_URL to where the store runs (README.md, "Run it without Docker").'
        ) from None
