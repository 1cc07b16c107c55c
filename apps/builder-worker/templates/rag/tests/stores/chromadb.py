"""The ChromaDB store against a fake Chroma client (same calls, in memory)."""

import dataclasses
import math

from agent.chunking import Chunk
from agent.stores.chroma_store import ChromaStore, create_store
from tests.fakes import install_module

CHUNKS = [
    Chunk(id="1", text="alpha", source="a.pdf", page=1),
    Chunk(id="2", text="beta", source="b.csv", row=2),
]


def cosine_distance(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    return 1.0 - dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


class FakeCollection:
    def __init__(self, metadata):
        self.metadata = metadata
        self.rows = {}
        self.approximate_misses = False

    def count(self):
        return len(self.rows)

    def upsert(self, ids, embeddings, documents, metadatas):
        for metadata in metadatas:
            assert metadata and None not in metadata.values()  # Chroma refuses both
        for row in zip(ids, embeddings, documents, metadatas):
            self.rows[row[0]] = row

    def get(self, include):
        rows = list(self.rows.values())
        return {
            "ids": [r[0] for r in rows],
            "embeddings": [r[1] for r in rows],
            "documents": [r[2] for r in rows],
            "metadatas": [r[3] for r in rows],
        }

    def delete(self, ids):
        for id in ids:
            self.rows.pop(id, None)

    def query(self, query_embeddings, n_results, include):
        ranked = sorted(
            self.rows.values(),
            key=lambda r: cosine_distance(r[1], query_embeddings[0]),
            # An approximate search that lost its way: the farthest rows first.
            reverse=self.approximate_misses,
        )
        ranked = ranked[:n_results]
        return {
            "ids": [[r[0] for r in ranked]],
            "documents": [[r[2] for r in ranked]],
            "metadatas": [[r[3] for r in ranked]],
            "distances": [[cosine_distance(r[1], query_embeddings[0]) for r in ranked]],
        }


class FakeClient:
    def __init__(self):
        self.collections = {}

    def get_or_create_collection(self, name, metadata):
        return self.collections.setdefault(name, FakeCollection(metadata))

    def list_collections(self):
        return [FakeListedCollection(name) for name in self.collections]

    def delete_collection(self, name):
        if name not in self.collections:
            # What chromadb 0.5's HTTP client raises: the server's answer in a plain Exception.
            raise Exception(f'{{"error":"ValueError(\'Collection {name} does not exist.\')"}}')
        del self.collections[name]


@dataclasses.dataclass
class FakeListedCollection:
    name: str


def test_chunks_are_stored_searched_and_reset():
    client = FakeClient()
    store = ChromaStore(client, "agent_test", "cosine")
    store.reset()  # a missing collection is fine

    store.add(CHUNKS, [[1.0, 0.0], [0.0, 1.0]])

    assert client.collections["agent_test"].metadata == {"hnsw:space": "cosine"}
    assert store.count() == 2
    [best, other] = store.search([0.9, 0.1], top_k=2)
    assert best.chunk == CHUNKS[0]
    assert best.score > other.score
    assert other.chunk.citation() == "b.csv, row 2"
    store.reset()
    assert store.count() == 0


def test_the_client_points_at_the_configured_url(settings, monkeypatch):
    calls = []
    install_module(monkeypatch, "chromadb", HttpClient=lambda **kwargs: calls.append(kwargs))
    install_module(monkeypatch, "chromadb.config", Settings=lambda **kwargs: kwargs)
    environ = {"VECTOR_STORE_URL": "https://chroma.example.com"}

    store = create_store(dataclasses.replace(settings, environ=environ), dimensions=8)

    assert isinstance(store, ChromaStore)
    assert calls[0]["host"] == "chroma.example.com"
    assert calls[0]["port"] == 443 and calls[0]["ssl"] is True


def test_small_collections_are_searched_exactly(monkeypatch):
    from agent.stores import base

    client = FakeClient()
    store = ChromaStore(client, "agent_test", "cosine")
    store.add(CHUNKS, [[1.0, 0.0], [0.0, 1.0]])
    # Chroma's approximate search may miss the passage that answers; every vector is compared.
    client.collections["agent_test"].approximate_misses = True

    [best] = store.search([0.9, 0.1], top_k=1)
    assert best.chunk == CHUNKS[0]
    assert math.isclose(best.score, 1.0 - cosine_distance([1.0, 0.0], [0.9, 0.1]), rel_tol=1e-6)

    monkeypatch.setattr(base, "EXACT_SEARCH_MAX", 1)
    [approximate] = store.search([0.9, 0.1], top_k=1)
    assert approximate.chunk == CHUNKS[1]


def test_deleted_chunks_leave_the_collection():
    client = FakeClient()
    store = ChromaStore(client, "agent_test", "cosine")
    store.add(CHUNKS, [[1.0, 0.0], [0.0, 1.0]])
    store.search([1.0, 0.0], top_k=2)

    store.delete(["1", "missing"])

    assert store.count() == 1
    assert [hit.chunk for hit in store.search([1.0, 0.0], top_k=2)] == [CHUNKS[1]]
