"""Pinecone (hosted). The index is created, serverless, if it does not exist yet.

agent.json's vector_store section gives the index name and the environment (its region, e.g.
"us-east-1"; an older "<region>-<cloud>" environment such as "us-west1-gcp" names both).
This agent's vectors live in their own namespace, so several agents can share one index.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, List, Sequence, Tuple

from ..chunking import Chunk
from .base import Hit, VectorStore, check_batch

if TYPE_CHECKING:
    from ..config import Settings

# Pinecone's names for the distance metrics.
METRICS = {"cosine": "cosine", "euclidean": "euclidean", "dot": "dotproduct"}
CLOUDS = ("aws", "gcp", "azure")


def region_and_cloud(environment: str, default_cloud: str) -> Tuple[str, str]:
    """'us-east-1' -> ('us-east-1', default); 'us-west1-gcp' -> ('us-west1', 'gcp')."""
    region, _, suffix = environment.rpartition("-")
    if region and suffix in CLOUDS:
        return region, suffix
    return environment, default_cloud


class PineconeStore(VectorStore):
    # Its vector count catches up with writes seconds later.
    exact_count = False

    def __init__(
        self,
        client: Any,
        index_name: str,
        namespace: str,
        metric: str,
        dimensions: int,
        region: str,
        cloud: str,
    ) -> None:
        self._client = client
        self._index_name = index_name
        self._namespace = namespace
        self._metric = METRICS[metric]
        self._dimensions = dimensions
        self._region = region
        self._cloud = cloud
        self._index: Any = None

    @property
    def index(self) -> Any:
        if self._index is None:
            if self._index_name not in self._client.list_indexes().names():
                self._create_index()
            self._index = self._client.Index(self._index_name)
        return self._index

    def _create_index(self, wait_seconds: float = 120.0) -> None:
        from pinecone import ServerlessSpec

        self._client.create_index(
            name=self._index_name,
            dimension=self._dimensions,
            metric=self._metric,
            spec=ServerlessSpec(cloud=self._cloud, region=self._region),
        )
        deadline = time.monotonic() + wait_seconds
        while not self._client.describe_index(self._index_name).status["ready"]:
            if time.monotonic() > deadline:
                raise TimeoutError(f"Pinecone index {self._index_name} is not ready yet.")
            time.sleep(2)

    def count(self) -> int:
        stats = self.index.describe_index_stats()
        namespace = stats.namespaces.get(self._namespace)
        return int(namespace.vector_count) if namespace else 0

    def add(self, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> None:
        check_batch(chunks, vectors)
        if not chunks:
            return
        records = [
            {
                "id": chunk.id,
                "values": [float(x) for x in vector],
                "metadata": {"text": chunk.text, **chunk.metadata()},
            }
            for chunk, vector in zip(chunks, vectors)
        ]
        self.index.upsert(vectors=records, namespace=self._namespace)

    def search(self, vector: Sequence[float], top_k: int) -> List[Hit]:
        response = self.index.query(
            vector=[float(x) for x in vector],
            top_k=top_k,
            include_metadata=True,
            namespace=self._namespace,
        )
        hits = []
        for match in response.matches:
            metadata = dict(match.metadata or {})
            chunk = Chunk.from_metadata(match.id, metadata.pop("text", ""), metadata)
            # Pinecone scores Euclidean matches by distance (lower is nearer).
            score = -match.score if self._metric == "euclidean" else match.score
            hits.append(Hit(chunk=chunk, score=float(score)))
        return hits

    def delete(self, ids: Sequence[str]) -> None:
        # Pinecone deletes at most 1,000 ids a request.
        for start in range(0, len(ids), 1000):
            self.index.delete(ids=list(ids[start : start + 1000]), namespace=self._namespace)

    def reset(self) -> None:
        if self.count():
            self.index.delete(delete_all=True, namespace=self._namespace)


def create_store(settings: "Settings", dimensions: int) -> PineconeStore:
    from pinecone import Pinecone

    config = settings.section("vector_store")
    client = Pinecone(api_key=settings.require_env("PINECONE_API_KEY", "the Pinecone API key"))
    region, cloud = region_and_cloud(
        config["environment"], settings.env("PINECONE_CLOUD", "aws") or "aws"
    )
    return PineconeStore(
        client,
        index_name=config["index_name"],
        namespace=config["collection"],
        metric=config.get("distance_metric", "cosine"),
        dimensions=dimensions,
        region=region,
        cloud=cloud,
    )
