"""The one small interface every vector store implements."""

from __future__ import annotations

import atexit
import logging
import shutil
import socket
import sqlite3
import tempfile
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional, Sequence
from urllib.parse import quote, urlparse

from ..chunking import Chunk
from ..config import ConfigError

if TYPE_CHECKING:
    from ..config import Settings

log = logging.getLogger(__name__)

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
    # Whether this is a copy of a local store another process holds (open_local): read it only.
    is_copy = False

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


class StoreInUse(ConfigError):
    """A store kept in a local folder (Qdrant's local mode, Milvus Lite) that another process -
    the chat app, most likely - has open: such a store opens in one process at a time."""


def held_elsewhere(lock_file: Path) -> bool:
    """Whether another process holds `lock_file`, the lock a local store takes while it is open.

    Qdrant's local mode and Milvus Lite both take an exclusive flock; trying it here, and letting
    go at once, says whether opening the store would fail - before the client logs its own
    traceback. (Windows has no flock: there the client's own error is what the user sees.)
    """
    try:
        import fcntl
    except ImportError:
        return False
    if not lock_file.is_file():
        return False
    with lock_file.open("rb") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
    return False


def open_local(location: str, lock_name: str, copy_if_held: bool) -> str:
    """Where to open the local store at `location`: itself, or - when another process holds it
    and `copy_if_held` - a copy of it as it is now, removed when this process exits.

    A store held without `copy_if_held` raises StoreInUse: writing to a copy would be lost.
    """
    folder = Path(location)
    if not held_elsewhere(folder / lock_name):
        return location
    if not copy_if_held:
        raise StoreInUse(
            f"The vector store in {location} is open in another process (the chat app, or "
            "another `python -m agent` command): a store kept in a local folder opens in one "
            "process at a time. Stop that process and try again. (`python -m agent ask` works "
            "while the app runs, and the app indexes what changed each time it starts.)"
        )
    log.info(
        "The vector store in %s is open in another process (the chat app, most likely): "
        "answering from a copy of it, as it is now.",
        location,
    )
    copy = Path(tempfile.mkdtemp(prefix="agent-store-")) / folder.name
    # SQLite files (Qdrant's points) through SQLite's own backup: whole even mid-write.
    shutil.copytree(
        folder, copy, ignore=shutil.ignore_patterns(lock_name), copy_function=_copy_file
    )
    atexit.register(shutil.rmtree, copy.parent, ignore_errors=True)
    return str(copy)


def _copy_file(source: str, target: str) -> None:
    if not source.endswith(".sqlite"):
        shutil.copy2(source, target)
        return
    origin = sqlite3.connect("file:" + quote(source) + "?mode=ro", uri=True)
    destination = sqlite3.connect(target)
    try:
        origin.backup(destination)
    finally:
        destination.close()
        origin.close()
