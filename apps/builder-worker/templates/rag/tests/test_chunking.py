"""The splitter: bounded sizes, overlap, natural boundaries, and lossless chunk files."""

import json

import pytest

from agent.chunking import Chunk, Document, chunk_documents, chunk_text, read_chunks_jsonl

SENTENCES = " ".join(f"Sentence number {n} talks about topic {n % 7}." for n in range(60))


def test_chunk_parameters_come_from_agent_json(settings):
    rag = settings.section("rag")
    assert 0 <= rag["chunk_overlap"] < rag["chunk_size"]
    assert rag["top_k"] >= 1


def test_chunks_respect_the_size_and_overlap():
    chunks = chunk_text(SENTENCES, size=200, overlap=40)

    assert len(chunks) > 5
    assert all(len(chunk) <= 200 for chunk in chunks)
    for previous, current in zip(chunks, chunks[1:]):
        # Each chunk starts with words the previous one ended with.
        assert current.split()[0] in previous
    # Nothing is lost: every sentence is in some chunk.
    for n in range(60):
        assert any(f"Sentence number {n} " in chunk for chunk in chunks)


def test_chunks_end_at_sentence_boundaries_when_they_can():
    chunks = chunk_text(SENTENCES, size=200, overlap=0)
    assert all(chunk.endswith(".") for chunk in chunks)


def test_text_without_spaces_is_cut_at_the_size():
    assert chunk_text("x" * 25, size=10, overlap=0) == ["x" * 10, "x" * 10, "x" * 5]


def test_short_and_empty_texts():
    assert chunk_text("  one line  ", size=800, overlap=100) == ["one line"]
    assert chunk_text(" \n ", size=800, overlap=100) == []


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError):
        chunk_text("text", size=0, overlap=0)
    with pytest.raises(ValueError):
        chunk_text("text", size=10, overlap=10)


def test_chunks_keep_their_citation():
    documents = [
        Document(text="Page one text.", source="guide.pdf", page=1),
        Document(text="A row.", source="sales.csv", row=4),
        Document(text="A record.", source="orders", row=1, ref="id=7"),
    ]
    chunks = chunk_documents(documents, size=800, overlap=100)

    assert [chunk.id for chunk in chunks] == ["chunk-000000", "chunk-000001", "chunk-000002"]
    assert [chunk.citation() for chunk in chunks] == [
        "guide.pdf, page 1",
        "sales.csv, row 4",
        "orders (id=7)",
    ]


def test_chunk_files_round_trip_any_text(tmp_path):
    tricky = 'quotes " \\ backslash, line\u2028separator, emoji \U0001F600, {{7*7}} ${x}'
    path = tmp_path / "chunks.jsonl"
    path.write_text(
        json.dumps({"id": "c1", "text": tricky, "source": "a.txt"})
        + "\n\n"
        + json.dumps({"id": 2, "text": "two", "source": "b.csv", "row": 3})
        + "\n",
        encoding="utf-8",
    )

    assert read_chunks_jsonl(path) == [
        Chunk(id="c1", text=tricky, source="a.txt"),
        Chunk(id="2", text="two", source="b.csv", row=3),
    ]


def test_a_broken_chunk_file_names_the_line(tmp_path):
    path = tmp_path / "chunks.jsonl"
    path.write_text('{"id": "1", "text": "ok", "source": "s"}\n{"text": "no id"}\n', "utf-8")

    with pytest.raises(ValueError, match="line 2"):
        read_chunks_jsonl(path)
