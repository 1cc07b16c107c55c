"""ChromaDB over HTTP (the `chromadb` service in docker-compose.yml)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple
from urllib.parse import urlparse

from ..chunking import Chunk
from . import base
from .base import Hit, VectorStore, check_batch, store_url

if TYPE_CHECKING:
    from ..config import Settings

# Chroma's names for the distance metrics.
SPACES = {"cosine": "cosine", "euclidean": "l2", "dot": "ip"}
METRIC_OF = {space: metric for metric, space in SPACES.items()}
# Ids deleted in one request.
DELETE_BATCH = 1000


class ChromaStore(VectorStore):
    def __init__(self, client: Any, collection: str, metric: str) -> None:
        self._client = client
        self._name = collection
        self._space = SPACES[metric]
        self._collection: Optional[Any] = None
        # Exact search: every passage and its vector, held while the count stays the same.
        self._exact: Optional[Tuple[int, List[Chunk], Any, Any]] = None

    @property
    def collection(self) -> Any:
        if self._collection is None:
            self._collection = self._client.get_or_create_collection(
                name=self._name, metadata={"hnsw:space": self._space}
            )
        return self._collection

    def count(self) -> int:
        return int(self.collection.count())

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        check_batch(chunks, vectors)
        if not chunks:
            return
        self._exact = None
        self.collection.upsert(
            ids=[chunk.id for chunk in chunks],
            embeddings=[[float(x) for x in vector] for vector in vectors],
            documents=[chunk.text for chunk in chunks],
            metadatas=[chunk.metadata() for chunk in chunks],
        )

    def search(self, vector: Sequence[float], top_k: int) -> List[Hit]:
        count = self.count()
        if 0 < count <= base.EXACT_SEARCH_MAX:
            return self._exact_search(vector, top_k, count)
        result = self.collection.query(
            query_embeddings=[[float(x) for x in vector]],
            n_results=top_k,
            include=["documents", "metadatas", "distances"],
        )
        rows = zip(
            result["ids"][0], result["documents"][0], result["metadatas"][0], result["distances"][0]
        )
        return [
            Hit(chunk=Chunk.from_metadata(id, text, metadata or {}), score=self._score(distance))
            for id, text, metadata, distance in rows
        ]

    def _exact_search(self, vector: Sequence[float], top_k: int, count: int) -> List[Hit]:
        """Every stored vector compared with the question's (base.EXACT_SEARCH_MAX)."""
        import numpy as np

        from .memory_store import similarities

        if self._exact is None or self._exact[0] != count:
            rows = self.collection.get(include=["embeddings", "documents", "metadatas"])
            chunks = [
                Chunk.from_metadata(id, text or "", metadata or {})
                for id, text, metadata in zip(rows["ids"], rows["documents"], rows["metadatas"])
            ]
            vectors = np.asarray(rows["embeddings"], dtype=np.float32)
            self._exact = (count, chunks, vectors, np.linalg.norm(vectors, axis=1))
        _, chunks, vectors, norms = self._exact
        query = np.asarray(vector, dtype=np.float32)
        scores = similarities(METRIC_OF[self._space], vectors, query, norms)
        if self._space == "l2":
            # Chroma's own l2 scores are squared distances: the same order, kept comparable.
            scores = -(scores**2)
        best = np.argsort(-scores, kind="stable")[:top_k]
        return [Hit(chunk=chunks[i], score=float(scores[i])) for i in best]

    def delete(self, ids: Sequence[str]) -> None:
        self._exact = None
        for start in range(0, len(ids), DELETE_BATCH):
            self.collection.delete(ids=list(ids[start : start + DELETE_BATCH]))

    def _score(self, distance: float) -> float:
        # Chroma answers distances (lower is nearer); turn them into "higher is better".
        return -distance if self._space == "l2" else 1.0 - distance

    def reset(self) -> None:
        self._exact = None
        if self._exists():
            self._client.delete_collection(self._name)
        self._collection = None

    def _exists(self) -> bool:
        # Asked rather than caught: deleting a missing collection raises a different error in
        # each Chroma version and client (ValueError, a ChromaError subclass, or a plain
        # Exception carrying the server's answer). list_collections answers collections in
        # 0.5 and names from 0.6.
        listed = self._client.list_collections()
        return self._name in {getattr(item, "name", item) for item in listed}


def create_store(settings: "Settings", dimensions: int) -> ChromaStore:
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    url = urlparse(store_url(settings))
    secure = url.scheme == "https"
    token = settings.env("VECTOR_STORE_API_KEY")
    client = chromadb.HttpClient(
        host=url.hostname or "localhost",
        port=url.port or (443 if secure else 8000),
        ssl=secure,
        headers={"Authorization": f"Bearer {token}"} if token else None,
        settings=ChromaSettings(anonymized_telemetry=False),
    )
    config = settings.section("vector_store")
    return ChromaStore(client, config["collection"], config.get("distance_metric", "cosine"))
