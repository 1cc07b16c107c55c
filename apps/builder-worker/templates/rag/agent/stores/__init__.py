"""Vector stores behind one interface (base.VectorStore).

This project ships the store chosen in the builder plus the in-memory store. Set
VECTOR_STORE=memory to run without any vector database (nothing is kept across restarts).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..config import ConfigError
from .base import Hit, VectorStore

if TYPE_CHECKING:
    from ..config import Settings

__all__ = ["Hit", "VectorStore", "store_from_settings"]

# Provider name (agent.json's vector_store.provider) -> module in this package.
BACKENDS = {
    "memory": "memory_store",
    "chromadb": "chroma_store",
    "qdrant": "qdrant_store",
    "milvus": "milvus_store",
    "pinecone": "pinecone_store",
}


def store_from_settings(settings: "Settings", dimensions: int) -> VectorStore:
    provider = settings.env("VECTOR_STORE") or settings.section("vector_store")["provider"]
    module_name = BACKENDS.get(provider)
    if module_name is None:
        raise ConfigError(f"Unknown vector store {provider!r}; use one of {', '.join(BACKENDS)}.")
    qualified = f"{__name__}.{module_name}"
    try:
        module = importlib.import_module(qualified)
    except ModuleNotFoundError as error:
        if error.name != qualified:
            raise
        raise ConfigError(
            f"This project was generated without the {provider} store ({module_name}.py)."
        ) from None
    return module.create_store(settings, dimensions)
