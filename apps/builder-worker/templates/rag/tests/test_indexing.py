"""`python -m agent index` embeds only what changed in the sources, and drops what vanished."""

import dataclasses
import json

import pytest

from agent.chunking import Chunk
from agent.indexing import Records, index_sources
from agent.rag import RagAgent
from agent.sources import file_sha256, manifest_sources, source_chunks
from agent.stores.memory_store import MemoryStore
from tests.fakes import FakeChat
from tests.rag_fakes import FakeEmbedder

HANDBOOK = "Refunds are paid within five days.\n\nShipping to Norway takes two weeks."
PRICES = "A coffee costs three euros.\n\nTea costs two euros."


class CountingEmbedder(FakeEmbedder):
    """Counts the texts it is asked to embed."""

    def __init__(self) -> None:
        self.embedded = 0

    def embed_documents(self, texts):
        self.embedded += len(texts)
        return super().embed_documents(texts)


@pytest.fixture
def project(settings, tmp_path):
    """This project's settings in tmp_path, with no sources yet: `add` lists text files."""
    (tmp_path / "data").mkdir()
    manifest = dict(settings.manifest)
    manifest["source"] = {"type": "text_file", "file": "data/handbook.txt"}
    manifest["sources"] = []
    # Small passages: one a paragraph.
    manifest["rag"] = {**settings.section("rag"), "chunk_size": 40, "chunk_overlap": 0}
    return dataclasses.replace(settings, root=tmp_path, manifest=manifest)


def add(project, key, text, name=None, listed=True):
    """Write data/<name> and, unless `listed` is False (a file replaced), list it as a source."""
    name = name or f"{key}.txt"
    (project.root / "data" / name).write_text(text, encoding="utf-8")
    if listed:
        entry = {"key": key, "name": name, "kind": "file", "type": "text_file"}
        project.manifest["sources"].append({**entry, "file": f"data/{name}"})


def agent_for(settings, embedder, store, tmp_path):
    return RagAgent(
        settings, embedder, store, FakeChat("ok"), records_file=tmp_path / "records.json"
    )


def test_a_second_run_embeds_only_the_added_source(project, tmp_path):
    embedder, store = CountingEmbedder(), MemoryStore("cosine")
    add(project, "handbook", HANDBOOK)
    first = agent_for(project, embedder, store, tmp_path).index()
    assert (first.embedded, first.kept, first.removed) == (2, 0, 0)

    again = agent_for(project, embedder, store, tmp_path).index()
    assert (again.embedded, again.kept, again.removed) == (0, 2, 0)
    assert str(again).startswith("Nothing changed")
    assert embedder.embedded == 2

    add(project, "prices", PRICES)
    added = agent_for(project, embedder, store, tmp_path).index()
    assert (added.embedded, added.kept, added.removed) == (2, 2, 0)
    assert embedder.embedded == 4
    assert store.count() == 4
    assert str(added) == "Embedded 2 new passages, kept 2, removed 0."


def test_a_replaced_file_embeds_its_new_passages_and_drops_the_old(project, tmp_path):
    embedder, store = CountingEmbedder(), MemoryStore("cosine")
    add(project, "handbook", HANDBOOK)
    agent_for(project, embedder, store, tmp_path).index()

    add(project, "handbook", HANDBOOK.replace("two weeks", "ten days"), listed=False)
    report = agent_for(project, embedder, store, tmp_path).index()

    assert (report.embedded, report.kept, report.removed) == (1, 1, 1)
    texts = {hit.chunk.text for hit in store.search(embedder.embed_query("Norway"), 5)}
    assert "Shipping to Norway takes ten days." in texts
    assert "Shipping to Norway takes two weeks." not in texts


def test_a_removed_source_leaves_the_store(project, tmp_path):
    embedder, store = CountingEmbedder(), MemoryStore("cosine")
    add(project, "handbook", HANDBOOK)
    add(project, "prices", PRICES)
    agent_for(project, embedder, store, tmp_path).index()

    project.manifest["sources"].pop()
    report = agent_for(project, embedder, store, tmp_path).index()

    assert (report.embedded, report.kept, report.removed) == (0, 2, 2)
    assert store.count() == 2
    assert all("euros" not in hit.chunk.text for hit in store.search([1.0] * 256, 10))


def test_records_that_do_not_match_the_store_embed_everything_again(project, tmp_path):
    embedder, store = CountingEmbedder(), MemoryStore("cosine")
    add(project, "handbook", HANDBOOK)
    agent_for(project, embedder, store, tmp_path).index()

    # Another (empty) store with the old records: they cannot describe it.
    report = agent_for(project, embedder, MemoryStore("cosine"), tmp_path).index()
    assert report.embedded == 2 and "the store holds 0 passages" in report.restarted

    # Vectors of another model cannot answer this model's questions.
    records = json.loads((tmp_path / "records.json").read_text())
    (tmp_path / "records.json").write_text(json.dumps({**records, "model": "another/256"}))
    report = agent_for(project, embedder, store, tmp_path).index()
    assert report.embedded == 2 and "another embedding model" in report.restarted
    assert store.count() == 2


def test_the_shipped_passages_serve_while_the_file_is_the_version_shipped(project):
    add(project, "handbook", HANDBOOK)
    entry = project.manifest["sources"][0]
    entry["sha256"] = file_sha256(project.path(entry["file"]))
    chunks_file = project.root / "data" / "chunks.jsonl"
    line = {"id": "chunk-000000", "text": "As shipped.", "source": "handbook.txt"}
    chunks_file.write_text(json.dumps({**line, "source_key": "handbook"}) + "\n")
    project.manifest["source"]["chunks_file"] = "data/chunks.jsonl"

    [(key, shipped)] = source_chunks(project)
    assert key == "handbook" and [chunk.text for chunk in shipped] == ["As shipped."]

    (project.root / "data" / "handbook.txt").write_text(PRICES, encoding="utf-8")
    [(_, read)] = source_chunks(project)
    assert [chunk.text for chunk in read] == ["A coffee costs three euros.", "Tea costs two euros."]


def test_sources_need_a_kind_and_their_own_key(project):
    from agent.config import ConfigError

    add(project, "handbook", HANDBOOK)
    add(project, "handbook", PRICES, name="prices.txt")
    with pytest.raises(ConfigError, match="own key"):
        manifest_sources(project)


def test_index_sources_deletes_before_it_embeds(tmp_path):
    calls = []

    class Store(MemoryStore):
        def delete(self, ids):
            calls.append(("delete", len(ids)))
            super().delete(ids)

    embedder, store = CountingEmbedder(), Store("cosine")
    records = Records(tmp_path / "records.json", "m/256")

    def embed(chunks, stored):
        calls.append(("embed", len(chunks)))
        store.add(chunks, embedder.embed_documents([c.text for c in chunks]))
        stored(chunks)

    one = [Chunk(id="x", text="alpha", source="a"), Chunk(id="y", text="beta", source="a")]
    index_sources(store, records, [("a", one)], embed)
    changed = [("a", one[:1]), ("b", [Chunk(id="z", text="c", source="b")])]
    index_sources(store, records, changed, embed)

    assert calls == [("embed", 2), ("delete", 1), ("embed", 1)]
