"""The Pinecone store against a fake Pinecone client (same calls, in memory)."""

import dataclasses
import math
from types import SimpleNamespace

import pytest

from agent.chunking import Chunk
from agent.config import ConfigError
from agent.stores.pinecone_store import PineconeStore, create_store, region_and_cloud
from tests.fakes import install_module

CHUNKS = [
    Chunk(id="1", text="alpha", source="a.pdf", page=1),
    Chunk(id="2", text="beta", source="b.csv", row=2),
]


def cosine(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


class FakeIndex:
    def __init__(self):
        self.namespaces = {}

    def upsert(self, vectors, namespace):
        for record in vectors:
            assert None not in record["metadata"].values()  # Pinecone refuses null metadata
            self.namespaces.setdefault(namespace, {})[record["id"]] = record

    def query(self, vector, top_k, include_metadata, namespace):
        records = self.namespaces.get(namespace, {}).values()
        matches = sorted(
            (
                SimpleNamespace(
                    id=r["id"], score=cosine(r["values"], vector), metadata=r["metadata"]
                )
                for r in records
            ),
            key=lambda match: match.score,
            reverse=True,
        )
        return SimpleNamespace(matches=matches[:top_k])

    def describe_index_stats(self):
        return SimpleNamespace(
            namespaces={
                ns: SimpleNamespace(vector_count=len(r)) for ns, r in self.namespaces.items()
            }
        )

    def delete(self, namespace, delete_all=False, ids=()):
        if delete_all:
            self.namespaces.pop(namespace, None)
        for id in ids:
            self.namespaces.get(namespace, {}).pop(id, None)


class FakePinecone:
    def __init__(self):
        self.indexes = {}
        self.created = []

    def list_indexes(self):
        return SimpleNamespace(names=lambda: list(self.indexes))

    def create_index(self, name, dimension, metric, spec):
        self.created.append((name, dimension, metric, spec))
        self.indexes[name] = FakeIndex()

    def describe_index(self, name):
        return SimpleNamespace(status={"ready": True})

    def Index(self, name):
        return self.indexes[name]


def test_a_missing_index_is_created_and_chunks_stay_in_their_namespace(monkeypatch):
    install_module(monkeypatch, "pinecone", ServerlessSpec=lambda cloud, region: (cloud, region))
    client = FakePinecone()
    store = PineconeStore(client, "docs", "agent_test", "dot", 2, region="us-east-1", cloud="aws")

    store.add(CHUNKS, [[1.0, 0.0], [0.0, 1.0]])

    assert client.created == [("docs", 2, "dotproduct", ("aws", "us-east-1"))]
    assert store.count() == 2
    assert list(client.indexes["docs"].namespaces) == ["agent_test"]
    [best, other] = store.search([0.9, 0.1], top_k=2)
    assert best.chunk == CHUNKS[0]
    assert best.score > other.score
    store.delete(["1"])
    assert [hit.chunk for hit in store.search([0.9, 0.1], top_k=2)] == [CHUNKS[1]]
    store.reset()
    assert store.count() == 0


def test_environment_names_region_and_cloud():
    assert region_and_cloud("us-east-1", "aws") == ("us-east-1", "aws")
    assert region_and_cloud("us-west1-gcp", "aws") == ("us-west1", "gcp")


def test_the_api_key_comes_from_the_environment(settings, monkeypatch):
    calls = []
    install_module(monkeypatch, "pinecone", Pinecone=lambda **kwargs: calls.append(kwargs))

    with pytest.raises(ConfigError, match="PINECONE_API_KEY"):
        create_store(dataclasses.replace(settings, environ={}), dimensions=8)
    store = create_store(dataclasses.replace(settings, environ={"PINECONE_API_KEY": "k"}), 8)

    assert isinstance(store, PineconeStore)
    assert calls == [{"api_key": "k"}]
