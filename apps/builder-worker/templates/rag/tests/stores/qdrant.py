"""The Qdrant store against a fake Qdrant client (same calls, in memory), and its local mode."""

import dataclasses
import math
import uuid
from types import SimpleNamespace

from agent.chunking import Chunk
from agent.stores.qdrant_store import QdrantStore, create_store
from tests.fakes import install_module
from tests.rag_fakes import assert_read_from_a_copy_while_held

CHUNKS = [
    Chunk(id="1", text="alpha", source="a.pdf", page=1),
    Chunk(id="2", text="beta", source="orders", row=2, ref="id=2"),
]

models = SimpleNamespace(
    Distance=SimpleNamespace(COSINE="Cosine", EUCLID="Euclid", DOT="Dot"),
    VectorParams=lambda size, distance: SimpleNamespace(size=size, distance=distance),
    PointStruct=lambda id, vector, payload: SimpleNamespace(id=id, vector=vector, payload=payload),
    SearchParams=lambda exact: SimpleNamespace(exact=exact),
    PointIdsList=lambda points: SimpleNamespace(points=points),
)


def cosine(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


class FakeClient:
    def __init__(self):
        self.collections = {}

    def collection_exists(self, name):
        return name in self.collections

    def create_collection(self, collection_name, vectors_config):
        self.collections[collection_name] = {"config": vectors_config, "points": {}}

    def upsert(self, collection_name, points, wait):
        for point in points:
            uuid.UUID(point.id)  # Qdrant accepts only integers and UUIDs
            self.collections[collection_name]["points"][point.id] = point

    def count(self, collection_name, exact):
        return SimpleNamespace(count=len(self.collections[collection_name]["points"]))

    def query_points(self, collection_name, query, limit, with_payload, search_params):
        self.searched_exactly = search_params.exact
        points = self.collections[collection_name]["points"].values()
        scored = sorted(
            (
                SimpleNamespace(id=p.id, score=cosine(p.vector, query), payload=p.payload)
                for p in points
            ),
            key=lambda p: p.score,
            reverse=True,
        )
        return SimpleNamespace(points=scored[:limit])

    def delete_collection(self, collection_name):
        del self.collections[collection_name]

    def delete(self, collection_name, points_selector, wait):
        for point in points_selector.points:
            self.collections[collection_name]["points"].pop(point, None)


def test_chunks_are_stored_searched_and_reset():
    client = FakeClient()
    store = QdrantStore(client, models, "agent_test", "cosine", dimensions=2)
    assert store.count() == 0 and store.search([1.0, 0.0], 3) == []

    store.add(CHUNKS, [[1.0, 0.0], [0.0, 1.0]])
    store.add(CHUNKS[:1], [[1.0, 0.0]])  # the same chunk again replaces it

    config = client.collections["agent_test"]["config"]
    assert (config.size, config.distance) == (2, "Cosine")
    assert store.count() == 2
    [best, other] = store.search([0.2, 0.8], top_k=2)
    assert best.chunk == CHUNKS[1]
    assert best.chunk.citation() == "orders (id=2)"
    assert best.score > other.score
    assert client.searched_exactly  # two passages: far below base.EXACT_SEARCH_MAX
    store.delete(["1"])
    assert [hit.chunk for hit in store.search([1.0, 0.0], top_k=2)] == [CHUNKS[1]]
    store.reset()
    assert store.count() == 0


def test_the_client_points_at_the_configured_url(settings, monkeypatch):
    calls = []
    install_module(
        monkeypatch,
        "qdrant_client",
        QdrantClient=lambda **kwargs: calls.append(kwargs),
        models=models,
    )
    environ = {"VECTOR_STORE_URL": "http://qdrant:6333", "VECTOR_STORE_API_KEY": "key"}

    store = create_store(dataclasses.replace(settings, environ=environ), dimensions=8)

    assert isinstance(store, QdrantStore)
    assert calls == [{"url": "http://qdrant:6333", "api_key": "key", "timeout": 30}]


def test_a_local_store_another_process_holds_is_read_from_a_copy(settings, tmp_path):
    """With Qdrant's local mode itself: the command line beside the running chat app."""
    assert_read_from_a_copy_while_held(settings, str(tmp_path / ".qdrant"), create_store)
