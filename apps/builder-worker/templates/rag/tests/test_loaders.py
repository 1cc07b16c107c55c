"""The configured source loads into cited documents, and shipped chunks are used as they are."""

import dataclasses
import sqlite3

import pytest

from agent.chunking import read_chunks_jsonl
from agent.loaders import (
    FILE_READERS,
    SQL_SOURCES,
    load_chunks,
    load_documents,
    load_sql_table,
    mongo_documents,
    record_text,
    rows_to_documents,
    source_label,
)


def test_the_shipped_source_loads(settings):
    source = settings.source
    if source["type"] not in FILE_READERS:
        pytest.skip("a database source is read at startup, through DATABASE_URL")

    documents = load_documents(settings)

    assert documents, "the source produced no text"
    assert {document.source for document in documents} == {source_label(source)}
    if source["type"] == "pdf":
        assert all(document.page >= 1 for document in documents)
    if source["type"] in ("csv", "excel"):
        assert [document.row for document in documents][:2] == [1, 2]


def test_shipped_chunks_are_indexed_as_they_are(settings):
    chunks_file = settings.source.get("chunks_file")
    if not chunks_file or not settings.path(chunks_file).is_file():
        pytest.skip("no data/chunks.jsonl in this project")

    assert load_chunks(settings) == read_chunks_jsonl(settings.path(chunks_file))


def test_without_shipped_chunks_the_source_is_split(settings):
    if settings.source["type"] not in FILE_READERS:
        pytest.skip("a database source is read at startup, through DATABASE_URL")
    size = settings.section("rag")["chunk_size"]

    chunks = load_chunks(settings, from_source=True)

    assert chunks
    assert all(len(chunk.text) <= size for chunk in chunks)


def test_database_rows_are_cited_by_primary_key(settings, tmp_path):
    # Whatever the configured database, the loader runs the same SQLAlchemy code; SQLite
    # stands in for it here. The table name comes from agent.json, quotes and all.
    if settings.source["type"] not in SQL_SOURCES:
        pytest.skip("not a SQL database source")
    pytest.importorskip("sqlalchemy")
    table = settings.source["table"]
    path = tmp_path / "source.db"
    with sqlite3.connect(path) as connection:
        quoted = '"' + table.replace('"', '""') + '"'
        connection.execute(f"CREATE TABLE {quoted} (id INTEGER PRIMARY KEY, title TEXT, body TEXT)")
        connection.executemany(
            f"INSERT INTO {quoted} VALUES (?, ?, ?)",
            [(1, "Refunds", "Refunds take 5 days."), (2, "Shipping", "")],
        )

    documents = load_sql_table(f"sqlite:///{path}", table, limit=10, label=table)

    assert [document.ref for document in documents] == ["id=1", "id=2"]
    assert documents[0].text == "id: 1\ntitle: Refunds\nbody: Refunds take 5 days."
    assert documents[1].text == "id: 2\ntitle: Shipping"


def test_mongo_documents_are_cited_by_id():
    records = [{"_id": "a1", "title": "Refunds", "tags": ["money"]}, {"_id": "a2"}]

    documents = mongo_documents(records, "articles")

    assert len(documents) == 1
    assert documents[0].ref == "_id=a1"
    assert documents[0].text == 'title: Refunds\ntags: ["money"]'


def test_rows_become_numbered_documents():
    rows = [{"city": "Oslo", "note": ""}, {"city": "", "note": ""}, {"city": "Lima", "note": "x"}]

    documents = rows_to_documents(rows, "cities.csv")

    assert [(d.row, d.text) for d in documents] == [(1, "city: Oslo"), (3, "city: Lima\nnote: x")]
    assert record_text({"a": None, "b": 0}) == "b: 0"


def test_a_database_source_needs_database_url(settings):
    if settings.source["type"] in FILE_READERS:
        pytest.skip("a file source needs no DATABASE_URL")
    from agent.config import ConfigError

    with pytest.raises(ConfigError, match="DATABASE_URL"):
        load_documents(dataclasses.replace(settings, environ={}))
