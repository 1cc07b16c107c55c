"""The agent's knowledge sources (agent.json's `sources`), each read into its passages.

A source is one of:

- a file under data/ (`"kind": "file"`, with its `type`: pdf, csv, excel, text_file, docx,
  markdown or html). Agentloom ships its passages in data/chunks.jsonl; they are used as long
  as the file is the version shipped (its `sha256`), else the file itself is read.
- a database table (`"kind": "table"`: postgres, mysql, sqlite or mongo), whose connection URL
  is read from the environment variable `url_env` (DATABASE_URL, DATABASE_URL_2, ...). It is
  read at every index, so its rows are always current (unless data/chunks.jsonl holds its rows).
- web pages (`"kind": "web"`), from `url`: the shipped passages, or the pages fetched again
  with `python -m agent index --from-source`.

`--from-source` reads every source itself, ignoring data/chunks.jsonl.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Tuple

from .chunking import Chunk, Document, chunk_documents, read_chunks_jsonl
from .config import ConfigError
from .loaders import FILE_READERS, SQL_SOURCES, load_mongo, load_sql_table

if TYPE_CHECKING:
    from .config import Settings

KINDS = ("file", "table", "web")


def manifest_sources(settings: "Settings") -> List[Mapping[str, Any]]:
    """agent.json's `sources`; a project made before it had them reads its one `source`."""
    sources = settings.manifest.get("sources")
    if sources is None:
        source = settings.source
        kind = "file" if source.get("file") else "table"
        name = source.get("original_name") or source.get("table") or source.get("file")
        sources = [{**source, "key": "source", "kind": kind, "name": name or "source"}]
    if not isinstance(sources, list):
        raise ConfigError("agent.json: 'sources' must be a list.")
    keys = set()
    for source in sources:
        if not isinstance(source, Mapping) or source.get("kind") not in KINDS:
            raise ConfigError(f"agent.json: each source needs a kind ({', '.join(KINDS)}).")
        key = source.get("key")
        if not isinstance(key, str) or not key or key in keys:
            raise ConfigError(f"agent.json: each source needs its own key (found {key!r}).")
        keys.add(key)
    return sources


def load_chunks(settings: "Settings", from_source: bool = False) -> List[Chunk]:
    """Every source's passages: shipped in chunks.jsonl, else read and split."""
    return [chunk for _, chunks in source_chunks(settings, from_source) for chunk in chunks]


def source_chunks(
    settings: "Settings", from_source: bool = False
) -> List[Tuple[str, List[Chunk]]]:
    """Every source's key with its passages, in agent.json's order."""
    sources = manifest_sources(settings)
    shipped = {} if from_source else shipped_chunks(settings, sources[0]["key"] if sources else "")
    rag = settings.section("rag")
    result = []
    for source in sources:
        key = source["key"]
        if key in shipped and _shipped_is_current(settings, source):
            result.append((key, shipped[key]))
            continue
        documents = read_documents(settings, source)
        result.append((key, chunk_documents(documents, rag["chunk_size"], rag["chunk_overlap"])))
    return result


def shipped_chunks(settings: "Settings", first_key: str) -> Dict[str, List[Chunk]]:
    """data/chunks.jsonl's passages by source key (lines without one are the first source's)."""
    chunks_file = settings.source.get("chunks_file")
    if not chunks_file:
        return {}
    path = settings.path(chunks_file)
    if not path.is_file():
        return {}
    keys = _line_keys(path)
    by_key: Dict[str, List[Chunk]] = {}
    for chunk, key in zip(read_chunks_jsonl(path), keys):
        by_key.setdefault(key or first_key, []).append(chunk)
    return by_key


def _line_keys(path: Path) -> List[str]:
    import json

    with path.open(encoding="utf-8", newline="") as lines:
        return [str(json.loads(line).get("source_key") or "") for line in lines if line.strip()]


def _shipped_is_current(settings: "Settings", source: Mapping[str, Any]) -> bool:
    """A file's shipped passages serve while the file is the version shipped. (Agentloom ships
    none for tables: they are read at every index.)"""
    if source["kind"] != "file" or not source.get("sha256"):
        return True
    path = settings.path(source["file"])
    return path.is_file() and file_sha256(path) == source["sha256"]


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_documents(settings: "Settings", source: Mapping[str, Any]) -> List[Document]:
    """Read one source itself."""
    kind, name = source["kind"], str(source.get("name") or source["key"])
    limit = int(settings.section("rag").get("max_source_rows", 10_000))
    if kind == "file":
        reader = FILE_READERS.get(source.get("type", ""))
        if reader is None:
            raise ConfigError(f"agent.json: {name} is of an unknown file type {source.get('type')!r}.")
        path = settings.path(source["file"])
        if not path.is_file():
            raise ConfigError(
                f"The source file {source['file']} is missing: put it back, or remove its entry "
                "from agent.json's sources."
            )
        return reader(path, name, source)
    if kind == "table":
        env = source.get("url_env") or "DATABASE_URL"
        url = settings.require_env(env, f"the connection URL of the {source['type']} source {name}")
        if source["type"] in SQL_SOURCES:
            return load_sql_table(url, source["table"], limit, name)
        if source["type"] == "mongo":
            return load_mongo(url, source["database"], source["table"], limit, name)
        raise ConfigError(f"agent.json: {name} is of an unknown database type {source['type']!r}.")
    from .web import read_web

    return read_web(source["url"], int(source.get("max_pages") or 1), bool(source.get("sitemap")))
