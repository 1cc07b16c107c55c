"""Embedding models: OpenAI's API or a local sentence-transformers model.

agent.json's `embedding` section names the backend, the model id, the vector size and the
prefixes some models expect (e5 wants "query: " and "passage: "; BGE an instruction before
queries). Anything with `dimensions`, `embed_documents` and `embed_query` is an Embedder:
the tests use a tiny deterministic fake.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, List, Optional, Protocol, Sequence

from .config import ConfigError

if TYPE_CHECKING:
    from .config import Settings

Vector = List[float]


class Embedder(Protocol):
    dimensions: int

    def embed_documents(self, texts: Sequence[str]) -> List[Vector]:
        ...

    def embed_query(self, text: str) -> Vector:
        ...


class OpenAIEmbedder:
    """OpenAI embeddings (text-embedding-ada-002: 1536 dimensions)."""

    def __init__(self, model: str, api_key: str, dimensions: int, batch_size: int = 256) -> None:
        self.model = model
        self.api_key = api_key
        self.dimensions = dimensions
        self.batch_size = batch_size
        self._client: Optional[Any] = None

    def _embed(self, texts: Sequence[str]) -> List[Vector]:
        if self._client is None:
            from openai import OpenAI

            self._client = OpenAI(api_key=self.api_key)
        vectors: List[Vector] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            response = self._client.embeddings.create(model=self.model, input=batch)
            ordered = sorted(response.data, key=lambda item: item.index)
            vectors.extend(list(item.embedding) for item in ordered)
        return vectors

    def embed_documents(self, texts: Sequence[str]) -> List[Vector]:
        return self._embed(texts)

    def embed_query(self, text: str) -> Vector:
        return self._embed([text])[0]


class SentenceTransformerEmbedder:
    """A Hugging Face model run locally by sentence-transformers (downloaded once, cached)."""

    def __init__(
        self, model_id: str, dimensions: int, query_prefix: str = "", passage_prefix: str = ""
    ) -> None:
        self.model_id = model_id
        self.dimensions = dimensions
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self._model: Optional[Any] = None
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                from sentence_transformers import SentenceTransformer

                self._model = SentenceTransformer(self.model_id)
            return self._model

    def _encode(self, texts: Sequence[str]) -> List[Vector]:
        vectors = self.model.encode(
            list(texts), batch_size=32, normalize_embeddings=True, show_progress_bar=False
        )
        return [list(map(float, vector)) for vector in vectors]

    def embed_documents(self, texts: Sequence[str]) -> List[Vector]:
        return self._encode([self.passage_prefix + text for text in texts])

    def embed_query(self, text: str) -> Vector:
        return self._encode([self.query_prefix + text])[0]


def embedder_from_settings(settings: "Settings") -> Embedder:
    embedding = settings.section("embedding")
    backend = embedding["backend"]
    if backend == "openai":
        return OpenAIEmbedder(
            model=embedding["model_id"],
            api_key=settings.require_env("OPENAI_API_KEY", "OpenAI embeddings"),
            dimensions=int(embedding["dimensions"]),
        )
    if backend == "sentence-transformers":
        return SentenceTransformerEmbedder(
            model_id=settings.env("EMBEDDING_MODEL_PATH") or embedding["model_id"],
            dimensions=int(embedding["dimensions"]),
            query_prefix=embedding.get("query_prefix", ""),
            passage_prefix=embedding.get("passage_prefix", ""),
        )
    raise ConfigError(f"Unknown embedding backend {backend!r} in agent.json.")


def prefetch(settings: "Settings") -> None:
    """Download a local model ahead of time (the Docker build does this)."""
    embedding = settings.section("embedding")
    if embedding["backend"] == "sentence-transformers":
        from sentence_transformers import SentenceTransformer

        SentenceTransformer(settings.env("EMBEDDING_MODEL_PATH") or embedding["model_id"])
