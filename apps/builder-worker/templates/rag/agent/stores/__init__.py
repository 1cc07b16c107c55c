"""Vector stores behind one interface (base.VectorStore).

This project ships the store chosen in the builder plus the in-memory store. Set
VECTOR_STORE=memory to run without any vector database (nothing is kept across restarts).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..config import ConfigError
from .base import Hit, StoreInUse, VectorStore

if TYPE_CHECKING:
    from ..config import Settings

__all__ = ["Hit", "StoreInUse", "VectorStore", "store_from_settings"]

# Provider name (agent.json's vector_store.provider) -> module in this package.
BACKENDS = {
    "memory": "memory_store",
    "chromadb": "chroma_store",
    "qdrant": "qdrant_store",
    "milvus": "milvus_store",
    "pinecone": "pinecone_store",
}
# The stores that can keep their data in a local folder, which one process at a time may open.
LOCAL_FOLDER_STORES = ("qdrant", "milvus")


def store_from_settings(
    settings: "Settings", dimensions: int, copy_if_held: bool = False
) -> VectorStore:
    """The store agent.json (or VECTOR_STORE) names. With `copy_if_held`, a local folder that
    another process holds is opened from a copy (base.open_local), for reading only."""
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
    if copy_if_held and provider in LOCAL_FOLDER_STORES:
        return module.create_store(settings, dimensions, copy_if_held=True)
    return module.create_store(settings, dimensions)
