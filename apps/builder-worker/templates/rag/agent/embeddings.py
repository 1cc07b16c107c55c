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
from .llm import provider_error

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
    """OpenAI embeddings (text-embedding-ada-002: 1536 dimensions), or any server of its API.

    Indexing sends `batch_size` texts a request (OpenAI takes up to 2,048) and up to
    `concurrency` requests at once; the SDK itself retries rate limits and server errors.
    """

    def __init__(
        self,
        model: str,
        api_key: str,
        dimensions: int,
        batch_size: int = 256,
        base_url: Optional[str] = None,
        concurrency: int = 4,
    ) -> None:
        self.model = model
        self.api_key = api_key
        self.dimensions = dimensions
        self.batch_size = batch_size
        self.base_url = base_url
        self.concurrency = concurrency
        self._client: Optional[Any] = None

    def _embed(self, texts: Sequence[str]) -> List[Vector]:
        if self._client is None:
            from openai import OpenAI

            self._client = OpenAI(api_key=self.api_key, base_url=self.base_url, timeout=60.0)
        vectors: List[Vector] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            try:
                response = self._client.embeddings.create(model=self.model, input=batch)
            except Exception as error:
                explained = provider_error(
                    error,
                    what=f"The embeddings ({self.model})",
                    key_env="OPENAI_API_KEY",
                    model=self.model,
                    base_url=self.base_url,
                )
                if explained is None:
                    raise
                raise explained from error
            ordered = sorted(response.data, key=lambda item: item.index)
            vectors.extend(list(item.embedding) for item in ordered)
        return vectors

    def embed_documents(self, texts: Sequence[str]) -> List[Vector]:
        return self._embed(texts)

    def embed_query(self, text: str) -> Vector:
        return self._embed([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> List[Vector]:
        """Several questions in one request (the curated answers' questions)."""
        return self._embed(texts)


class SentenceTransformerEmbedder:
    """A Hugging Face model run locally by sentence-transformers (downloaded once, cached)."""

    def __init__(
        self, model_id: str, dimensions: int, query_prefix: str = "", passage_prefix: str = ""
    ) -> None:
        self.model_id = model_id
        self.dimensions = dimensions
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        # One process computes: batches are big, never parallel (torch uses every core itself).
        self.batch_size = 256
        self.concurrency = 1
        self._model: Optional[Any] = None
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = load_model(self.model_id)
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

    def embed_queries(self, texts: Sequence[str]) -> List[Vector]:
        """Several questions at once, each as a query (the curated answers' questions)."""
        return self._encode([self.query_prefix + text for text in texts])


def load_model(model_id: str) -> Any:
    """The sentence-transformers model, or a plain message naming the setting that fixes it."""
    from sentence_transformers import SentenceTransformer

    try:
        return SentenceTransformer(model_id)
    except (OSError, ValueError) as error:
        # Not on disk and the model hub unreachable (or offline), or no such model there.
        detail = str(error).splitlines()[0][:200]
        raise ConfigError(
            f"The embedding model {model_id!r} could not be loaded ({detail}). Set "
            "EMBEDDING_MODEL_PATH to a folder holding it, or run `python -m agent prefetch` "
            "where the Hugging Face hub is reachable."
        ) from error


def embeddings_base_url(settings: "Settings") -> Optional[str]:
    """Where OpenAI's embeddings API is: one setting for every call to the same provider.

    With OpenAI as the chat provider too, LLM_BASE_URL (a proxy, a gateway, a compatible
    server) serves both; otherwise LLM_BASE_URL belongs to the chat provider, and
    OPENAI_BASE_URL (the openai package's own setting) moves the embeddings.
    """
    if settings.section("llm")["provider"] == "openai" and settings.env("LLM_BASE_URL"):
        return settings.env("LLM_BASE_URL")
    return settings.env("OPENAI_BASE_URL")


def embedder_from_settings(settings: "Settings") -> Embedder:
    embedding = settings.section("embedding")
    backend = embedding["backend"]
    if backend == "openai":
        return OpenAIEmbedder(
            model=embedding["model_id"],
            api_key=settings.require_env("OPENAI_API_KEY", "OpenAI embeddings"),
            dimensions=int(embedding["dimensions"]),
            base_url=embeddings_base_url(settings),
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
        load_model(settings.env("EMBEDDING_MODEL_PATH") or embedding["model_id"])
