"""Documents, chunks and the text splitter.

A Document is a unit the source gives us (a PDF page, a CSV row, a database row, a whole text
file, a section of a Word, Markdown or HTML document); a Chunk is a piece of one small enough to embed, carrying what is needed to cite it.
The splitter is deliberately simple and deterministic: the Agentloom preview uses the same
rules, so both index a source into the same chunks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

# Only ASCII whitespace counts, so that every implementation of these rules agrees.
WHITESPACE = " \t\n\r\f\v"
# Preferred places to end a chunk, best first.
SEPARATORS = ("\n\n", "\n", ". ", " ")


@dataclass(frozen=True)
class Document:
    text: str
    source: str
    page: Optional[int] = None
    row: Optional[int] = None
    ref: Optional[str] = None  # a database row's key, e.g. "id=42"
    # Word, Markdown and HTML documents: the heading the text falls under, which heading of the
    # document that is (1 for the first), and an HTML page's <title>.
    section: Optional[str] = None
    position: Optional[int] = None
    title: Optional[str] = None
    # Web pages: the page's address.
    url: Optional[str] = None


@dataclass(frozen=True)
class Chunk:
    id: str
    text: str
    source: str
    page: Optional[int] = None
    row: Optional[int] = None
    ref: Optional[str] = None
    section: Optional[str] = None
    position: Optional[int] = None
    title: Optional[str] = None
    url: Optional[str] = None

    def citation(self) -> str:
        """Where the chunk comes from, as shown under an answer."""
        if self.ref:
            return f"{self.source} ({self.ref})"
        if self.page is not None:
            return f"{self.source}, page {self.page}"
        if self.row is not None:
            return f"{self.source}, row {self.row}"
        if self.section:
            return f"{self.source} › {self.section}"
        return self.source

    def metadata(self) -> Dict[str, Any]:
        """Everything but id and text, without empty fields (vector stores refuse nulls)."""
        fields = {
            "source": self.source,
            "page": self.page,
            "row": self.row,
            "ref": self.ref,
            "section": self.section,
            "position": self.position,
            "title": self.title,
            "url": self.url,
        }
        return {key: value for key, value in fields.items() if value is not None}

    @classmethod
    def from_metadata(cls, id: str, text: str, metadata: Dict[str, Any]) -> "Chunk":
        def optional_int(key: str) -> Optional[int]:
            value = metadata.get(key)
            return int(value) if value is not None else None

        return cls(
            id=str(id),
            text=text,
            source=str(metadata.get("source", "")),
            page=optional_int("page"),
            row=optional_int("row"),
            ref=metadata.get("ref"),
            section=metadata.get("section"),
            position=optional_int("position"),
            title=metadata.get("title"),
            url=metadata.get("url"),
        )


def chunk_text(text: str, size: int, overlap: int) -> List[str]:
    """Split text into pieces of at most `size` characters, consecutive pieces sharing up to
    `overlap` characters. A piece ends at a paragraph, line, sentence or word boundary when
    one falls in its second half, else exactly at `size`.
    """
    if size <= 0:
        raise ValueError("size must be positive")
    if not 0 <= overlap < size:
        raise ValueError("overlap must be at least 0 and smaller than size")

    text = text.strip(WHITESPACE)
    pieces: List[str] = []
    start, length = 0, len(text)
    while start < length:
        end = min(start + size, length)
        if end < length:
            end = _break_point(text, start + size // 2, end)
        piece = text[start:end].strip(WHITESPACE)
        if piece:
            pieces.append(piece)
        if end >= length:
            break
        next_start = max(end - overlap, start + 1)
        # Start the overlap on a word boundary when there is one before `end`.
        space = text.find(" ", next_start, end)
        if overlap and space != -1:
            next_start = space + 1
        start = next_start
        while start < length and text[start] in WHITESPACE:
            start += 1
    return pieces


def _break_point(text: str, floor: int, end: int) -> int:
    for separator in SEPARATORS:
        at = text.rfind(separator, floor, end)
        if at != -1:
            return at + len(separator)
    return end


def chunk_documents(documents: Iterable[Document], size: int, overlap: int) -> List[Chunk]:
    chunks: List[Chunk] = []
    for document in documents:
        for piece in chunk_text(document.text, size, overlap):
            chunks.append(
                Chunk(
                    id=f"chunk-{len(chunks):06d}",
                    text=piece,
                    source=document.source,
                    page=document.page,
                    row=document.row,
                    ref=document.ref,
                    section=document.section,
                    position=document.position,
                    title=document.title,
                    url=document.url,
                )
            )
    return chunks


def read_chunks_jsonl(path: Path) -> List[Chunk]:
    """Read chunks saved one JSON object per line ({"id", "text", "source", "page"?, "row"?})."""
    chunks: List[Chunk] = []
    # Iterating a text file splits on "\n" only; str.splitlines() would also split inside a
    # value on characters such as U+2028, which JSON leaves unescaped.
    with path.open(encoding="utf-8", newline="") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip(WHITESPACE):
                continue
            try:
                record = json.loads(line)
                chunks.append(Chunk.from_metadata(record["id"], record["text"], record))
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path.name}, line {number}: not a chunk ({error})") from None
    return chunks
