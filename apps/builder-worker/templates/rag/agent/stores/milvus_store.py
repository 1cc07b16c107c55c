"""Milvus (the `milvus` service in docker-compose.yml, or Zilliz Cloud with a token)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Sequence

from ..chunking import Chunk
from .base import Hit, VectorStore, check_batch, open_local, store_url

if TYPE_CHECKING:
    from ..config import Settings

# Milvus's names for the distance metrics.
METRIC_TYPES = {"cosine": "COSINE", "euclidean": "L2", "dot": "IP"}
OUTPUT_FIELDS = ["text", "source", "page", "row", "ref"]
MAX_ID_LENGTH = 256


class MilvusStore(VectorStore):
    def __init__(self, client: Any, collection: str, metric: str, dimensions: int) -> None:
        self._client = client
        self._name = collection
        self._metric = METRIC_TYPES[metric]
        self._dimensions = dimensions
        self._loaded = False

    def _readable(self) -> bool:
        """Whether the collection exists, loaded into memory for reading.

        Milvus keeps a collection released after a restart (of Milvus, or of the process that
        ran Milvus Lite): it must be loaded again before it can be counted or searched.
        """
        if not self._client.has_collection(self._name):
            return False
        if not self._loaded:
            self._client.load_collection(self._name)
            self._loaded = True
        return True

    def _ensure_collection(self) -> None:
        if not self._client.has_collection(self._name):
            # Quick setup: an "id" primary key, a "vector" field, and the other fields of each
            # row (text, source, page, ...) kept as dynamic fields.
            self._client.create_collection(
                collection_name=self._name,
                dimension=self._dimensions,
                primary_field_name="id",
                id_type="string",
                max_length=MAX_ID_LENGTH,
                vector_field_name="vector",
                metric_type=self._metric,
                auto_id=False,
            )

    def count(self) -> int:
        if not self._readable():
            return 0
        rows = self._client.query(collection_name=self._name, filter="", output_fields=["count(*)"])
        return int(rows[0]["count(*)"]) if rows else 0

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        check_batch(chunks, vectors)
        if not chunks:
            return
        self._ensure_collection()
        rows = [
            {
                "id": chunk.id,
                "vector": [float(x) for x in vector],
                "text": chunk.text,
                **chunk.metadata(),
            }
            for chunk, vector in zip(chunks, vectors)
        ]
        self._client.upsert(collection_name=self._name, data=rows)

    def search(self, vector: Sequence[float], top_k: int) -> List[Hit]:
        if not self._readable():
            return []
        results = self._client.search(
            collection_name=self._name,
            data=[[float(x) for x in vector]],
            limit=top_k,
            output_fields=OUTPUT_FIELDS,
            search_params={"metric_type": self._metric},
        )
        hits = []
        for result in results[0] if results else []:
            entity = dict(result.get("entity") or {})
            chunk = Chunk.from_metadata(result["id"], entity.pop("text", ""), entity)
            distance = float(result["distance"])
            # COSINE and IP: larger is nearer; L2: smaller is nearer.
            hits.append(Hit(chunk=chunk, score=-distance if self._metric == "L2" else distance))
        return hits

    def delete(self, ids: Sequence[str]) -> None:
        if not ids or not self._readable():
            return
        for start in range(0, len(ids), 1000):
            self._client.delete(collection_name=self._name, ids=list(ids[start : start + 1000]))

    def reset(self) -> None:
        if self._client.has_collection(self._name):
            self._client.drop_collection(self._name)
        self._loaded = False


def create_store(
    settings: "Settings", dimensions: int, copy_if_held: bool = False
) -> MilvusStore:
    from pymilvus import MilvusClient

    uri = location = store_url(settings)
    if uri.endswith(".db"):
        # Milvus Lite: a Milvus in this folder, run inside this process.
        location = open_local(uri, "LOCK", copy_if_held)
    client = MilvusClient(uri=location, token=settings.env("VECTOR_STORE_API_KEY", ""))
    config = settings.section("vector_store")
    store = MilvusStore(
        client, config["collection"], config.get("distance_metric", "cosine"), dimensions
    )
    store.is_copy = location != uri
    return store
