"""Search by words (BM25) beside the vector store's search by meaning, and the rules that say
whether a passage answers the question well enough to answer from.

agent.json's `rag.search` picks the search: `meaning` (the vector store), `words` (the
passages' words, BM25) or `both` (the two lists fused by reciprocal rank). The same rules as
Agentloom's hosted agents: letters and digits in any script, lower-cased, are the words.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from .chunking import Chunk
from .stores import Hit
from .words import content_words, tokenize

# Reciprocal rank fusion: each list adds 1 / (RRF_K + rank) to a passage it found.
RRF_K = 60
# BM25's usual constants: how fast a repeated word stops counting, and how much length weighs.
BM25_K1 = 1.2
BM25_B = 0.75


class WordIndex:
    """BM25 over the passages' words, in memory."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.chunks = list(chunks)
        self.terms = [Counter(tokenize(chunk.text)) for chunk in self.chunks]
        self.lengths = [sum(terms.values()) for terms in self.terms]
        self.average = (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0
        self.frequency: Counter = Counter()
        for terms in self.terms:
            self.frequency.update(terms.keys())

    def search(self, question: str, k: int) -> List[Hit]:
        words = set(tokenize(question))
        if k <= 0 or not words or not self.chunks:
            return []
        count = len(self.chunks)
        scores: Dict[int, float] = {}
        for word in words:
            having = self.frequency.get(word, 0)
            if not having:
                continue
            idf = math.log(1 + (count - having + 0.5) / (having + 0.5))
            for row, terms in enumerate(self.terms):
                times = terms.get(word, 0)
                if times:
                    norm = 1 - BM25_B + BM25_B * self.lengths[row] / (self.average or 1)
                    scores[row] = scores.get(row, 0.0) + idf * times * (BM25_K1 + 1) / (
                        times + BM25_K1 * norm
                    )
        best = sorted(scores, key=lambda row: (-scores[row], row))[:k]
        return [
            Hit(chunk=self.chunks[row], score=scores[row], found="words", word_score=scores[row])
            for row in best
        ]


def load_passages(path: Path) -> List[Chunk]:
    """The passages `python -m agent index` saved for searching by words (none before it ran)."""
    if not path.is_file():
        return []
    with path.open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines if line.strip()]
    return [Chunk.from_metadata(r.pop("id"), r.pop("text"), r) for r in records]


def save_passages(path: Path, chunks: Sequence[Chunk]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", encoding="utf-8") as out:
        for chunk in chunks:
            out.write(json.dumps({"id": chunk.id, "text": chunk.text, **chunk.metadata()}))
            out.write("\n")
    temporary.replace(path)


def fused(by_meaning: Sequence[Hit], by_words: Sequence[Hit], k: int) -> List[Hit]:
    """Both lists fused by reciprocal rank; a hit keeps its similarity and its word score."""
    merged: Dict[str, Hit] = {}
    totals: Dict[str, float] = {}
    for hits in (by_meaning, by_words):
        for rank, hit in enumerate(hits):
            key = hit.chunk.id
            totals[key] = totals.get(key, 0.0) + 1 / (RRF_K + rank + 1)
            known = merged.get(key)
            if known is None:
                merged[key] = hit
            else:
                merged[key] = replace(
                    known,
                    found="both",
                    similarity=known.similarity if known.similarity is not None else hit.similarity,
                    word_score=known.word_score if known.word_score is not None else hit.word_score,
                )
    order = sorted(merged, key=lambda key: -totals[key])[:k]
    return [replace(merged[key], score=totals[key]) for key in order]


def distinctive_terms(question: str) -> List[str]:
    """Names, codes and numbers: words with a digit, or capitalised after the first word."""
    words = re.findall(r"[^\W_][\w-]*", question)
    return [
        word.lower()
        for index, word in enumerate(words)
        if any(c.isdigit() for c in word) or (index > 0 and len(word) >= 3 and word[0].isupper())
    ]


def is_relevant(hit: Hit, question: str, threshold: Optional[float]) -> bool:
    """Whether a passage answers the question well enough to be answered from: its similarity
    reaches the model's threshold; or it holds a name, code or number the question names; or,
    found by words alone, it holds two of the question's content words (or its only one). A
    similarity that cannot be judged (a metric other than cosine) counts as relevant."""
    if hit.similarity is not None and threshold is not None and hit.similarity >= threshold:
        return True
    if hit.found in ("meaning", "both") and threshold is None:
        return True
    text = hit.chunk.text.lower()
    if any(term in text for term in distinctive_terms(question)):
        return True
    if hit.similarity is not None:
        return False
    words = content_words(question)
    held = sum(1 for word in words if word in text)
    return bool(words) and held >= min(2, len(words))
