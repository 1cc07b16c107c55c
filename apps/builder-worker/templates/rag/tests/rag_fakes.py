"""A deterministic stand-in for the embedding model, and a process that holds a local store."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import zlib
from contextlib import contextmanager
from typing import Any, Callable, Iterator, List, Sequence

import pytest

from agent.config import PROJECT_ROOT, Settings
from agent.stores import StoreInUse


class FakeEmbedder:
    """Bag-of-words vectors: texts sharing words are near each other. No model, no network."""

    dimensions = 256

    def _vector(self, text: str) -> List[float]:
        vector = [0.0] * self.dimensions
        for word in re.findall(r"\w+", text.lower()):
            vector[zlib.crc32(word.encode("utf-8")) % self.dimensions] += 1.0
        return vector

    def embed_documents(self, texts: Sequence[str]) -> List[List[float]]:
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> List[float]:
        return self._vector(text)


# Opens this project's store at argv[1], stores one passage, and keeps the store open until its
# input closes: what the running chat app does to a store kept in a local folder.
_HOLDER = """
import sys
from agent.chunking import Chunk
from agent.config import load_settings
from agent.stores import store_from_settings

store = store_from_settings(load_settings(environ={"VECTOR_STORE_URL": sys.argv[1]}), 2)
store.add([Chunk(id="1", text="alpha", source="a.pdf", page=1)], [[1.0, 0.0]])
print("ready", flush=True)
sys.stdin.read()
"""


@contextmanager
def held_by_another_process(location: str) -> Iterator[None]:
    """The store at `location` (one passage in it), held open by another process meanwhile."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, location],
        cwd=PROJECT_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        yield
    finally:
        holder.communicate(timeout=60)


def assert_read_from_a_copy_while_held(
    settings: Settings, location: str, create_store: Callable[..., Any]
) -> None:
    """A store kept in a local folder, held by another process as the running chat app holds it:
    the command line's `ask` reads a copy, anything else is told plainly that the store is in use,
    and once the holder lets go the store itself opens again."""
    configured = dataclasses.replace(settings, environ={"VECTOR_STORE_URL": location})

    with held_by_another_process(location):
        with pytest.raises(StoreInUse, match="open in another process"):
            create_store(configured, dimensions=2)
        copy = create_store(configured, dimensions=2, copy_if_held=True)

        assert copy.is_copy
        assert [hit.chunk.id for hit in copy.search([1.0, 0.0], top_k=1)] == ["1"]

    released = create_store(configured, dimensions=2)
    assert not released.is_copy and released.count() == 1
