"""Loaders: turn the configured source into Documents, then into Chunks.

agent.json's `source` section says what to read: a file shipped in data/ (pdf, csv, excel,
text_file) or a database (postgres, mysql, sqlite, mongo) reached through DATABASE_URL.
When data/chunks.jsonl exists (Agentloom writes it at build time) those chunks are indexed
as they are, and the source is only read when you ask for it (`python -m agent index
--rebuild --from-source`).

Each reader imports its library when called, so a project only needs the one it uses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional

from .chunking import Chunk, Document, chunk_documents, read_chunks_jsonl
from .config import ConfigError

if TYPE_CHECKING:
    from .config import Settings

SQL_SOURCES = ("postgres", "mysql", "sqlite")


def load_chunks(settings: "Settings", from_source: bool = False) -> List[Chunk]:
    """The chunks to index: the shipped chunks.jsonl, else the source, read and split."""
    chunks_file = settings.source.get("chunks_file")
    if chunks_file and not from_source:
        path = settings.path(chunks_file)
        if path.is_file():
            return read_chunks_jsonl(path)
    rag = settings.section("rag")
    return chunk_documents(load_documents(settings), rag["chunk_size"], rag["chunk_overlap"])


def load_documents(settings: "Settings") -> List[Document]:
    source = settings.source
    kind = source["type"]
    label = source_label(source)
    if kind in FILE_READERS:
        path = settings.path(source["file"])
        if not path.is_file():
            raise ConfigError(f"The source file {source['file']} is missing.")
        return FILE_READERS[kind](path, label, source)
    limit = int(settings.section("rag").get("max_source_rows", 10_000))
    if kind in SQL_SOURCES:
        return load_sql_table(settings.database_url, source["table"], limit, label)
    if kind == "mongo":
        return load_mongo(settings.database_url, source["database"], source["table"], limit, label)
    raise ConfigError(f"Unknown source type {kind!r} in agent.json.")


def source_label(source: Mapping[str, Any]) -> str:
    """How citations name the source: the uploaded file's name, or the table/collection."""
    return str(source.get("original_name") or source.get("table") or source.get("file") or "source")


# ---- files ----


def read_pdf(path: Path, label: str, source: Mapping[str, Any]) -> List[Document]:
    from pypdf import PdfReader

    documents = []
    for number, page in enumerate(PdfReader(str(path)).pages, start=1):
        text = page.extract_text() or ""
        if text.strip():
            documents.append(Document(text=text, source=label, page=number))
    return documents


def read_text(path: Path, label: str, source: Mapping[str, Any]) -> List[Document]:
    text = path.read_bytes().decode("utf-8", errors="replace").lstrip("\ufeff")
    return [Document(text=text, source=label)] if text.strip() else []


def read_csv(path: Path, label: str, source: Mapping[str, Any]) -> List[Document]:
    import pandas as pd

    frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding_errors="replace")
    return rows_to_documents(frame.to_dict("records"), label)


def read_excel(path: Path, label: str, source: Mapping[str, Any]) -> List[Document]:
    import pandas as pd

    sheet = source.get("sheet") or 0
    frame = pd.read_excel(path, sheet_name=sheet, dtype=str, engine="openpyxl").fillna("")
    return rows_to_documents(frame.to_dict("records"), label)


FILE_READERS: Dict[str, Callable[[Path, str, Mapping[str, Any]], List[Document]]] = {
    "pdf": read_pdf,
    "text_file": read_text,
    "csv": read_csv,
    "excel": read_excel,
}


def rows_to_documents(rows: Iterable[Mapping[str, Any]], label: str) -> List[Document]:
    """One Document per row; rows are numbered from 1, the header row not counted."""
    documents = []
    for number, row in enumerate(rows, start=1):
        text = record_text(row)
        if text:
            documents.append(Document(text=text, source=label, row=number))
    return documents


def record_text(record: Mapping[str, Any]) -> str:
    """'column: value' lines, skipping empty values; nested values as JSON."""
    lines = []
    for key, value in record.items():
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        if isinstance(value, (dict, list)):
            value = json.dumps(value, ensure_ascii=False, default=str)
        lines.append(f"{key}: {value}")
    return "\n".join(lines)


# ---- databases ----


def load_sql_table(url: str, table_name: str, limit: int, label: str) -> List[Document]:
    """Read up to `limit` rows of one table through a read-only SQLAlchemy connection."""
    import sqlalchemy as sa

    from .db import connection_to, create_readonly_engine, reflect_table

    engine = create_readonly_engine(url)
    try:
        with connection_to(engine) as connection:
            table = reflect_table(connection, table_name)
            keys = [column.name for column in table.primary_key.columns]
            result = connection.execute(sa.select(table).limit(limit))
            columns = list(result.keys())
            documents = []
            for number, row in enumerate(result, start=1):
                values = dict(zip(columns, row))
                ref = ", ".join(f"{key}={values[key]}" for key in keys) or None
                text = record_text(values)
                if text:
                    documents.append(Document(text=text, source=label, row=number, ref=ref))
            return documents
    finally:
        engine.dispose()


def load_mongo(url: str, database: str, collection: str, limit: int, label: str) -> List[Document]:
    from pymongo import MongoClient

    client = MongoClient(url, serverSelectionTimeoutMS=10_000)
    try:
        return mongo_documents(client[database][collection].find({}, limit=limit), label)
    finally:
        client.close()


def mongo_documents(records: Iterable[Mapping[str, Any]], label: str) -> List[Document]:
    documents = []
    for number, record in enumerate(records, start=1):
        fields = dict(record)
        key: Optional[Any] = fields.pop("_id", None)
        text = record_text(fields)
        if text:
            ref = f"_id={key}" if key is not None else None
            documents.append(Document(text=text, source=label, row=number, ref=ref))
    return documents
