"""The Milvus store against a fake MilvusClient (same calls, in memory), and Milvus Lite."""

import dataclasses
import math

from agent.chunking import Chunk
from agent.stores.milvus_store import MilvusStore, create_store
from tests.fakes import install_module
from tests.rag_fakes import assert_read_from_a_copy_while_held

CHUNKS = [
    Chunk(id="1", text="alpha", source="a.pdf", page=1),
    Chunk(id="2", text="beta", source="b.csv", row=2),
]


def cosine(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


class FakeClient:
    def __init__(self):
        self.collections = {}

    def has_collection(self, name):
        return name in self.collections

    def create_collection(self, collection_name, **options):
        self.collections[collection_name] = {"options": options, "rows": {}}

    def query(self, collection_name, filter, output_fields):
        assert output_fields == ["count(*)"]
        return [{"count(*)": len(self.collections[collection_name]["rows"])}]

    def upsert(self, collection_name, data):
        for row in data:
            assert None not in row.values()
            self.collections[collection_name]["rows"][row["id"]] = row

    def search(self, collection_name, data, limit, output_fields, search_params):
        rows = self.collections[collection_name]["rows"].values()
        hits = [
            {
                "id": row["id"],
                "distance": cosine(row["vector"], data[0]),
                "entity": {key: row[key] for key in output_fields if key in row},
            }
            for row in rows
        ]
        return [sorted(hits, key=lambda hit: hit["distance"], reverse=True)[:limit]]

    def drop_collection(self, name):
        del self.collections[name]

    def load_collection(self, name):
        assert name in self.collections


def test_chunks_are_stored_searched_and_reset():
    client = FakeClient()
    store = MilvusStore(client, "agent_test", "cosine", dimensions=2)
    assert store.count() == 0

    store.add(CHUNKS, [[1.0, 0.0], [0.0, 1.0]])

    options = client.collections["agent_test"]["options"]
    assert options["dimension"] == 2 and options["metric_type"] == "COSINE"
    assert options["id_type"] == "string"
    assert store.count() == 2
    [best, other] = store.search([0.9, 0.1], top_k=2)
    assert best.chunk == CHUNKS[0]
    assert best.score > other.score
    store.reset()
    assert store.count() == 0


def test_the_client_points_at_the_configured_url(settings, monkeypatch):
    calls = []
    install_module(monkeypatch, "pymilvus", MilvusClient=lambda **kwargs: calls.append(kwargs))
    environ = {"VECTOR_STORE_URL": "http://milvus:19530"}

    store = create_store(dataclasses.replace(settings, environ=environ), dimensions=8)

    assert isinstance(store, MilvusStore)
    assert calls == [{"uri": "http://milvus:19530", "token": ""}]


def test_a_collection_written_by_another_process_is_loaded_before_it_is_read(tmp_path):
    """With Milvus Lite itself: after a restart Milvus keeps a collection released."""
    from pymilvus import MilvusClient

    uri = str(tmp_path / "milvus.db")
    writer = MilvusClient(uri=uri)
    MilvusStore(writer, "agent_test", "cosine", dimensions=2).add(CHUNKS, [[1.0, 0.0], [0.0, 1.0]])
    writer.release_collection("agent_test")
    writer.close()

    reader = MilvusStore(MilvusClient(uri=uri), "agent_test", "cosine", dimensions=2)

    assert reader.count() == 2
    assert reader.search([0.9, 0.1], top_k=1)[0].chunk == CHUNKS[0]


def test_deleted_chunks_leave_the_collection(tmp_path):
    """With Milvus Lite itself: `python -m agent index` deletes passages gone from the sources."""
    from pymilvus import MilvusClient

    store = MilvusStore(MilvusClient(uri=str(tmp_path / "milvus.db")), "agent_test", "cosine", 2)
    store.add(CHUNKS, [[1.0, 0.0], [0.0, 1.0]])

    store.delete(["1", "missing"])

    assert store.count() == 1
    assert [hit.chunk.id for hit in store.search([1.0, 0.0], top_k=2)] == ["2"]


def test_a_local_store_another_process_holds_is_read_from_a_copy(settings, tmp_path):
    """With Milvus Lite itself: the command line beside the running chat app."""
    assert_read_from_a_copy_while_held(settings, str(tmp_path / "milvus.db"), create_store)
