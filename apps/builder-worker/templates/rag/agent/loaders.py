"""Loaders: turn the configured source into Documents, then into Chunks.

Each source of agent.json (sources.py) is a file shipped in data/ (pdf, csv, excel,
text_file, docx, markdown, html), a database (postgres, mysql, sqlite, mongo) reached through
its URL variable (DATABASE_URL, ...), or web pages (web.py). The readers here turn one into
Documents; chunking.py splits them.

Each reader imports its library when called, so a project only needs the one it uses.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional

from .chunking import Document
from .config import ConfigError

if TYPE_CHECKING:
    from .config import Settings

SQL_SOURCES = ("postgres", "mysql", "sqlite")


def load_documents(settings: "Settings") -> List[Document]:
    """The documents of agent.json's `source`, the wizard's (sources.py reads every source)."""
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


# ---- prose: Word, Markdown and HTML, one Document per section ----
#
# These follow the rules Agentloom's own readers apply to the same files (a test runs both on
# the same documents), so chunks made here match the ones shipped in data/chunks.jsonl. A
# section is a heading and what follows it up to the next heading; `position` says which
# heading of the document it is (1 for the first), which tells apart two sections with the
# same heading. Text before the first heading is a Document without a section.

# A paragraph styled "Title" is the document's first heading.
DOCX_STYLE_MAP = "p[style-name='Title'] => h1:fresh"
# Mammoth's "↑" links from a footnote back to its reference: navigation, not text.
NOTE_BACKLINK = re.compile(r'<a href="#(?:footnote|endnote)-ref-[^"]*">↑</a>')
# Far more than any real document unpacks to: a zip bomb is refused before it is inflated.
DOCX_MAX_UNPACKED_BYTES = 64 * 1024 * 1024


def read_docx(path: Path, label: str, source: Mapping[str, Any]) -> List[Document]:
    """Mammoth turns the document into HTML (headings from Word's heading styles), read as HTML."""
    import zipfile

    import mammoth

    with zipfile.ZipFile(path) as archive:
        # zipfile never inflates an entry beyond its declared size, so the declared total bounds it.
        if sum(info.file_size for info in archive.infolist()) > DOCX_MAX_UNPACKED_BYTES:
            limit = f"{DOCX_MAX_UNPACKED_BYTES / 1024 / 1024:g} MB"
            raise ConfigError(f"{path.name} unpacks to more than {limit}; split it into smaller files.")
    with path.open("rb") as file:
        result = mammoth.convert_to_html(
            file,
            style_map=DOCX_STYLE_MAP,
            include_embedded_style_map=False,
            external_file_access=False,
            convert_image=mammoth.images.img_element(lambda image: {"src": ""}),
        )
    return _cited(html_sections(_parse_html(NOTE_BACKLINK.sub("", result.value))), label)


def read_markdown(path: Path, label: str, source: Mapping[str, Any]) -> List[Document]:
    text = path.read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")
    return _cited(markdown_sections(text), label)


def read_html(path: Path, label: str, source: Mapping[str, Any]) -> List[Document]:
    return _cited(html_sections(_parse_html(decode_html(path.read_bytes()))), label)


_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16le"), (b"\xfe\xff", "utf-16be"))


def decode_html(data: bytes) -> str:
    """The encoding the byte-order mark or a <meta charset> names, if the bytes decode in it;
    else UTF-8 if they are valid UTF-8; else windows-1252, the web's historical default. Labels
    mean what browsers take them to mean (webencodings, html5lib's own table of them).
    """
    import webencodings
    from bs4.dammit import EncodingDetector

    for bom, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(name, errors="replace")
    declared = webencodings.lookup(EncodingDetector.find_declared_encoding(data, is_html=True) or "")
    for name in (declared.codec_info.name if declared else None, "utf-8"):
        if name:
            try:
                return data.decode(name)
            except UnicodeDecodeError:
                pass
    return data.decode("cp1252", errors="replace")


def _cited(sections: List[Dict[str, Any]], label: str) -> List[Document]:
    return [Document(source=label, **section) for section in sections]


class _SectionWriter:
    """Blocks in reading order, cut into one section per heading (see the note above)."""

    def __init__(self) -> None:
        self.sections: List[Dict[str, Any]] = []
        self.blocks: List[tuple] = []
        self.has_body = False
        self.section: Optional[str] = None
        self.position: Optional[int] = None
        self.headings = 0

    def heading(self, text: str) -> None:
        if not text:
            return
        self._finish_section()
        self.headings += 1
        self.section, self.position = text, self.headings
        self.blocks.append((text, None))

    def block(self, text: str, group: Optional[str] = None) -> None:
        if text:
            self.blocks.append((text, group))
            self.has_body = True

    def finish(self, title: Optional[str] = None) -> List[Dict[str, Any]]:
        self._finish_section()
        if title:
            return [{**section, "title": title} for section in self.sections]
        return self.sections

    def _finish_section(self) -> None:
        if self.has_body:
            text = ""
            for index, (block, group) in enumerate(self.blocks):
                if index:
                    previous = self.blocks[index - 1][1]
                    text += "\n" if previous and previous == group else "\n\n"
                text += block
            section: Dict[str, Any] = {"text": text}
            if self.section is not None:
                section.update(section=self.section, position=self.position)
            self.sections.append(section)
        self.blocks, self.has_body = [], False


_EDGE_WHITESPACE = " \t\n\f\r"
_COLLAPSIBLE = re.compile(r"[ \t\n\f\r\u00a0]+")


def _collapse(text: str) -> str:
    return _COLLAPSIBLE.sub(" ", text).strip(_EDGE_WHITESPACE)


# -- Markdown: markdown-it-py, CommonMark with tables and strikethrough --

_FRONT_MATTER = re.compile(r"^---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)")


def markdown_sections(markdown: str) -> List[Dict[str, Any]]:
    """Headings, paragraphs, list items, table rows and code; raw HTML is left out."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    tokens = parser.parse(_FRONT_MATTER.sub("", markdown, count=1))
    writer = _SectionWriter()
    lists: List[List[Any]] = []  # [ordered, next number]
    state: Dict[str, Any] = {"marker": None, "items": 0, "cells": None}

    def emit(text: str, group: Optional[str] = None) -> None:
        if not text:
            return
        if state["marker"] is not None:
            text, state["marker"] = state["marker"] + text, None
        writer.block(text, group or ("item" if state["items"] > 0 else None))

    index = 0
    while index < len(tokens):
        token = tokens[index]
        kind = token.type
        if kind == "heading_open":
            inline = tokens[index + 1] if index + 1 < len(tokens) else None
            writer.heading(_md_inline(inline.children if inline else None).strip(_EDGE_WHITESPACE))
            index += 2
        elif kind == "inline":
            text = _md_inline(token.children).strip(_EDGE_WHITESPACE)
            if state["cells"] is not None:
                state["cells"].append(text)
            else:
                emit(text)
        elif kind in ("fence", "code_block"):
            emit(token.content.strip(_EDGE_WHITESPACE))
        elif kind in ("bullet_list_open", "ordered_list_open"):
            lists.append([kind == "ordered_list_open", int(token.attrGet("start") or 1)])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open":
            current = lists[-1] if lists else None
            if current and current[0]:
                state["marker"] = f"{current[1]}. "
                current[1] += 1
            else:
                state["marker"] = "- "
            state["items"] += 1
        elif kind == "list_item_close":
            state["marker"] = None
            state["items"] -= 1
        elif kind == "tr_open":
            state["cells"] = []
        elif kind == "tr_close":
            cells = state["cells"] or []
            if any(cells):
                emit(" | ".join(cells).strip(_EDGE_WHITESPACE), "row")
            state["cells"] = None
        index += 1
    return writer.finish()


def _md_inline(tokens: Optional[List[Any]]) -> str:
    text = ""
    for token in tokens or []:
        if token.type in ("text", "text_special", "code_inline"):
            text += token.content
        elif token.type == "softbreak":
            text += " "
        elif token.type == "hardbreak":
            text += "\n"
        elif token.type == "image":
            text += _md_inline(token.children)
    return text


# -- HTML: the main content by the page's own landmarks --
#
# The first <main> (or role="main"), else the page's only <article>, else <body>. Navigation,
# asides, the page's own header and footer (those outside any article, section, main, nav or
# aside), scripts, styles, form controls, media and hidden elements are left out. html5lib
# builds the tree a browser would, by the HTML standard's own parsing rules.

_HTML_NAMESPACE = "http://www.w3.org/1999/xhtml"
_DROPPED = frozenset(
    "head script style noscript template svg math iframe frame frameset object embed canvas "
    "video audio picture img map button input select textarea datalist nav aside dialog".split()
)
_DROPPED_ROLES = frozenset("navigation banner contentinfo complementary search".split())
_SECTIONING = frozenset("article aside main nav section".split())
_BLOCKS = frozenset(
    "address article blockquote caption dd details div dl dt fieldset figcaption figure footer "
    "form header hgroup hr legend main ol p section summary table tbody tfoot thead ul".split()
)
_HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
_LIST_START = re.compile(r"^[ \t\n\f\r]*(-?\d+)")


def _parse_html(text: str) -> Any:
    from bs4 import BeautifulSoup

    return BeautifulSoup(text, "html5lib")


def html_sections(document: Any) -> List[Dict[str, Any]]:
    """The sections of a parsed page (a BeautifulSoup tree), each with the page's title."""
    title = _html_title(document)
    root = _content_root(document)
    writer = _SectionWriter()
    if root is not None:
        _HtmlWalker(writer).walk(root, _inside_sectioning(root))
    return writer.finish(title)


def _is_text(node: Any) -> bool:
    from bs4 import NavigableString
    from bs4.element import PreformattedString

    return isinstance(node, NavigableString) and not isinstance(node, PreformattedString)


def _is_element(node: Any) -> bool:
    from bs4 import Tag

    return isinstance(node, Tag)


def _attr(element: Any, name: str) -> Optional[str]:
    value = element.attrs.get(name)
    if isinstance(value, list):
        return " ".join(value)
    return value


def _roles(element: Any) -> List[str]:
    return re.split(r"[ \t\n\f\r]+", (_attr(element, "role") or "").lower())


def _dropped(element: Any, sectioned: bool) -> bool:
    name = element.name
    if name in _DROPPED or _attr(element, "hidden") is not None:
        return True
    if (_attr(element, "aria-hidden") or "").lower() == "true":
        return True
    if any(role in _DROPPED_ROLES for role in _roles(element)):
        return True
    return name in ("header", "footer") and not sectioned


def _visible_elements(node: Any, sectioned: bool = False):
    for child in node.contents:
        if not _is_element(child) or _dropped(child, sectioned):
            continue
        yield child
        yield from _visible_elements(child, sectioned or child.name in _SECTIONING)


def _content_root(document: Any) -> Any:
    body = None
    articles = []
    for element in _visible_elements(document):
        if element.name == "main" or "main" in _roles(element):
            return element
        if element.name == "article":
            articles.append(element)
        if element.name == "body" and body is None:
            body = element
    return articles[0] if len(articles) == 1 else body


def _inside_sectioning(element: Any) -> bool:
    node = element
    while node is not None and _is_element(node) and node.name != "[document]":
        if node.name in _SECTIONING:
            return True
        node = node.parent
    return False


def _html_title(document: Any) -> Optional[str]:
    for element in document.find_all("title"):
        if element.namespace == _HTML_NAMESPACE:
            return _collapse(_raw_text(element)) or None
    return None


def _raw_text(node: Any) -> str:
    return "".join(
        str(child) if _is_text(child) else _raw_text(child) if _is_element(child) else ""
        for child in node.contents
    )


class _HtmlWalker:
    def __init__(self, writer: _SectionWriter) -> None:
        self.writer = writer
        self.lines: List[List[str]] = [[]]
        self.marker: Optional[str] = None
        self.list_depth = 0

    def walk(self, root: Any, sectioned: bool) -> None:
        self._children(root, sectioned or root.name in _SECTIONING)
        self._flush()

    def _children(self, node: Any, sectioned: bool) -> None:
        for child in node.contents:
            self._node(child, sectioned)

    def _node(self, node: Any, sectioned: bool) -> None:
        if _is_text(node):
            self.lines[-1].append(str(node))
            return
        if not _is_element(node) or _dropped(node, sectioned):
            return
        name = node.name
        inner = sectioned or name in _SECTIONING
        if name in _HEADINGS:
            self._flush()
            self.writer.heading(_inline_text(node, inner))
        elif name == "br":
            self.lines.append([])
        elif name == "pre":
            self._flush()
            self._emit(_pre_text(node, inner).strip(_EDGE_WHITESPACE))
        elif name == "li":
            self._flush()
            self.marker = _list_marker(node)
            self.list_depth += 1
            self._children(node, inner)
            self._flush()
            self.list_depth -= 1
            self.marker = None
        elif name == "tr":
            self._flush()
            cells = [
                _inline_text(cell, inner)
                for cell in node.contents
                if _is_element(cell) and cell.name in ("td", "th") and not _dropped(cell, inner)
            ]
            if any(cells):
                self._emit(" | ".join(cells).strip(_EDGE_WHITESPACE), "row")
        elif name in _BLOCKS:
            self._flush()
            self._children(node, inner)
            self._flush()
        else:
            self._children(node, inner)

    def _flush(self) -> None:
        lines = [_collapse("".join(pieces)) for pieces in self.lines]
        self.lines = [[]]
        self._emit("\n".join(line for line in lines if line))

    def _emit(self, text: str, group: Optional[str] = None) -> None:
        if not text:
            return
        if self.marker is not None:
            text, self.marker = self.marker + text, None
        self.writer.block(text, group or ("item" if self.list_depth > 0 else None))


def _list_marker(item: Any) -> str:
    parent = item.parent
    if parent is None or parent.name != "ol":
        return "- "
    start = _LIST_START.match(_attr(parent, "start") or "")
    number = int(start.group(1)) if start else 1
    for sibling in parent.contents:
        if sibling is item:
            break
        if _is_element(sibling) and sibling.name == "li":
            number += 1
    return f"{number}. "


def _inline_text(element: Any, sectioned: bool) -> str:
    pieces: List[str] = []

    def visit(node: Any, inner: bool) -> None:
        for child in node.contents:
            if _is_text(child):
                pieces.append(str(child))
            elif _is_element(child) and not _dropped(child, inner):
                spaced = child.name == "br" or not _is_inline(child.name)
                if spaced:
                    pieces.append(" ")
                visit(child, inner or child.name in _SECTIONING)
                if spaced:
                    pieces.append(" ")

    visit(element, sectioned or element.name in _SECTIONING)
    return _collapse("".join(pieces))


def _is_inline(name: str) -> bool:
    return (
        name not in _BLOCKS and name not in _HEADINGS and name not in ("li", "tr", "td", "th", "pre")
    )


def _pre_text(element: Any, sectioned: bool) -> str:
    text = ""
    for child in element.contents:
        if _is_text(child):
            text += str(child)
        elif _is_element(child) and not _dropped(child, sectioned):
            if child.name == "br":
                text += "\n"
            else:
                text += _pre_text(child, sectioned or child.name in _SECTIONING)
    return text


FILE_READERS: Dict[str, Callable[[Path, str, Mapping[str, Any]], List[Document]]] = {
    "pdf": read_pdf,
    "text_file": read_text,
    "csv": read_csv,
    "excel": read_excel,
    "docx": read_docx,
    "markdown": read_markdown,
    "html": read_html,
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
