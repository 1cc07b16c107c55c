"""Incremental indexing: embed only the passages the vector store has no vector for yet.

Each stored passage is recorded in a small file beside the project (.agent-index/, or
INDEX_RECORDS_PATH): its source's key, its own key (where in the source it is: page, row,
address, section), the SHA-256 of its text and the embedding model. `python -m agent index`
compares the sources as they are now with those records: passages that are new or changed are
embedded, passages that vanished are deleted from the store, and the others are kept as they
are. A run where nothing changed embeds nothing.

The records describe one vector store: when they do not match it (another model, a store
emptied or filled by hand, an index cut off before its records were saved) everything is
embedded again, once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Sequence, Tuple

from .chunking import Chunk

if TYPE_CHECKING:
    from .config import Settings
    from .stores import VectorStore

log = logging.getLogger(__name__)

RECORDS_VERSION = 1
# While embedding, the records are saved at most this often (and at the end).
SAVE_SECONDS = 5.0


@dataclass(frozen=True)
class IndexReport:
    """What an index run did: passages embedded now, kept as they were, deleted."""

    embedded: int
    kept: int
    removed: int
    # Why everything was embedded again, if it was.
    restarted: Optional[str] = None

    def __str__(self) -> str:
        if not self.embedded and not self.removed:
            return f"Nothing changed: embedded nothing, kept {self.kept:,} passages."
        return (
            f"Embedded {self.embedded:,} new passages, kept {self.kept:,}, "
            f"removed {self.removed:,}."
        )


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chunk_key(chunk: Chunk) -> str:
    """Where in its source a passage is: what its citation names."""
    parts = [
        ("ref", chunk.ref),
        ("url", chunk.url),
        ("page", chunk.page),
        ("row", chunk.row if chunk.ref is None else None),
        ("section", chunk.section),
    ]
    return "&".join(f"{name}={value}" for name, value in parts if value is not None)


def records_path(settings: "Settings") -> Path:
    """The records of this agent's store: INDEX_RECORDS_PATH, else .agent-index/<store>.json."""
    custom = settings.env("INDEX_RECORDS_PATH")
    if custom:
        return settings.path(custom)
    store = settings.section("vector_store")
    provider = settings.env("VECTOR_STORE") or store["provider"]
    return settings.path(f".agent-index/{provider}-{store['collection']}.json")


def keyed_chunks(source_key: str, chunks: Sequence[Chunk]) -> List[Tuple[Chunk, Dict[str, str]]]:
    """The source's passages, each with its stored id and record. The id is made of the source,
    the passage's key and its text's hash, so an unchanged passage keeps its id."""
    seen: Dict[str, int] = {}
    keyed = []
    for chunk in chunks:
        record = {"source": source_key, "key": chunk_key(chunk), "hash": text_hash(chunk.text)}
        identity = "\0".join((record["source"], record["key"], record["hash"]))
        # The same text at the same place twice (a repeated row) is two passages.
        seen[identity] = seen.get(identity, 0) + 1
        stored_id = hashlib.sha256(f"{identity}\0{seen[identity]}".encode("utf-8")).hexdigest()
        keyed.append((replace(chunk, id=f"p{stored_id[:31]}"), record))
    return keyed


class Records:
    """The records file: {version, model, passages: {stored id: {source, key, hash}}}."""

    def __init__(self, path: Path, model: str) -> None:
        self.path = path
        self.model = model
        self.passages: Dict[str, Dict[str, str]] = {}
        self._saved = 0.0
        self._warned = False

    def load(self) -> Optional[str]:
        """Read the file; returns why it cannot be used, or None."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return "no index records yet"
        except (OSError, ValueError):
            return "the index records could not be read"
        if data.get("version") != RECORDS_VERSION or not isinstance(data.get("passages"), dict):
            return "the index records are of another version"
        if data.get("model") != self.model:
            return f"the vectors were made by another embedding model ({data.get('model')})"
        self.passages = data["passages"]
        return None

    def save(self, force: bool = True) -> None:
        now = time.monotonic()
        if not force and now - self._saved < SAVE_SECONDS:
            return
        self._saved = now
        data = {"version": RECORDS_VERSION, "model": self.model, "passages": self.passages}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(self.path.name + ".tmp")
            temporary.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as error:
            if not self._warned:
                self._warned = True
                log.warning(
                    "The index records cannot be saved in %s (%s): the next index embeds every "
                    "passage again. Set INDEX_RECORDS_PATH to a file the agent may write.",
                    self.path, error,
                )


def index_sources(
    store: "VectorStore",
    records: Records,
    sources: Sequence[Tuple[str, Sequence[Chunk]]],
    embed_and_store: Callable[[Sequence[Chunk], Callable[[Sequence[Chunk]], None]], None],
    rebuild: bool = False,
    passages: Optional[Path] = None,
) -> IndexReport:
    """Bring the store in line with the sources' passages, embedding only new ones.

    `embed_and_store(chunks, stored)` embeds and stores the chunks, calling `stored(batch)` after
    each batch it stored, so the records follow what the store holds.
    """
    restarted = "asked to rebuild" if rebuild else _unusable(store, records)
    if restarted:
        log.info("Embedding every passage again: %s.", restarted)
        store.reset()
        records.passages = {}
    wanted: Dict[str, Dict[str, str]] = {}
    chunks: Dict[str, Chunk] = {}
    for source_key, source_chunks in sources:
        for chunk, record in keyed_chunks(source_key, source_chunks):
            wanted[chunk.id] = record
            chunks[chunk.id] = chunk
    gone = [stored_id for stored_id in records.passages if stored_id not in wanted]
    new = [chunks[stored_id] for stored_id in wanted if stored_id not in records.passages]
    if gone:
        store.delete(gone)
        for stored_id in gone:
            del records.passages[stored_id]
    records.save()

    def stored(batch: Sequence[Chunk]) -> None:
        for chunk in batch:
            records.passages[chunk.id] = wanted[chunk.id]
        records.save(force=False)

    if new:
        embed_and_store(new, stored)
    elif gone:
        flush = getattr(store, "flush", None)
        if callable(flush):
            flush()
    records.save()
    if passages is not None:
        _save_passages(passages, list(chunks.values()))
    return IndexReport(
        embedded=len(new), kept=len(wanted) - len(new), removed=len(gone), restarted=restarted
    )


def passages_path(records_file: Path) -> Path:
    """The passages, for searching by words: beside the records."""
    return records_file.with_name(records_file.stem + ".passages.jsonl")


def _save_passages(path: Path, chunks: Sequence[Chunk]) -> None:
    from .search import save_passages

    try:
        save_passages(path, chunks)
    except OSError as error:
        log.warning("The passages cannot be saved in %s (%s): search by words finds none.", path, error)


def _unusable(store: "VectorStore", records: Records) -> Optional[str]:
    """Why the records cannot tell what the store holds, or None when they can."""
    why = records.load()
    count = store.count()
    if why is not None:
        # An empty store with no records is simply a first index.
        return why if count else None
    if getattr(store, "exact_count", True) and count != len(records.passages):
        return f"the store holds {count:,} passages, the records {len(records.passages):,}"
    return None
