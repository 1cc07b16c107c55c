"""Embedding models: OpenAI's API or a local model.

agent.json's `embedding` section names the backend, the model id, the vector size and the
prefixes some models expect (e5 wants "query: " and "passage: "; BGE an instruction before
queries). A local model runs on the CPU with ONNX Runtime (local_model.py), or with PyTorch
through sentence-transformers when EMBEDDING_RUNTIME=torch (for a GPU). Anything with
`dimensions`, `embed_documents` and `embed_query` is an Embedder: the tests use a tiny
deterministic fake.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Protocol, Sequence

from .config import ConfigError
from .llm import provider_error

if TYPE_CHECKING:
    from .config import Settings

Vector = List[float]

log = logging.getLogger(__name__)


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


class LocalEmbedder:
    """A local model, loaded once (on the first use, or at start by `load`), then kept.

    `loader` returns the runtime's model; `encode(model, texts)` its unit vectors. ONNX Runtime
    and PyTorch each use every core for one batch, so batches are big and never parallel.
    """

    def __init__(
        self,
        model_id: str,
        dimensions: int,
        runtime: str,
        loader: Callable[[], Any],
        encode: Callable[[Any, List[str]], List[Vector]],
        query_prefix: str = "",
        passage_prefix: str = "",
    ) -> None:
        self.model_id = model_id
        self.dimensions = dimensions
        self.runtime = runtime
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = 256
        self.concurrency = 1
        self._loader = loader
        self._encode_with = encode
        self._model: Optional[Any] = None
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = self._loader()
            return self._model

    def load(self) -> None:
        """Load the model now, saying so: the first question then does not wait for it."""
        log.info("Loading the embedding model %s (%s)...", self.model_id, self.runtime)
        started = time.monotonic()
        self.model  # the property loads it, once
        log.info("The embedding model is ready (%.1f s).", time.monotonic() - started)

    def _encode(self, texts: Sequence[str]) -> List[Vector]:
        return self._encode_with(self.model, list(texts))

    def embed_documents(self, texts: Sequence[str]) -> List[Vector]:
        return self._encode([self.passage_prefix + text for text in texts])

    def embed_query(self, text: str) -> Vector:
        return self._encode([self.query_prefix + text])[0]

    def embed_queries(self, texts: Sequence[str]) -> List[Vector]:
        """Several questions at once, each as a query (the curated answers' questions)."""
        return self._encode([self.query_prefix + text for text in texts])


def encode_onnx(model: Any, texts: List[str]) -> List[Vector]:
    return [list(map(float, vector)) for vector in model.embed(texts, batch_size=32)]


def encode_torch(model: Any, texts: List[str]) -> List[Vector]:
    vectors = model.encode(texts, batch_size=32, normalize_embeddings=True, show_progress_bar=False)
    return [list(map(float, vector)) for vector in vectors]


def load_onnx(embedding: dict, model_path: Optional[str]) -> Any:
    """The model's ONNX port (local_model.py), or a plain message naming the setting that fixes it."""
    from .local_model import load_onnx_model

    try:
        return load_onnx_model(embedding["onnx"], int(embedding["dimensions"]), model_path)
    except ImportError as error:
        raise ConfigError(
            f"The embedding model runs on ONNX Runtime through FastEmbed, which is not installed "
            f"({error}): install the agent with `pip install --require-hashes -r "
            "requirements.lock`, or set EMBEDDING_RUNTIME=torch to run it with PyTorch."
        ) from error
    except Exception as error:  # ONNX Runtime's own errors (NoSuchFile, …) are plain Exceptions
        # Not on disk and Hugging Face unreachable (or offline), no such model there, or a
        # folder in EMBEDDING_MODEL_PATH without the ONNX port.
        raise model_error(embedding["onnx"]["model_id"], error) from error


def load_model(model_id: str) -> Any:
    """The sentence-transformers model (PyTorch), or a plain message naming the setting."""
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise ConfigError(
            "EMBEDDING_RUNTIME=torch needs PyTorch and sentence-transformers: install them with "
            "`pip install --require-hashes -r requirements.lock -r requirements-gpu.lock`, or "
            "remove EMBEDDING_RUNTIME from .env to run the model with ONNX Runtime."
        ) from None
    try:
        return SentenceTransformer(model_id)
    except (OSError, ValueError) as error:
        raise model_error(model_id, error) from error


def model_error(model_id: str, error: BaseException) -> ConfigError:
    detail = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
    return ConfigError(
        f"The embedding model {model_id!r} could not be loaded ({detail}). Set "
        "EMBEDDING_MODEL_PATH to a folder holding it, or run `python -m agent prefetch` "
        "where the Hugging Face hub is reachable."
    )


RUNTIMES = ("onnx", "torch")


def local_runtime(settings: "Settings") -> str:
    runtime = (settings.env("EMBEDDING_RUNTIME") or "onnx").strip().lower()
    if runtime not in RUNTIMES:
        raise ConfigError(
            f"EMBEDDING_RUNTIME must be onnx (the CPU, the default) or torch (PyTorch, for a "
            f"GPU), not {runtime!r}."
        )
    return runtime


def local_embedder(settings: "Settings") -> LocalEmbedder:
    embedding = settings.section("embedding")
    model_path = settings.env("EMBEDDING_MODEL_PATH")
    prefixes = {
        "query_prefix": embedding.get("query_prefix", ""),
        "passage_prefix": embedding.get("passage_prefix", ""),
    }
    loader: Callable[[], Any]
    if local_runtime(settings) == "torch":
        torch_model = model_path or embedding["model_id"]
        runtime, loader, encode = "PyTorch", lambda: load_model(torch_model), encode_torch
    else:
        runtime, loader, encode = (
            "ONNX Runtime, CPU",
            lambda: load_onnx(embedding, model_path),
            encode_onnx,
        )
    return LocalEmbedder(
        model_id=embedding["model_id"],
        dimensions=int(embedding["dimensions"]),
        runtime=runtime,
        loader=loader,
        encode=encode,
        **prefixes,
    )


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
        return local_embedder(settings)
    raise ConfigError(f"Unknown embedding backend {backend!r} in agent.json.")


def prefetch(settings: "Settings") -> None:
    """Download a local model ahead of time (as the Docker build does)."""
    if settings.section("embedding")["backend"] == "sentence-transformers":
        local_embedder(settings).load()
