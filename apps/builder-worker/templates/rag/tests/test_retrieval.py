"""Retrieval ranks chunks by similarity, under each distance metric."""

import dataclasses
import math

import pytest

from agent.chunking import Chunk
from agent.stores import store_from_settings
from agent.stores.memory_store import MemoryStore, similarity
from tests.rag_fakes import FakeEmbedder

CHUNKS = [
    Chunk(id="1", text="Refunds are paid back within five working days.", source="faq.txt"),
    Chunk(id="2", text="Shipping to Norway takes two weeks by sea.", source="faq.txt"),
    Chunk(id="3", text="Our office cat is called Biscuit.", source="faq.txt"),
]


def filled_store(metric):
    embedder = FakeEmbedder()
    store = MemoryStore(metric)
    store.add(CHUNKS, embedder.embed_documents([chunk.text for chunk in CHUNKS]))
    return store, embedder


@pytest.mark.parametrize("metric", ["cosine", "euclidean", "dot"])
def test_the_most_similar_chunk_comes_first(metric):
    store, embedder = filled_store(metric)

    hits = store.search(embedder.embed_query("How many days until refunds are paid?"), top_k=2)

    assert [hit.chunk.id for hit in hits][0] == "1"
    assert len(hits) == 2
    assert hits[0].score >= hits[1].score


def test_adding_a_chunk_again_replaces_it():
    store, embedder = filled_store("cosine")
    store.add(CHUNKS[:1], embedder.embed_documents([CHUNKS[0].text]))

    assert store.count() == 3
    store.reset()
    assert store.count() == 0


def test_similarity_math():
    assert similarity("cosine", [1, 0], [2, 0]) == pytest.approx(1.0)
    assert similarity("cosine", [1, 0], [0, 1]) == pytest.approx(0.0)
    assert similarity("dot", [1, 2], [3, 4]) == 11
    assert similarity("euclidean", [0, 0], [3, 4]) == pytest.approx(-5.0)
    assert similarity("cosine", [0, 0], [1, 1]) == 0.0
    with pytest.raises(ValueError):
        similarity("cosine", [1], [1, 2])
    assert math.isfinite(similarity("cosine", [1e-9, 0], [1, 0]))


def test_vector_store_memory_runs_without_a_vector_database(settings):
    memory = dataclasses.replace(settings, environ={"VECTOR_STORE": "memory"})

    store = store_from_settings(memory, dimensions=8)

    assert isinstance(store, MemoryStore)
    assert store.metric == settings.section("vector_store")["distance_metric"]


def test_the_chosen_store_ships_with_the_project(settings):
    from agent.stores import BACKENDS
    from agent.config import PROJECT_ROOT

    provider = settings.section("vector_store")["provider"]
    assert (PROJECT_ROOT / "agent" / "stores" / f"{BACKENDS[provider]}.py").is_file()


def test_the_memory_index_is_kept_on_disk_between_starts(tmp_path):
    embedder = FakeEmbedder()
    vectors = embedder.embed_documents([chunk.text for chunk in CHUNKS])
    first = MemoryStore("cosine", folder=tmp_path, model="fake/256")
    first.add(CHUNKS, vectors)
    first.flush()

    again = MemoryStore("cosine", folder=tmp_path, model="fake/256")
    assert again.count() == len(CHUNKS)
    best = again.search(embedder.embed_query(CHUNKS[1].text), 1)[0]
    assert best.chunk == CHUNKS[1]

    # Vectors of another model are not reused: the source is embedded again.
    assert MemoryStore("cosine", folder=tmp_path, model="other/256").count() == 0
    again.reset()
    assert MemoryStore("cosine", folder=tmp_path, model="fake/256").count() == 0
