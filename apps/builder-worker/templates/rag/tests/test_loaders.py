"""The configured source loads into cited documents, and shipped chunks are used as they are."""

import dataclasses
import sqlite3
import zipfile

import pytest

from agent.chunking import chunk_documents, read_chunks_jsonl
from agent.loaders import (
    FILE_READERS,
    SQL_SOURCES,
    decode_html,
    load_documents,
    load_sql_table,
    markdown_sections,
    mongo_documents,
    read_docx,
    read_html,
    record_text,
    rows_to_documents,
    source_label,
)
from agent.sources import load_chunks


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

    from agent.sources import manifest_sources, shipped_chunks, source_chunks

    shipped = shipped_chunks(settings, manifest_sources(settings)[0]["key"])
    lines = read_chunks_jsonl(settings.path(chunks_file))
    assert [chunk for chunks in shipped.values() for chunk in chunks] == lines
    # Each source with shipped passages is indexed from them; the others (which may need a
    # database or the network) are left out here.
    listed = [source for source in manifest_sources(settings) if source["key"] in shipped]
    only_shipped = dataclasses.replace(settings, manifest={**settings.manifest, "sources": listed})
    assert dict(source_chunks(only_shipped)) == shipped


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


# ---- Word, Markdown and HTML: one document per section, cited by heading ----
# Each reader's library is installed only in projects with a source of its kind.

GUIDE_MD = """---
title: front matter is not text
---
Intro before any heading,
over two lines.

# Install

Run `setup` &amp; wait.

- one
- two
  - nested

<div>raw HTML is left out</div>

## Empty

## Use

| Plan | Price |
|------|------:|
| Pro  | €20   |
"""


def test_markdown_is_cut_at_its_headings():
    pytest.importorskip("markdown_it")

    assert markdown_sections(GUIDE_MD) == [
        {"text": "Intro before any heading, over two lines."},
        {"text": "Install\n\nRun setup & wait.\n\n- one\n- two\n- nested", "section": "Install", "position": 1},
        # "Empty" (2) has nothing under it: no passage, but it keeps its number.
        {"text": "Use\n\nPlan | Price\nPro | €20", "section": "Use", "position": 3},
    ]


PAGE = """<!doctype html><html><head><meta charset="windows-1252"><title>Caf\xe9 menu</title>
<script>var x = "never text";</script></head><body>
<header><nav><a href="/">Home</a></nav></header>
<main><h1>Drinks</h1><p>Espresso \x80 2,50<br>Tea</p>
<ol start="3"><li>Milk</li><li>Sugar</li></ol><aside>Related</aside>
<h2>Food</h2><table><tr><th>Dish</th><td>Toast</td></tr></table><pre>  as
  written</pre></main>
<footer>Contact</footer></body></html>"""


def test_html_keeps_the_main_content_cut_at_its_headings(tmp_path):
    pytest.importorskip("bs4")
    pytest.importorskip("html5lib")
    path = tmp_path / "menu.html"
    path.write_bytes(PAGE.encode("latin-1"))

    documents = read_html(path, "menu.html", {})

    assert [(d.section, d.position, d.title, d.text) for d in documents] == [
        ("Drinks", 1, "Café menu", "Drinks\n\nEspresso € 2,50\nTea\n\n3. Milk\n4. Sugar"),
        ("Food", 2, "Café menu", "Food\n\nDish | Toast\n\nas\n  written"),
    ]
    assert {d.source for d in documents} == {"menu.html"}


def test_html_text_is_decoded_as_browsers_decode_it():
    pytest.importorskip("bs4")
    pytest.importorskip("html5lib")

    assert decode_html("<p>é</p>".encode("utf-8")) == "<p>é</p>"
    assert decode_html(b"<p>caf\xe9</p>") == "<p>café</p>"  # not UTF-8: windows-1252
    assert decode_html(b'<meta charset="iso-8859-1"><p>\x80</p>').endswith("<p>€</p>")


def _docx(path, body_xml):
    """A Word document as Word lays one out: content types, relationships, styles, the body."""
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    rels = "http://schemas.openxmlformats.org/package/2006/relationships"
    office = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "[Content_Types].xml",
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/></Types>',
        )
        archive.writestr(
            "_rels/.rels",
            f'<Relationships xmlns="{rels}"><Relationship Id="r1" Type="{office}/officeDocument" '
            'Target="word/document.xml"/></Relationships>',
        )
        archive.writestr(
            "word/_rels/document.xml.rels",
            f'<Relationships xmlns="{rels}"><Relationship Id="r1" Type="{office}/styles" '
            'Target="styles.xml"/></Relationships>',
        )
        archive.writestr(
            "word/styles.xml",
            f'<w:styles xmlns:w="{w}"><w:style w:type="paragraph" w:styleId="Heading1">'
            '<w:name w:val="heading 1"/></w:style></w:styles>',
        )
        archive.writestr("word/document.xml", f'<w:document xmlns:w="{w}"><w:body>{body_xml}</w:body></w:document>')


def _paragraph(text, style=None):
    properties = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{properties}<w:r><w:t>{text}</w:t></w:r></w:p>"


def test_word_documents_are_cut_at_their_heading_styles(tmp_path):
    pytest.importorskip("mammoth")
    pytest.importorskip("bs4")
    path = tmp_path / "handbook.docx"
    _docx(
        path,
        _paragraph("Welcome.")
        + _paragraph("Refunds", "Heading1")
        + _paragraph("Refunds take 5 days.")
        + _paragraph("Returns", "Heading1")
        + _paragraph("Within 30 days."),
    )

    documents = read_docx(path, "handbook.docx", {})

    assert [(d.section, d.position, d.text) for d in documents] == [
        (None, None, "Welcome."),
        ("Refunds", 1, "Refunds\n\nRefunds take 5 days."),
        ("Returns", 2, "Returns\n\nWithin 30 days."),
    ]
    assert [chunk.citation() for chunk in chunk_documents(documents, 800, 100)][1] == (
        "handbook.docx › Refunds"
    )


def test_a_word_document_that_unpacks_too_far_is_refused_unread(tmp_path, monkeypatch):
    pytest.importorskip("mammoth")
    from agent import loaders
    from agent.config import ConfigError

    path = tmp_path / "big.docx"
    _docx(path, _paragraph("x" * 5000))
    monkeypatch.setattr(loaders, "DOCX_MAX_UNPACKED_BYTES", 4096)

    with pytest.raises(ConfigError, match="unpacks to more than"):
        read_docx(path, "big.docx", {})
