"""A deterministic stand-in for the embedding model."""

from __future__ import annotations

import re
import zlib
from typing import List, Sequence


class FakeEmbedder:
    """Bag-of-words vectors: texts sharing words are near each other. No model, no network."""

    dimensions = 256

    def _vector(self, text: str) -> List[float]:
        vector = [0.0] * self.dimensions
        for word in re.findall(r"\w+", text.lower()):
            vector[zlib.crc32(word.encode("utf-8")) % self.dimensions] += 1.0
        return vector

    def embed_documents(self, texts: Sequence[str]) -> List[List[float]]:
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> List[float]:
        return self._vector(text)
