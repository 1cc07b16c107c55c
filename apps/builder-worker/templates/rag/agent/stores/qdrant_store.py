"""Qdrant (the `qdrant` service in docker-compose.yml, or Qdrant Cloud with an API key)."""

from __future__ import annotations

import atexit
import uuid
from typing import TYPE_CHECKING, Any, List, Sequence

from ..chunking import Chunk
from . import base
from .base import Hit, VectorStore, check_batch, open_local, store_url

if TYPE_CHECKING:
    from ..config import Settings

# Qdrant's names for the distance metrics (members of qdrant_client.models.Distance).
DISTANCES = {"cosine": "COSINE", "euclidean": "EUCLID", "dot": "DOT"}


class QdrantStore(VectorStore):
    def __init__(self, client: Any, models: Any, collection: str, metric: str, dimensions: int):
        self._client = client
        self._models = models  # qdrant_client.models, passed in so tests can fake it
        self._name = collection
        self._metric = metric
        self._dimensions = dimensions

    def _point_id(self, chunk_id: str) -> str:
        # Qdrant ids are integers or UUIDs: derive a stable UUID from the chunk id.
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self._name}/{chunk_id}"))

    def _ensure_collection(self) -> None:
        if not self._client.collection_exists(self._name):
            distance = getattr(self._models.Distance, DISTANCES[self._metric])
            self._client.create_collection(
                collection_name=self._name,
                vectors_config=self._models.VectorParams(size=self._dimensions, distance=distance),
            )

    def count(self) -> int:
        if not self._client.collection_exists(self._name):
            return 0
        return int(self._client.count(collection_name=self._name, exact=True).count)

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        check_batch(chunks, vectors)
        if not chunks:
            return
        self._ensure_collection()
        points = [
            self._models.PointStruct(
                id=self._point_id(chunk.id),
                vector=[float(x) for x in vector],
                payload={"chunk_id": chunk.id, "text": chunk.text, **chunk.metadata()},
            )
            for chunk, vector in zip(chunks, vectors)
        ]
        self._client.upsert(collection_name=self._name, points=points, wait=True)

    def search(self, vector: Sequence[float], top_k: int) -> List[Hit]:
        if not self._client.collection_exists(self._name):
            return []
        # Exact up to base.EXACT_SEARCH_MAX passages: the approximate search can miss the one.
        exact = self.count() <= base.EXACT_SEARCH_MAX
        response = self._client.query_points(
            collection_name=self._name,
            query=[float(x) for x in vector],
            limit=top_k,
            with_payload=True,
            search_params=self._models.SearchParams(exact=exact),
        )
        hits = []
        for point in response.points:
            payload = dict(point.payload or {})
            chunk = Chunk.from_metadata(
                payload.pop("chunk_id", point.id), payload.pop("text", ""), payload
            )
            # Qdrant scores Euclidean results by distance (lower is nearer).
            score = -point.score if self._metric == "euclidean" else point.score
            hits.append(Hit(chunk=chunk, score=float(score)))
        return hits

    def delete(self, ids: Sequence[str]) -> None:
        if not ids or not self._client.collection_exists(self._name):
            return
        for start in range(0, len(ids), 1000):
            points = [self._point_id(chunk_id) for chunk_id in ids[start : start + 1000]]
            self._client.delete(
                collection_name=self._name,
                points_selector=self._models.PointIdsList(points=points),
                wait=True,
            )

    def reset(self) -> None:
        if self._client.collection_exists(self._name):
            self._client.delete_collection(collection_name=self._name)


def create_store(
    settings: "Settings", dimensions: int, copy_if_held: bool = False
) -> QdrantStore:
    from qdrant_client import QdrantClient, models

    url = store_url(settings)
    location = url
    if url.startswith(("http://", "https://")):
        client = QdrantClient(url=url, api_key=settings.env("VECTOR_STORE_API_KEY"), timeout=30)
    else:
        # Qdrant's local mode: vectors kept in this folder by the client itself, no server.
        location = open_local(url, ".lock", copy_if_held)
        client = QdrantClient(path=location)
        # Closed before the interpreter tears down, or the client's own __del__ fails noisily.
        atexit.register(client.close)
    config = settings.section("vector_store")
    store = QdrantStore(
        client, models, config["collection"], config.get("distance_metric", "cosine"), dimensions
    )
    store.is_copy = location != url
    return store
