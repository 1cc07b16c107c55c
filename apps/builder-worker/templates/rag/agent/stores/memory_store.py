"""A vector store in process memory, searched with numpy: used by the tests, and when
VECTOR_STORE=memory.

With a folder (VECTOR_STORE_PATH, default `.memory-index` in the project) the vectors are saved
there after indexing and loaded at the next start, so the source is embedded once, not at every
start. The saved index names the embedding model it was made with: another model starts afresh.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence

import numpy as np

from ..chunking import Chunk
from .base import METRICS, Hit, VectorStore, check_batch

if TYPE_CHECKING:
    from ..config import Settings

VECTORS_FILE = "vectors.npy"
CHUNKS_FILE = "chunks.jsonl"
ABOUT_FILE = "index.json"


def similarities(
    metric: str, stored: np.ndarray, vector: np.ndarray, norms: Optional[np.ndarray] = None
) -> np.ndarray:
    """Higher is more similar: cosine similarity, dot product, or minus the L2 distance.

    `norms` (the stored vectors' lengths) can be passed in when already known: computing them
    is most of a search's work.
    """
    if stored.shape[1] != vector.shape[0]:
        raise ValueError(f"vectors of different sizes ({stored.shape[1]} and {vector.shape[0]})")
    dots = stored @ vector
    if metric == "dot":
        return dots
    if norms is None:
        norms = np.linalg.norm(stored, axis=1)
    if metric == "euclidean":
        squared = norms**2 - 2 * dots + float(vector @ vector)
        return -np.sqrt(np.maximum(squared, 0.0))
    lengths = norms * np.linalg.norm(vector)
    return np.divide(dots, lengths, out=np.zeros_like(dots), where=lengths > 0)


def similarity(metric: str, a: Sequence[float], b: Sequence[float]) -> float:
    """`similarities` for two vectors."""
    stored = np.asarray([a], dtype=np.float64)
    return float(similarities(metric, stored, np.asarray(b, dtype=np.float64))[0])


class MemoryStore(VectorStore):
    def __init__(
        self, metric: str = "cosine", folder: Optional[Path] = None, model: str = ""
    ) -> None:
        if metric not in METRICS:
            raise ValueError(f"unknown distance metric {metric!r}")
        self.metric = metric
        self.folder = folder
        self.model = model
        self._chunks: List[Chunk] = []
        self._rows: Dict[str, int] = {}
        self._vectors: Optional[np.ndarray] = None
        self._norms: Optional[np.ndarray] = None
        self._pending: List[np.ndarray] = []
        if folder is not None:
            self._load()

    def count(self) -> int:
        return len(self._chunks)

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        check_batch(chunks, vectors)
        for chunk, vector in zip(chunks, np.asarray(vectors, dtype=np.float32)):
            row = self._rows.get(chunk.id)
            if row is None:
                self._rows[chunk.id] = len(self._chunks)
                self._chunks.append(chunk)
                self._pending.append(vector)
            else:
                self._consolidate()
                assert self._vectors is not None
                self._chunks[row] = chunk
                self._vectors[row] = vector
                self._norms = None

    def _consolidate(self) -> None:
        """Join the vectors added since the last search into one matrix (once, not per batch)."""
        if self._pending:
            added = np.stack(self._pending)
            self._vectors = added if self._vectors is None else np.vstack([self._vectors, added])
            self._pending = []
            self._norms = None

    def search(self, vector: Sequence[float], top_k: int) -> List[Hit]:
        self._consolidate()
        if self._vectors is None or not self._chunks or top_k <= 0:
            return []
        if self._norms is None:
            self._norms = np.linalg.norm(self._vectors, axis=1)
        query = np.asarray(vector, dtype=np.float32)
        scores = similarities(self.metric, self._vectors, query, self._norms)
        # A stable sort: equal scores keep insertion order, so results are deterministic.
        best = np.argsort(-scores, kind="stable")[:top_k]
        return [Hit(chunk=self._chunks[i], score=float(scores[i])) for i in best]

    def delete(self, ids: Sequence[str]) -> None:
        gone = {chunk_id for chunk_id in ids if chunk_id in self._rows}
        if not gone:
            return
        self._consolidate()
        assert self._vectors is not None
        keep = [row for row, chunk in enumerate(self._chunks) if chunk.id not in gone]
        self._chunks = [self._chunks[row] for row in keep]
        self._vectors = self._vectors[keep] if keep else None
        self._rows = {chunk.id: row for row, chunk in enumerate(self._chunks)}
        self._norms = None

    def reset(self) -> None:
        self._chunks, self._rows, self._vectors, self._pending = [], {}, None, []
        self._norms = None
        if self.folder is not None:
            for name in (ABOUT_FILE, VECTORS_FILE, CHUNKS_FILE):
                (self.folder / name).unlink(missing_ok=True)

    def flush(self) -> None:
        """Save the index to its folder (if any): the vectors first, the file naming them last."""
        self._consolidate()
        if self.folder is None:
            return
        if self._vectors is None:
            for name in (ABOUT_FILE, VECTORS_FILE, CHUNKS_FILE):
                (self.folder / name).unlink(missing_ok=True)
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        np.save(self.folder / VECTORS_FILE, self._vectors)
        with open(self.folder / CHUNKS_FILE, "w", encoding="utf-8") as out:
            for chunk in self._chunks:
                out.write(json.dumps({"id": chunk.id, "text": chunk.text, **chunk.metadata()}))
                out.write("\n")
        about = {"model": self.model, "metric": self.metric, "count": len(self._chunks)}
        temporary = self.folder / f"{ABOUT_FILE}.tmp"
        temporary.write_text(json.dumps(about), encoding="utf-8")
        os.replace(temporary, self.folder / ABOUT_FILE)

    def _load(self) -> None:
        assert self.folder is not None
        try:
            about = json.loads((self.folder / ABOUT_FILE).read_text(encoding="utf-8"))
            vectors = np.load(self.folder / VECTORS_FILE)
            with open(self.folder / CHUNKS_FILE, encoding="utf-8") as lines:
                records = [json.loads(line) for line in lines if line.strip()]
        except (OSError, ValueError):
            return  # nothing saved yet, or cut off while saving: index again
        if about.get("model") != self.model or len(records) != len(vectors):
            return
        self._chunks = [
            Chunk.from_metadata(record.pop("id"), record.pop("text"), record) for record in records
        ]
        self._rows = {chunk.id: row for row, chunk in enumerate(self._chunks)}
        self._vectors = vectors
        self._norms = None


def create_store(settings: "Settings", dimensions: int) -> MemoryStore:
    embedding = settings.section("embedding")
    folder = settings.path(settings.env("VECTOR_STORE_PATH") or ".memory-index")
    return MemoryStore(
        settings.section("vector_store").get("distance_metric", "cosine"),
        folder=folder,
        model=f"{embedding['model_id']}/{dimensions}",
    )
